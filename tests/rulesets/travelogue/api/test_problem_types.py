"""Every problem code the travelogue's design names resolves at
``/problems/travelogue/<code>`` with its status, the game's own included, so its routes
raise only registered codes."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

CODES = {
    # set-up, and the refusal that carries its violations
    "invalid-setup": 422,
    "player-count": 422,
    "duplicate-player": 422,
    "blank-text": 422,
    "text-too-long": 422,
    "stat-range": 422,
    "points-not-nine": 422,
    "duplicate-name": 422,
    "not-connected": 422,
    # dice (D28)
    "faces-and-seed": 422,
    "faces-missing": 422,
    "faces-extra": 422,
    "face-out-of-range": 422,
    "faces-not-allowed": 422,
    "too-many-dice": 422,
    # a game's actions, in the design's order of errors
    "wrong-step": 409,
    "game-ended": 409,
    "action-limit-reached": 409,
    "not-your-move": 403,
    "flag-not-in-middle": 422,
    "unknown-player": 422,
    "hand-to-self": 422,
    "not-running": 422,
    "unknown-ring": 422,
    "flag-not-on-target": 422,
    "own-target": 422,
    "same-ring": 422,
    "cannot-undo": 422,
    "not-eligible": 422,
    "allocation-mismatch": 422,
    "unknown-pool": 422,
    "seed-not-allowed": 422,
    "game-not-ended": 409,
}


@pytest.mark.parametrize(("code", "status"), CODES.items())
def test_every_code_of_the_design_is_a_problem_type(
    client: TestClient, code: str, status: int
) -> None:
    answer = client.get(f"/problems/travelogue/{code}")
    assert answer.status_code == 200, code
    assert answer.json()["status"] == status
