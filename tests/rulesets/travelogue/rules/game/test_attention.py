"""Hot lead, Rolled a 6 and Buy-out (Part 3), on game states built for them."""

from __future__ import annotations

import msgspec
import pytest

from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import (
    BuyOut,
    CloseScene,
    LetFlip,
    MoveFlag,
    RollAttention,
    RollPools,
)
from service.rulesets.travelogue.rules.game.after_scene import refill
from service.rulesets.travelogue.rules.game.attention import pay
from service.rulesets.travelogue.rules.game.model import (
    Focus,
    Game,
    Place,
    Resolution,
    Ring,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.neighbours import neighbour_flags
from service.rulesets.travelogue.rules.game.table import bullseye, flag, flags_at, middle
from service.rulesets.travelogue.rules.sheet import Sheet, SheetStats
from service.rulesets.travelogue.rules.stats import Stat, Stats
from tests.rulesets.travelogue.rules.game.arrange import arranged, attention_on
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.play_helpers import play, refusal, table_game

HUGO, ANNIE, ARCHER = "hugo", "annie", "archer"


# --- Hot lead ---------------------------------------------------------------------------


def test_hot_lead_first_attention_4_refills_7_to_10_and_leaves_5_6_11_12() -> None:
    """Hot lead: rolling 4 first → 7–10 to the middle, 5 and 6 stay on targets, 11 and 12
    stay in the box (D17)."""
    game = arranged(
        table_game(),
        {n: (HUGO, Ring.FRIENDS) for n in (1, 2, 3, 4, 5, 6)},
    )
    game, to_middle = refill(game, 4)
    assert to_middle == (7, 8, 9, 10)
    assert flag(game, 4).place is Place.HOT_LEAD
    assert (flag(game, 5).place, flag(game, 6).place) == (Place.RING, Place.RING)
    assert flags_at(game, Place.BOX) == (11, 12)


def test_hot_lead_counts_past_12_by_alias_and_the_old_lead_rejoins_the_middle() -> None:
    """Hot lead (D16, D17): t = 10 refills 11, 12, 1–4 from the box; the old lead (4) goes
    to the middle too."""
    game = arranged(table_game(), {10: (HUGO, Ring.FRIENDS)}, hot_lead=4)
    game, to_middle = refill(game, 10)
    assert to_middle == (4, 11, 12, 1, 2, 3)  # 4 was the old hot lead, not in the box
    assert middle(game) == (1, 2, 3, 4, 11, 12)


@pytest.mark.parametrize(
    ("h", "die", "found"),
    [(4, 3, 7), (9, 6, 3)],
)
def test_hot_lead_plus_die_names_the_flag(h: int, die: int, found: int) -> None:
    """Hot lead: h 4 + die 3 → flag 7; h 9 + die 6 = 15 → flag 3 (its alias 15)."""
    game = arranged(table_game(), {found: (ANNIE, Ring.POSSESSIONS)}, hot_lead=h)
    game = msgspec.structs.replace(game, step=Step.ATTENTION_ROLL)
    game = play(game, [(HUGO, RollAttention(faces=die))])
    assert game.attention is not None
    assert (game.attention.total, game.attention.active) == (found, ANNIE)
    assert game.attention.hot_lead_used == h


# --- Rolled a 6 ------------------------------------------------------------------------


def _rolled_a_6() -> Game:
    """Hugo, Annie, Archer; no hot lead; 6 on Hugo's Reputation, 5 on Annie's, 1 on
    Archer's flipped Possessions, 3 on Hugo's Friends; a 6 found flag 6."""
    game = table_game(SHEETS[:3])
    game = arranged(
        game,
        {
            6: (HUGO, Ring.REPUTATION),
            5: (ANNIE, Ring.REPUTATION),
            1: (ARCHER, Ring.POSSESSIONS),
            3: (HUGO, Ring.FRIENDS),
        },
        flipped=((ARCHER, Ring.POSSESSIONS),),
    )
    game = attention_on(game, 6, die=6, h=0, step=Step.ATTENTION_SCENE)
    return play(game, [(HUGO, CloseScene())])


def test_rolled_a_6_neighbours_are_5_and_1_and_annie_moves_first() -> None:
    """Rolled a 6 ("Moving Flags", D18): 6 − 1 = 5 and 6 + 1 → 1; flag 5 is Annie's."""
    game = _rolled_a_6()
    assert game.neighbours is not None
    assert (game.neighbours.lower.flag, game.neighbours.upper.flag) == (5, 1)
    assert (game.step, game.neighbours.lower.mover) == (Step.MOVES_LOWER, ANNIE)


def test_rolled_a_6_annie_may_not_move_her_own_flag() -> None:
    """Rolled a 6: Annie moving 5 (on her own target) → 422 `own-target`."""
    error = refusal(_rolled_a_6(), ANNIE, MoveFlag(flag=5, to_bullseye=HUGO, to_ring="friends"))
    assert error.code == "travelogue/own-target"


def test_rolled_a_6_annies_move_makes_archer_the_upper_mover_who_cannot_undo() -> None:
    """Rolled a 6 (D19, D20): Annie moves 1 to Archer's Friends, so Archer moves next: 3
    from Hugo's target to Annie's; moving 1 back → 422 `cannot-undo`."""
    game = play(_rolled_a_6(), [(ANNIE, MoveFlag(flag=1, to_bullseye=ARCHER, to_ring="friends"))])
    assert game.neighbours is not None
    assert (game.step, game.neighbours.upper.mover) == (Step.MOVES_UPPER, ARCHER)
    undo = MoveFlag(flag=1, to_bullseye=ANNIE, to_ring="possessions")
    assert refusal(game, ARCHER, undo).code == "travelogue/cannot-undo"
    game = play(game, [(ARCHER, MoveFlag(flag=3, to_bullseye=ANNIE, to_ring="friends"))])
    assert (flag(game, 3).bullseye, flag(game, 3).ring) == (ANNIE, Ring.FRIENDS)
    assert game.step is Step.PLAY


def test_rolled_a_6_had_annie_put_1_on_hugos_target_hugo_would_move_next() -> None:
    """Rolled a 6 (D19): the mover is whoever holds the flag when the move comes."""
    game = play(_rolled_a_6(), [(ANNIE, MoveFlag(flag=1, to_bullseye=HUGO, to_ring="friends"))])
    assert game.neighbours is not None
    assert game.neighbours.upper.mover == HUGO


def test_rolled_a_6_a_mover_moves_only_to_a_different_ring() -> None:
    """ "Moving Flags": the same ring → 422 `same-ring`; a departed target → `not-running`."""
    game = _rolled_a_6()
    same = MoveFlag(flag=1, to_bullseye=ARCHER, to_ring="possessions")
    assert refusal(game, ANNIE, same).code == "travelogue/same-ring"
    out = msgspec.structs.replace(
        game,
        players=tuple(
            msgspec.structs.replace(
                p, bullseye=msgspec.structs.replace(p.bullseye, status=Status.ESCAPED)
            )
            if p.id == HUGO
            else p
            for p in game.players
        ),
    )
    to_out = MoveFlag(flag=1, to_bullseye=HUGO, to_ring="friends")
    assert refusal(out, ANNIE, to_out).code == "travelogue/not-running"
    assert refusal(game, ANNIE, MoveFlag(flag=1, to_bullseye=HUGO, to_ring="x")).code == (
        "travelogue/unknown-ring"
    )
    assert refusal(game, ANNIE, MoveFlag(flag=6, to_bullseye=HUGO, to_ring="friends")).code == (
        "travelogue/flag-not-on-target"  # 6 is the hot lead now
    )


@pytest.mark.parametrize(("die", "h", "lower", "upper"), [(1, 0, 6, 2), (6, 4, 9, 5), (6, 0, 5, 1)])
def test_rolled_a_6_neighbours_wrap_6_and_1(die: int, h: int, lower: int, upper: int) -> None:
    """Rolled a 6 (D18): die 1 → lower neighbour 6; h 4 + die 6 → neighbours 9 and 5."""
    assert neighbour_flags(die, h) == (lower, upper)


# --- Buy-out ---------------------------------------------------------------------------

CHEAP = Sheet(
    player="hugo",
    name="Hugo",
    shooter="The Syndicate",
    angel="Luck",
    beef="the ledger",
    stats=SheetStats(avoid=4, armor=1, angel=3, allies=1),
)


def _at_risk(game: Game, number: int) -> Game:
    """Flag ``number``'s bullseye rolls a 6 on his one Shooter die: S 0, A 0, running,
    and 6 > Avoid × Allies = 4 cracks."""
    game = attention_on(game, number, die=1, h=0, step=Step.ATTENTION_POOLS)
    return play(game, [(HUGO, RollPools(faces=PoolFaces(shooter=(6,))))])


def _buy_out_game() -> Game:
    game = table_game((CHEAP, *SHEETS[1:]))
    return arranged(game, {1: (HUGO, Ring.FRIENDS), 2: (HUGO, Ring.LOVED_ONES)})


def test_buy_out_one_ring_three_times_costs_1_2_3() -> None:
    """Buy-out (D15): each buy-out of a ring costs its circle + 1 and the circle takes it;
    another ring and the centre still start at 1."""
    game = _buy_out_game()
    for cost in (1, 2, 3):
        game = _at_risk(game, 1)
        assert game.attention is not None
        assert game.attention.risk is not None
        assert game.attention.risk.cost == cost
        game = play(game, [(HUGO, BuyOut())])
        assert bullseye(game, HUGO).rings[Ring.FRIENDS].circle == cost
    assert bullseye(game, HUGO).stats.total == 9 - 6
    game = _at_risk(game, 2)
    assert game.attention is not None
    assert game.attention.risk is not None
    assert game.attention.risk.cost == 1
    assert bullseye(game, HUGO).centre == 0


def test_buy_out_pays_from_the_highest_stat_a_point_at_a_time() -> None:
    """Buy-out (D14): 4/1/3/1 paying 3 → 2/1/2/1 (Avoid, then the Avoid–Angel tie by the
    default order, then Angel)."""
    stats, paid = pay(Stats(avoid=4, armor=1, angel=3, allies=1), 3, None)
    assert stats == Stats(avoid=2, armor=1, angel=2, allies=1)
    assert paid == {Stat.AVOID: 2, Stat.ANGEL: 1}
    tied = Stats(avoid=3, armor=3, angel=2, allies=1)
    assert pay(tied, 1, (Stat.ARMOR,))[0] == Stats(avoid=3, armor=2, angel=2, allies=1)
    assert pay(tied, 1, None)[0] == Stats(avoid=2, armor=3, angel=2, allies=1)


def test_buy_out_records_what_was_paid() -> None:
    """Buy-out: the risk's resolution and paid points are on the attention."""
    game = play(_at_risk(_buy_out_game(), 1), [(HUGO, BuyOut())])
    assert game.attention is not None
    assert game.attention.risk is not None
    assert game.attention.risk.resolution is Resolution.BOUGHT_OUT
    assert game.attention.risk.paid == {Stat.AVOID: 1}
    assert game.step is Step.ATTENTION_SCENE


def test_buy_out_unaffordable_flips_by_itself() -> None:
    """Buy-out (D14): a cost above his stats' total is not asked; the ring flips."""
    game = _buy_out_game()
    states = dict(bullseye(game, HUGO).rings)
    states[Ring.FRIENDS] = msgspec.structs.replace(states[Ring.FRIENDS], circle=9)
    game = msgspec.structs.replace(
        game,
        players=tuple(
            msgspec.structs.replace(p, bullseye=msgspec.structs.replace(p.bullseye, rings=states))
            if p.id == HUGO
            else p
            for p in game.players
        ),
    )
    game = _at_risk(game, 1)
    assert game.attention is not None
    assert game.attention.risk is not None
    assert (game.attention.risk.cost, game.attention.risk.affordable) == (10, False)
    assert game.attention.risk.resolution is Resolution.FLIPPED
    assert bullseye(game, HUGO).rings[Ring.FRIENDS].flipped
    assert game.step is Step.ATTENTION_SCENE


def test_buy_out_a_flipped_ring_puts_the_centre_at_risk_and_letting_it_flip_is_caught() -> None:
    """'Flipped Rings' (D1, D15): the focus is the centre at its own cost 1; let_flip →
    caught."""
    game = arranged(
        table_game((CHEAP, *SHEETS[1:])),
        {1: (HUGO, Ring.FRIENDS)},
        flipped=((HUGO, Ring.FRIENDS),),
    )
    game = msgspec.structs.replace(game, step=Step.ATTENTION_ROLL)
    game = play(game, [(ANNIE, RollAttention(faces=1))])
    assert game.attention is not None
    assert game.attention.focus is Focus.CENTRE
    game = play(game, [(HUGO, RollPools(faces=PoolFaces(shooter=(6,))))])
    assert game.attention is not None
    assert game.attention.risk is not None
    assert game.attention.risk.cost == 1
    game = play(game, [(HUGO, LetFlip())])
    assert bullseye(game, HUGO).status is Status.CAUGHT
    assert game.attention is not None
    assert game.attention.risk is not None
    assert game.attention.risk.resolution is Resolution.CAUGHT
