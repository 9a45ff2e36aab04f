"""Group depletable quality (§7.5) through validate_party, with §7.3 and §7.6 where they meet.

Decision (docs/bullseye.md, §7.5): the group score is 20 plus the points every member contributes,
each member paying its contribution from its own 60-point budget.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rulesets.bullseye.rules.characters import (
    Character,
    DepletableQuality,
    Quality,
    SheetCode,
    Variants,
)
from service.rulesets.bullseye.rules.conditions import Thresholds
from service.rulesets.bullseye.rules.modifiers import QualityType
from service.rulesets.bullseye.rules.parties import (
    GroupDepletable,
    PartyMember,
    PartyValidation,
    validate_party,
)

CORE = QualityType.CORE
INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL
MATL = QualityType.MATERIAL

TWO_DEPLETABLES = Variants(multiple_depletables=True)  # §7.6
DURING_PLAY = Variants(define_during_play=True)  # §7.3


def q(name, type_, magnitude):
    return Quality(name=name, type=type_, magnitude=magnitude)


def dq(name, maximum):
    return DepletableQuality(name=name, maximum=maximum)


FREE = (
    q("Finish what you start", CORE, 8),
    q("Cat-quick reflexes", INTR, 7),
    q("Years on the night desk", EXPR, 7),
    q("A borrowed press badge", MATL, 7),
)


def pc(name, *extra, depletable=(), depletion_modifier=0, qualities=FREE):
    """A sheet with the free core and starting qualities and no depletable of its own."""
    return Character(
        name=name,
        qualities=tuple(qualities) + tuple(extra),
        depletable=tuple(depletable),
        depletion_modifier=depletion_modifier,
    )


def member(character, contribution=10, previous=None):
    return PartyMember(character=character, contribution=contribution, previous=previous)


def party(*members, group="Cover story", variants=None):
    return PartyValidation(
        group_depletable=GroupDepletable(name=group),
        members=tuple(members),
        variants=Variants() if variants is None else variants,
    )


def violations(findings):
    return [(finding.code, finding.pointer) for finding in findings]


# --- the shared score ----------------------------------------------------------------------


def test_section_7_5_group_score_is_20_plus_the_contributions():
    """§7.5 (decision): 20 + 10 + 10 = 40; thresholds of 40 are 30 / 20 / 10 (§3.2.3)."""
    report = validate_party(party(member(pc("Ines Varga")), member(pc("Tomas Reyl"))))
    assert report.group.name == "Cover story"
    assert report.group.maximum == 40
    assert report.group.contributions == (10, 10)
    assert report.group.thresholds == Thresholds(minor=30, major=20, incapacitated=10)


@pytest.mark.parametrize(
    ("contributions", "maximum", "marks"),
    [
        ((0,), 20, (15, 10, 5)),
        ((0, 0, 0), 20, (15, 10, 5)),
        ((5, 7, 12), 44, (33, 22, 11)),
        ((40, 40), 100, (75, 50, 25)),
    ],
)
def test_section_7_5_group_score_and_thresholds(contributions, maximum, marks):
    """§7.5 with §3.2.3/§3.2.4: the shared score's thresholds, each rounded down."""
    members = [member(pc(f"Agent {n}"), given) for n, given in enumerate(contributions)]
    report = validate_party(party(*members))
    assert report.group.maximum == maximum
    assert report.group.contributions == contributions
    minor, major, incapacitated = marks
    assert report.group.thresholds == Thresholds(
        minor=minor, major=major, incapacitated=incapacitated
    )


def test_section_7_5_each_member_pays_its_contribution_from_its_own_budget():
    """§7.5: a member contributing 10 spends 10 points on the depletable; one contributing 25
    spends 25; each still has a 60-point budget of its own."""
    report = validate_party(party(member(pc("Ines Varga"), 10), member(pc("Tomas Reyl"), 25)))
    first, second = report.members
    assert (first.points.depletable, first.points.spent, first.points.remaining) == (10, 10, 50)
    assert (second.points.depletable, second.points.spent, second.points.remaining) == (25, 25, 35)
    assert (first.points.budget, second.points.budget) == (60, 60)
    assert report.valid is True


def test_section_7_5_contribution_counts_towards_over_budget():
    """§7.5 with §3.3.2: qualities 20 + modifier −5 (20) + contribution 25 = 65, 5 over."""
    spender = pc(
        "Ines Varga",
        q("Steady under questioning", INTR, 4),
        q("Shorthand", EXPR, 3),
        q("Pocket recorder", MATL, 3),
        depletion_modifier=-5,
    )
    report = validate_party(party(member(spender, 25), member(pc("Tomas Reyl"))))
    assert report.valid is False
    assert report.violations == ()
    assert violations(report.members[0].violations) == [
        (SheetCode.OVER_BUDGET, "/members/0/character")
    ]
    assert report.members[0].points.spent == 65
    assert report.members[0].points.depletable == 25


def test_section_7_5_member_spending_exactly_60_with_a_contribution_is_silent():
    """§7.5: 20 on qualities + 20 on the modifier + 20 into the group = 60, no warning."""
    spender = pc(
        "Ines Varga",
        q("Steady under questioning", INTR, 4),
        q("Shorthand", EXPR, 3),
        q("Pocket recorder", MATL, 3),
        depletion_modifier=-5,
    )
    report = validate_party(party(member(spender, 20)))
    assert report.valid is True
    assert report.members[0].violations == ()
    assert report.members[0].warnings == ()


def test_section_7_5_advancement_raises_every_members_budget():
    """§7.4 in a §7.5 group: 20 conflicts give every member 62 points."""
    report = validate_party(
        party(member(pc("Ines Varga")), variants=Variants(advancement_conflicts=20))
    )
    assert report.members[0].points.budget == 62


# --- own depletables in a group (§7.5, §7.6) -----------------------------------------------


def test_section_7_5_own_depletable_in_a_group_is_a_count_violation():
    """§7.5: the PCs share a single depletable score; a depletable of one's own is wrong."""
    report = validate_party(
        party(member(pc("Ines Varga")), member(pc("Tomas Reyl", depletable=(dq("Grit", 20),))))
    )
    assert report.valid is False
    assert report.members[0].valid is True
    assert violations(report.members[1].violations) == [
        (SheetCode.DEPLETABLE_COUNT, "/members/1/character/depletable")
    ]


def test_section_7_6_with_7_5_exactly_one_own_depletable_besides_the_group_one():
    """§7.6 with §7.5: two depletables each, the group's and exactly one of one's own."""
    report = validate_party(
        party(
            member(pc("Ines Varga", depletable=(dq("Grit", 30),))),
            member(pc("Tomas Reyl", depletable=(dq("Grit", 20),))),
            variants=TWO_DEPLETABLES,
        )
    )
    assert report.valid is True
    assert report.members[0].points.depletable == 20
    assert report.members[1].points.depletable == 10


@pytest.mark.parametrize("own", [0, 2])
def test_section_7_6_with_7_5_zero_or_two_own_depletables_is_a_violation(own):
    """§7.6 with §7.5: not none, not two of one's own (that would make three)."""
    depletable = [dq("Grit", 20), dq("Poise", 20)][:own]
    report = validate_party(
        party(member(pc("Ines Varga", depletable=depletable)), variants=TWO_DEPLETABLES)
    )
    assert violations(report.members[0].violations) == [
        (SheetCode.DEPLETABLE_COUNT, "/members/0/character/depletable")
    ]
    assert report.valid is False


def test_section_7_6_with_7_5_member_conditions_are_its_own_depletables_only():
    """§3.2.3 with §7.6: a member's conditions list its own depletable (44 → 33/22/11)."""
    report = validate_party(
        party(member(pc("Ines Varga", depletable=(dq("Grit", 44),))), variants=TWO_DEPLETABLES)
    )
    [condition] = report.members[0].conditions
    assert (condition.name, condition.maximum) == ("Grit", 44)
    assert condition.thresholds == Thresholds(minor=33, major=22, incapacitated=11)


def test_section_7_5_and_7_3_own_depletable_may_come_later():
    """§7.3 with §7.5 and §7.6: the own depletable not yet defined is only a warning."""
    report = validate_party(
        party(
            member(pc("Ines Varga")),
            variants=Variants(define_during_play=True, multiple_depletables=True),
        )
    )
    assert report.valid is True
    assert violations(report.members[0].warnings) == [
        (SheetCode.NOT_YET_DEFINED, "/members/0/character/depletable")
    ]


# --- pointers and names --------------------------------------------------------------------


def test_section_7_5_member_pointers_are_under_members_i_character():
    """§7.5: a member's findings point into that member: core missing at member 1."""
    report = validate_party(
        party(member(pc("Ines Varga")), member(pc("Tomas Reyl", qualities=FREE[1:])))
    )
    assert violations(report.members[1].violations) == [
        (SheetCode.CORE_MISSING, "/members/1/character/qualities")
    ]
    assert violations(report.members[0].warnings) == [
        (SheetCode.POINTS_UNSPENT, "/members/0/character")
    ]


def test_section_7_3_in_a_party_previous_pointers_are_under_members_i_previous():
    """§7.3 in a §7.5 group: a removed established quality points into that member's previous."""
    before = pc("Tomas Reyl", q("Shorthand", EXPR, 3))
    report = validate_party(
        party(
            member(pc("Ines Varga")),
            member(pc("Tomas Reyl"), previous=before),
            variants=DURING_PLAY,
        )
    )
    assert violations(report.members[1].violations) == [
        (SheetCode.ESTABLISHED_QUALITY_REMOVED, "/members/1/previous/qualities/4")
    ]
    assert report.valid is False


def test_section_7_3_in_a_party_established_modifier_points_under_members_i_character():
    """§7.3 in a §7.5 group: a member's established depletion modifier (−1 → −2, without
    advancement) is reported under that member's character."""
    report = validate_party(
        party(
            member(pc("Ines Varga")),
            member(
                pc("Tomas Reyl", depletion_modifier=-2),
                previous=pc("Tomas Reyl", depletion_modifier=-1),
            ),
            variants=DURING_PLAY,
        )
    )
    assert violations(report.members[1].violations) == [
        (
            SheetCode.ESTABLISHED_DEPLETION_MODIFIER_CHANGED,
            "/members/1/character/depletion_modifier",
        )
    ]


def test_section_7_5_duplicate_character_names_case_insensitive():
    """§7.5 (names decision): two members called alike; the later one is reported."""
    report = validate_party(
        party(member(pc("Ines Varga")), member(pc("Tomas Reyl")), member(pc(" ines VARGA")))
    )
    assert violations(report.violations) == [
        (SheetCode.DUPLICATE_CHARACTER_NAME, "/members/2/character/name")
    ]
    assert all(sheet.valid for sheet in report.members)
    assert report.valid is False


@pytest.mark.parametrize("own_name", ["Cover story", "cover STORY", "  Cover Story "])
def test_section_7_5_own_depletable_named_like_the_group_one(own_name):
    """§7.5 with §7.6: a member's own depletable may not share the group's name (any case)."""
    report = validate_party(
        party(
            member(pc("Ines Varga", depletable=(dq("Grit", 20),))),
            member(pc("Tomas Reyl", depletable=(dq(own_name, 20),))),
            variants=TWO_DEPLETABLES,
        )
    )
    assert violations(report.violations) == [
        (SheetCode.DUPLICATE_DEPLETABLE_NAME, "/members/1/character/depletable/0/name")
    ]
    assert report.valid is False


def test_section_7_5_blank_group_name():
    """§7.5 (names decision): the group depletable quality needs a name."""
    report = validate_party(party(member(pc("Ines Varga")), group="   "))
    assert violations(report.violations) == [(SheetCode.BLANK_NAME, "/group_depletable/name")]
    assert report.valid is False


# --- validity of the whole party -----------------------------------------------------------


def test_section_7_5_party_valid_when_every_member_valid_and_no_party_violation():
    """§7.5: valid members and no party violation make a valid party (warnings allowed)."""
    report = validate_party(party(member(pc("Ines Varga")), member(pc("Tomas Reyl"))))
    assert report.valid is True
    assert report.violations == ()
    assert all(sheet.valid for sheet in report.members)


def test_section_7_5_one_invalid_member_makes_the_party_invalid():
    """§7.5: a single invalid member (core at +7) invalidates the party, with no party finding."""
    bad_core = (q("Finish what you start", CORE, 7), *FREE[1:])
    report = validate_party(
        party(member(pc("Ines Varga")), member(pc("Tomas Reyl", qualities=bad_core)))
    )
    assert report.violations == ()
    assert [sheet.valid for sheet in report.members] == [True, False]
    assert report.valid is False


def test_section_7_5_every_member_and_party_violation_at_once():
    """§7.5: the report lists party violations and every member's own, all at once."""
    report = validate_party(
        party(
            member(pc("Ines Varga", depletable=(dq("cover story", 20),))),
            member(pc("Ines Varga", depletion_modifier=2)),
        )
    )
    assert sorted(violations(report.violations)) == [
        (SheetCode.DUPLICATE_CHARACTER_NAME, "/members/1/character/name"),
        (SheetCode.DUPLICATE_DEPLETABLE_NAME, "/members/0/character/depletable/0/name"),
    ]
    assert violations(report.members[0].violations) == [
        (SheetCode.DEPLETABLE_COUNT, "/members/0/character/depletable")
    ]
    assert violations(report.members[1].violations) == [
        (SheetCode.DEPLETION_MODIFIER_OUT_OF_RANGE, "/members/1/character/depletion_modifier")
    ]
    assert report.valid is False


# --- properties ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    contributions=st.lists(st.integers(min_value=0, max_value=80), min_size=1, max_size=6),
    variants=st.builds(
        Variants,
        define_during_play=st.booleans(),
        advancement_conflicts=st.integers(min_value=0, max_value=100),
        multiple_depletables=st.booleans(),
    ),
)
def test_section_7_5_property_members_pay_contributions_and_validity_is_all_members(
    contributions, variants
):
    """§7.5: each member's depletable points equal its contribution (no own depletable); the
    party is valid exactly when no party violation and every member is valid."""
    members = [member(pc(f"Agent {n}"), given) for n, given in enumerate(contributions)]
    report = validate_party(party(*members, variants=variants))
    assert report.group.contributions == tuple(contributions)
    for given_points, sheet in zip(contributions, report.members, strict=True):
        assert sheet.points.depletable == given_points
        assert sheet.points.remaining == sheet.points.budget - sheet.points.spent
        assert sheet.valid is (sheet.violations == ())
    assert report.valid is (not report.violations and all(s.valid for s in report.members))
