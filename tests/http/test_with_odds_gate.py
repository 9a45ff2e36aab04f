"""A roll that asks for its odds in the same call (``with_odds``) takes them through the
odds gate (service.http.odds.gate), like its twin odds operation: from the worker's pool
when they are above the inline budget, refused with ``odds-too-costly`` above the limit —
once the roll itself is accepted (issue #24, "Odds never stall a worker"). The odds equal
the twin operation's answer whichever path served them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

POOLS = {
    "shooter": {"aim": 3, "ammo": 4},
    "angel": {"aim": 3, "ammo": 4},
    "stats": {"avoid": 3, "armor": 2, "angel": 2, "allies": 2},
}
INITIATOR = {"base": {"type": "skill", "code": "4D+1"}}
RESISTER = {"base": {"type": "attribute", "code": "3D"}, "character_points": {"before": 1}}
TALENT = {"talent": {"name": "Pilot", "level": 4}, "karma": {"balance": 3, "modifier": -1}}
CHECK = {"target": 12, "qualities": [{"name": "Swordplay", "type": "experiential", "magnitude": 3}]}

# Each roll operation: its path and body (with its dice's seed), its twin odds operation's
# path and body (the same roll less its dice). Every estimate is above 0.1 ms.
ROLLS = {
    "resolveCheck": ("/v1/checks", {**CHECK, "seed": 1}, "/v1/checks/odds", CHECK),
    "openD6Roll": (
        "/v1/opend6/rolls",
        {**INITIATOR, "seed": 2},
        "/v1/opend6/rolls/odds",
        INITIATOR,
    ),
    "openD6Opposed": (
        "/v1/opend6/opposed",
        {"initiator": {**INITIATOR, "seed": 3}, "resister": {**RESISTER, "seed": 4}},
        "/v1/opend6/opposed/odds",
        {"initiator": INITIATOR, "resister": RESISTER},
    ),
    "selfConflictCheck": (
        "/v1/self-conflict/checks",
        {**TALENT, "seed": 5},
        "/v1/self-conflict/checks/odds",
        TALENT,
    ),
    "quickShotGamble": (
        "/v1/quick-shot/gambles",
        {"actions": [{"difficulty": "common"}], "seed": 6},
        "/v1/quick-shot/gambles/odds",
        {"actions": [{"difficulty": "common"}]},
    ),
    "travelogueRoll": (
        "/v1/travelogue/rolls",
        {**POOLS, "seed": 7},
        "/v1/travelogue/rolls/odds",
        POOLS,
    ),
}


def clients(redis_url: str, **odds: float) -> Iterator[TestClient]:
    settings = Settings(redis_url=redis_url, odds_cache_entries=0, **odds)  # type: ignore[arg-type]
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def in_line(redis_url: str) -> Iterator[TestClient]:
    """Every odds request computed on the event loop."""
    yield from clients(redis_url, odds_inline_ms=1000, odds_max_ms=1000)


@pytest.fixture(scope="module")
def pooled(redis_url: str) -> Iterator[TestClient]:
    """Every odds request computed in the process pool (no inline budget)."""
    yield from clients(redis_url, odds_inline_ms=0)


@pytest.fixture(scope="module")
def stingy(redis_url: str) -> Iterator[TestClient]:
    """No odds of more than 0.1 ms estimated: every odds of ROLLS is refused."""
    yield from clients(redis_url, odds_inline_ms=0, odds_max_ms=0.1)


@pytest.mark.heavy
@pytest.mark.parametrize(("roll", "body", "odds", "odds_body"), ROLLS.values(), ids=ROLLS.keys())
def test_a_rolls_odds_from_the_pool_are_its_odds_operations_answer(
    in_line: TestClient, pooled: TestClient, roll: str, body: Any, odds: str, odds_body: Any
) -> None:
    rolled = pooled.post(roll, json={**body, "with_odds": True})
    twin = in_line.post(odds, json=odds_body)
    assert rolled.status_code == twin.status_code == 200, rolled.text
    assert rolled.json()["odds"] == twin.json()
    assert "server-timing" not in rolled.headers  # the roll's answer, not the odds'


@pytest.mark.parametrize(("roll", "body", "odds", "odds_body"), ROLLS.values(), ids=ROLLS.keys())
def test_a_rolls_odds_above_the_limit_are_refused_as_too_costly(
    stingy: TestClient, roll: str, body: Any, odds: str, odds_body: Any
) -> None:
    """The gate's limit holds for the odds a roll carries; without them the roll is made."""
    refused = stingy.post(roll, json={**body, "with_odds": True})
    assert refused.status_code == 422, refused.text
    assert refused.json()["type"] == "/problems/odds-too-costly"
    assert refused.json()["max_cost_ms"] == 0.1
    assert stingy.post(odds, json=odds_body).json()["type"] == "/problems/odds-too-costly"
    assert stingy.post(roll, json=body).status_code == 200


def test_a_refused_roll_is_refused_for_itself_before_its_odds_are_weighed(
    stingy: TestClient,
) -> None:
    """ "Rolling Dice": below 1D is the roll's own refusal (D3), whatever its odds cost."""
    zero = {**INITIATOR, "bonuses": [{"label": "x", "dice": -4}], "with_odds": True}
    refused = stingy.post("/v1/opend6/rolls", json=zero)
    assert refused.json()["type"] == "/problems/opend6/zero-dice"


def test_a_batchs_odds_go_through_the_gate_check_by_check(
    in_line: TestClient, stingy: TestClient
) -> None:
    """Every check of a batch is resolved first; then the odds of those that ask, each
    refused under its own index above the limit, and otherwise `checkOdds`' answer."""
    plain, asking = {**CHECK, "seed": 1}, {**CHECK, "seed": 2, "with_odds": True}
    refused = stingy.post("/v1/checks/batch", json={"checks": [plain, asking, asking]})
    assert refused.status_code == 422, refused.text
    assert [(e["code"], e["pointer"]) for e in refused.json()["errors"]] == [
        ("odds-too-costly", "/checks/1"),
        ("odds-too-costly", "/checks/2"),
    ]
    answered = in_line.post("/v1/checks/batch", json={"checks": [plain, asking]})
    assert answered.status_code == 200, answered.text
    results = answered.json()["results"]
    assert results[0]["odds"] is None
    assert results[1]["odds"] == in_line.post("/v1/checks/odds", json=CHECK).json()
