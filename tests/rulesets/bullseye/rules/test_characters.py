"""Character creation (§3.3) and its variants (§7.3, §7.4, §7.6) through validate_character.

Every expected number is written out by hand from the book's prices: an additional quality
costs 2 points per +1 (§3.3.3), the depletable quality 1 point per point above 20 (§3.3.4),
the depletion modifier 4 points per −1 (§3.3.5).
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from service.rulesets.bullseye.rules.characters import (
    Character,
    DepletableQuality,
    Points,
    Quality,
    SheetCode,
    Variants,
    budget_for,
    points_for,
    validate_character,
)
from service.rulesets.bullseye.rules.conditions import Thresholds
from service.rulesets.bullseye.rules.modifiers import QualityType

CORE = QualityType.CORE
INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL
MATL = QualityType.MATERIAL
NEG = QualityType.NEGATIVE
BOUGHT = (INTR, EXPR, MATL)

PLAIN = Variants()
DURING_PLAY = Variants(define_during_play=True)  # §7.3
TWO_DEPLETABLES = Variants(multiple_depletables=True)  # §7.6


def q(name, type_, magnitude):
    return Quality(name=name, type=type_, magnitude=magnitude)


def dq(name, maximum):
    return DepletableQuality(name=name, maximum=maximum)


# The free part of a sheet: the +8 core and the three +7 starting qualities (§3.3.3).
FREE = (
    q("Keep the lighthouse lit", CORE, 8),
    q("Salt-cured stamina", INTR, 7),
    q("Ten winters on the ferry", EXPR, 7),
    q("Grandmother's brass sextant", MATL, 7),
)


NERVE = (dq("Nerve", 20),)


def sheet(*extra, qualities=None, depletable=NERVE, depletion_modifier=0, **fields):
    """A sheet with the free qualities (or ``qualities``), then ``extra`` qualities."""
    fields.setdefault("name", "Maren Oakhollow")
    return Character(
        qualities=(FREE if qualities is None else tuple(qualities)) + tuple(extra),
        depletable=tuple(depletable),
        depletion_modifier=depletion_modifier,
        **fields,
    )


def full_sheet():
    """Exactly 60 points: additionals +4, +3, +3 (20), depletable 40 (20), modifier −5 (20)."""
    return sheet(
        q("Reads the tide by smell", INTR, 4),
        q("Knots for every weather", EXPR, 3),
        q("A rowboat named Patience", MATL, 3),
        depletable=(dq("Nerve", 40),),
        depletion_modifier=-5,
    )


def validate(character, variants=PLAIN, previous=None, **kwargs):
    return validate_character(character, variants, previous, **kwargs)


def violations(report):
    return [(finding.code, finding.pointer) for finding in report.violations]


def warnings(report):
    return [(finding.code, finding.pointer) for finding in report.warnings]


# --- a complete sheet ----------------------------------------------------------------------


def test_section_3_3_a_sheet_spending_exactly_60_is_valid_and_silent():
    """§3.3.2–§3.3.5: 20 on qualities + 20 on the depletable + 20 on the modifier = 60."""
    report = validate(full_sheet())
    assert report.valid is True
    assert report.violations == ()
    assert report.warnings == ()
    assert report.points == Points(
        budget=60, spent=60, remaining=0, qualities=20, depletable=20, depletion_modifier=20
    )


# --- budget (§3.3.2, §7.4) -----------------------------------------------------------------


def test_section_3_3_2_budget_is_60_points():
    """§3.3.2: players have 60 points to spend."""
    assert budget_for(PLAIN) == 60
    assert validate(sheet()).points.budget == 60


@pytest.mark.parametrize(
    ("conflicts", "budget"),
    [(0, 60), (9, 60), (10, 61), (19, 61), (25, 62), (100, 70)],
)
def test_section_7_4_one_more_point_per_10_conflicts(conflicts, budget):
    """§7.4: 1 additional creation point per 10 conflicts (9 → 60, 10 → 61, 25 → 62)."""
    variants = Variants(advancement_conflicts=conflicts)
    assert budget_for(variants) == budget
    assert validate(sheet(), variants).points.budget == budget


def test_section_7_4_advancement_point_can_be_spent():
    """§7.4: with 10 conflicts a 61-point sheet is valid; with 9 it is 1 point over."""
    character = sheet(
        q("Reads the tide by smell", INTR, 4),
        q("Knots for every weather", EXPR, 3),
        q("A rowboat named Patience", MATL, 3),
        depletable=(dq("Nerve", 41),),
        depletion_modifier=-5,
    )
    advanced = validate(character, Variants(advancement_conflicts=10))
    assert advanced.valid is True
    assert (advanced.points.spent, advanced.points.remaining) == (61, 0)
    short = validate(character, Variants(advancement_conflicts=9))
    assert violations(short) == [(SheetCode.OVER_BUDGET, "/character")]
    assert (short.points.spent, short.points.remaining) == (61, -1)


# --- the core quality (§3.3.3) -------------------------------------------------------------


def test_section_3_3_3_core_quality_is_free():
    """§3.3.3: the +8 core and the three +7 starting qualities cost nothing."""
    report = validate(sheet())
    assert report.valid is True
    assert report.points == Points(
        budget=60, spent=0, remaining=60, qualities=0, depletable=0, depletion_modifier=0
    )


def test_section_3_3_3_core_missing():
    """§3.3.3: every PC has one core quality; without one the sheet is invalid."""
    report = validate(sheet(qualities=FREE[1:]))
    assert report.valid is False
    assert violations(report) == [(SheetCode.CORE_MISSING, "/character/qualities")]


def test_section_3_3_3_second_core_is_not_allowed():
    """§3.3.3: no additional core qualities; the second one is pointed at."""
    report = validate(sheet(q("Never owe a debt", CORE, 8)))
    assert violations(report) == [(SheetCode.CORE_NOT_UNIQUE, "/character/qualities/4")]


def test_section_3_3_3_third_core_is_also_reported():
    """§3.3.3: every core beyond the first is reported, each at its own index."""
    report = validate(sheet(q("Never owe a debt", CORE, 8), q("Always answer a signal", CORE, 8)))
    assert violations(report) == [
        (SheetCode.CORE_NOT_UNIQUE, "/character/qualities/4"),
        (SheetCode.CORE_NOT_UNIQUE, "/character/qualities/5"),
    ]


@pytest.mark.parametrize("magnitude", [7, 9, 0, -8])
def test_section_3_3_3_core_is_always_plus_8(magnitude):
    """§3.3.3: the core modifier may be neither increased nor decreased."""
    report = validate(sheet(qualities=(q("Keep the lighthouse lit", CORE, magnitude), *FREE[1:])))
    assert violations(report) == [(SheetCode.CORE_MAGNITUDE, "/character/qualities/0/magnitude")]
    assert report.points.qualities == 0


# --- starting and additional qualities (§3.3.3) --------------------------------------------


@pytest.mark.parametrize(
    ("missing", "kind"), [(1, "intrinsic"), (2, "experiential"), (3, "material")]
)
def test_section_3_3_3_starting_quality_missing(missing, kind):
    """§3.3.3: PCs start with one intrinsic, one experiential and one material quality at +7."""
    qualities = [quality for index, quality in enumerate(FREE) if index != missing]
    report = validate(sheet(qualities=qualities))
    assert violations(report) == [(SheetCode.STARTING_QUALITY_MISSING, "/character/qualities")]
    assert kind in report.violations[0].detail


def test_section_3_3_3_starting_quality_below_7_is_an_additional_and_the_starting_one_is_missing():
    """§3.3.3: an intrinsic quality at +5 is not the +7 starting one; it is bought (10 points)."""
    report = validate(sheet(qualities=(FREE[0], q("Wiry", INTR, 5), *FREE[2:])))
    assert violations(report) == [(SheetCode.STARTING_QUALITY_MISSING, "/character/qualities")]
    assert report.points.qualities == 10


def test_section_3_3_3_starting_quality_may_come_after_an_additional_one():
    """§3.3.3: the +7 of a type is the starting one wherever it sits; the +2 costs 4."""
    report = validate(sheet(qualities=(FREE[0], q("Wiry", INTR, 2), *FREE[1:])))
    assert report.valid is True
    assert report.points.qualities == 4


@pytest.mark.parametrize(("magnitude", "cost"), [(1, 2), (3, 6), (5, 10), (6, 12)])
@pytest.mark.parametrize("kind", BOUGHT)
def test_section_3_3_3_additional_quality_costs_2_per_plus_1(kind, magnitude, cost):
    """§3.3.3: 2 points per +1 of an additional quality: +3 costs 6."""
    report = validate(sheet(q("Second nature", kind, magnitude)))
    assert report.valid is True
    assert report.points.qualities == cost
    assert report.points.spent == cost
    assert report.points.remaining == 60 - cost


def test_section_3_3_3_two_additionals_of_each_type_cost_their_sum():
    """§3.3.3: +1 and +2 intrinsic (6), +3 and +4 experiential (14), +5 and +6 material (22)."""
    report = validate(
        sheet(
            q("Quick hands", INTR, 1),
            q("Keen ears", INTR, 2),
            q("Signal lamp code", EXPR, 3),
            q("Storm rigging", EXPR, 4),
            q("Oilskin coat", MATL, 5),
            q("Spare lantern", MATL, 6),
        )
    )
    assert report.points.qualities == 42
    assert report.valid is True


@pytest.mark.parametrize("kind", BOUGHT)
def test_section_3_3_3_second_plus_7_is_an_additional_out_of_range(kind):
    """§3.3.3: only one starting quality per type; another +7 is additional and above +6."""
    report = validate(sheet(q("Second wind", kind, 7)))
    assert violations(report) == [
        (SheetCode.ADDITIONAL_OUT_OF_RANGE, "/character/qualities/4/magnitude")
    ]


@pytest.mark.parametrize("magnitude", [0, -1, -4])
@pytest.mark.parametrize("kind", BOUGHT)
def test_section_3_3_3_additional_zero_or_negative_is_out_of_range(kind, magnitude):
    """§3.3.3: an additional quality is bought at +1 or more; 0 or below is out of range."""
    report = validate(sheet(q("Half-remembered", kind, magnitude)))
    assert violations(report) == [
        (SheetCode.ADDITIONAL_OUT_OF_RANGE, "/character/qualities/4/magnitude")
    ]
    assert report.points.qualities == 0


def test_section_3_3_3_additional_above_6_is_out_of_range():
    """§3.3.3: additional qualities may not be higher than +6."""
    report = validate(sheet(q("Unshakeable", EXPR, 9)))
    assert violations(report) == [
        (SheetCode.ADDITIONAL_OUT_OF_RANGE, "/character/qualities/4/magnitude")
    ]


@pytest.mark.parametrize("kind", BOUGHT)
def test_section_3_3_3_three_of_a_type_is_the_limit(kind):
    """§3.3.3: including the starting one, three of a type is allowed."""
    report = validate(sheet(q("First extra", kind, 1), q("Second extra", kind, 1)))
    assert report.valid is True
    assert report.points.qualities == 4


@pytest.mark.parametrize("kind", BOUGHT)
def test_section_3_3_3_fourth_of_a_type_is_too_many(kind):
    """§3.3.3: no more than three of a type, the starting one included: the 4th is refused."""
    report = validate(
        sheet(q("First extra", kind, 1), q("Second extra", kind, 1), q("Third extra", kind, 1))
    )
    assert violations(report) == [(SheetCode.TOO_MANY_OF_TYPE, "/character/qualities/6")]


def test_section_7_3_three_additionals_leave_no_room_for_the_starting_quality():
    """§3.3.3 with §7.3: at most two *additional* qualities of a type. Three bought intrinsic
    qualities and the +7 starting one still owed would make four, so the third additional is
    already too many, even while the starting one is not yet defined."""
    report = validate(
        sheet(
            q("Steady grip", INTR, 2),
            q("Long stride", INTR, 2),
            q("Sharp eyes", INTR, 2),
            qualities=(FREE[0], FREE[2], FREE[3]),
        ),
        DURING_PLAY,
    )
    assert (SheetCode.TOO_MANY_OF_TYPE, "/character/qualities/5") in violations(report)
    assert report.valid is False


# --- the depletable quality (§3.3.4, §7.6) -------------------------------------------------


@pytest.mark.parametrize(("maximum", "cost"), [(20, 0), (21, 1), (35, 15), (60, 40)])
def test_section_3_3_4_depletable_costs_1_per_point_above_20(maximum, cost):
    """§3.3.4: starts at 20, +1 per point spent: 15 points buy a score of 35."""
    report = validate(sheet(depletable=(dq("Nerve", maximum),)))
    assert report.valid is True
    assert report.points.depletable == cost


@pytest.mark.parametrize("maximum", [19, 0, 61, 80])
def test_section_3_3_4_depletable_out_of_range(maximum):
    """§3.3.4: a depletable score starts at 20 and may not be higher than 60."""
    report = validate(sheet(depletable=(dq("Nerve", maximum),)))
    assert violations(report) == [
        (SheetCode.DEPLETABLE_OUT_OF_RANGE, "/character/depletable/0/maximum")
    ]


def test_section_3_3_4_depletable_missing():
    """§3.3.4: every PC has a depletable quality."""
    report = validate(sheet(depletable=()))
    assert violations(report) == [(SheetCode.DEPLETABLE_COUNT, "/character/depletable")]


def test_section_3_3_4_two_depletables_without_7_6():
    """§3.3.4: exactly one depletable quality unless §7.6 is in play."""
    report = validate(sheet(depletable=(dq("Nerve", 20), dq("Faithfulness", 20))))
    assert violations(report) == [(SheetCode.DEPLETABLE_COUNT, "/character/depletable")]


def test_section_7_6_two_depletables_bought_from_the_same_budget():
    """§7.6: two depletable qualities, each from 20: 30 and 25 cost 10 + 5 = 15."""
    report = validate(sheet(depletable=(dq("Nerve", 30), dq("Resolve", 25))), TWO_DEPLETABLES)
    assert report.valid is True
    assert report.points.depletable == 15
    assert report.points.spent == 15
    assert report.points.remaining == 45


def test_section_7_6_both_depletables_maxed_out_exceed_the_budget():
    """§7.6: one budget pays for both: 40 + 40 = 80 points is 20 over."""
    report = validate(sheet(depletable=(dq("Nerve", 60), dq("Resolve", 60))), TWO_DEPLETABLES)
    assert violations(report) == [(SheetCode.OVER_BUDGET, "/character")]
    assert report.points.depletable == 80
    assert report.points.remaining == -20


@pytest.mark.parametrize("count", [1, 3])
def test_section_7_6_needs_exactly_two_depletables(count):
    """§7.6: each PC possesses two depletable qualities; one or three is wrong."""
    names = ("Nerve", "Resolve", "Patience")[:count]
    report = validate(sheet(depletable=[dq(name, 20) for name in names]), TWO_DEPLETABLES)
    assert violations(report) == [(SheetCode.DEPLETABLE_COUNT, "/character/depletable")]


def test_section_7_6_second_depletable_out_of_range_points_at_it():
    """§3.3.4 applies to each of the §7.6 depletables: the second one at 65 is reported."""
    report = validate(sheet(depletable=(dq("Nerve", 20), dq("Resolve", 65))), TWO_DEPLETABLES)
    assert (SheetCode.DEPLETABLE_OUT_OF_RANGE, "/character/depletable/1/maximum") in violations(
        report
    )


# --- the depletion modifier (§3.3.5) -------------------------------------------------------


@pytest.mark.parametrize(("modifier", "cost"), [(0, 0), (-1, 4), (-5, 20), (-10, 40)])
def test_section_3_3_5_depletion_modifier_costs_4_per_minus_1(modifier, cost):
    """§3.3.5: −1 for every 4 points: 20 points buy −5."""
    report = validate(sheet(depletion_modifier=modifier))
    assert report.points.depletion_modifier == cost
    assert report.points.spent == cost
    assert (SheetCode.DEPLETION_MODIFIER_OUT_OF_RANGE, "/character/depletion_modifier") not in (
        violations(report)
    )


@pytest.mark.parametrize("modifier", [1, 3, -11, -20])
def test_section_3_3_5_depletion_modifier_out_of_range(modifier):
    """§3.3.5: starts at −0 and may not be better than −10; positive values are not allowed."""
    report = validate(sheet(depletion_modifier=modifier))
    assert (SheetCode.DEPLETION_MODIFIER_OUT_OF_RANGE, "/character/depletion_modifier") in (
        violations(report)
    )


def test_section_3_3_5_depletion_modifier_minus_10_alone_is_within_budget():
    """§3.3.5: −10 costs 40 of the 60 points; the rest is unspent."""
    report = validate(sheet(depletion_modifier=-10))
    assert report.valid is True
    assert report.points.remaining == 20


# --- spending (§3.3.2, §7.3) ---------------------------------------------------------------


def test_section_3_3_2_over_budget_is_a_violation():
    """§3.3.2: 60 points and no more: 24 + 20 + 20 = 64 is 4 too many."""
    report = validate(
        sheet(
            q("Reads the tide by smell", INTR, 6),
            q("Knots for every weather", EXPR, 3),
            q("A rowboat named Patience", MATL, 3),
            depletable=(dq("Nerve", 40),),
            depletion_modifier=-5,
        )
    )
    assert report.valid is False
    assert violations(report) == [(SheetCode.OVER_BUDGET, "/character")]
    assert report.points == Points(
        budget=60, spent=64, remaining=-4, qualities=24, depletable=20, depletion_modifier=20
    )
    assert "4" in report.violations[0].detail


def test_section_3_3_2_unspent_points_are_a_warning():
    """§3.3.2 (decision): leaving points unspent is allowed, with a warning saying how many."""
    report = validate(sheet(depletable=(dq("Nerve", 35),)))
    assert report.valid is True
    assert warnings(report) == [(SheetCode.POINTS_UNSPENT, "/character")]
    assert report.points.remaining == 45
    assert "45" in report.warnings[0].detail


def test_section_7_3_unspent_points_are_expected_no_warning():
    """§7.3: points are assigned during play, so unspent points draw no warning."""
    report = validate(sheet(depletable=(dq("Nerve", 35),)), DURING_PLAY)
    assert report.valid is True
    assert report.warnings == ()
    assert report.points.remaining == 45


def test_section_7_3_over_budget_is_still_a_violation():
    """§7.3: points may be assigned later, but never more than the budget."""
    report = validate(sheet(depletable=(dq("Nerve", 60),), depletion_modifier=-6), DURING_PLAY)
    assert violations(report) == [(SheetCode.OVER_BUDGET, "/character")]
    assert report.points.spent == 64


def test_section_7_3_nothing_defined_yet_is_valid_with_warnings():
    """§7.3: a blank sheet is fine during play: core, starting and depletable not yet defined."""
    report = validate(sheet(qualities=(), depletable=()), DURING_PLAY)
    assert report.valid is True
    assert report.violations == ()
    assert warnings(report) == [
        (SheetCode.NOT_YET_DEFINED, "/character/qualities"),
        (SheetCode.NOT_YET_DEFINED, "/character/qualities"),
        (SheetCode.NOT_YET_DEFINED, "/character/qualities"),
        (SheetCode.NOT_YET_DEFINED, "/character/qualities"),
        (SheetCode.NOT_YET_DEFINED, "/character/depletable"),
    ]
    assert report.points.spent == 0


@pytest.mark.parametrize(
    ("variants", "codes"),
    [
        (PLAIN, [SheetCode.CORE_MISSING, SheetCode.STARTING_QUALITY_MISSING]),
        (DURING_PLAY, []),
    ],
)
def test_section_7_3_missing_core_and_starting_are_warnings_only_during_play(variants, codes):
    """§3.3.3 vs §7.3: a missing core or starting quality is a violation, unless defined in play."""
    report = validate(sheet(qualities=(FREE[2], FREE[3])), variants)
    assert [code for code, _ in violations(report)] == codes


def test_section_7_3_missing_depletable_is_a_warning_during_play():
    """§3.3.4 vs §7.3: the depletable quality may also be defined later."""
    report = validate(sheet(depletable=()), DURING_PLAY)
    assert report.valid is True
    assert warnings(report) == [(SheetCode.NOT_YET_DEFINED, "/character/depletable")]


def test_section_7_3_and_7_6_one_of_two_depletables_not_yet_defined():
    """§7.6 with §7.3: one of the two depletables may still be missing (a warning)."""
    report = validate(sheet(), Variants(define_during_play=True, multiple_depletables=True))
    assert report.valid is True
    assert warnings(report) == [(SheetCode.NOT_YET_DEFINED, "/character/depletable")]


def test_section_7_3_too_many_depletables_is_still_a_violation():
    """§3.3.4 with §7.3: defining later never allows more than one depletable."""
    report = validate(sheet(depletable=(dq("Nerve", 20), dq("Resolve", 20))), DURING_PLAY)
    assert violations(report) == [(SheetCode.DEPLETABLE_COUNT, "/character/depletable")]


# --- negative qualities (decision on §3.1.1) -----------------------------------------------


@pytest.mark.parametrize("magnitude", [-1, -4, -10])
def test_section_3_1_1_negative_quality_is_free_with_a_warning(magnitude):
    """§3.1.1 (decision): negative qualities −1…−10 are allowed and neither cost nor refund."""
    base = full_sheet()
    report = validate(
        replace(base, qualities=(*base.qualities, q("Afraid of deep water", NEG, magnitude)))
    )
    assert report.valid is True
    assert warnings(report) == [(SheetCode.NEGATIVE_QUALITY_FREE, "/character/qualities/7")]
    assert report.points.spent == 60
    assert report.points.qualities == 20


@pytest.mark.parametrize("magnitude", [0, -11, 2])
def test_section_3_1_1_negative_quality_out_of_range(magnitude):
    """§3.1.1 (decision): a negative quality lies in −1…−10; 0, −11 or a bonus is refused."""
    report = validate(sheet(q("Afraid of deep water", NEG, magnitude)))
    assert violations(report) == [
        (SheetCode.NEGATIVE_OUT_OF_RANGE, "/character/qualities/4/magnitude")
    ]
    assert report.points.qualities == 0


def test_section_3_1_1_negative_qualities_do_not_count_against_the_per_type_limit():
    """§3.3.3 limits intrinsic, experiential and material; four negative qualities are fine."""
    report = validate(sheet(*(q(f"Flaw {n}", NEG, -1) for n in range(4))))
    assert report.violations == ()
    assert [code for code, _ in warnings(report)].count(SheetCode.NEGATIVE_QUALITY_FREE) == 4


# --- names (§3.3 decision) -----------------------------------------------------------------


@pytest.mark.parametrize("name", [" ", "   ", "\t\n"])
def test_section_3_3_blank_character_name(name):
    """§3.3 (decision): names are non-blank; whitespace only is blank."""
    report = validate(replace(full_sheet(), name=name))
    assert violations(report) == [(SheetCode.BLANK_NAME, "/character/name")]


def test_section_3_3_blank_quality_and_depletable_names():
    """§3.3 (decision): every quality and depletable quality needs a name."""
    report = validate(sheet(q("  ", INTR, 1), depletable=(dq(" ", 20),)))
    assert violations(report) == [
        (SheetCode.BLANK_NAME, "/character/qualities/4/name"),
        (SheetCode.BLANK_NAME, "/character/depletable/0/name"),
    ]


@pytest.mark.parametrize(
    "again", ["Salt-cured stamina", "SALT-CURED STAMINA", " salt-cured Stamina "]
)
def test_section_3_3_duplicate_quality_name_case_insensitive(again):
    """§3.3 (decision): quality names are unique per character, ignoring case; the later
    one is reported."""
    report = validate(sheet(q(again, EXPR, 2)))
    assert violations(report) == [(SheetCode.DUPLICATE_QUALITY_NAME, "/character/qualities/4/name")]


def test_section_3_3_duplicate_names_across_types_are_duplicates_too():
    """§3.3 (decision): uniqueness is per character, not per type (core vs negative here)."""
    report = validate(sheet(q("keep the lighthouse lit", NEG, -2)))
    assert (SheetCode.DUPLICATE_QUALITY_NAME, "/character/qualities/4/name") in violations(report)


def test_section_7_6_duplicate_depletable_names():
    """§7.6 with the names decision: two depletables called alike are reported at the later."""
    report = validate(sheet(depletable=(dq("Nerve", 20), dq("nerve", 20))), TWO_DEPLETABLES)
    assert violations(report) == [
        (SheetCode.DUPLICATE_DEPLETABLE_NAME, "/character/depletable/1/name")
    ]


def test_section_3_3_names_longer_than_120_characters_are_refused_on_decode():
    """§3.3 (decision): names have at most 120 characters (enforced when decoding)."""
    document = {
        "name": "x" * 120,
        "qualities": [{"name": "y" * 120, "type": "core", "magnitude": 8}],
    }
    assert msgspec.convert(document, Character).name == "x" * 120
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({**document, "name": "x" * 121}, Character)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {"name": "x", "qualities": [{"name": "y" * 121, "type": "core", "magnitude": 8}]},
            Character,
        )


# --- established qualities (§7.3) ----------------------------------------------------------


def test_section_7_3_removed_established_quality():
    """§7.3: once written on the sheet a quality stays; removing it points into ``previous``."""
    previous = sheet(q("Knots for every weather", EXPR, 3))
    report = validate(sheet(), DURING_PLAY, previous)
    assert violations(report) == [(SheetCode.ESTABLISHED_QUALITY_REMOVED, "/previous/qualities/4")]


@pytest.mark.parametrize(
    "changed",
    [q("Knots for every weather", EXPR, 4), q("Knots for every weather", INTR, 3)],
    ids=["magnitude", "type"],
)
def test_section_7_3_changed_established_quality(changed):
    """§7.3: an established quality cannot be changed (magnitude or type); pointer into the
    current sheet, at the quality's new index."""
    previous = sheet(q("Knots for every weather", EXPR, 3))
    current = sheet(q("Salt in the blood", MATL, 1), changed)
    report = validate(current, DURING_PLAY, previous)
    assert violations(report) == [(SheetCode.ESTABLISHED_QUALITY_CHANGED, "/character/qualities/5")]


def test_section_7_3_adding_a_new_quality_is_fine():
    """§7.3: qualities are established during play; adding one is the point of the variant."""
    previous = sheet(qualities=(FREE[0], FREE[1]), depletable=())
    current = sheet(q("Knots for every weather", EXPR, 3))
    report = validate(current, DURING_PLAY, previous)
    assert report.valid is True
    assert report.violations == ()


def test_section_7_3_reordering_and_recasing_established_qualities_is_not_a_change():
    """§7.3: qualities are matched by name (case-insensitive), not by position."""
    previous = sheet()
    current = sheet(qualities=(FREE[3], FREE[2], q("salt-cured STAMINA", INTR, 7), FREE[0]))
    report = validate(current, DURING_PLAY, previous)
    assert report.valid is True


def test_section_7_3_every_established_change_is_reported():
    """§7.3: one removed and one changed quality are both reported."""
    previous = sheet(q("Knots for every weather", EXPR, 3), q("Oilskin coat", MATL, 2))
    current = sheet(q("Oilskin coat", MATL, 5))
    report = validate(current, DURING_PLAY, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_QUALITY_REMOVED, "/previous/qualities/4"),
        (SheetCode.ESTABLISHED_QUALITY_CHANGED, "/character/qualities/4"),
    ]


def test_section_7_3_previous_without_the_variant_is_ignored_with_a_warning():
    """§7.3: ``previous`` only matters when qualities are defined during play."""
    previous = sheet(q("Knots for every weather", EXPR, 3))
    report = validate(full_sheet(), PLAIN, previous)
    assert report.valid is True
    assert warnings(report) == [(SheetCode.PREVIOUS_IGNORED, "/previous")]


def test_section_7_3_custom_prefixes_for_pointers():
    """§7.3: pointers follow the prefixes a caller gives (used by parties)."""
    previous = sheet(q("Knots for every weather", EXPR, 3))
    report = validate(sheet(), DURING_PLAY, previous, prefix="/a", previous_prefix="/b")
    assert violations(report) == [(SheetCode.ESTABLISHED_QUALITY_REMOVED, "/b/qualities/4")]


# --- established depletable maximum and depletion modifier (§7.3, §7.4) --------------------

ADVANCED = Variants(define_during_play=True, advancement_conflicts=10)  # §7.4: one point


@pytest.mark.parametrize("maximum", [35, 25], ids=["raised", "lowered"])
def test_section_7_3_established_depletable_maximum_cannot_change(maximum):
    """§7.3: a depletable quality on the previous sheet is established with its maximum
    (30); without advancement neither a rise nor a fall is allowed; pointer into the sheet."""
    previous = sheet(depletable=(dq("Nerve", 30),))
    report = validate(sheet(depletable=(dq("Nerve", maximum),)), DURING_PLAY, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_DEPLETABLE_CHANGED, "/character/depletable/0/maximum")
    ]


def test_section_7_3_established_depletable_cannot_be_removed():
    """§7.3: removing an established depletable quality points into ``previous``, like a
    removed quality; a renamed one is a removal (names are what match)."""
    previous = sheet(depletable=(dq("Nerve", 20),))
    report = validate(sheet(depletable=(dq("Grit", 20),)), DURING_PLAY, previous)
    assert (SheetCode.ESTABLISHED_DEPLETABLE_REMOVED, "/previous/depletable/0") in violations(
        report
    )
    assert [code for code, _ in violations(report)] == [SheetCode.ESTABLISHED_DEPLETABLE_REMOVED]


def test_section_7_3_defining_a_depletable_during_play_is_fine():
    """§7.3: a depletable quality missing from the previous sheet is being defined now, at
    any maximum the budget allows."""
    previous = sheet(depletable=())
    report = validate(sheet(depletable=(dq("Nerve", 34),)), DURING_PLAY, previous)
    assert report.valid is True


def test_section_7_3_and_7_6_depletables_match_by_name_not_position():
    """§7.3 with §7.6: two depletable qualities, reordered and recased, are unchanged; the
    pointer of a changed one follows its index on the new sheet."""
    variants = Variants(define_during_play=True, multiple_depletables=True)
    previous = sheet(depletable=(dq("Nerve", 20), dq("Faith", 24)))
    same = sheet(depletable=(dq("faith", 24), dq("NERVE", 20)))
    assert validate(same, variants, previous).valid is True
    changed = sheet(depletable=(dq("Faith", 22), dq("Nerve", 20)))
    assert violations(validate(changed, variants, previous)) == [
        (SheetCode.ESTABLISHED_DEPLETABLE_CHANGED, "/character/depletable/0/maximum")
    ]


def test_section_7_4_advancement_may_raise_an_established_depletable():
    """§7.4 decision: with an advancement point earned (10 conflicts), an established
    maximum may rise (20 → 21, paid with that point)."""
    previous = sheet(depletable=(dq("Nerve", 20),))
    report = validate(sheet(depletable=(dq("Nerve", 21),)), ADVANCED, previous)
    assert report.valid is True
    assert report.points.budget == 61


def test_section_7_4_advancement_never_lowers_an_established_depletable():
    """§7.4 decision: advancement only adds points, so a maximum never falls (30 → 25)."""
    previous = sheet(depletable=(dq("Nerve", 30),))
    report = validate(sheet(depletable=(dq("Nerve", 25),)), ADVANCED, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_DEPLETABLE_CHANGED, "/character/depletable/0/maximum")
    ]
    assert "never lower" in report.violations[0].detail


def test_section_7_4_nine_conflicts_earn_no_point_so_no_rise():
    """§7.4 decision: advancement explains a change only once a point is earned; with 9
    conflicts none is, and raising the maximum is still a §7.3 violation."""
    variants = Variants(define_during_play=True, advancement_conflicts=9)
    previous = sheet(depletable=(dq("Nerve", 20),))
    report = validate(sheet(depletable=(dq("Nerve", 21),)), variants, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_DEPLETABLE_CHANGED, "/character/depletable/0/maximum")
    ]


@pytest.mark.parametrize("now", [-3, -1, 0], ids=["improved", "worsened", "reset"])
def test_section_7_3_established_depletion_modifier_cannot_change(now):
    """§7.3: a depletion modifier already bought (−2) is established; without advancement it
    may not change at all; pointer at the modifier."""
    previous = sheet(depletion_modifier=-2)
    report = validate(sheet(depletion_modifier=now), DURING_PLAY, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_DEPLETION_MODIFIER_CHANGED, "/character/depletion_modifier")
    ]


def test_section_7_3_a_zero_depletion_modifier_is_not_yet_established():
    """§7.3 decision: a previous 0 is the modifier before any point went into it, so buying
    it during play (0 → −2, 8 points) defines it rather than changes it."""
    previous = sheet(depletion_modifier=0)
    report = validate(sheet(depletion_modifier=-2), DURING_PLAY, previous)
    assert report.valid is True


def test_section_7_4_advancement_may_improve_the_depletion_modifier():
    """§7.4 decision: with advancement points earned (40 conflicts: 4 points) an established
    −2 may improve to −3 (4 points)."""
    variants = Variants(define_during_play=True, advancement_conflicts=40)
    previous = sheet(depletion_modifier=-2)
    report = validate(sheet(depletion_modifier=-3), variants, previous)
    assert report.valid is True


@pytest.mark.parametrize("now", [-1, 0])
def test_section_7_4_advancement_never_worsens_the_depletion_modifier(now):
    """§7.4 decision: advancement only adds points; an established −2 never goes back up."""
    previous = sheet(depletion_modifier=-2)
    report = validate(sheet(depletion_modifier=now), ADVANCED, previous)
    assert violations(report) == [
        (SheetCode.ESTABLISHED_DEPLETION_MODIFIER_CHANGED, "/character/depletion_modifier")
    ]
    assert "never worsen" in report.violations[0].detail


def test_section_7_3_every_established_change_at_once_with_quality_changes():
    """§7.3: a removed quality, a changed maximum and a changed modifier, all reported."""
    previous = sheet(
        q("Knots for every weather", EXPR, 3),
        depletable=(dq("Nerve", 24),),
        depletion_modifier=-1,
    )
    current = sheet(depletable=(dq("Nerve", 22),), depletion_modifier=-2)
    assert violations(validate(current, DURING_PLAY, previous)) == [
        (SheetCode.ESTABLISHED_QUALITY_REMOVED, "/previous/qualities/4"),
        (SheetCode.ESTABLISHED_DEPLETABLE_CHANGED, "/character/depletable/0/maximum"),
        (SheetCode.ESTABLISHED_DEPLETION_MODIFIER_CHANGED, "/character/depletion_modifier"),
    ]


def test_section_7_3_depletable_changes_without_the_variant_are_not_compared():
    """§7.3: ``previous`` is compared only when qualities are defined during play."""
    previous = sheet(depletable=(dq("Nerve", 30),), depletion_modifier=-2)
    report = validate(full_sheet(), PLAIN, previous)
    assert report.valid is True
    assert warnings(report) == [(SheetCode.PREVIOUS_IGNORED, "/previous")]


# --- every violation at once ---------------------------------------------------------------


def test_section_3_3_every_violation_is_reported_at_once():
    """§3.3: one sheet breaking many rules gets every violation in one report."""
    character = Character(
        name="  ",
        qualities=(
            q("Salt-cured stamina", INTR, 7),
            q("Ten winters on the ferry", EXPR, 7),
            q("Grandmother's brass sextant", MATL, 7),
            q("ten winters on the ferry", EXPR, 0),
            q("Afraid of deep water", NEG, -15),
        ),
        depletable=(dq("Nerve", 75),),
        depletion_modifier=-14,
    )
    report = validate(character)
    assert report.valid is False
    assert sorted(violations(report)) == sorted(
        [
            (SheetCode.BLANK_NAME, "/character/name"),
            (SheetCode.DUPLICATE_QUALITY_NAME, "/character/qualities/3/name"),
            (SheetCode.CORE_MISSING, "/character/qualities"),
            (SheetCode.ADDITIONAL_OUT_OF_RANGE, "/character/qualities/3/magnitude"),
            (SheetCode.NEGATIVE_OUT_OF_RANGE, "/character/qualities/4/magnitude"),
            (SheetCode.DEPLETABLE_OUT_OF_RANGE, "/character/depletable/0/maximum"),
            (SheetCode.DEPLETION_MODIFIER_OUT_OF_RANGE, "/character/depletion_modifier"),
            (SheetCode.OVER_BUDGET, "/character"),
        ]
    )
    assert report.points.spent == 111


def test_findings_carry_a_detail_sentence():
    """Every finding explains itself in a non-empty sentence."""
    report = validate(Character(name=" ", depletion_modifier=3), DURING_PLAY, sheet())
    assert report.violations
    assert all(finding.detail.strip() for finding in report.violations + report.warnings)


# --- conditions (§3.2.3, §3.2.4) -----------------------------------------------------------


def test_section_3_2_3_conditions_of_the_depletable_at_its_maximum():
    """§3.2.3/§3.2.4: maximum 44 → −2 at 33, −5 at 22, incapacitated at 11."""
    report = validate(sheet(depletable=(dq("Nerve", 44),)))
    assert len(report.conditions) == 1
    condition = report.conditions[0]
    assert (condition.name, condition.maximum) == ("Nerve", 44)
    assert condition.thresholds == Thresholds(minor=33, major=22, incapacitated=11)


def test_section_7_6_conditions_for_each_depletable():
    """§7.6: each depletable has its own thresholds: 44 → 33/22/11, 30 → 22/15/7."""
    report = validate(sheet(depletable=(dq("Nerve", 44), dq("Resolve", 30))), TWO_DEPLETABLES)
    assert [(c.name, c.maximum) for c in report.conditions] == [("Nerve", 44), ("Resolve", 30)]
    assert [c.thresholds for c in report.conditions] == [
        Thresholds(minor=33, major=22, incapacitated=11),
        Thresholds(minor=22, major=15, incapacitated=7),
    ]


def test_section_3_2_3_no_conditions_without_a_depletable():
    """§3.2.3: no depletable quality, no thresholds."""
    assert validate(sheet(depletable=()), DURING_PLAY).conditions == ()


# --- points_for directly -------------------------------------------------------------------


def test_section_3_3_points_for_counts_the_three_purchases():
    """§3.3.3–§3.3.5: +5 intrinsic (10), depletable 35 (15), modifier −2 (8) = 33 of 60."""
    points = points_for(
        sheet(q("Wiry", INTR, 5), depletable=(dq("Nerve", 35),), depletion_modifier=-2), PLAIN
    )
    assert points == Points(
        budget=60, spent=33, remaining=27, qualities=10, depletable=15, depletion_modifier=8
    )


# --- properties ----------------------------------------------------------------------------

NAMES = st.sampled_from(["Ash", "ash", "Birch", "Cedar", "Dune", "Elm", "Fern", " ", "Gale"])


@st.composite
def sheets(draw):
    qualities = draw(
        st.lists(
            st.builds(
                Quality,
                name=NAMES,
                type=st.sampled_from(list(QualityType)),
                magnitude=st.integers(min_value=-12, max_value=12),
            ),
            max_size=14,
        )
    )
    depletable = draw(
        st.lists(
            st.builds(DepletableQuality, name=NAMES, maximum=st.integers(0, 80)),
            max_size=3,
        )
    )
    return Character(
        name=draw(st.sampled_from(["Maren", " ", "Tobin"])),
        qualities=tuple(qualities),
        depletable=tuple(depletable),
        depletion_modifier=draw(st.integers(min_value=-12, max_value=2)),
    )


VARIANTS = st.builds(
    Variants,
    define_during_play=st.booleans(),
    advancement_conflicts=st.integers(min_value=0, max_value=200),
    multiple_depletables=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(character=sheets(), variants=VARIANTS, previous=st.none() | sheets())
def test_section_3_3_property_points_add_up(character, variants, previous):
    """§3.3.2–§3.3.5: qualities + depletable + depletion modifier = spent; remaining =
    budget − spent."""
    points = validate(character, variants, previous).points
    assert points.qualities + points.depletable + points.depletion_modifier == points.spent
    assert points.remaining == points.budget - points.spent
    assert min(points.qualities, points.depletable, points.depletion_modifier) >= 0


@settings(max_examples=300, deadline=None)
@given(character=sheets(), variants=VARIANTS, previous=st.none() | sheets())
def test_section_3_3_2_property_valid_sheets_stay_within_budget(character, variants, previous):
    """§3.3.2: no valid sheet spends more than its budget."""
    report = validate(character, variants, previous)
    if report.valid:
        assert report.points.spent <= report.points.budget
        assert report.points.remaining >= 0


@settings(max_examples=300, deadline=None)
@given(character=sheets(), variants=VARIANTS, previous=st.none() | sheets())
def test_section_3_3_property_valid_exactly_when_no_violations(character, variants, previous):
    """§3.3: a sheet is valid exactly when it has no violation; warnings never invalidate."""
    report = validate(character, variants, previous)
    assert report.valid is (report.violations == ())
    assert all(
        finding.pointer.startswith(("/character", "/previous")) for finding in report.violations
    )
