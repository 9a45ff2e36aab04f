"""Routing is remembered per path for more paths than Litestar's default (1 024): every
open session has paths of its own, and a worker serves thousands of them."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from service.app import ROUTES_REMEMBERED

LITESTAR_DEFAULT = 1024


def test_the_routes_of_more_sessions_than_litestars_default_stay_remembered(
    client: TestClient[Litestar],
) -> None:
    routing = client.app.asgi_router.handle_routing
    sessions = LITESTAR_DEFAULT + 476
    for number in range(sessions):
        # No token: refused before the conflict is looked up, but routed all the same.
        assert client.get(f"/v1/conflicts/c{number:05d}").status_code == 401
    info = routing.cache_info()  # type: ignore[attr-defined]
    assert info.maxsize == ROUTES_REMEMBERED > LITESTAR_DEFAULT
    assert info.currsize >= sessions
    hits = info.hits
    assert client.get("/v1/conflicts/c00000").status_code == 401  # the first, still there
    assert routing.cache_info().hits == hits + 1  # type: ignore[attr-defined]
