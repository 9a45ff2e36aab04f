"""The one-line summary of every travelogue roll (rules/summary.py), in the book's words:
the Shooter's and the Angel's pools with S and A, caught, escaped or running ("Rolling The
Bones", "Caught Or Escape"), cracking and exposure (D12); in a game the attention die
("When All The Flags Are Gone") and going for broke ("Getting Caught, Getting Away",
D23)."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec

from service.kernel.summary import SUMMARY_PATTERN
from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import CloseScene, RollFinal, RollPools, Vote
from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import GameStatus, Ring, Step, WhoseDice
from service.rulesets.travelogue.rules.game.setup import new_game
from service.rulesets.travelogue.rules.game.table import bullseye, with_bullseye
from service.rulesets.travelogue.rules.odds import roll_answer
from service.rulesets.travelogue.rules.roll import PoolsRollRequest
from service.rulesets.travelogue.rules.summary import action_summary
from tests.rulesets.travelogue.rules.game.arrange import arranged, attention_on
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.play_helpers import as_action, play, table_game, view_of
from tests.support.travelogue_bot import FixedPolicy

POOLS = {
    "shooter": {"aim": 2, "ammo": 3},
    "angel": {"aim": 3, "ammo": 2},
    "stats": {"avoid": 2, "armor": 1, "angel": 3, "allies": 2},
}


def rolled(**more: Any) -> str:
    request = msgspec.convert({**POOLS, **more}, PoolsRollRequest)
    return roll_answer(request, random.Random(0)).summary


def test_the_books_roll_keeps_him_running_at_risk() -> None:
    """Steps 3–7: S counts the Shooter's dice at most his Aim (1 of 2, 6, 5), A the
    Angel's (2 of 1, 3); neither gap is wide enough, so running; the Shooter's sum 13 is
    above Avoid × Allies 4 (cracking), the Angel's 4 above Armor × Angel 3 (exposure)."""
    assert rolled(faces={"shooter": [2, 6, 5], "angel": [1, 3]}) == (
        "Shooter 2+6+5, S 1; Angel 1+3, A 2: running; cracking and exposure, at risk"
    )


def test_caught_when_s_outruns_a_by_more_than_the_smallest_stat() -> None:
    """Step 5: S − A above the smallest stat (1) is caught; low sums risk nothing."""
    assert rolled(faces={"shooter": [1, 1, 1], "angel": [6, 6]}) == (
        "Shooter 1+1+1, S 3; Angel 6+6, A 0: caught; exposure, at risk"
    )


def test_a_long_pool_is_counted_instead_of_listed() -> None:
    """A pool may hold up to 1000 dice: the line counts them when listing would not fit."""
    many = {**POOLS, "shooter": {"aim": 6, "ammo": 300}, "angel": {"aim": 3, "ammo": 0}}
    line = roll_answer(msgspec.convert({**many, "seed": 3}, PoolsRollRequest), random.Random(0))
    assert line.summary == "Shooter 300 dice, S 300; Angel no dice, A 0: caught; cracking, at risk"


def test_every_action_of_a_whole_game_that_rolls_says_so_in_one_line() -> None:
    """A seeded game played to its end (seed 7, the fixed policy): the attention die, each
    roll of the pools and each final roll have a line; no other action has one."""
    applied = new_game(SHEETS, game_id="g", name="Seed 7", dice_source=WhoseDice.SERVER, seed=7)
    game, policy, seen = applied.state, FixedPolicy(), set()
    while game.status is GameStatus.ACTIVE:
        actor, body = policy.next(view_of(game))
        step = apply(game, actor, as_action(body), random.Random())
        game, line = step.state, action_summary(step.events)
        rolls = {"roll_attention", "roll_pools", "roll_final"}
        assert (line is not None) == (body["type"] in rolls), (body, line)
        if line is not None:
            assert re.fullmatch(SUMMARY_PATTERN, line)
            seen.add(body["type"])
    assert seen == {"roll_attention", "roll_pools"}  # nobody goes for broke in this one


def test_going_for_broke_says_who_is_caught_escapes_or_stays_at_large() -> None:
    """ "Getting Caught, Getting Away": after a unanimous vote each voter rolls both pools
    once; S > A caught, A > S escaped, a tie at large (D23)."""
    game = arranged(table_game(), {1: ("vera", Ring.FRIENDS), 2: ("annie", Ring.FRIENDS)})
    angel = bullseye(game, "vera").angel
    game = with_bullseye(game, "vera", angel=msgspec.structs.replace(angel, aim=6, ammo=6))
    game = attention_on(game, 1, die=1, h=0, step=Step.ATTENTION_POOLS)
    escaped = PoolFaces(shooter=(6,), angel=(1,) * 6)  # A − S = 6 > 3: Vera escapes
    game = play(game, [("vera", RollPools(faces=escaped)), ("vera", CloseScene())])
    game = play(game, [(voter, Vote(go_for_broke=True)) for voter in ("hugo", "annie", "archer")])
    (who,) = view_of(game)["waiting_for"]["who"]
    needed = view_of(game)["waiting_for"]["dice_needed"]
    faces = PoolFaces(shooter=(1,) * needed["shooter"], angel=(1,) * needed["angel"])
    step = apply(game, who["player"], RollFinal(faces=faces), random.Random())
    (final,) = [event for event in step.events if event.type == "final.rolled"]
    result = {"caught": "is caught", "escaped": "escapes", "at_large": "stays at large"}

    line = action_summary(step.events)
    assert line is not None
    player = who["player"]
    assert line.startswith(f"{player} goes for broke: Shooter 1")
    assert f", S {final.S}; Angel " in line
    assert line.endswith(f", A {final.A}: {player} {result[final.result]}")


def test_the_attention_die_names_the_flag_and_whose_ring_it_lands_on() -> None:
    """ "When All The Flags Are Gone": die + hot lead names a flag; its ring's owner is
    active and his Shooter gains one in the flag's kind (D5)."""
    applied = new_game(SHEETS, game_id="g", name="Seed 7", dice_source=WhoseDice.SERVER, seed=7)
    game, policy = applied.state, FixedPolicy()
    while True:
        actor, body = policy.next(view_of(game))
        step = apply(game, actor, as_action(body), random.Random())
        if body["type"] == "roll_attention":
            break
        game = step.state
    (event,) = [e for e in step.events if e.type == "attention.rolled"]
    assert action_summary(step.events) == (
        f"Attention 1: die {event.die}: flag {event.flag} on {event.active}'s "
        f"{event.ring.label}; his Shooter gains 1 {event.shooter_bonus.capitalize()}"
    )
