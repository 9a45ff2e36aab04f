"""Properties (Part 3) over random legal games: the bot plays what `waiting_for` offers,
with random table faces or server dice."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import (
    Game,
    GameStatus,
    Place,
    Status,
    Step,
    WhoseDice,
)
from service.rulesets.travelogue.rules.game.setup import new_game
from service.rulesets.travelogue.rules.game.table import bullseye
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.play_helpers import as_action, view_of
from tests.support.travelogue_bot import choose


def _points(game: Game) -> int:
    """ΣAim + Ammo of every Shooter and Angel, plus the retired points."""
    total = game.retired_points
    for p in game.players:
        b = p.bullseye
        total += b.shooter.aim + b.shooter.ammo + b.angel.aim + b.angel.ammo
    return total


def _check_flags(game: Game) -> None:
    """Each of the 12 flags in exactly one place (the model holds one place per flag);
    at most one in hand, and the hand is the game's; one hot lead at most."""
    assert [f.number for f in game.flags] == list(range(1, 13))
    in_hand = [f.number for f in game.flags if f.place is Place.HAND]
    assert in_hand == ([game.hand.flag] if game.hand else [])
    assert len([f for f in game.flags if f.place is Place.HOT_LEAD]) <= 1
    for f in game.flags:
        assert (f.place is Place.RING) == (f.bullseye is not None) == (f.ring is not None)
    if game.step in (Step.PLAY, Step.ATTENTION_ROLL):
        for f in game.flags:
            if f.place is Place.RING:
                assert f.bullseye is not None
                assert bullseye(game, f.bullseye).status is Status.RUNNING


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.booleans(), seeded=st.booleans())
def test_random_legal_games_keep_every_invariant(seed: int, table: bool, seeded: bool) -> None:
    """Flags: one place each, ≤ 1 in hand, none on a departed target in play; an attention
    always finds a running bullseye; stats never below 0; a buy-out lowers them by exactly
    its cost; `distribute` keeps ΣAim+Ammo + retired, else it grows by one per accept and
    per attention; version + 1 per action; a departed bullseye is never active again."""
    rng = random.Random(seed)
    source = WhoseDice.TABLE if table else WhoseDice.SERVER
    game = new_game(
        SHEETS, game_id="p", name="Props", dice_source=source, seed=seed if seeded else None
    ).state
    departed: set[str] = set()
    while game.status is GameStatus.ACTIVE:
        view = view_of(game)
        player = rng.choice([w["player"] for w in view["waiting_for"]["who"]])
        body = choose(view, rng, player)
        assert body is not None
        before = game
        step = apply(game, player, as_action(body), rng)
        game = step.state
        names = [e.type for e in step.events]
        assert game.actions == before.actions + 1
        assert {e.data["version"] for e in step.events} <= {game.actions + 1}
        _check_flags(game)
        for p in game.players:
            stats = p.bullseye.stats
            assert min(stats.avoid, stats.armor, stats.angel, stats.allies) >= 0
        if "attention.rolled" in names:
            assert game.attention is not None
            assert game.attention.active not in departed
            assert bullseye(before, game.attention.active).status is Status.RUNNING
        if body["type"] == "buy_out":
            assert game.attention is not None
            assert game.attention.risk is not None
            active = game.attention.active
            paid = bullseye(before, active).stats.total - bullseye(game, active).stats.total
            assert paid == game.attention.risk.cost
        grown = names.count("flag.placed") + names.count("attention.rolled")
        assert _points(game) == _points(before) + grown
        departed |= {p.id for p in game.players if p.bullseye.status is not Status.RUNNING}
