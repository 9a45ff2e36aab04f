"""Routing is remembered per path for more paths than Litestar's default (1 024): every
open session has paths of its own, and a worker serves thousands of them. With
FAST_PATHS=off, Litestar's own routing cache serves, as it comes."""

from __future__ import annotations

import random
from typing import Literal

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import ROUTES_REMEMBERED, create_app
from service.settings import Settings

LITESTAR_DEFAULT = 1024


@pytest.mark.parametrize(
    ("fast_paths", "kept"), [("on", ROUTES_REMEMBERED), ("off", LITESTAR_DEFAULT)]
)
def test_the_routes_of_more_sessions_than_litestars_default_stay_remembered(
    settings: Settings, fast_paths: Literal["on", "off"], kept: int
) -> None:
    app = create_app(msgspec.structs.replace(settings, fast_paths=fast_paths), rng=random.Random(1))
    with TestClient(app) as client:
        routing = client.app.asgi_router.handle_routing
        sessions = LITESTAR_DEFAULT + 476
        for number in range(sessions):
            # No token: refused before the conflict is looked up, but routed all the same.
            assert client.get(f"/v1/conflicts/c{number:05d}").status_code == 401
        info = routing.cache_info()  # type: ignore[attr-defined]
        assert info.maxsize == kept
        assert info.currsize == min(sessions, kept)
        hits = info.hits
        assert client.get("/v1/conflicts/c00000").status_code == 401  # the first
        # Still remembered only when more than Litestar's default are kept.
        assert routing.cache_info().hits == hits + (kept > sessions)  # type: ignore[attr-defined]
