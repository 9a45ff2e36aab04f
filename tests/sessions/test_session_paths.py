"""A session's own path, for every kind: `OPTIONS` names every method the published
document gives it (RFC 9110 §9.3.7), where Litestar's automatic answer names only one."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.support.openapi import default_document
from tests.support.session_kinds import KINDS, Kind

IDS = [f"{kind.ruleset}-{kind.kind}" for kind in KINDS]
DOCUMENT: dict[str, Any] = default_document()


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_options_on_a_session_names_every_published_method(client: TestClient, kind: Kind) -> None:
    session = kind.create(client)
    (template,) = (
        p
        for p in DOCUMENT["paths"]
        if p.startswith(kind.collection + "/{") and p.count("/") == kind.collection.count("/") + 1
    )
    published = {method.upper() for method in DOCUMENT["paths"][template]} | {"OPTIONS"}
    answer = client.options(session.path)
    assert answer.status_code in (200, 204)
    assert {m.strip() for m in answer.headers["allow"].split(",")} == published
