""" "Standard Difficulties", "Special Difficulties" (derived), "Rushing", "Preparing", the
"Character Points" limits and the "Alternate Attribute Option" pairs (D7, D8, D9, D11)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.codes import DieCode, code_of
from service.rulesets.opend6.rules.difficulties import (
    ALTERNATE_ATTRIBUTES,
    CHARACTER_POINT_LIMITS,
    DIFFICULTY_LEVELS,
    PREPARING_STEPS,
    RUSHING_STEPS,
    AttributeName,
    Challenge,
    Level,
    alternates_for,
    character_point_limit,
    derived_difficulty,
    label_for,
    level_for,
    level_row,
    preparing_dice,
    rushing_modifier,
    standard_difficulty,
)

HOUR = 3600

# "Standard Difficulties": level → (range low, range high); Legendary has no top.
SEED_RANGES = {
    Level.AUTOMATIC: (0, 0),
    Level.VERY_EASY: (1, 5),
    Level.EASY: (6, 10),
    Level.MODERATE: (11, 15),
    Level.DIFFICULT: (16, 20),
    Level.VERY_DIFFICULT: (21, 25),
    Level.HEROIC: (26, 30),
    Level.LEGENDARY: (31, None),
}


def test_the_levels_are_the_seeds_ranges_in_order() -> None:
    """ "Standard Difficulties": the numbers in parentheses are each level's range."""
    assert {row.level: (row.minimum, row.maximum) for row in DIFFICULTY_LEVELS} == SEED_RANGES
    assert [row.level for row in DIFFICULTY_LEVELS] == list(SEED_RANGES)
    assert [row.label for row in DIFFICULTY_LEVELS] == [
        "Automatic",
        "Very Easy",
        "Easy",
        "Moderate",
        "Difficult",
        "Very Difficult",
        "Heroic",
        "Legendary",
    ]


@pytest.mark.parametrize(
    ("level", "default"),
    [
        (Level.AUTOMATIC, 0),
        (Level.VERY_EASY, 5),
        (Level.EASY, 10),
        (Level.MODERATE, 15),
        (Level.DIFFICULT, 20),
        (Level.VERY_DIFFICULT, 25),
        (Level.HEROIC, 30),
        (Level.LEGENDARY, 31),
    ],
)
def test_a_level_alone_stands_for_its_ranges_top(level: Level, default: int) -> None:
    """D8: Legendary, open-ended, stands for its first number, 31."""
    assert standard_difficulty(level) == default == level_row(level).default


def test_the_standard_intimidation_difficulty_is_easy() -> None:
    """ "Special Difficulties" (the urchin example): the standard intimidation difficulty
    of 10 is Easy, the top of its range (D8)."""
    assert label_for(10) == "Easy"
    assert level_for(10) is Level.EASY
    assert standard_difficulty(Level.EASY) == 10


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (-50, "Automatic"),
        (0, "Automatic"),
        (1, "Very Easy"),
        (5, "Very Easy"),
        (6, "Easy"),
        (11, "Moderate"),
        (15, "Moderate"),
        (16, "Difficult"),
        (21, "Very Difficult"),
        (25, "Very Difficult"),
        (26, "Heroic"),
        (30, "Heroic"),
        (31, "Legendary"),
        (200, "Legendary"),
    ],
)
def test_a_number_takes_its_ranges_label(value: int, label: str) -> None:
    """ "Standard Difficulties": 0 or below is Automatic."""
    assert label_for(value) == label


@given(st.integers(min_value=-1000, max_value=1000))
def test_every_number_lies_in_its_levels_range(value: int) -> None:
    row = level_row(level_for(value))
    if value <= 0:
        assert row.level is Level.AUTOMATIC
    else:
        assert row.minimum <= value
        assert row.maximum is None or value <= row.maximum


@pytest.mark.parametrize(
    ("level", "value"), [(Level.EASY, 6), (Level.EASY, 8), (Level.LEGENDARY, 40)]
)
def test_a_number_within_its_level_is_kept(level: Level, value: int) -> None:
    assert standard_difficulty(level, value) == value


@pytest.mark.parametrize(
    ("level", "value"),
    [(Level.EASY, 5), (Level.EASY, 11), (Level.AUTOMATIC, 1), (Level.LEGENDARY, 30)],
)
def test_a_number_outside_its_level_is_refused(level: Level, value: int) -> None:
    with pytest.raises(RulesError) as caught:
        standard_difficulty(level, value, "/difficulty")
    assert caught.value.code == "opend6/value-outside-level"
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        ("opend6/value-outside-level", "/difficulty/value")
    ]


def test_a_derived_difficulty_is_twice_the_dice_plus_the_pips() -> None:
    """ "Special Difficulties" (the urchin example): Charisma 3D → 6. D9: pips once."""
    assert derived_difficulty(code_of("3D")) == 6
    assert derived_difficulty(code_of("3D+2")) == 8
    assert derived_difficulty(code_of("0D+2")) == 2
    assert label_for(derived_difficulty(code_of("3D"))) == "Easy"


@pytest.mark.parametrize(
    ("taken", "modifier"),
    [
        (1800, 10),  # the seed's example: an hour's research in 30 minutes
        (2700, 5),  # a quarter saved
        (900, 20),  # three quarters saved, the most
        (3000, 0),  # under a quarter saved
        (2701, 0),
        (1801, 5),  # rounded down to a step (D11)
        (901, 10),
        (3600, 0),  # no time saved
        (7200, 0),  # more time is "Preparing", not rushing
    ],
)
def test_rushing_raises_the_difficulty_by_the_time_saved(taken: int, modifier: int) -> None:
    """ "Rushing": +5 for a quarter less time, +10 for half, +20 for three quarters."""
    assert rushing_modifier(HOUR, taken) == modifier


def test_rushing_below_a_quarter_of_the_time_is_refused() -> None:
    """ "Rushing": no task in less than 25% of its normal time; 899 s of an hour is."""
    with pytest.raises(RulesError) as caught:
        rushing_modifier(HOUR, 899)
    assert caught.value.code == "opend6/rush-too-far"
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        ("opend6/rush-too-far", "/time/taken_seconds")
    ]


@pytest.mark.parametrize(("normal", "taken"), [(5, 4), (5, 2), (9, 8)])
def test_a_task_under_ten_seconds_cannot_be_rushed(normal: int, taken: int) -> None:
    """ "Rushing": only tasks of two rounds (10 s) or more."""
    with pytest.raises(RulesError) as caught:
        rushing_modifier(normal, taken, "/initiator/time")
    assert caught.value.code == "opend6/rush-short-task"
    assert [c.pointer for c in caught.value.concerns] == ["/initiator/time/normal_seconds"]


def test_a_short_task_done_in_its_own_time_is_not_rushed() -> None:
    assert rushing_modifier(5, 5) == 0
    assert rushing_modifier(10, 5) == 10


def test_the_rushing_steps_are_the_seeds() -> None:
    assert [(s.saved_percent, s.modifier) for s in RUSHING_STEPS] == [
        (0, 0),
        (25, 5),
        (50, 10),
        (75, 20),
    ]


@pytest.mark.parametrize(
    ("multiple", "dice"),
    [(1, 0), (1.5, 0), (2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (16, 3), (1000, 3)],
)
def test_preparing_adds_a_die_per_whole_doubling_up_to_three(multiple: float, dice: int) -> None:
    """ "Preparing": +1D for every doubling of the time, at most +3D; ×3 is one whole
    doubling (D11)."""
    assert preparing_dice(60, int(60 * multiple)) == dice


def test_preparing_less_than_the_normal_time_adds_nothing() -> None:
    assert preparing_dice(HOUR, 1800) == 0


def test_the_preparing_steps_double_each_time() -> None:
    assert [(s.time_multiple, s.bonus_dice) for s in PREPARING_STEPS] == [
        (1, 0),
        (2, 1),
        (4, 2),
        (8, 3),
    ]


@given(
    st.integers(min_value=1, max_value=31_536_000), st.integers(min_value=1, max_value=31_536_000)
)
def test_preparing_agrees_with_the_steps(normal: int, taken: int) -> None:
    reached = [s.bonus_dice for s in PREPARING_STEPS if taken >= normal * s.time_multiple]
    assert preparing_dice(normal, taken) == max(reached, default=0)


@pytest.mark.parametrize(
    ("challenge", "limit"),
    [(Challenge.EASY, 2), (Challenge.CINEMATIC, 5), (Challenge.UNIVERSE_SHAKING, 20)],
)
def test_character_point_limits_by_challenge(challenge: Challenge, limit: int) -> None:
    """ "Character Points": easy 2, cinematic 5; "unlimited" is 20 a roll (D7)."""
    assert character_point_limit(challenge) == limit
    assert [row.challenge for row in CHARACTER_POINT_LIMITS] == list(Challenge)


def test_the_alternate_attribute_pairs_are_the_seeds() -> None:
    """ "Alternate Attribute Option": the seed's seven example lines."""
    pairs = {
        row.skills: tuple(use.attribute for use in row.attributes) for row in ALTERNATE_ATTRIBUTES
    }
    a = AttributeName
    assert pairs == {
        ("climbing", "jumping", "running", "swimming"): (a.PHYSIQUE, a.AGILITY),
        ("command",): (a.CHARISMA, a.INTELLECT),
        ("disguise",): (a.ACUMEN, a.CHARISMA),
        ("flying",): (a.PHYSIQUE, a.AGILITY),
        ("healing",): (a.INTELLECT, a.COORDINATION),
        ("riding",): (a.AGILITY, a.ACUMEN),
        ("traps",): (a.INTELLECT, a.ACUMEN),
    }


def test_a_skills_alternates_are_found_by_name() -> None:
    assert [u.attribute for u in alternates_for("Swimming")] == [
        AttributeName.PHYSIQUE,
        AttributeName.AGILITY,
    ]
    assert alternates_for("lockpicking") == ()


def test_every_description_is_short() -> None:
    """Our own words, never the seed's sentences."""
    texts = [row.description for row in DIFFICULTY_LEVELS]
    texts += [row.description for row in RUSHING_STEPS]
    texts += [row.description for row in CHARACTER_POINT_LIMITS]
    texts += [use.use for row in ALTERNATE_ATTRIBUTES for use in row.attributes]
    assert all(0 < len(text) <= 80 for text in texts)


def test_a_code_of_zero_dice_derives_its_pips() -> None:
    assert derived_difficulty(DieCode(dice=0, pips=0)) == 0
