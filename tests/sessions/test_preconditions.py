"""If-Match and If-None-Match as RFC 9110 reads them (§13.1.1, §13.1.2, entity-tags §8.8.3):
`*`, lists, weak tags compared weakly by If-None-Match and never matching If-Match, and a
malformed value a 400 that says an entity-tag is quoted (integrators' review: `*` and a list
holding the current tag answered 412, an unquoted `1` "…at version 1, not 1.")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.http.contract.preconditions import ENTITY_TAGS_PATTERN, entity_tags
from service.kernel.errors import RulesError
from tests.support.openapi import default_document
from tests.support.problems import assert_problem
from tests.support.session_kinds import KINDS, Kind, Session

IDS = [f"{kind.ruleset}-{kind.kind}" for kind in KINDS]


@pytest.mark.parametrize(
    ("value", "tags"),
    [
        ('"xyzzy"', ((False, "xyzzy"),)),  # §13.1.1's examples
        ('"xyzzy", "r2d2xxxx"', ((False, "xyzzy"), (False, "r2d2xxxx"))),
        ('W/"xyzzy", W/"r2d2xxxx"', ((True, "xyzzy"), (True, "r2d2xxxx"))),
        ('"", "a,b"', ((False, ""), (False, "a,b"))),  # empty, and a comma inside quotes
        (' ,"1",, "2" ', ((False, "1"), (False, "2"))),  # empty list elements, §5.6.1
        ("", ()),  # a list of none (`#entity-tag`): names no version
        (" , ", ()),
    ],
)  # fmt: skip
def test_entity_tags_read_as_the_rfc_writes_them(value: str, tags: tuple) -> None:
    assert entity_tags("If-Match", value).tags == tags


@pytest.mark.parametrize("value", ["1", "W/1", '"1', '"1" "2"', '*, "1"', 'w/"1"', "0" * 600])
def test_a_malformed_value_is_refused_saying_tags_are_quoted(value: str) -> None:
    with pytest.raises(RulesError) as refused:
        entity_tags("If-None-Match", value)
    (concern,) = refused.value.concerns
    assert concern.code == "invalid-precondition"
    assert concern.parameter == "If-None-Match"
    assert "quoted" in concern.detail


def _act(client: TestClient, kind: Kind, session: Session, if_match: str) -> int:
    headers = {**session.player, "If-Match": if_match}
    return kind.player_move(client, Session(session.path, session.gm, headers)).status_code  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_if_match_star_and_lists_apply_a_weak_tag_never_does(
    client: TestClient, kind: Kind
) -> None:
    session = kind.create(client)  # type: ignore[arg-type]
    version = client.get(session.path, headers=session.gm).headers["etag"]
    assert _act(client, kind, session, f"W/{version}") == 412  # strong comparison
    assert _act(client, kind, session, f'"99", {version}') in (200, 202)
    now = client.get(session.path, headers=session.gm).headers["etag"]
    assert now != version
    assert _act(client, kind, session, "*") in (200, 202, 409, 403, 422)  # past the 412 check
    refused = kind.player_move(  # type: ignore[arg-type]
        client, Session(session.path, session.gm, {**session.player, "If-Match": "1"})
    )
    problem = assert_problem(refused, 400, "invalid-precondition")
    assert problem["errors"][0]["parameter"] == "If-Match"


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_if_none_match_compares_weakly_and_takes_star_and_lists(
    client: TestClient, kind: Kind
) -> None:
    session = kind.create(client)  # type: ignore[arg-type]
    version = client.get(session.path, headers=session.gm).headers["etag"]

    def status(value: str) -> int:
        return client.get(session.path, headers={**session.gm, "If-None-Match": value}).status_code

    assert status(version) == 304
    assert status(f"W/{version}") == 304
    assert status(f'"0", {version}') == 304
    assert status("*") == 304
    assert status('"0", "99"') == 200
    malformed = client.get(session.path, headers={**session.gm, "If-None-Match": "1"})
    assert_problem(malformed, 400, "invalid-precondition")


@given(st.from_regex(ENTITY_TAGS_PATTERN, fullmatch=True))
def test_every_value_the_published_pattern_allows_is_read(value: str) -> None:
    """The document publishes the headers' grammar as a pattern (fuzzers generate from it):
    whatever it allows, the service reads."""
    entity_tags("If-Match", value)  # raises on what it cannot read


def test_the_document_publishes_the_pattern_on_every_precondition_header() -> None:
    document = default_document()
    found = [
        parameter["schema"]
        for item in document["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for parameter in operation.get("parameters", [])
        if parameter["name"] in ("If-Match", "If-None-Match")
    ]
    assert len(found) >= 10
    assert all(schema["pattern"] == ENTITY_TAGS_PATTERN for schema in found)
