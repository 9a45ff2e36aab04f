"""Part 3's full game with the table's dice (Hugo, Annie, Archer, Vera): 51 actions,
version 52, ending `went_for_broke` with Hugo and Annie caught."""

from __future__ import annotations

from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import (
    EndingReason,
    GameStatus,
    Place,
    Ring,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.table import bullseye, flag, hot_lead, middle
from service.rulesets.travelogue.rules.stats import Stats
from tests.rulesets.travelogue.rules.game.full_game import REFUSALS, STEPS
from tests.rulesets.travelogue.rules.game.play_helpers import (
    STRONG,
    full_game_until,
    refusal,
    table_game,
)


def test_full_game_plays_51_actions_to_version_52_and_goes_for_broke() -> None:
    """Every action is applied, every listed refusal refused, and the end is the design's."""
    game = table_game()
    versions = []
    for index, (actor, action) in enumerate(STEPS):
        if index in REFUSALS:
            r_actor, r_action, code = REFUSALS[index]
            assert refusal(game, r_actor, r_action).code == code
        applied = apply(game, actor, action, STRONG)
        game = applied.state
        versions.append(applied.events[0].data["version"])
    assert len(STEPS) == 51
    assert versions == list(range(2, 53))
    assert game.actions == 51
    assert game.status is GameStatus.ENDED
    assert game.ending is not None
    assert game.ending.reason is EndingReason.WENT_FOR_BROKE
    assert game.ending.fates == {
        "hugo": Status.CAUGHT,
        "annie": Status.CAUGHT,
        "archer": Status.ESCAPED,
        "vera": Status.AT_LARGE,
    }


def test_full_game_batch_1_angels_and_the_first_attention() -> None:
    """Batch 1 then Attention 1: die 4 → Hugo's loved_ones, Shooter Ammo 2; [5, 6]/[] →
    S 0, A 0, running, cracking 11 > 8; the buy-out of 1 takes Avoid to 3."""
    game = full_game_until(14)
    assert game.step is Step.ATTENTION_ROLL
    assert bullseye(game, "annie").angel.ammo == 1  # Hugo's flag 4, for Annie
    assert (bullseye(game, "archer").angel.aim, bullseye(game, "archer").angel.ammo) == (1, 1)
    assert (bullseye(game, "vera").angel.aim, bullseye(game, "vera").angel.ammo) == (1, 1)
    assert (bullseye(game, "hugo").angel.aim, bullseye(game, "hugo").angel.ammo) == (0, 0)
    game = full_game_until(16)
    assert game.attention is not None
    assert (game.attention.flag, game.attention.active) == (4, "hugo")
    assert game.attention.ring is Ring.LOVED_ONES
    assert bullseye(game, "hugo").shooter.ammo == 2
    pools = game.attention.pools
    assert pools is not None
    assert (pools.shooter_number, pools.angel_number, pools.outcome) == (0, 0, "running")
    assert (pools.shooter_sum, pools.avoid_x_allies, pools.cracking) == (11, 8, True)
    game = full_game_until(18)
    assert bullseye(game, "hugo").stats == Stats(avoid=3, armor=1, angel=2, allies=2)
    assert bullseye(game, "hugo").rings[Ring.LOVED_ONES].circle == 1
    assert hot_lead(game) == 4
    assert middle(game) == (7, 8, 9, 10)
    assert game.neighbours is not None
    assert (game.neighbours.lower.flag, game.neighbours.lower.mover) == (3, "vera")


def test_full_game_vera_moves_5_so_hugo_is_the_upper_mover() -> None:
    """'Moving Flags' (D19): the first move picks the second mover."""
    game = full_game_until(19)
    assert game.step is Step.MOVES_UPPER
    assert game.neighbours is not None
    assert (game.neighbours.upper.flag, game.neighbours.upper.mover) == (5, "hugo")
    game = full_game_until(20)
    assert (flag(game, 1).bullseye, flag(game, 1).ring) == ("archer", Ring.FRIENDS)
    assert game.step is Step.PLAY
    assert game.batch == 2


def test_full_game_hugo_caught_gives_his_shooter_to_annie() -> None:
    """Attention 2: 3 + 4 → flag 7, Hugo (Shooter 2/2, Angel 1/1); [2, 1]/[6] → S − A = 2
    > 1: caught. Hot lead 7, middle 4, 11, 12; Annie says no; Shooter 2/2 to Annie, the
    Angel's 1/1 retired, flags 5 and 8 to the middle; Vera passes, 8 is skipped."""
    game = full_game_until(30)
    assert game.attention is not None
    assert (game.attention.hot_lead_used, game.attention.flag) == (4, 7)
    hugo = bullseye(game, "hugo")
    assert (hugo.shooter.aim, hugo.shooter.ammo, hugo.angel.aim, hugo.angel.ammo) == (2, 2, 1, 1)
    assert hugo.status is Status.CAUGHT
    pools = game.attention.pools
    assert pools is not None
    assert (pools.difference, pools.smallest_stat, pools.exposure) == (2, 1, True)
    assert game.attention.risk is None  # D13: caught, no ring at risk
    game = full_game_until(31)
    assert hot_lead(game) == 7
    assert middle(game) == (4, 11, 12)
    game = full_game_until(33)
    annie = bullseye(game, "annie")
    assert (annie.shooter.aim, annie.shooter.ammo) == (3, 3)
    assert game.retired_points == 2
    hugo = bullseye(game, "hugo")
    assert (hugo.shooter.aim, hugo.shooter.ammo, hugo.angel.aim, hugo.angel.ammo) == (0, 0, 0, 0)
    assert middle(game) == (4, 5, 8, 11, 12)
    game = full_game_until(34)
    assert game.neighbours is None  # the batch opened: lower passed, upper 8 skipped
    assert game.step is Step.PLAY
    assert flag(game, 8).place is Place.MIDDLE


def test_full_game_annie_caught_then_archer_escapes_and_vera_stays_at_large() -> None:
    """Attention 3: 2 + 7 → flag 9, Annie (Shooter 4/3, Angel 3/2); [1, 2, 4]/[5, 6] → S 3,
    A 0, caught; Archer [2]/[1, 4] escapes, Vera [1]/[2, 5, 6] at large."""
    game = full_game_until(45)
    annie = bullseye(game, "annie")
    assert (annie.shooter.aim, annie.shooter.ammo, annie.angel.aim, annie.angel.ammo) == (
        4,
        3,
        3,
        2,
    )
    assert game.attention is not None
    assert game.attention.flag == 9
    game = full_game_until(51)
    assert game.departure is not None
    final = game.departure.final
    assert (final["archer"].S, final["archer"].A, final["archer"].result) == (0, 1, "escaped")
    assert (final["vera"].S, final["vera"].A, final["vera"].result) == (1, 1, "at_large")
