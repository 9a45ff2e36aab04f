"""§4.3, §4.4, §7.2: every answer, event and stored byte of seeded conflicts (rounds whole
and one check at a time, bullseyes spent or passed, outcome checks, and refusals) equals
what the rules gave before they were made cheaper (fixture captured from main, issue #25).
"""

from __future__ import annotations

import json

import pytest

from tests.rulesets.bullseye.rules.conflict_golden import (
    BENCH_GAME,
    FIXTURE,
    answers,
    digest,
)

_FIXTURE = json.loads(FIXTURE.read_text())
_ANSWERS = dict(answers())


def test_the_fixture_covers_every_game() -> None:
    assert sorted(_FIXTURE["sha256"]) == sorted(_ANSWERS)


def test_the_bench_round_answers_the_same_bytes() -> None:
    # §4.3: four tied pairings, readable in the fixture.
    assert _ANSWERS[BENCH_GAME].decode() == _FIXTURE["bench_round"]


@pytest.mark.parametrize("game", sorted(_FIXTURE["sha256"]))
def test_each_game_answers_the_same_bytes(game: str) -> None:
    answer = _ANSWERS[game]
    assert digest(answer) == _FIXTURE["sha256"][game], answer.decode(errors="replace")[:4000]
