"""A game from the sheets as sent ("The Set Up", D2–D4, D28): the set-up is checked before
the dice, and its warnings stay with the game."""

from __future__ import annotations

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.travelogue.rules.game.model import WhoseDice
from service.rulesets.travelogue.rules.game.setup import set_up_game
from service.rulesets.travelogue.rules.sheet import SheetStats
from tests.rulesets.travelogue.rules.game.full_game import SHEETS


def test_a_bad_set_up_is_refused_before_a_seed_with_the_tables_dice() -> None:
    """Two pairs linked only among themselves (D2) and a seed with table dice (D28): the
    set-up is what the table must fix first."""
    apart = (
        *SHEETS[:2],
        *(
            msgspec.structs.replace(s, shooter="The Mob", beef=f"grudge {i}")
            for i, s in enumerate(SHEETS[2:])
        ),
    )
    with pytest.raises(RulesError) as refused:
        set_up_game(apart, game_id="g", name="t", dice_source=WhoseDice.TABLE, seed=7)
    assert refused.value.code == "travelogue/invalid-setup"
    with pytest.raises(RulesError) as seeded:
        set_up_game(SHEETS, game_id="g", name="t", dice_source=WhoseDice.TABLE, seed=7)
    assert seeded.value.code == "travelogue/seed-not-allowed"


def test_a_zero_stat_is_kept_as_the_games_warning() -> None:
    """D3: a 0 only warns, and the game keeps the warning."""
    zero = msgspec.structs.replace(SHEETS[0], stats=SheetStats(avoid=5, armor=0, angel=2, allies=2))
    game = set_up_game((zero, *SHEETS[1:]), game_id="g", name="t").state
    assert [(w.code, w.pointer) for w in game.warnings] == [
        ("travelogue/stat-zero", "/bullseyes/0/stats/armor")
    ]
