"""A single check (§2.1–§2.5, §3.2, §5.1, §6.3, §6.5, §7.1, §7.2, §7.6) through resolve_check."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    DepletableScore,
    DepletionAtIssue,
    Restoration,
    SuppliedRoll,
    resolve_check,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import State
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.modifiers import (
    ModifierSource,
    Quality,
    QualityType,
    Situational,
)
from service.rulesets.bullseye.rules.narration import Narrator, Outcome

INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL


def q(name, type_, magnitude):
    return Quality(name=name, type=type_, magnitude=magnitude)


def sit(label, magnitude):
    return Situational(label=label, magnitude=magnitude)


def faces(*shown):
    return SuppliedRoll(faces=tuple(shown))


def health(current, maximum=42, name="health"):
    return DepletableScore(name=name, current=current, maximum=maximum)


def check(rng=None, check_id="chk-1", **fields):
    fields.setdefault("target", 15)
    return resolve_check(CheckRequest(**fields), rng or random.Random(0), check_id)


def refusal(**fields):
    with pytest.raises(RulesError) as caught:
        check(**fields)
    return caught.value


def codes_and_pointers(error):
    return [(concern.code, concern.pointer) for concern in error.concerns]


# --- yield, spread, outcome, narrator (§2.1, §2.1.2, §2.4, §5.1, §6.5) -------------------


def test_section_2_1_2_yield_is_die_result_plus_total_modifier():
    """§2.1.2/§2.4: die 12 + qualities 5 and 3 − situational 1 = yield 19; Δ = 19 − 15 = +4."""
    result = check(
        target=15,
        qualities=(q("Strong", INTR, 5), q("Army", EXPR, 3)),
        situational=(sit("Dark", -1),),
        roll=faces(12),
    )
    assert result.faces == (12,)
    assert result.die_result == 12
    assert [line.applied for line in result.modifiers] == [5, 3, -1]
    assert result.total_modifier == 7
    assert result.yield_ == 19
    assert result.target == 15
    assert result.spread == 4
    assert result.outcome is Outcome.SUCCESS
    assert result.id == "chk-1"
    assert result.dice is DiceKind.D20
    assert (result.quick10, result.bullseye) == (False, False)
    assert result.warnings == ()
    assert result.depletion is None


def test_section_2_1_success_when_yield_exceeds_target_player_narrates():
    """§2.1: yield above target is success; §5.1/§6.5: the player (highest yield) narrates."""
    result = check(target=10, roll=faces(11))
    assert (result.spread, result.outcome, result.narrator) == (1, Outcome.SUCCESS, Narrator.PLAYER)


def test_section_2_1_failure_when_yield_falls_short_gm_narrates():
    """§2.1: yield below target is failure; §6.5: the GM has the right to narrate it."""
    result = check(target=10, roll=faces(9))
    assert (result.spread, result.outcome, result.narrator) == (-1, Outcome.FAILURE, Narrator.GM)


def test_section_2_1_tie_is_a_stalemate_gm_narrates():
    """§2.1: a tie is a stalemate; §5.1/§6.5: no higher yield for the player, so the GM."""
    result = check(target=14, qualities=(q("Strong", INTR, 4),), roll=faces(10))
    assert (result.yield_, result.spread) == (14, 0)
    assert result.outcome is Outcome.STALEMATE
    assert result.narrator is Narrator.GM


def test_section_2_4_negative_spread_example():
    """§2.4: a yield 4 short of the target is −4Δ."""
    result = check(target=20, roll=faces(16))
    assert result.spread == -4


def test_section_2_2_modifier_lines_in_order_qualities_situation_impairment():
    """§2.2: the breakdown lists qualities, then situation, then impairment."""
    result = check(
        qualities=(q("Army", EXPR, 3),),
        situational=(sit("Rain", -1),),
        depletable=(health(30),),
        roll=faces(10),
    )
    assert [line.source for line in result.modifiers] == [
        ModifierSource.QUALITY,
        ModifierSource.SITUATIONAL,
        ModifierSource.IMPAIRMENT,
    ]
    assert result.total_modifier == 3 - 1 - 2


# --- labels by the band rule (§2.1.3, §2.3.1, §2.4.1) -----------------------------------


@pytest.mark.parametrize(
    ("target", "die", "spread", "label"),
    [
        (10, 11, 1, "Mere Success"),
        (10, 14, 4, "Mere Success"),
        (10, 15, 5, "Solid Success"),
        (10, 10, 0, "Mere Success"),
        (10, 9, -1, "Narrow Miss"),
        (10, 5, -5, "Narrow Miss"),
        (10, 4, -6, "Notable Failure"),
        (20, 10, -10, "Notable Failure"),
        (20, 9, -11, "Significant Failure"),
        (25, 1, -24, "Utter Catastrophe"),
    ],
)
def test_section_2_4_1_spread_label_by_band(target, die, spread, label):
    """§2.4.1 with the band rule: Δ +1…+4 Mere Success, −1…−5 Narrow Miss, −6…−10 Notable."""
    result = check(target=target, roll=faces(die))
    assert result.spread == spread
    assert result.spread_label == label


def test_section_2_4_1_plus_31_is_a_flawless_victory():
    """§2.4.1: Δ +31 is beyond the top row: Flawless Victory; §2.1.3 yield 31 is Excellent."""
    result = check(target=0, qualities=(q("Peerless", EXPR, 11),), roll=faces(20))
    assert (result.yield_, result.spread) == (31, 31)
    assert result.spread_label == "Flawless Victory"
    assert result.yield_label == "Excellent"
    assert result.target_label == "Nearly Certain"


def test_section_2_1_3_yield_12_is_average():
    """§2.1.3: yield 12 falls in the 10 band: Average; §2.3.1 target 15 is Hard."""
    result = check(target=15, qualities=(q("Strong", INTR, 2),), roll=faces(10))
    assert result.yield_ == 12
    assert result.yield_label == "Average"
    assert result.target_label == "Hard"


def test_section_2_1_3_yield_minus_12_is_abysmal():
    """§2.1.3: yield −12 is below the bottom row (−5): Abysmal."""
    result = check(
        target=20,
        qualities=(q("Terrified of heights", QualityType.NEGATIVE, -13),),
        roll=faces(1),
    )
    assert result.yield_ == -12
    assert result.yield_label == "Abysmal"
    assert result.target_label == "Challenging"
    assert result.spread_label == "Utter Catastrophe"


# --- alternate dice (§7.1) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "shown", "die_result"),
    [
        (DiceKind.D20, (17,), 17),
        (DiceKind.TWO_D10, (3, 9), 12),
        (DiceKind.THREE_D6, (6, 6, 5), 17),
        (DiceKind.FOUR_D6_MINUS_4, (1, 1, 1, 1), 0),
        (DiceKind.FOUR_D6_MINUS_4, (6, 6, 6, 6), 20),
    ],
)
def test_section_7_1_supplied_faces_give_the_die_result(kind, shown, die_result):
    """§7.1: the die result is the sum of the faces (minus 4 for 4d6-4); faces are kept."""
    result = check(dice=kind, roll=faces(*shown), target=0)
    assert result.dice is kind
    assert result.faces == shown
    assert result.die_result == die_result
    assert result.yield_ == die_result


@pytest.mark.parametrize(
    ("kind", "shown", "pointer"),
    [
        (DiceKind.D20, (21,), "/roll/faces/0"),
        (DiceKind.TWO_D10, (4, 11), "/roll/faces/1"),
        (DiceKind.THREE_D6, (7, 1, 1), "/roll/faces/0"),
    ],
)
def test_section_7_1_a_face_the_die_cannot_show_is_face_out_of_range(kind, shown, pointer):
    """§7.1: a face the dice kind's die cannot show is refused with face-out-of-range at
    that face (issue 38: was illegal-faces); the count is right, so no extension member."""
    error = refusal(dice=kind, roll=faces(*shown))
    assert error.code == RuleCode.FACE_OUT_OF_RANGE == "face-out-of-range"
    assert codes_and_pointers(error) == [(RuleCode.FACE_OUT_OF_RANGE, pointer)]
    assert error.extensions == {}


@pytest.mark.parametrize(
    ("kind", "shown", "missing"),
    [
        (DiceKind.TWO_D10, (5,), 1),
        (DiceKind.FOUR_D6_MINUS_4, (1, 2, 3), 1),
        (DiceKind.FOUR_D6_MINUS_4, (6,), 3),
        (DiceKind.THREE_D6, (), 3),
    ],
)
def test_section_7_1_too_few_faces_are_faces_missing_saying_how_many_more(kind, shown, missing):
    """§7.1: one face a die; fewer than the dice kind rolls is faces-missing at the list
    (issue 38: was illegal-faces), the problem's `missing` saying how many more."""
    error = refusal(dice=kind, roll=faces(*shown))
    assert error.code == RuleCode.FACES_MISSING == "faces-missing"
    assert codes_and_pointers(error) == [(RuleCode.FACES_MISSING, "/roll/faces")]
    assert error.extensions == {"missing": missing}


@pytest.mark.parametrize(
    ("kind", "shown", "extra"),
    [
        (DiceKind.D20, (5, 5), 1),
        (DiceKind.THREE_D6, (1, 2, 3, 4, 5), 2),
    ],
)
def test_section_7_1_too_many_faces_are_faces_extra_saying_how_many(kind, shown, extra):
    """§7.1: more faces than the dice kind rolls is faces-extra at the list (issue 38: was
    illegal-faces), the problem's `extra` saying how many too many."""
    error = refusal(dice=kind, roll=faces(*shown))
    assert error.code == RuleCode.FACES_EXTRA == "faces-extra"
    assert codes_and_pointers(error) == [(RuleCode.FACES_EXTRA, "/roll/faces")]
    assert error.extensions == {"extra": extra}


def test_section_7_1_the_wrong_count_keeps_bullseye_s_words():
    """§7.1: the details of faces-missing and faces-extra are those illegal-faces gave."""
    assert refusal(dice=DiceKind.TWO_D10, roll=faces(5)).detail == (
        "2d10 rolls 2 dice, so it shows 2 faces, not 1."
    )
    assert refusal(roll=faces(5, 5)).detail == "d20 rolls 1 die, so it shows 1 face, not 2."
    assert refusal(roll=faces(21)).detail == "A d20 shows 1 to 20; 21 is not a face of it."


@pytest.mark.parametrize("kind", list(DiceKind), ids=str)
def test_section_7_1_server_roll_uses_the_dice_kind(kind):
    """§7.1: a server roll of each kind shows the right number of legal faces."""
    count, sides = {"d20": (1, 20), "2d10": (2, 10), "3d6": (3, 6), "4d6-4": (4, 6)}[kind]
    for seed in range(30):
        result = check(rng=random.Random(seed), dice=kind)
        assert len(result.faces) == count
        assert all(1 <= face <= sides for face in result.faces)


def test_section_7_1_seeded_rolls_are_reproducible():
    """§7.1 dice source: the same seed gives the same faces, whatever generator is passed."""
    first = check(rng=random.Random(1), dice=DiceKind.THREE_D6, seed=99)
    second = check(rng=random.Random(2), dice=DiceKind.THREE_D6, seed=99)
    assert first.faces == second.faces
    assert first.die_result == second.die_result
    assert len(first.faces) == 3


def test_section_7_1_seed_does_not_consume_the_server_generator():
    """§7.1 dice source: a seeded roll uses its own generator, not the server's."""
    rng = random.Random(3)
    before = rng.getstate()
    check(rng=rng, seed=12)
    assert rng.getstate() == before


def test_section_7_1_different_seeds_give_different_rolls():
    """§7.1 dice source: the seed actually drives the roll."""
    rolls = {check(dice=DiceKind.FOUR_D6_MINUS_4, seed=seed).faces for seed in range(20)}
    assert len(rolls) > 10


def test_section_7_1_server_generator_is_used_without_a_seed():
    """§7.1 dice source: without seed or faces the server's generator rolls."""
    rng = random.Random(3)
    before = rng.getstate()
    check(rng=rng)
    assert rng.getstate() != before
    a = check(rng=random.Random(44), dice=DiceKind.TWO_D10)
    b = check(rng=random.Random(44), dice=DiceKind.TWO_D10)
    assert a.faces == b.faces


def test_section_7_1_roll_and_seed_together_are_refused():
    """§7.1 dice source: supplied faces and a seed are contradictory: faces-and-seed at
    /seed (issue 38: was roll-with-seed), in Bullseye's words."""
    error = refusal(roll=faces(10), seed=5)
    assert codes_and_pointers(error) == [(RuleCode.FACES_AND_SEED, "/seed")]
    assert error.code == "faces-and-seed"
    assert error.detail == (
        "A seed makes the server roll; it cannot be combined with supplied faces."
    )


# --- Quick 10 (§2.5) -------------------------------------------------------------------


def test_section_2_5_quick_10_die_result_is_ten_no_faces():
    """§2.5: a Quick 10 counts as a 10 on the die; nothing is rolled."""
    rng = random.Random(8)
    before = rng.getstate()
    result = check(rng=rng, quick10=True, target=12, qualities=(q("Army", EXPR, 3),))
    assert rng.getstate() == before
    assert result.quick10 is True
    assert result.faces == ()
    assert result.die_result == 10
    assert result.yield_ == 13
    assert result.spread == 1
    assert result.outcome is Outcome.SUCCESS


@pytest.mark.parametrize("kind", list(DiceKind), ids=str)
def test_section_2_5_quick_10_is_ten_whatever_the_dice(kind):
    """§2.5 with §7.1: Quick 10 is a result of 10 for every dice kind."""
    assert check(quick10=True, dice=kind).die_result == 10


def test_section_2_5_quick_10_refused_when_depletable_at_issue():
    """§2.5: no Quick 10 when the depletable quality is at issue: quick10-with-depletion."""
    error = refusal(quick10=True, depletion=DepletionAtIssue(), depletable=(health(40),))
    assert error.code is RuleCode.QUICK10_WITH_DEPLETION
    assert codes_and_pointers(error) == [(RuleCode.QUICK10_WITH_DEPLETION, "/quick10")]


def test_section_2_5_quick_10_with_supplied_roll_refused():
    """§2.5: a Quick 10 replaces the roll; supplying faces too is refused."""
    error = refusal(quick10=True, roll=faces(10))
    assert codes_and_pointers(error) == [(RuleCode.QUICK10_WITH_ROLL, "/roll")]


def test_section_2_5_quick_10_with_bullseye_refused():
    """§2.5/§7.2: a bullseye replaces a roll; a Quick 10 rolls nothing to replace."""
    error = refusal(quick10=True, bullseye=True)
    assert codes_and_pointers(error) == [(RuleCode.QUICK10_WITH_BULLSEYE, "/bullseye")]


def test_section_2_5_quick_10_with_seed_warns_seed_ignored():
    """§2.5: a seed is pointless with a Quick 10; the check goes ahead with a warning."""
    result = check(quick10=True, seed=3)
    assert result.die_result == 10
    assert [(w.code, w.pointer) for w in result.warnings] == [(RuleCode.SEED_IGNORED, "/seed")]


def test_section_2_5_every_refusal_reported_at_once():
    """§2.5/§7.2: Quick 10 + depletion + bullseye: both concerns in one refusal."""
    error = refusal(quick10=True, bullseye=True, depletion=DepletionAtIssue())
    assert codes_and_pointers(error) == [
        (RuleCode.QUICK10_WITH_DEPLETION, "/quick10"),
        (RuleCode.QUICK10_WITH_BULLSEYE, "/bullseye"),
    ]
    assert error.code is RuleCode.QUICK10_WITH_DEPLETION
    assert error.detail == "2 rule violations."


def test_section_2_5_many_different_refusals_reported_at_once():
    """§2.5, §7.1, §3.2.4, §7.6: every reason to refuse is listed together."""
    error = refusal(
        quick10=True,
        roll=faces(25),
        seed=1,
        depletable=(health(5), health(30, name="faith")),
        depletion=DepletionAtIssue(affects=("sanity",)),
    )
    assert codes_and_pointers(error) == [
        (RuleCode.QUICK10_WITH_DEPLETION, "/quick10"),
        (RuleCode.QUICK10_WITH_ROLL, "/roll"),
        (RuleCode.FACES_AND_SEED, "/seed"),
        (RuleCode.FACE_OUT_OF_RANGE, "/roll/faces/0"),
        (RuleCode.CHARACTER_INCAPACITATED, "/depletable/0/current"),
        (RuleCode.UNKNOWN_DEPLETABLE, "/depletion/affects/0"),
    ]


# --- bullseye (§7.2) -------------------------------------------------------------------


def test_section_7_2_bullseye_replaces_supplied_roll_with_20_faces_kept():
    """§7.2: after the roll, a bullseye uses 20 instead; the faces stay on record."""
    result = check(target=25, roll=faces(3), bullseye=True, qualities=(q("Army", EXPR, 6),))
    assert result.bullseye is True
    assert result.faces == (3,)
    assert result.die_result == 20
    assert result.yield_ == 26
    assert result.spread == 1
    assert result.narrator is Narrator.PLAYER


def test_section_7_2_bullseye_with_alternate_dice_is_20():
    """§7.2 with §7.1: a bullseye is a result of 20 even on 3d6 (max 18 otherwise)."""
    result = check(dice=DiceKind.THREE_D6, roll=faces(1, 2, 1), bullseye=True, target=0)
    assert result.faces == (1, 2, 1)
    assert result.die_result == 20


def test_section_7_2_bullseye_with_server_roll_keeps_faces():
    """§7.2: a server roll followed by a bullseye: die result 20, rolled faces kept."""
    result = check(rng=random.Random(5), dice=DiceKind.TWO_D10, bullseye=True)
    assert result.die_result == 20
    assert len(result.faces) == 2
    assert all(1 <= face <= 10 for face in result.faces)


# --- strict and lenient (§6.3) ---------------------------------------------------------


def test_section_6_3_lenient_situational_out_of_range_applies_with_warning():
    """§6.3 decision: lenient by default: situational +4 and +3 apply (+7) with a warning."""
    result = check(target=15, situational=(sit("Ladder", 4), sit("Boost", 3)), roll=faces(10))
    assert [line.applied for line in result.modifiers] == [4, 3]
    assert result.total_modifier == 7
    assert result.yield_ == 17
    assert [(w.code, w.pointer) for w in result.warnings] == [
        (RuleCode.SITUATIONAL_OUT_OF_RANGE, "/situational")
    ]


def test_section_6_3_lenient_third_quality_not_applied_with_warning():
    """§6.3: lenient: a third intrinsic quality is shown, applied 0, and warned about."""
    result = check(
        qualities=(q("Strong", INTR, 5), q("Quick", INTR, 4), q("Tall", INTR, 3)),
        roll=faces(10),
    )
    assert [line.applied for line in result.modifiers] == [5, 2, 0]
    assert result.total_modifier == 7
    assert [(w.code, w.pointer) for w in result.warnings] == [
        (RuleCode.TOO_MANY_QUALITIES_OF_TYPE, "/qualities/2")
    ]


def test_section_6_3_strict_refuses_listing_every_concern():
    """§6.3 decision: strict: the check is refused and every violation is listed."""
    error = refusal(
        strict=True,
        qualities=(
            q("Strong", INTR, 5),
            q("Quick", INTR, 4),
            q("Tall", INTR, 3),
            q("Wiry", INTR, 2),
        ),
        situational=(sit("Storm", -6),),
        roll=faces(10),
    )
    assert codes_and_pointers(error) == [
        (RuleCode.TOO_MANY_QUALITIES_OF_TYPE, "/qualities/2"),
        (RuleCode.TOO_MANY_QUALITIES_OF_TYPE, "/qualities/3"),
        (RuleCode.SITUATIONAL_OUT_OF_RANGE, "/situational"),
    ]
    assert error.code is RuleCode.TOO_MANY_QUALITIES_OF_TYPE


def test_section_6_3_strict_with_nothing_wrong_resolves():
    """§6.3: strict changes nothing for a check within the guidelines (±5 inclusive)."""
    result = check(strict=True, situational=(sit("Wind", -5),), roll=faces(18), target=10)
    assert result.yield_ == 13
    assert result.warnings == ()


def test_section_6_3_second_quality_at_half_in_a_check():
    """§6.3: a second experiential +5 adds +2 to the check."""
    result = check(qualities=(q("Guild", EXPR, 5), q("Kodokan", EXPR, 6)), roll=faces(10))
    assert [line.applied for line in result.modifiers] == [2, 6]
    assert result.total_modifier == 8
    assert result.warnings == ()


# --- impairment and conditions (§3.2.3–§3.2.5, §7.6) ----------------------------------


def test_section_3_2_3_impairment_is_a_modifier_line():
    """§3.2.3/§2.2.4: health 31 of 42 gives −2 as an impairment line."""
    result = check(target=15, depletable=(health(31),), roll=faces(16))
    impairment = [line for line in result.modifiers if line.source is ModifierSource.IMPAIRMENT]
    assert len(impairment) == 1
    line = impairment[0]
    assert (line.name, line.type, line.magnitude, line.applied) == ("health", None, -2, -2)
    assert result.total_modifier == -2
    assert result.yield_ == 14
    assert result.outcome is Outcome.FAILURE


def test_section_3_2_3_major_impairment_in_a_check():
    """§3.2.3: health 21 of 42 gives −5."""
    result = check(depletable=(health(21),), roll=faces(10))
    assert result.total_modifier == -5


def test_section_3_2_3_healthy_score_adds_no_line():
    """§3.2.3: health 32 of 42 is above the three-quarter mark: no impairment line."""
    result = check(depletable=(health(32),), roll=faces(10))
    assert result.modifiers == ()
    assert result.total_modifier == 0


def test_section_7_6_only_the_greatest_impairment_applies():
    """§7.6: health −2 (31/42) and faith −5 (10/20): only −5 applies; −2 shows applied 0."""
    result = check(
        depletable=(health(31), health(10, maximum=20, name="faith")),
        roll=faces(10),
    )
    lines = [(line.name, line.magnitude, line.applied) for line in result.modifiers]
    assert lines == [("health", -2, 0), ("faith", -5, -5)]
    assert result.modifiers[0].note
    assert result.modifiers[1].note is None
    assert result.total_modifier == -5


def test_section_7_6_greatest_impairment_whichever_order():
    """§7.6: the greater impairment wins when listed first, too."""
    result = check(
        depletable=(health(20), health(14, maximum=20, name="faith")),
        roll=faces(10),
    )
    assert [(line.name, line.applied) for line in result.modifiers] == [
        ("health", -5),
        ("faith", 0),
    ]
    assert result.total_modifier == -5


def test_section_7_6_equal_impairments_are_not_cumulative():
    """§7.6: two −2 impairments give −2, not −4."""
    result = check(
        depletable=(health(30), health(15, maximum=20, name="faith")),
        roll=faces(10),
    )
    assert sorted(line.applied for line in result.modifiers) == [-2, 0]
    assert result.total_modifier == -2


@pytest.mark.parametrize("current", [10, 1])
def test_section_3_2_4_incapacitated_character_cannot_check(current):
    """§3.2.4: health 10 of 42 (one quarter rounded down) or less: no check."""
    error = refusal(depletable=(health(current),), roll=faces(10))
    assert codes_and_pointers(error) == [
        (RuleCode.CHARACTER_INCAPACITATED, "/depletable/0/current")
    ]
    assert error.code == "character-incapacitated"


def test_section_3_2_4_eleven_of_42_can_still_check():
    """§3.2.4: 11 of 42 is above the quarter mark: the check goes ahead at −5."""
    result = check(depletable=(health(11),), roll=faces(10))
    assert result.total_modifier == -5


@pytest.mark.parametrize("current", [0, -7])
def test_section_3_2_5_retired_character_cannot_check(current):
    """§3.2.5: a score of 0 or less means retired: no check."""
    error = refusal(depletable=(health(current),), roll=faces(10))
    assert codes_and_pointers(error) == [(RuleCode.CHARACTER_RETIRED, "/depletable/0/current")]
    assert error.code == "character-retired"


def test_section_3_2_5_pointer_names_the_second_depletable():
    """§3.2.5 with §7.6: the pointer names which depletable quality retires the character."""
    error = refusal(
        depletable=(health(40), health(0, maximum=20, name="faith")),
        roll=faces(10),
    )
    assert codes_and_pointers(error) == [(RuleCode.CHARACTER_RETIRED, "/depletable/1/current")]


def test_section_3_2_6_current_above_maximum_is_refused():
    """§3.2.6: a score above its maximum is impossible: current-above-maximum."""
    error = refusal(depletable=(health(43),), roll=faces(10))
    assert codes_and_pointers(error) == [(RuleCode.CURRENT_ABOVE_MAXIMUM, "/depletable/0/current")]


def test_section_7_6_same_depletable_twice_is_refused():
    """§7.6: two depletable qualities, not one listed twice (names compared ignoring case)."""
    error = refusal(depletable=(health(40), health(30, name="Health")), roll=faces(10))
    assert codes_and_pointers(error) == [(RuleCode.DUPLICATE_DEPLETABLE, "/depletable/1/name")]


# --- depletion (§2.4.2, §3.2.2, §7.6) ---------------------------------------------------


def test_section_3_2_2_failure_depletes_the_actor_book_thresholds():
    """§3.2.2/§3.2.3: 35 of 42, a failure by 4 depletes 4 → 31, impaired −2."""
    result = check(
        target=15,
        depletable=(health(35),),
        depletion=DepletionAtIssue(),
        roll=faces(11),
    )
    assert result.spread == -4
    depletion = result.depletion
    assert depletion is not None
    assert depletion.loser is Loser.ACTOR
    assert depletion.amount == 4
    assert len(depletion.after) == 1
    after = depletion.after[0]
    assert (after.name, after.current, after.maximum) == ("health", 31, 42)
    assert (after.impairment, after.state) == (-2, State.IMPAIRED)


def test_section_2_4_2_threat_and_protection_adjust_the_spread():
    """§2.4.2/§3.2.2: Δ −6, opposition threat +5, actor protection −3 → 8 lost (35 → 27)."""
    result = check(
        target=20,
        depletable=(health(35),),
        depletion=DepletionAtIssue(
            opposition=DepletionSide(threat=5),
            actor=DepletionSide(depletion_modifier=-3),
        ),
        roll=faces(14),
    )
    assert result.spread == -6
    assert result.depletion.loser is Loser.ACTOR
    assert result.depletion.amount == 8
    assert result.depletion.after[0].current == 27
    assert result.depletion.after[0].impairment == -2


def test_section_3_2_2_only_a_positive_result_depletes():
    """§3.2.2: Δ −2 with protection −5 gives −3: nothing is lost."""
    result = check(
        target=12,
        depletable=(health(40),),
        depletion=DepletionAtIssue(actor=DepletionSide(depletion_modifier=-5)),
        roll=faces(10),
    )
    assert result.depletion.loser is Loser.ACTOR
    assert result.depletion.amount == 0
    assert result.depletion.after[0].current == 40
    assert result.depletion.after[0].state is State.HEALTHY


def test_section_2_4_2_success_depletes_the_opposition():
    """§2.4.2: Δ +9 with the actor's threat +5 against protection −2: opposition loses 12."""
    result = check(
        target=12,
        qualities=(q("Sword", QualityType.MATERIAL, 3),),
        depletable=(health(35),),
        depletion=DepletionAtIssue(
            actor=DepletionSide(threat=5, depletion_modifier=-4),
            opposition=DepletionSide(threat=10, depletion_modifier=-2),
        ),
        roll=faces(18),
    )
    assert result.spread == 9
    assert result.depletion.loser is Loser.OPPOSITION
    assert result.depletion.amount == 12
    # The actor keeps their score.
    after = result.depletion.after[0]
    assert (after.current, after.impairment, after.state) == (35, 0, State.HEALTHY)


def test_section_2_4_2_stalemate_depletes_nobody():
    """§2.4.2 decision: Δ = 0 → loser none, amount 0, even with a big threat."""
    result = check(
        target=13,
        depletable=(health(35),),
        depletion=DepletionAtIssue(opposition=DepletionSide(threat=20)),
        roll=faces(13),
    )
    assert result.outcome is Outcome.STALEMATE
    assert result.depletion.loser is Loser.NONE
    assert result.depletion.amount == 0
    assert result.depletion.after[0].current == 35


def test_section_3_2_4_depletion_can_incapacitate():
    """§3.2.4: 35 of 42 losing 25 → 10: incapacitated."""
    result = check(target=26, depletable=(health(35),), depletion=DepletionAtIssue(), roll=faces(1))
    assert result.depletion.amount == 25
    after = result.depletion.after[0]
    assert (after.current, after.impairment, after.state) == (10, -5, State.INCAPACITATED)


def test_section_3_2_5_depletion_can_retire():
    """§3.2.5: 12 of 42 (impaired −5) losing 20 → −8: retired."""
    result = check(
        target=20,
        depletable=(health(12),),
        depletion=DepletionAtIssue(opposition=DepletionSide(threat=10)),
        roll=faces(15),
    )
    # yield 15 − 5 impairment = 10; Δ −10; 10 + threat 10 = 20 lost.
    assert result.yield_ == 10
    assert result.depletion.amount == 20
    after = result.depletion.after[0]
    assert (after.current, after.state) == (-8, State.RETIRED)


def test_section_3_2_1_depletion_without_a_given_score_has_no_after():
    """§3.2.1: depletion at issue without the actor's score: amount only, no score after."""
    result = check(target=15, depletion=DepletionAtIssue(), roll=faces(8))
    assert result.depletion.loser is Loser.ACTOR
    assert result.depletion.amount == 7
    assert result.depletion.after == ()


def test_section_7_6_affects_both_reduces_both_in_full():
    """§7.6: a check affecting both depletable qualities reduces each by the full amount."""
    result = check(
        target=15,
        depletable=(health(40), health(18, maximum=20, name="faith")),
        depletion=DepletionAtIssue(affects=("health", "faith")),
        roll=faces(12),
    )
    assert result.depletion.amount == 3
    after = {a.name: (a.current, a.impairment, a.state) for a in result.depletion.after}
    assert after == {
        "health": (37, 0, State.HEALTHY),
        "faith": (15, -2, State.IMPAIRED),
    }


def test_section_7_6_affects_one_reduces_only_that_one():
    """§7.6: a check affecting faith only leaves health alone and out of the result."""
    result = check(
        target=15,
        depletable=(health(40), health(18, maximum=20, name="faith")),
        depletion=DepletionAtIssue(affects=("faith",)),
        roll=faces(12),
    )
    assert [(a.name, a.current) for a in result.depletion.after] == [("faith", 15)]


def test_section_7_6_affects_names_match_ignoring_case():
    """§7.6: 'HEALTH' names the depletable quality 'health'."""
    result = check(
        target=15,
        depletable=(health(40), health(18, maximum=20, name="faith")),
        depletion=DepletionAtIssue(affects=("HEALTH",)),
        roll=faces(12),
    )
    assert [(a.name, a.current) for a in result.depletion.after] == [("health", 37)]


def test_section_7_6_unknown_affects_name_is_refused():
    """§7.6: affects must name a depletable quality given: unknown-depletable."""
    error = refusal(
        depletable=(health(40),),
        depletion=DepletionAtIssue(affects=("health", "sanity")),
        roll=faces(10),
    )
    assert codes_and_pointers(error) == [(RuleCode.UNKNOWN_DEPLETABLE, "/depletion/affects/1")]


def test_section_7_6_two_depletables_need_affects():
    """§7.6: with two depletable qualities, the check must say which it affects."""
    error = refusal(
        depletable=(health(40), health(18, maximum=20, name="faith")),
        depletion=DepletionAtIssue(),
        roll=faces(10),
    )
    assert codes_and_pointers(error) == [(RuleCode.AFFECTS_REQUIRED, "/depletion/affects")]
    assert error.code == "affects-required"


def test_section_7_6_one_depletable_needs_no_affects():
    """§7.6: with one depletable quality, it is affected without naming it."""
    result = check(
        target=15, depletable=(health(40),), depletion=DepletionAtIssue(), roll=faces(10)
    )
    assert [(a.name, a.current) for a in result.depletion.after] == [("health", 35)]


# --- restoration (§3.2.6) ---------------------------------------------------------------
# A patient of maximum 40 crosses −2 at 30, −5 at 20 and is incapacitated at 10 (§3.2.3,
# §3.2.4); 12 of 40 is impaired (−5), 8 of 40 incapacitated.


def patient(current, maximum=40, name="health"):
    return Restoration(patient=DepletableScore(name=name, current=current, maximum=maximum))


def own(name="health"):
    return Restoration(depletable=name)


def after(result):
    restored = result.restoration
    state = restored.after
    return (restored.name, restored.restored, state.current, state.impairment, state.state)


def test_section_3_2_6_a_healers_success_restores_its_spread():
    """§3.2.6: a healer's check at spread +7 restores 7: the patient's 12 of 40 becomes 19,
    still at or below half (20), so still impaired −5."""
    result = check(target=10, roll=faces(17), restoration=patient(12))
    assert result.spread == 7
    assert after(result) == ("health", 7, 19, -5, State.IMPAIRED)
    assert result.restoration.after.maximum == 40
    assert result.depletion is None


def test_section_3_2_6_restoration_never_passes_the_maximum():
    """§3.2.6: a spread of +50 on 12 of 40 restores only the 28 points up to 40: healthy."""
    result = check(target=-30, roll=faces(20), restoration=patient(12))
    assert result.spread == 50
    assert after(result) == ("health", 28, 40, 0, State.HEALTHY)


def test_section_3_2_6_a_patient_at_the_maximum_gains_nothing():
    """§3.2.6: only a score below its maximum can be restored; at 40 of 40 a success
    restores 0."""
    result = check(target=10, roll=faces(17), restoration=patient(40))
    assert after(result) == ("health", 0, 40, 0, State.HEALTHY)


def test_section_3_2_6_an_incapacitated_patient_can_be_restored_by_a_healer():
    """§3.2.4, §3.2.6: 8 of 40 is incapacitated, but someone else's check may restore it:
    spread +5 brings it to 13, above the quarter mark (10) again, impaired −5."""
    result = check(target=12, roll=faces(17), restoration=patient(8))
    assert after(result) == ("health", 5, 13, -5, State.IMPAIRED)


@pytest.mark.parametrize(("die", "outcome"), [(9, Outcome.FAILURE), (10, Outcome.STALEMATE)])
def test_section_3_2_6_failure_or_stalemate_restores_nothing(die, outcome):
    """§3.2.6: only a success restores; a failure (−1) or a stalemate (0) leaves 12 of 40."""
    result = check(target=10, roll=faces(die), restoration=patient(12))
    assert result.outcome is outcome
    assert after(result) == ("health", 0, 12, -5, State.IMPAIRED)


@pytest.mark.parametrize("current", [0, -3])
def test_section_3_2_6_a_retired_patient_cannot_be_restored(current):
    """§3.2.5 decision on §3.2.6: at 0 or below the patient is out of the game: refused,
    patient-retired at the patient's current score."""
    error = refusal(target=10, roll=faces(17), restoration=patient(current))
    assert codes_and_pointers(error) == [(RuleCode.PATIENT_RETIRED, "/restoration/patient/current")]
    assert error.code == "patient-retired"


def test_section_3_2_6_patient_above_maximum_is_refused():
    """§3.2.6: the patient's score cannot be above its maximum either."""
    error = refusal(target=10, roll=faces(17), restoration=patient(41))
    assert codes_and_pointers(error) == [
        (RuleCode.CURRENT_ABOVE_MAXIMUM, "/restoration/patient/current")
    ]


def test_section_3_2_6_the_patients_own_check_restores_its_named_depletable():
    """§3.2.6: the patient's own check names its depletable score: 25 of 40 (−2, which
    applies to the check) + die 18 − 2 = 16 against 8, spread +8: 33 of 40, healthy."""
    result = check(
        target=8, depletable=(health(25, maximum=40),), roll=faces(18), restoration=own("Health")
    )
    assert [line.applied for line in result.modifiers] == [-2]
    assert result.spread == 8
    assert after(result) == ("health", 8, 33, 0, State.HEALTHY)


def test_section_3_2_6_and_7_6_own_check_restores_only_the_named_depletable():
    """§3.2.6 with §7.6: with two depletable scores the restoration names one; the other is
    neither restored nor reported. Both are at −2 (30 of 40, 12 of 20): die 16 − 2 = 14
    against 10, spread +4: faith 16 of 20, above three-quarters (15), healthy."""
    result = check(
        target=10,
        depletable=(health(30, maximum=40), health(12, maximum=20, name="faith")),
        roll=faces(16),
        restoration=own("faith"),
    )
    assert after(result) == ("faith", 4, 16, 0, State.HEALTHY)


def test_section_3_2_6_own_check_needs_a_fit_actor():
    """§3.2.4 with §3.2.6: the patient's own check is a check like any other, so an
    incapacitated patient (8 of 40) cannot make it; someone else must."""
    error = refusal(
        target=10, depletable=(health(8, maximum=40),), roll=faces(17), restoration=own()
    )
    assert codes_and_pointers(error) == [
        (RuleCode.CHARACTER_INCAPACITATED, "/depletable/0/current")
    ]


def test_section_3_2_6_own_check_names_an_unknown_depletable():
    """§3.2.6: `restoration.depletable` must name one of the actor's `depletable` scores."""
    error = refusal(
        target=10, depletable=(health(30, maximum=40),), roll=faces(17), restoration=own("faith")
    )
    assert codes_and_pointers(error) == [(RuleCode.UNKNOWN_DEPLETABLE, "/restoration/depletable")]


@pytest.mark.parametrize(
    "restoration",
    [
        Restoration(),
        Restoration(
            depletable="health",
            patient=DepletableScore(name="health", current=12, maximum=40),
        ),
    ],
    ids=["neither", "both"],
)
def test_section_3_2_6_restoration_names_exactly_one_score(restoration):
    """§3.2.6: whose score is restored must be clear: the actor's own or a patient's, not
    both and not neither (restoration-target)."""
    error = refusal(
        target=10, depletable=(health(30, maximum=40),), roll=faces(17), restoration=restoration
    )
    assert codes_and_pointers(error) == [(RuleCode.RESTORATION_TARGET, "/restoration")]


def test_section_3_2_6_restoration_with_depletion_is_refused():
    """§3.2.6 decision: a check restores or puts a depletable quality at issue (§3.2.1),
    never both: restoration-with-depletion."""
    error = refusal(
        target=10, roll=faces(17), restoration=patient(12), depletion=DepletionAtIssue()
    )
    assert codes_and_pointers(error) == [(RuleCode.RESTORATION_WITH_DEPLETION, "/restoration")]


def test_section_3_2_6_every_restoration_refusal_at_once():
    """§3.2.6: like every refusal, the restoration's are all listed together."""
    error = refusal(
        target=10,
        quick10=True,
        depletion=DepletionAtIssue(),
        restoration=Restoration(),
    )
    assert codes_and_pointers(error) == [
        (RuleCode.QUICK10_WITH_DEPLETION, "/quick10"),
        (RuleCode.RESTORATION_WITH_DEPLETION, "/restoration"),
        (RuleCode.RESTORATION_TARGET, "/restoration"),
    ]


def test_section_2_5_and_3_2_6_quick10_may_restore():
    """§2.5 with §3.2.6: a Quick 10 is allowed on a restoring check: 10 against 5, +5."""
    result = check(target=5, quick10=True, restoration=patient(12))
    assert (result.die_result, result.spread) == (10, 5)
    assert after(result) == ("health", 5, 17, -5, State.IMPAIRED)


def test_section_3_2_6_no_restoration_asked_none_reported():
    """§3.2.6: a check without a restoration block reports `restoration` as None."""
    assert check(target=10, roll=faces(17)).restoration is None


# --- properties ------------------------------------------------------------------------

RANGES = {
    DiceKind.D20: (1, 20, 1, 20),
    DiceKind.TWO_D10: (2, 10, 2, 20),
    DiceKind.THREE_D6: (3, 6, 3, 18),
    DiceKind.FOUR_D6_MINUS_4: (4, 6, 0, 20),
}


@st.composite
def requests(draw):
    kind = draw(st.sampled_from(list(DiceKind)))
    count, sides, _, _ = RANGES[kind]
    source = draw(st.sampled_from(["server", "seed", "faces", "quick10"]))
    fields = {
        "target": draw(st.integers(min_value=-100, max_value=200)),
        "dice": kind,
        "qualities": tuple(
            draw(
                st.lists(
                    st.builds(
                        Quality,
                        name=st.sampled_from(["a", "b", "c"]),
                        type=st.sampled_from(list(QualityType)),
                        magnitude=st.integers(min_value=-20, max_value=20),
                    ),
                    max_size=6,
                )
            )
        ),
        "situational": tuple(
            draw(
                st.lists(
                    st.builds(
                        Situational,
                        label=st.just("s"),
                        magnitude=st.integers(min_value=-8, max_value=8),
                    ),
                    max_size=3,
                )
            )
        ),
    }
    if draw(st.booleans()):
        maximum = draw(st.integers(min_value=20, max_value=60))
        current = draw(st.integers(min_value=maximum // 4 + 1, max_value=maximum))
        fields["depletable"] = (DepletableScore(name="health", current=current, maximum=maximum),)
    if source == "quick10":
        fields["quick10"] = True
    else:
        fields["bullseye"] = draw(st.booleans())
        if source == "seed":
            fields["seed"] = draw(st.integers(min_value=0, max_value=2**53 - 1))
        elif source == "faces":
            shown = draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
            fields["roll"] = SuppliedRoll(faces=tuple(shown))
    return CheckRequest(**fields)


@settings(max_examples=150, deadline=None)
@given(request=requests(), seed=st.integers(min_value=0, max_value=2**32))
def test_section_2_1_2_property_yield_spread_outcome(request, seed):
    """§2.1.2: Y = die result + total modifier, total = Σ applied; §2.4: Δ = Y − T; §2.1: the
    sign of Δ gives the outcome; §5.1/§6.5: the player narrates only a success."""
    result = resolve_check(request, random.Random(seed), "p")
    assert result.total_modifier == sum(line.applied for line in result.modifiers)
    assert result.yield_ == result.die_result + result.total_modifier
    assert result.spread == result.yield_ - request.target
    if result.spread > 0:
        assert result.outcome is Outcome.SUCCESS
        assert result.narrator is Narrator.PLAYER
    elif result.spread < 0:
        assert result.outcome is Outcome.FAILURE
        assert result.narrator is Narrator.GM
    else:
        assert result.outcome is Outcome.STALEMATE
        assert result.narrator is Narrator.GM


@settings(max_examples=150, deadline=None)
@given(request=requests(), seed=st.integers(min_value=0, max_value=2**32))
def test_section_7_1_property_die_result_within_the_dice_range(request, seed):
    """§7.1: a rolled die result lies within the kind's range; §2.5 Quick 10 is 10;
    §7.2 a bullseye is 20."""
    result = resolve_check(request, random.Random(seed), "p")
    count, sides, low, high = RANGES[request.dice]
    if request.quick10:
        assert (result.die_result, result.faces) == (10, ())
        return
    assert len(result.faces) == count
    assert all(1 <= face <= sides for face in result.faces)
    if request.bullseye:
        assert result.die_result == 20
    else:
        assert low <= result.die_result <= high
        assert result.die_result == sum(result.faces) - (4 if count == 4 else 0)
    if request.roll is not None:
        assert result.faces == request.roll.faces
