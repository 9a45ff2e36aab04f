"""Getting Caught, Getting Away (Part 3's departure cases; D22–D26, D29)."""

from __future__ import annotations

import msgspec

from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import (
    Allocation,
    CloseScene,
    Distribute,
    RollPools,
    Vote,
)
from service.rulesets.travelogue.rules.game.departure import pools_of
from service.rulesets.travelogue.rules.game.model import (
    MAX_ATTENTIONS,
    EndingReason,
    Game,
    Place,
    Ring,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.table import bullseye, flag, with_bullseye
from tests.rulesets.travelogue.rules.game.arrange import arranged, attention_on
from tests.rulesets.travelogue.rules.game.full_game import SHEETS, STEPS
from tests.rulesets.travelogue.rules.game.play_helpers import (
    full_game_until,
    play,
    refusal,
    table_game,
)


def _escaping(game: Game) -> Game:
    """Vera's flag 1 found; Vera's Angel 3/3 against her Shooter's one die: she escapes."""
    game = arranged(game, {1: ("vera", Ring.FRIENDS), 2: ("annie", Ring.FRIENDS)})
    b = bullseye(game, "vera")
    game = with_bullseye(game, "vera", angel=msgspec.structs.replace(b.angel, aim=6, ammo=6))
    game = attention_on(game, 1, die=1, h=0, step=Step.ATTENTION_POOLS)
    # Shooter 1/1 (the state is built after step 1): one die; Angel six 1s → A − S = 6 > 3.
    return play(game, [("vera", RollPools(faces=PoolFaces(shooter=(6,), angel=(1,) * 6)))])


def test_escaped_pools_are_all_shooter_points_for_shooter_or_beef() -> None:
    """ "Getting Caught, Getting Away" (D24): escaped, Aim = Shooter + Angel Aim and Ammo
    likewise, for those sharing his shooter (Archer: Interpol) or beef (none here)."""
    game = _escaping(table_game())
    assert bullseye(game, "vera").status is Status.ESCAPED
    pools = pools_of(game, "vera", Status.ESCAPED)
    assert [(p.pool, p.points, p.as_, p.eligible) for p in pools] == [
        ("aim", 1 + 6, "shooter_aim", ("archer",)),
        ("ammo", 1 + 6, "shooter_ammo", ("archer",)),
    ]


def test_distribute_gives_each_pool_exactly_else_422() -> None:
    """D24: each pool given completely (`allocation-mismatch`), by name (`unknown-pool`)."""
    game = play(
        _escaping(table_game()), [("vera", CloseScene()), ("hugo", Vote(go_for_broke=False))]
    )
    assert game.step is Step.DEPARTURE_DISTRIBUTE
    short = Distribute(allocations=(Allocation(pool="aim", to="archer", points=6),))
    assert refusal(game, "vera", short).code == "travelogue/allocation-mismatch"
    unknown = Distribute(allocations=(Allocation(pool="angel_aim", to="archer", points=1),))
    codes = [c.code for c in refusal(game, "vera", unknown).concerns]
    assert "travelogue/unknown-pool" in codes
    out = Distribute(allocations=(Allocation(pool="aim", to="hugo", points=7),))
    assert refusal(game, "vera", out).code == "travelogue/not-eligible"
    game = play(
        game,
        [
            (
                "vera",
                Distribute(
                    allocations=(
                        Allocation(pool="aim", to="archer", points=7),
                        Allocation(pool="ammo", to="archer", points=7),
                    )
                ),
            )
        ],
    )
    archer = bullseye(game, "archer")
    assert (archer.shooter.aim, archer.shooter.ammo, archer.angel.aim) == (8, 8, 0)
    vera = bullseye(game, "vera")
    assert (vera.shooter.aim, vera.shooter.ammo, vera.angel.aim, vera.angel.ammo) == (0, 0, 0, 0)
    assert flag(game, 1).place is Place.HOT_LEAD
    assert game.retired_points == 0


def test_the_vote_is_unanimous_the_first_no_closes_it() -> None:
    """D22: the voters are the other running players; one "no" and it is the split."""
    game = play(_escaping(table_game()), [("vera", CloseScene())])
    assert game.departure is not None
    assert game.departure.voters == ("hugo", "annie", "archer")
    game = play(game, [("hugo", Vote(go_for_broke=True)), ("annie", Vote(go_for_broke=False))])
    assert game.step is Step.DEPARTURE_DISTRIBUTE
    assert refusal(game, "archer", Vote(go_for_broke=True)).code == "travelogue/wrong-step"


def test_nothing_to_give_skips_the_split_and_retires_it() -> None:
    """D25: a pool nobody may take is retired; with nothing to give, no `distribute`."""
    sheets = tuple(msgspec.structs.replace(s, shooter=f"Own {s.player}") for s in SHEETS)
    lonely = tuple(msgspec.structs.replace(s, beef=f"beef {s.player}") for s in sheets)
    game = play(_escaping(table_game(lonely)), [("vera", CloseScene())])
    game = play(game, [("hugo", Vote(go_for_broke=False))])
    assert game.step is not Step.DEPARTURE_DISTRIBUTE
    assert game.retired_points == 7 + 7


def test_nobody_else_running_ends_the_game() -> None:
    """ "Getting Caught, Getting Away": if nobody else runs, the game ends there."""
    game = table_game()
    for other in ("hugo", "annie", "archer"):
        game = with_bullseye(game, other, status=Status.CAUGHT)
    game = play(_escaping(game), [("vera", CloseScene())])
    assert game.step is Step.ENDED
    assert game.ending is not None
    assert game.ending.reason is EndingReason.NONE_RUNNING
    assert game.ending.fates["vera"] is Status.ESCAPED


def test_the_300th_attention_closed_ends_the_game_with_the_runners_at_large() -> None:
    """D29: after the 300th attention's moves, `limit`; whoever runs is at large."""
    game = full_game_until(17)
    game = msgspec.structs.replace(game, attention_count=MAX_ATTENTIONS)
    game = play(game, [("hugo", CloseScene())])
    assert game.step is Step.MOVES_LOWER
    game = full_game_until(20)  # unchanged count: the batch opens
    assert game.step is Step.PLAY
    late = msgspec.structs.replace(full_game_until(19), attention_count=MAX_ATTENTIONS)
    ended = play(late, [STEPS[19]])
    assert ended.ending is not None
    assert ended.ending.reason is EndingReason.LIMIT
    assert set(ended.ending.fates.values()) == {Status.AT_LARGE}


def test_a_departed_player_may_hold_a_flag() -> None:
    """D6: Hugo, caught, accepts Archer's flag 8 in batch 3."""
    game = full_game_until(39)
    assert game.hand is not None
    assert (game.hand.holder, bullseye(game, "hugo").status) == ("hugo", Status.CAUGHT)
