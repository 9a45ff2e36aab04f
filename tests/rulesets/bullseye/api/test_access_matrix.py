"""Who may do what: every route × API key × conflict token, from one table.

The deployment here requires API keys (``API_KEYS``). Keys travel as ``X-API-Key``;
conflict tokens as ``Authorization: Bearer`` — the two credentials side by side.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.bullseye_conflicts import conflict_body

KEY = "key-for-tests-0123456789-abcdefghijklmnop"
KEYS = {"none": None, "wrong": "not-a-key", "valid": KEY}
TOKENS = ("none", "gm", "own", "other_player", "other_conflict")

# route → (method, path template, body, status by token with a valid key).
# {id} is a fresh conflict; "own" is Ana's token, "other_player" Bo's; the player check
# is submitted for Ana (by her, or by the GM for her). Stateless routes ignore conflict
# tokens.
FACES = {"roll": {"faces": [10]}}
ROUTES: dict[str, tuple[str, str, object, dict[str, int]]] = {
    "check": ("POST", "/v1/checks", {"target": 10, "seed": 1}, dict.fromkeys(TOKENS, 200)),
    "batch": ("POST", "/v1/checks/batch", {"checks": [{"target": 1}]}, dict.fromkeys(TOKENS, 200)),
    "conditions": ("GET", "/v1/conditions?maximum=42&current=30", None, dict.fromkeys(TOKENS, 200)),
    "tables": ("GET", "/v1/tables", None, dict.fromkeys(TOKENS, 200)),
    "table": ("GET", "/v1/tables/spread", None, dict.fromkeys(TOKENS, 200)),
    "character": (
        "POST",
        "/v1/characters/validate",
        {"character": {"name": "A"}},
        dict.fromkeys(TOKENS, 200),
    ),
    "party": (
        "POST",
        "/v1/parties/validate",
        {"group_depletable": {"name": "time"}, "members": [{"character": {"name": "A"}}]},
        dict.fromkeys(TOKENS, 200),
    ),
    "create": ("POST", "/v1/conflicts", conflict_body(), dict.fromkeys(TOKENS, 201)),
    "read": (
        "GET",
        "/v1/conflicts/{id}",
        None,
        {"none": 401, "gm": 200, "own": 200, "other_player": 200, "other_conflict": 401},
    ),
    "forecast": (
        "GET",
        "/v1/conflicts/{id}/forecast",
        None,
        {"none": 401, "gm": 200, "own": 200, "other_player": 200, "other_conflict": 401},
    ),
    "round": (
        "POST",
        "/v1/conflicts/{id}/rounds",
        {"gm": FACES, "players": {"ana": FACES, "bo": FACES}},
        {"none": 401, "gm": 200, "own": 403, "other_player": 403, "other_conflict": 401},
    ),
    "player_check": (
        "POST",
        "/v1/conflicts/{id}/rounds/1/checks",
        {"participant": "ana", **FACES},
        {"none": 401, "gm": 202, "own": 202, "other_player": 403, "other_conflict": 401},
    ),
    # Nobody has submitted: whoever may act for Ana reaches the rules' 409 (not-deciding).
    "bullseye": (
        "POST",
        "/v1/conflicts/{id}/rounds/1/bullseyes",
        {"participant": "ana", "spend": True},
        {"none": 401, "gm": 409, "own": 409, "other_player": 403, "other_conflict": 401},
    ),
    "close": (
        "POST",
        "/v1/conflicts/{id}/rounds/1/close",
        None,
        {"none": 401, "gm": 409, "own": 403, "other_player": 403, "other_conflict": 401},
    ),
    "outcome": (
        "POST",
        "/v1/conflicts/{id}/outcome",
        {"target": 5, "checks": {"gm": FACES}},
        {"none": 401, "gm": 409, "own": 403, "other_player": 403, "other_conflict": 401},
    ),
    # Any participant adds its own seed; this conflict is on the table's dice, so every
    # token that opens it reaches the rule that it takes none.
    "client_seed": (
        "POST",
        "/v1/conflicts/{id}/client-seeds",
        {"seed": "s-1"},
        {"none": 401, "gm": 422, "own": 422, "other_player": 422, "other_conflict": 401},
    ),
    "delete": (
        "DELETE",
        "/v1/conflicts/{id}",
        None,
        {"none": 401, "gm": 204, "own": 403, "other_player": 403, "other_conflict": 401},
    ),
    # Authorised event streams stay open; their reading is tested over HTTP elsewhere.
    "events": ("GET", "/v1/conflicts/{id}/events", None, {"none": 401, "other_conflict": 401}),
}
OPEN_PATHS = ("/healthz", "/readyz", "/openapi.json", "/docs", "/problems")


def expected(route: str, key: str, token: str) -> int | None:
    """401 without a valid key on any /v1 route; else the route's table."""
    if key != "valid":
        return 401
    return ROUTES[route][3].get(token)


@pytest.fixture(scope="module")
def keyed(redis_url: str) -> Iterator[TestClient]:
    settings = Settings(
        redis_url=redis_url,
        api_keys=f"another-key-0123456789-abcdefghijklmnop, {KEY}",
        log_level="WARNING",
    )
    with TestClient(create_app(settings, rng=random.Random(3))) as client:
        yield client


def _new_conflict(client: TestClient) -> dict:
    response = client.post("/v1/conflicts", json=conflict_body(), headers={"X-API-Key": KEY})
    assert response.status_code == 201
    return response.json()


CASES = [
    (route, key, token)
    for route, key, token in itertools.product(ROUTES, KEYS, TOKENS)
    if expected(route, key, token) is not None
]


@pytest.mark.parametrize(("route", "key", "token"), CASES)
def test_access(keyed: TestClient, route: str, key: str, token: str) -> None:
    method, template, body, _ = ROUTES[route]
    conflict, other = _new_conflict(keyed), _new_conflict(keyed)
    token_of: dict[str, Callable[[], str | None]] = {
        "none": lambda: None,
        "gm": lambda: conflict["tokens"]["gm"],
        "own": lambda: conflict["tokens"]["players"]["ana"],
        "other_player": lambda: conflict["tokens"]["players"]["bo"],
        "other_conflict": lambda: other["tokens"]["gm"],
    }
    headers = {}
    if (api_key := KEYS[key]) is not None:
        headers["X-API-Key"] = api_key
    if (conflict_token := token_of[token]()) is not None:
        headers["Authorization"] = f"Bearer {conflict_token}"
    response = keyed.request(method, template.format(id=conflict["id"]), json=body, headers=headers)
    assert response.status_code == expected(route, key, token), response.text
    if response.status_code == 401 and key != "valid":
        assert response.json()["type"] == "/problems/api-key-required"


@pytest.mark.parametrize("path", OPEN_PATHS)
def test_operational_routes_need_no_key(keyed: TestClient, path: str) -> None:
    assert keyed.get(path).status_code == 200


def test_the_key_may_be_the_bearer_and_the_token_a_header(keyed: TestClient) -> None:
    conflict = _new_conflict(keyed)
    headers = {"Authorization": f"Bearer {KEY}", "X-Conflict-Token": conflict["tokens"]["gm"]}
    assert keyed.get(f"/v1/conflicts/{conflict['id']}", headers=headers).status_code == 200


def test_keys_on_the_published_document_requires_them(keyed: TestClient) -> None:
    document = keyed.get("/openapi.json").json()
    check = document["paths"]["/v1/checks"]["post"]["security"]
    assert check == [{"apiKey": []}, {"apiKeyBearer": []}]
    read = document["paths"]["/v1/conflicts/{conflict_id}"]["get"]["security"]
    assert {"apiKey": [], "conflictToken": []} in read
    assert {} not in read
