"""A check's exact odds (§2.1–§2.5, §3.2, §7.1, §7.2) through check_odds: hand-computed
fractions for the book's examples, and every roll of every dice kind enumerated through
the real resolve_check."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.bullseye.rules.check_odds import (
    CheckOddsRequest,
    check_odds,
    check_odds_request,
)
from service.rulesets.bullseye.rules.checks import CheckRequest, SuppliedRoll, resolve_check
from service.rulesets.bullseye.rules.dice import DICE, DiceKind
from service.rulesets.bullseye.rules.narration import Outcome
from service.rulesets.bullseye.rules.tables import TABLES, TableName

SPREAD_TABLE = TABLES[TableName.SPREAD]
KEEN_EYE = {"target": 12, "qualities": [{"name": "Keen eye", "type": "intrinsic", "magnitude": 3}]}
# The resolveCheck example: +4 +3 +2 -1 and impairment -2 at health 30 of 42 (§3.2.3) = +6
SWORD_FIGHT = {
    "target": 15,
    "qualities": [
        {"name": "Duelling academy graduate", "type": "experiential", "magnitude": 4},
        {"name": "Cat-quick reflexes", "type": "intrinsic", "magnitude": 3},
        {"name": "Grandfather's sabre", "type": "material", "magnitude": 2},
    ],
    "situational": [{"label": "Rolling deck", "magnitude": -1}],
    "depletable": [{"name": "health", "current": 30, "maximum": 42}],
    "depletion": {
        "actor": {"threat": 5, "depletion_modifier": -2},
        "opposition": {"threat": 10, "depletion_modifier": 0},
    },
}
# The classic counts of ways to roll each sum, written out by hand.
WAYS_3D6 = dict(
    zip(range(3, 19), [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1], strict=True)
)
WAYS_4D6 = dict(
    zip(
        range(4, 25),
        [1, 4, 10, 20, 35, 56, 80, 104, 125, 140, 146, 140, 125, 104, 80, 56, 35, 20, 10, 4, 1],
        strict=True,
    )
)


def odds(body):
    return check_odds(msgspec.convert(body, CheckOddsRequest))


def kind(answer, dice):
    return next(item for item in answer.dice_kinds if item.dice == dice)


def exact(chance):
    return Fraction(chance.exact)


def outcomes(outcome):
    return exact(outcome.success), exact(outcome.stalemate), exact(outcome.failure)


def distribution(rows):
    return {row.value: Fraction(row.exact) for row in rows}


def bands(outcome):
    return {band.label: Fraction(band.exact) for band in outcome.spread_bands}


def losses(outcome):
    assert outcome.depletion is not None
    return {(loss.loser, loss.amount): Fraction(loss.exact) for loss in outcome.depletion.losses}


def conditions(score):
    return {(c.state, c.impairment): Fraction(c.exact) for c in score.conditions}


# --- Hand-computed fractions -------------------------------------------------------------


def test_section_2_1_a_d20_check_plus_3_against_12_succeeds_on_10_to_20() -> None:
    """§2.1.2, §2.4: Y = die + 3 beats 12 on a die result of 10…20 (11/20), ties on 9."""
    answer = odds(KEEN_EYE)
    assert (answer.total_modifier, answer.target, answer.target_label) == (3, 12, "Average")
    assert [line.applied for line in answer.modifiers] == [3]
    rolled = answer.as_asked
    assert outcomes(rolled) == (Fraction(11, 20), Fraction(1, 20), Fraction(8, 20))
    assert distribution(rolled.die_result) == {face: Fraction(1, 20) for face in range(1, 21)}
    assert distribution(rolled.yield_) == {y: Fraction(1, 20) for y in range(4, 24)}
    assert distribution(rolled.spread) == {d: Fraction(1, 20) for d in range(-8, 12)}
    # §2.1.3 and §2.4.1 labels beside each value
    assert {row.value: row.label for row in rolled.yield_}[10] == "Average"
    assert {row.value: row.label for row in rolled.spread}[-8] == "Notable Failure"
    assert kind(answer, DiceKind.D20).rolled == rolled


def test_section_2_4_1_every_spread_band_of_a_d20_against_10() -> None:
    """§2.4.1 with the band decision (highest row ≤ Δ): Δ = −9…+10 on a d20 against 10."""
    rolled = odds({"target": 10}).as_asked
    assert bands(rolled) == {
        "Utter Catastrophe": 0,
        "Significant Failure": 0,
        "Notable Failure": Fraction(4, 20),  # −9…−6
        "Narrow Miss": Fraction(5, 20),  # −5…−1
        "Mere Success": Fraction(5, 20),  # 0…4, the stalemate included
        "Solid Success": Fraction(5, 20),  # 5…9
        "Notable Success": Fraction(1, 20),  # 10
        "Significant Success": 0,
        "Flawless Victory": 0,
    }
    edges = [(band.low, band.high) for band in rolled.spread_bands]
    assert edges[0] == (None, -16)  # the bottom row takes every spread below it
    assert edges[4] == (0, 4)
    assert edges[-1] == (20, None)
    assert rolled.spread_bands[0].exact == "0/1"


def test_section_7_1_3d6_counts() -> None:
    """§7.1 3d6: the die result is the sum's 216 ways; +3 against 12 needs 10 or more."""
    rolled = kind(odds(KEEN_EYE), DiceKind.THREE_D6).rolled
    assert distribution(rolled.die_result) == {s: Fraction(w, 216) for s, w in WAYS_3D6.items()}
    # success 1 − (1+3+6+10+15+21+25)/216, stalemate on 9: 25/216
    assert outcomes(rolled) == (Fraction(135, 216), Fraction(25, 216), Fraction(56, 216))


def test_section_7_1_2d10_against_11_is_even() -> None:
    """§7.1 2d10: P(sum) = (s − 1)/100 up to 11, (21 − s)/100 above; 11 is the middle."""
    rolled = kind(odds({"target": 11}), DiceKind.TWO_D10).rolled
    expected = {s: Fraction(s - 1 if s <= 11 else 21 - s, 100) for s in range(2, 21)}
    assert distribution(rolled.die_result) == expected
    assert outcomes(rolled) == (Fraction(45, 100), Fraction(10, 100), Fraction(45, 100))


def test_section_7_1_4d6_minus_4_runs_0_to_20() -> None:
    """§7.1 4d6−4: 0…20 from the 1296 ways of 4d6; against 10 a tie is 4d6 = 14 (146 ways),
    the rest split evenly by symmetry: (1296 − 146)/2 = 575 each."""
    answer = odds({"target": 10, "dice": "4d6-4"})
    rolled = answer.as_asked
    assert kind(answer, DiceKind.FOUR_D6_MINUS_4).rolled == rolled
    assert distribution(rolled.die_result) == {
        s - 4: Fraction(w, 1296) for s, w in WAYS_4D6.items()
    }
    assert outcomes(rolled) == (Fraction(575, 1296), Fraction(146, 1296), Fraction(575, 1296))


def test_section_7_2_a_held_bullseye_is_spent_when_the_roll_would_not_succeed() -> None:
    """§7.2, decision: +3 against 12 fails or ties on 1…9 (9/20); those become 20, so the
    check always succeeds and a die result of 20 comes 10 times in 20."""
    d20 = kind(odds(KEEN_EYE), DiceKind.D20)
    assert exact(d20.held_bullseye_spent) == Fraction(9, 20)
    held = d20.with_held_bullseye
    assert outcomes(held) == (1, 0, 0)
    assert distribution(held.die_result) == {
        **{face: Fraction(1, 20) for face in range(10, 20)},
        20: Fraction(10, 20),
    }
    # 3d6 against 10 with no modifier: 3…10 do not succeed, 108 ways of 216
    d6 = kind(odds({"target": 10}), DiceKind.THREE_D6)
    assert exact(d6.held_bullseye_spent) == Fraction(1, 2)
    assert distribution(d6.with_held_bullseye.die_result)[20] == Fraction(1, 2)
    assert outcomes(d6.with_held_bullseye) == (1, 0, 0)


def test_section_7_2_a_bullseye_cannot_beat_a_target_out_of_reach() -> None:
    """§7.2: against 25 with no modifier even a 20 falls 5 short; every roll is replaced,
    the spread is −5 (a Narrow Miss) for sure. Against 20 a 20 only ties."""
    held = kind(odds({"target": 25}), DiceKind.D20).with_held_bullseye
    assert outcomes(held) == (0, 0, 1)
    assert distribution(held.spread) == {-5: 1}
    assert bands(held)["Narrow Miss"] == 1
    tie = kind(odds({"target": 20}), DiceKind.TWO_D10)
    assert outcomes(tie.rolled) == (0, Fraction(1, 100), Fraction(99, 100))
    assert outcomes(tie.with_held_bullseye) == (0, 1, 0)
    assert exact(tie.held_bullseye_spent) == 1


def test_section_7_2_a_spent_bullseye_is_a_die_result_of_20() -> None:
    """§7.2: 20 + 3 against 12, a spread of 11, a Notable Success for sure; asked with
    `bullseye`, the check as asked is the same."""
    answer = odds({**KEEN_EYE, "bullseye": True})
    spent = answer.with_spent_bullseye
    assert distribution(spent.die_result) == {20: 1}
    assert distribution(spent.spread) == {11: 1}
    assert outcomes(spent) == (1, 0, 0)
    assert bands(spent)["Notable Success"] == 1
    assert answer.as_asked == spent


def test_section_2_5_a_quick_10_is_a_fixed_outcome() -> None:
    """§2.5: 10 + 3 against 12 succeeds (1/1); against 13 it ties (1/1)."""
    answer = odds({**KEEN_EYE, "quick10": True})
    assert answer.with_quick10 is not None
    assert [(c.exact, c.p) for c in (answer.with_quick10.success, answer.with_quick10.failure)] == [
        ("1/1", 1.0),
        ("0/1", 0.0),
    ]
    assert answer.as_asked == answer.with_quick10
    tie = odds({**KEEN_EYE, "target": 13}).with_quick10
    assert tie is not None
    assert outcomes(tie) == (0, 1, 0)
    assert distribution(tie.yield_) == {13: 1}


def test_section_2_5_no_quick_10_with_the_depletable_quality_at_issue() -> None:
    """§2.5: with depletion at issue a Quick 10 is refused, so it has no odds."""
    assert odds(SWORD_FIGHT).with_quick10 is None


def test_section_3_2_2_who_loses_how_much_in_the_sword_fight() -> None:
    """§2.4.2, §3.2.2 on the resolveCheck example (M = +6 against 15, Δ = die − 9):
    die 10…20 costs the opposition Δ + 5 = 6…16; die 9 is a stalemate; die 1…8 costs the
    actor |Δ| + 10 − 2 = 9…16. Health 30 of 42 is at −2 (≤ 31) and falls to 14…21,
    at or below 21: −5 (§3.2.3), never to 10 (incapacitated)."""
    answer = odds(SWORD_FIGHT)
    assert answer.total_modifier == 6
    rolled = answer.as_asked
    assert losses(rolled) == {
        **{("actor", amount): Fraction(1, 20) for amount in range(9, 17)},
        ("none", 0): Fraction(1, 20),
        **{("opposition", amount): Fraction(1, 20) for amount in range(6, 17)},
    }
    assert [(loss.loser, loss.amount) for loss in rolled.depletion.losses][:2] == [
        ("actor", 9),
        ("actor", 10),
    ]
    [health] = rolled.depletion.after
    assert (health.name, health.maximum) == ("health", 42)
    assert conditions(health) == {
        ("impaired", -2): Fraction(12, 20),
        ("impaired", -5): Fraction(8, 20),
    }


def test_section_3_2_2_protection_gathers_the_losses_it_absorbs() -> None:
    """§3.2.2: a depletion modifier of −10 absorbs every miss by 9 or less: the actor
    loses 0 on each of die 1…9 (9/20 together); the opposition loses Δ = 1…10."""
    rolled = odds({"target": 10, "depletion": {"actor": {"depletion_modifier": -10}}}).as_asked
    assert losses(rolled) == {
        ("actor", 0): Fraction(9, 20),
        ("none", 0): Fraction(1, 20),
        **{("opposition", amount): Fraction(1, 20) for amount in range(1, 11)},
    }
    assert rolled.depletion.after == ()  # no scores given: they are the client's to keep


def test_section_3_2_4_and_3_2_5_the_odds_of_incapacitation_and_retirement() -> None:
    """§3.2.3–§3.2.5: 6 of 20 is impaired (−5, M = −5), not incapacitated (≤ 5). Against
    10 the spread is die − 15: a loss of 1…5 (die 10…14) leaves 5…1, incapacitated; a loss
    of 6…14 (die 1…9) leaves 0 or less, retired; die 15…20 leave 6."""
    body = {
        "target": 10,
        "depletable": [{"name": "health", "current": 6, "maximum": 20}],
        "depletion": {},
    }
    [health] = odds(body).as_asked.depletion.after
    assert conditions(health) == {
        ("impaired", -5): Fraction(6, 20),
        ("incapacitated", -5): Fraction(5, 20),
        ("retired", -5): Fraction(9, 20),
    }


def test_section_3_2_6_a_healers_check_restores_its_spread() -> None:
    """§3.2.6: d20 against 10 restores Δ = 1…10 on die 11…20, nothing on 1…10. A patient
    at 20 of 42 (−5, ≤ 21) reaches 21 (still −5) or 22…30 (−2, ≤ 31)."""
    body = {
        "target": 10,
        "restoration": {"patient": {"name": "health", "current": 20, "maximum": 42}},
    }
    restoration = odds(body).as_asked.restoration
    assert restoration is not None
    assert restoration.name == "health"
    assert {row.points: Fraction(row.exact) for row in restoration.restored} == {
        0: Fraction(1, 2),
        **{points: Fraction(1, 20) for points in range(1, 11)},
    }
    assert conditions(restoration.after) == {
        ("impaired", -2): Fraction(9, 20),
        ("impaired", -5): Fraction(11, 20),
    }


def test_section_3_2_6_restoration_stops_at_the_maximum() -> None:
    """§3.2.6: a patient at 35 of 42 takes at most 7: spreads 7…10 all restore 7 (4/20)."""
    body = {
        "target": 10,
        "restoration": {"patient": {"name": "health", "current": 35, "maximum": 42}},
    }
    restoration = odds(body).as_asked.restoration
    points = {row.points: Fraction(row.exact) for row in restoration.restored}
    assert points[7] == Fraction(4, 20)
    assert max(points) == 7
    assert conditions(restoration.after) == {("healthy", 0): 1}


def test_section_6_3_the_modifiers_are_the_checks() -> None:
    """§6.3: a second intrinsic quality adds half; the answer lists what the check would."""
    body = {
        "target": 10,
        "qualities": [
            {"name": "Strong", "type": "intrinsic", "magnitude": 5},
            {"name": "Wiry", "type": "intrinsic", "magnitude": 3},
        ],
        "situational": [{"label": "Storm", "magnitude": -7}],
    }
    answer = odds(body)
    check = resolve_check(msgspec.convert({**body, "seed": 1}, CheckRequest), random.Random(), "")
    assert answer.modifiers == check.modifiers
    assert [line.applied for line in answer.modifiers] == [5, 1, -7]
    assert answer.total_modifier == -1
    assert [w.code for w in answer.warnings] == ["situational-out-of-range"]
    assert answer.warnings == check.warnings


# --- Refusals: the check's own ------------------------------------------------------------

REFUSED = [
    pytest.param(
        {"target": 10, "depletable": [{"name": "health", "current": 10, "maximum": 42}]},
        [("character-incapacitated", "/depletable/0/current")],
        id="§3.2.4 incapacitated",
    ),
    pytest.param(
        {"target": 10, "depletable": [{"name": "health", "current": 0, "maximum": 42}]},
        [("character-retired", "/depletable/0/current")],
        id="§3.2.5 retired",
    ),
    pytest.param(
        {"target": 10, "quick10": True, "depletion": {}},
        [("quick10-with-depletion", "/quick10")],
        id="§2.5 quick 10 at issue",
    ),
    pytest.param(
        {"target": 10, "quick10": True, "bullseye": True},
        [("quick10-with-bullseye", "/bullseye")],
        id="§7.2 quick 10 and bullseye",
    ),
    pytest.param(
        {"target": 10, "strict": True, "situational": [{"label": "Gale", "magnitude": -6}]},
        [("situational-out-of-range", "/situational")],
        id="§6.3 strict situational",
    ),
    pytest.param(
        {
            "target": 10,
            "strict": True,
            "qualities": [
                {"name": f"Trait {n}", "type": "intrinsic", "magnitude": n} for n in (5, 4, 3)
            ],
        },
        [("too-many-qualities-of-type", "/qualities/2")],
        id="§6.3 strict third quality",
    ),
    pytest.param(
        {
            "target": 10,
            "depletable": [
                {"name": "health", "current": 30, "maximum": 30},
                {"name": "sanity", "current": 30, "maximum": 30},
            ],
            "depletion": {},
        },
        [("affects-required", "/depletion/affects")],
        id="§7.6 affects required",
    ),
    pytest.param(
        {"target": 10, "restoration": {"depletable": "luck"}},
        [("unknown-depletable", "/restoration/depletable")],
        id="§3.2.6 unknown score",
    ),
]


@pytest.mark.parametrize(("body", "expected"), REFUSED)
def test_the_odds_are_refused_as_the_check_is(body, expected) -> None:
    """The same codes and pointers as resolve_check's refusal of the same body."""
    with pytest.raises(RulesError) as refused:
        odds(body)
    with pytest.raises(RulesError) as checked:
        resolve_check(msgspec.convert(body, CheckRequest), random.Random(0), "")
    found = [(c.code, c.pointer) for c in refused.value.concerns]
    assert found == expected
    assert found == [(c.code, c.pointer) for c in checked.value.concerns]


# --- with_odds --------------------------------------------------------------------------


def test_with_odds_asks_the_odds_of_the_body_alone_and_rolls_the_same() -> None:
    """The odds ride along with the check, asked from the body alone (``check_odds_request``,
    what the service sends through its odds gate): the roll is the one the check makes
    without them (same dice source, same faces); without the flag nothing is asked."""
    body = {**SWORD_FIGHT, "dice": "2d10"}
    plain = resolve_check(msgspec.convert(body, CheckRequest), random.Random(5), "c")
    asked = msgspec.convert({**body, "with_odds": True}, CheckRequest)
    rolled = resolve_check(asked, random.Random(5), "c")
    assert plain.odds is None
    assert rolled.odds is None
    assert rolled.faces == plain.faces
    odds_request = check_odds_request(asked)
    assert odds_request is not None
    assert check_odds(odds_request) == odds(body)
    assert check_odds_request(msgspec.convert(body, CheckRequest)) is None


# --- Every roll enumerated through the real check ---------------------------------------

ENUMERATED = [
    pytest.param(KEEN_EYE, id="+3 against 12"),
    pytest.param(SWORD_FIGHT, id="sword fight, health at issue"),
    pytest.param(
        {
            "target": 14,
            "qualities": [{"name": "Brawler", "type": "intrinsic", "magnitude": 2}],
            "depletable": [
                {"name": "health", "current": 13, "maximum": 24},
                {"name": "nerve", "current": 9, "maximum": 20},
            ],
            "depletion": {
                "actor": {"threat": 3, "depletion_modifier": -4},
                "opposition": {"threat": 8, "depletion_modifier": -1},
                "affects": ["health", "nerve"],
            },
        },
        id="§7.6 two scores at issue",
    ),
    pytest.param(
        {
            "target": 8,
            "qualities": [{"name": "Surgeon", "type": "experiential", "magnitude": 8}],
            "restoration": {"patient": {"name": "health", "current": 6, "maximum": 24}},
        },
        id="§3.2.6 restoring an incapacitated patient, up to the maximum",
    ),
]


def every_roll(dice: DiceKind):
    spec = DICE[dice]
    return itertools.product(range(1, spec.sides + 1), repeat=spec.count)


def tally(results, count):
    """The distributions resolve_check's results show, as exact fractions of ``count``."""

    def share(counter):
        return {key: Fraction(n, count) for key, n in counter.items()}

    found = {
        "die_result": share(Counter(r.die_result for r in results)),
        "yield": share(Counter(r.yield_ for r in results)),
        "spread": share(Counter((r.spread, r.spread_label) for r in results)),
        "outcome": share(Counter(r.outcome for r in results)),
        "band": share(Counter(r.spread_label for r in results)),
    }
    if results[0].depletion is not None:
        found["losses"] = share(Counter((r.depletion.loser, r.depletion.amount) for r in results))
        found["after"] = [
            share(
                Counter(
                    (r.depletion.after[i].state, r.depletion.after[i].impairment) for r in results
                )
            )
            for i in range(len(results[0].depletion.after))
        ]
    if results[0].restoration is not None:
        found["restored"] = share(Counter(r.restoration.restored for r in results))
        found["restored_after"] = share(
            Counter((r.restoration.after.state, r.restoration.after.impairment) for r in results)
        )
    return found


def shown(outcome):
    """The same distributions, as the odds give them (probability 0 left out)."""
    found = {
        "die_result": distribution(outcome.die_result),
        "yield": distribution(outcome.yield_),
        "spread": {(row.value, row.label): Fraction(row.exact) for row in outcome.spread},
        "outcome": {
            o: p
            for o, p in zip(
                (Outcome.SUCCESS, Outcome.STALEMATE, Outcome.FAILURE),
                outcomes(outcome),
                strict=True,
            )
            if p
        },
        "band": {label: p for label, p in bands(outcome).items() if p},
    }
    if outcome.depletion is not None:
        found["losses"] = losses(outcome)
        found["after"] = [conditions(score) for score in outcome.depletion.after]
    if outcome.restoration is not None:
        found["restored"] = {
            row.points: Fraction(row.exact) for row in outcome.restoration.restored
        }
        found["restored_after"] = conditions(outcome.restoration.after)
    return found


@pytest.mark.parametrize("dice", list(DiceKind))
@pytest.mark.parametrize("body", ENUMERATED)
def test_every_roll_through_resolve_check_gives_the_odds(body, dice) -> None:
    """§2.1, §2.4, §3.2.2, §3.2.6, §7.1: each of the sidesⁿ rolls, supplied as faces to
    the real resolve_check (settle deciding each loss), tallied: the odds exactly."""
    answer = odds({**body, "dice": dice})
    request = msgspec.convert({**body, "dice": dice}, CheckRequest)
    results = [
        resolve_check(
            msgspec.structs.replace(request, roll=SuppliedRoll(faces=faces)), random.Random(0), ""
        )
        for faces in every_roll(dice)
    ]
    assert shown(answer.as_asked) == tally(results, len(results))
    assert shown(kind(answer, dice).rolled) == tally(results, len(results))


@pytest.mark.parametrize("dice", list(DiceKind))
@pytest.mark.parametrize("body", ENUMERATED)
def test_every_roll_with_a_held_bullseye_gives_its_odds(body, dice) -> None:
    """§7.2 decision: every roll through resolve_check; where it would not succeed, the
    same faces again with the bullseye spent. Tallied: the held-bullseye odds exactly."""
    request = msgspec.convert({**body, "dice": dice}, CheckRequest)
    results, spent = [], 0
    for faces in every_roll(dice):
        supplied = msgspec.structs.replace(request, roll=SuppliedRoll(faces=faces))
        result = resolve_check(supplied, random.Random(0), "")
        if result.outcome is not Outcome.SUCCESS:
            spent += 1
            result = resolve_check(
                msgspec.structs.replace(supplied, bullseye=True), random.Random(0), ""
            )
        results.append(result)
    held = kind(odds({**body, "dice": dice}), dice)
    assert shown(held.with_held_bullseye) == tally(results, len(results))
    assert exact(held.held_bullseye_spent) == Fraction(spent, len(results))
