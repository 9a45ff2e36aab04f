"""Part 3's seeded server game against its golden event log, 100 seeded bot games to
their end, and the history's size at the action limit (D28, D29)."""

from __future__ import annotations

import random

import msgspec

from service.rulesets.travelogue.rules.game.actions import RejectFlag, TakeFlag
from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import MAX_ACTIONS, GameStatus, WhoseDice
from service.rulesets.travelogue.rules.game.setup import new_game
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.golden import GOLDEN, seeded_game_log
from tests.rulesets.travelogue.rules.game.play_helpers import as_action, refusal, view_of
from tests.support.travelogue_bot import choose

SESSION_MAX_BYTES = 1024 * 1024  # the session store's default ceiling (state + history)


def test_seeded_server_game_matches_its_golden_event_log() -> None:
    """Seeded server game (D28): seed 7 and the fixed policy replay the same events,
    ending the game."""
    log = seeded_game_log()
    assert b"\n".join(log) + b"\n" == GOLDEN.read_bytes()
    assert msgspec.json.decode(log[-1])["event"] == "game.ended"


def test_one_hundred_seeded_bot_games_all_end() -> None:
    """The bot plays only what `waiting_for` offers, and every game reaches its end."""
    reasons = set()
    for seed in range(100):
        rng = random.Random(seed)
        source = WhoseDice.TABLE if seed % 2 else WhoseDice.SERVER
        game = new_game(
            SHEETS,
            game_id=f"g{seed}",
            name="Bots",
            dice_source=source,
            seed=seed if seed % 4 == 0 else None,
        ).state
        while game.status is GameStatus.ACTIVE:
            view = view_of(game)
            player = rng.choice([w["player"] for w in view["waiting_for"]["who"]])
            body = choose(view, rng, player)
            assert body is not None
            game = apply(game, player, as_action(body), rng).state
        assert game.ending is not None
        reasons.add(game.ending.reason)
    assert len(reasons) >= 2


def test_a_10000_action_game_fits_the_session_with_its_history() -> None:
    """D29: 10 000 actions (takes handed on someone's behalf and rejected, the longest
    common entries) keep state + history under the session's 1 MiB; the next is refused."""
    game = new_game(SHEETS, game_id="long", name="Long", dice_source=WhoseDice.SERVER).state
    size = 0
    take = TakeFlag(flag=6, to="archer", on_behalf_of="annie")
    for i in range(MAX_ACTIONS):
        actor, action = ("hugo", take) if i % 2 == 0 else ("archer", RejectFlag())
        step = apply(game, actor, action, random.Random())
        game = step.state
        size += sum(len(msgspec.json.encode(entry)) for entry in step.history)
    assert game.actions == MAX_ACTIONS
    assert size + len(msgspec.json.encode(game)) < SESSION_MAX_BYTES
    assert refusal(game, "hugo", take).code == "travelogue/action-limit-reached"
