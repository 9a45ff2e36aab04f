"""§6.3 (with §2.2.2–§2.2.3): how many qualities of a type count, and the situational range."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.modifiers import (
    CAPPED_TYPES,
    SITUATIONAL_RANGE,
    ModifierSource,
    Quality,
    QualityType,
    Situational,
    half_toward_zero,
    quality_modifiers,
    situational_modifiers,
)

INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL
MATL = QualityType.MATERIAL
NEG = QualityType.NEGATIVE


def q(name, type_, magnitude):
    return Quality(name=name, type=type_, magnitude=magnitude)


def applied(lines):
    return [line.applied for line in lines]


@pytest.mark.parametrize(
    ("magnitude", "half"),
    [(5, 2), (4, 2), (3, 1), (1, 0), (0, 0), (-1, 0), (-3, -1), (-4, -2), (-5, -2), (7, 3)],
)
def test_section_6_3_half_rounded_toward_zero(magnitude, half):
    """§6.3 decision: half of a second quality, rounded toward zero (+5 → +2, −3 → −1)."""
    assert half_toward_zero(magnitude) == half


def test_section_6_3_one_quality_of_a_type_applies_in_full():
    """§6.3 / §2.2.2: a single relevant quality applies its whole magnitude."""
    lines, concerns = quality_modifiers([q("Strong like bull", INTR, 5)])
    assert applied(lines) == [5]
    assert concerns == []
    line = lines[0]
    assert line.source is ModifierSource.QUALITY
    assert (line.name, line.type, line.magnitude, line.note) == ("Strong like bull", INTR, 5, None)


def test_section_6_3_second_of_a_type_at_half_rounded_toward_zero():
    """§6.3: a second intrinsic +5 after a +6 adds +2, with a reason."""
    lines, concerns = quality_modifiers([q("Wiry", INTR, 6), q("Quick", INTR, 5)])
    assert applied(lines) == [6, 2]
    assert concerns == []
    assert lines[0].note is None
    assert lines[1].note
    assert "§6.3" in lines[1].note


def test_section_6_3_second_quality_with_a_negative_magnitude_rounds_toward_zero():
    """§6.3 decision: a second intrinsic quality of −3 (after a −4) applies −1, not −2."""
    lines, _ = quality_modifiers([q("Frail", INTR, -4), q("Short of breath", INTR, -3)])
    assert applied(lines) == [-4, -1]


def test_section_6_3_negative_qualities_are_not_capped_by_type():
    """§6.3 names only core, intrinsic, experiential and material: three `negative`
    qualities (−3, −2, −4) all apply in full, −9 in all, with no note and no concern."""
    lines, concerns = quality_modifiers(
        [q("Lame leg", NEG, -3), q("Old", NEG, -2), q("Afraid of water", NEG, -4)]
    )
    assert applied(lines) == [-3, -2, -4]
    assert sum(applied(lines)) == -9
    assert [line.note for line in lines] == [None, None, None]
    assert concerns == []


def test_section_6_3_negative_qualities_uncapped_while_experiential_still_capped():
    """§6.3: next to three uncapped negative qualities, three experiential ones still get
    the cap (full, half, not applied), and only the third experiential is a concern."""
    lines, concerns = quality_modifiers(
        [
            q("Lame leg", NEG, -3),
            q("Kodokan", EXPR, 4),
            q("Old", NEG, -2),
            q("Guild", EXPR, 3),
            q("Afraid of water", NEG, -4),
            q("Army", EXPR, 2),
        ]
    )
    assert applied(lines) == [-3, 4, -2, 1, -4, 0]
    assert [(c.code, c.pointer) for c in concerns] == [
        (RuleCode.TOO_MANY_QUALITIES_OF_TYPE, "/qualities/5")
    ]


def test_section_6_3_one_negative_next_to_one_of_each_capped_type_all_apply():
    """§6.3: the fast path (one quality per capped type) also applies negatives in full."""
    lines, concerns = quality_modifiers(
        [q("Strong", INTR, 5), q("Old", NEG, -2), q("Lame leg", NEG, -3)]
    )
    assert applied(lines) == [5, -2, -3]
    assert concerns == []


def test_section_6_3_third_of_a_type_is_not_applied_and_is_a_concern():
    """§6.3: a third experiential quality is not applied; concern at /qualities/2."""
    lines, concerns = quality_modifiers(
        [q("Kodokan", EXPR, 4), q("Guild", EXPR, 3), q("Army", EXPR, 2)],
    )
    assert applied(lines) == [4, 1, 0]
    assert lines[2].note
    assert [(c.code, c.pointer) for c in concerns] == [
        (RuleCode.TOO_MANY_QUALITIES_OF_TYPE, "/qualities/2")
    ]
    assert concerns[0].code == "too-many-qualities-of-type"
    assert "Army" in concerns[0].detail


def test_section_6_3_fourth_and_later_each_get_a_concern():
    """§6.3: every quality beyond the second of a type is refused, each with its own pointer."""
    lines, concerns = quality_modifiers([q(f"m{i}", MATL, 6 - i) for i in range(5)])
    assert applied(lines) == [6, 2, 0, 0, 0]
    assert [c.pointer for c in concerns] == ["/qualities/2", "/qualities/3", "/qualities/4"]


def test_section_6_3_first_is_the_largest_whatever_the_order_proposed():
    """§6.3 decision: the largest magnitude counts in full even if proposed last."""
    lines, concerns = quality_modifiers([q("Small", INTR, 2), q("Mid", INTR, 3), q("Big", INTR, 6)])
    # Big in full (6), Mid at half (1), Small not applied.
    assert applied(lines) == [0, 1, 6]
    assert [c.pointer for c in concerns] == ["/qualities/0"]


def test_section_6_3_first_is_the_largest_absolute_magnitude():
    """§6.3 decision: "largest" compares absolute values: −5 outranks +3 of the same type."""
    lines, _ = quality_modifiers([q("Plus", INTR, 3), q("Minus", INTR, -5)])
    assert applied(lines) == [1, -5]


def test_section_6_3_equal_magnitudes_the_earlier_proposed_counts_in_full():
    """§6.3: between equal magnitudes, the one proposed first is the first."""
    lines, concerns = quality_modifiers([q("A", EXPR, 5), q("B", EXPR, 5), q("C", EXPR, 5)])
    assert applied(lines) == [5, 2, 0]
    assert [c.pointer for c in concerns] == ["/qualities/2"]


def test_section_6_3_types_are_independent():
    """§6.3: one of each type applies in full; a second of one type does not affect others."""
    lines, concerns = quality_modifiers(
        [
            q("Avenge my pappy", QualityType.CORE, 8),
            q("Strong", INTR, 7),
            q("Army", EXPR, 7),
            q("Swiss bank", MATL, 7),
            q("Quick", INTR, 5),
            q("Guild", EXPR, 3),
        ]
    )
    assert applied(lines) == [8, 7, 7, 7, 2, 1]
    assert concerns == []


def test_section_6_3_lines_keep_the_proposed_order_and_names():
    """§6.3: every proposed quality appears in the breakdown, in the order proposed."""
    proposed = [q("c", EXPR, 1), q("a", INTR, 2), q("b", EXPR, 7), q("d", EXPR, 4)]
    lines, _ = quality_modifiers(proposed)
    assert [line.name for line in lines] == ["c", "a", "b", "d"]
    assert [line.magnitude for line in lines] == [1, 2, 7, 4]
    assert applied(lines) == [0, 2, 7, 2]


def test_section_6_3_custom_pointer_prefix():
    """§6.3: the concern's pointer follows the caller's prefix."""
    _, concerns = quality_modifiers([q("x", MATL, 1)] * 3, pointer="/checks/4/qualities")
    assert [c.pointer for c in concerns] == ["/checks/4/qualities/2"]


def test_section_6_3_no_qualities_no_lines():
    """§6.3: nothing proposed, nothing applied."""
    assert quality_modifiers([]) == ([], [])


def test_section_6_3_situational_range_is_minus_five_to_plus_five():
    """§6.3: situational modifiers total −5…+5."""
    assert SITUATIONAL_RANGE == (-5, 5)


def sit(*magnitudes):
    return [Situational(label=f"s{i}", magnitude=m) for i, m in enumerate(magnitudes)]


@pytest.mark.parametrize(
    "magnitudes",
    [(), (0,), (5,), (-5,), (3, 2), (-3, -2), (10, -5), (4, -9), (-1, 1, 5)],
)
def test_section_6_3_situational_total_inside_range_is_fine(magnitudes):
    """§6.3: a total of −5…+5 (both ends included) raises no concern."""
    lines, concerns = situational_modifiers(sit(*magnitudes))
    assert concerns == []
    assert applied(lines) == list(magnitudes)


@pytest.mark.parametrize(
    ("magnitudes", "total"), [((6,), 6), ((-6,), -6), ((3, 3), 6), ((-4, -2), -6), ((10, 5), 15)]
)
def test_section_6_3_situational_total_outside_range_is_a_concern(magnitudes, total):
    """§6.3: a total beyond ±5 is a situational-out-of-range concern at /situational."""
    lines, concerns = situational_modifiers(sit(*magnitudes))
    assert [(c.code, c.pointer) for c in concerns] == [
        (RuleCode.SITUATIONAL_OUT_OF_RANGE, "/situational")
    ]
    assert concerns[0].code == "situational-out-of-range"
    assert f"{total:+d}" in concerns[0].detail
    # Still applied as given: the caller decides between lenient and strict.
    assert applied(lines) == list(magnitudes)


def test_section_2_2_3_situational_lines_are_situational():
    """§2.2.3: situational lines carry their label, no quality type, and apply as given."""
    lines, _ = situational_modifiers([Situational(label="It's dark", magnitude=-2)])
    line = lines[0]
    assert (line.source, line.name, line.type, line.magnitude, line.applied) == (
        ModifierSource.SITUATIONAL,
        "It's dark",
        None,
        -2,
        -2,
    )


qualities_strategy = st.lists(
    st.builds(
        Quality,
        name=st.sampled_from(["a", "b", "c", "d"]),
        type=st.sampled_from(list(QualityType)),
        magnitude=st.integers(min_value=-100, max_value=100),
    ),
    max_size=10,
)


@settings(max_examples=150, deadline=None)
@given(qualities=qualities_strategy)
def test_section_6_3_property_at_most_one_full_and_one_half_per_type(qualities):
    """§6.3: per capped type, at most two lines apply; their sum is bounded by full + half
    of the two largest magnitudes; every negative quality applies in full; lines keep the
    proposed order."""
    lines, concerns = quality_modifiers(qualities)
    assert [(line.name, line.type, line.magnitude) for line in lines] == [
        (quality.name, quality.type, quality.magnitude) for quality in qualities
    ]
    for line in lines:
        if line.type is NEG:
            assert (line.applied, line.note) == (line.magnitude, None)
    for type_ in CAPPED_TYPES:
        mine = [line for line in lines if line.type == type_]
        if not mine:
            continue
        largest = sorted((abs(line.magnitude) for line in mine), reverse=True)
        bound = largest[0] + (largest[1] // 2 if len(largest) > 1 else 0)
        assert abs(sum(line.applied for line in mine)) <= bound
        assert sum(1 for line in mine if line.applied != 0) <= 2
        # Exactly one line applies in full with the largest absolute magnitude.
        full = [line for line in mine if line.note is None]
        assert len(full) == 1
        assert abs(full[0].magnitude) == largest[0]
        assert full[0].applied == full[0].magnitude
        for line in mine:
            assert abs(line.applied) <= abs(line.magnitude)
            # each applied value has the sign of its magnitude (or is zero)
            assert line.applied * line.magnitude >= 0
    expected_concerns = sum(
        max(0, sum(1 for quality in qualities if quality.type == type_) - 2)
        for type_ in CAPPED_TYPES
    )
    assert len(concerns) == expected_concerns
