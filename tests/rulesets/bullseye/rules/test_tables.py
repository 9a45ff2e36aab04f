"""The six narrative tables (§2.1.3, §2.2.1, §2.3.1, §2.4.1, §2.4.3, §3.1.4) and the band rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rulesets.bullseye.rules.tables import TABLES, TableName, band, labeller

# The book's rows: value → label, written out from the book's tables.
BOOK = {
    TableName.YIELD: (
        "§2.1.3",
        {
            -5: "Abysmal",
            0: "Poor",
            5: "Mediocre",
            10: "Average",
            15: "Above Average",
            20: "Good",
            25: "Great",
            30: "Excellent",
            35: "Superb",
            40: "Peerless",
        },
    ),
    TableName.MODIFIER: (
        "§2.2.1",
        {
            -10: "Major Handicap",
            -5: "Moderate Handicap",
            -1: "Minor Hindrance",
            0: "No Effect",
            1: "Minor Boon",
            5: "Moderate Benefit",
            10: "Major Benefit",
            15: "Overwhelming Benefit",
            20: "Ultimate Benefit",
        },
    ),
    TableName.TARGET: (
        "§2.3.1",
        {
            0: "Nearly Certain",
            5: "Easy",
            10: "Average",
            15: "Hard",
            20: "Challenging",
            25: "Daunting",
            30: "Heroic",
            35: "Herculean",
            40: "Nearly Impossible",
        },
    ),
    TableName.SPREAD: (
        "§2.4.1",
        {
            -20: "Utter Catastrophe",
            -15: "Significant Failure",
            -10: "Notable Failure",
            -5: "Narrow Miss",
            0: "Mere Success",
            5: "Solid Success",
            10: "Notable Success",
            15: "Significant Success",
            20: "Flawless Victory",
        },
    ),
    TableName.DEPLETION: (
        "§2.4.3",
        {
            -20: "Virtually Harmless / Supremely Protective",
            -15: "Extremely Safe / Protective",
            -10: "Generally Safe / Protective",
            -5: "Relatively Safe / Protective",
            0: "Barely Dangerous / No Protection",
            5: "Relatively Dangerous",
            10: "Generally Dangerous",
            15: "Extremely Dangerous",
            20: "Supremely Dangerous",
        },
    ),
    TableName.MAGNITUDE: (
        "§3.1.4",
        {
            0: "Unskilled",
            1: "Minimally Trained",
            5: "Competent",
            10: "Professional",
            15: "Expert",
            20: "Peerless",
        },
    ),
}


def test_all_six_tables_exist():
    """§2.1.3, §2.2.1, §2.3.1, §2.4.1, §2.4.3, §3.1.4: six narrative tables, no more."""
    assert set(TABLES) == set(TableName)
    assert sorted(name.value for name in TableName) == [
        "depletion",
        "magnitude",
        "modifier",
        "spread",
        "target",
        "yield",
    ]


@pytest.mark.parametrize("name", list(TableName), ids=str)
def test_table_carries_its_book_section(name):
    """§2.1.3/§2.2.1/§2.3.1/§2.4.1/§2.4.3/§3.1.4: each table names the section it comes from."""
    assert TABLES[name].name is name
    assert TABLES[name].section == BOOK[name][0]
    assert TABLES[name].title


@pytest.mark.parametrize(
    ("name", "values"),
    [
        (TableName.YIELD, [-5, 0, 5, 10, 15, 20, 25, 30, 35, 40]),
        (TableName.MODIFIER, [-10, -5, -1, 0, 1, 5, 10, 15, 20]),
        (TableName.TARGET, [0, 5, 10, 15, 20, 25, 30, 35, 40]),
        (TableName.SPREAD, [-20, -15, -10, -5, 0, 5, 10, 15, 20]),
        (TableName.DEPLETION, [-20, -15, -10, -5, 0, 5, 10, 15, 20]),
        (TableName.MAGNITUDE, [0, 1, 5, 10, 15, 20]),
    ],
    ids=str,
)
def test_row_values_are_the_books(name, values):
    """§2.1.3 yield −5…40 step 5; §2.2.1 −10,−5,−1,0,1,5,10,15,20; §2.3.1 0…40; §2.4.1 and
    §2.4.3 −20…20 step 5; §3.1.4 0,1,5,10,15,20 — in ascending order."""
    assert [row.value for row in TABLES[name].rows] == values


@pytest.mark.parametrize("name", list(TableName), ids=str)
def test_labels_are_the_books_words(name):
    """§2.1.3/§2.2.1/§2.3.1/§2.4.1/§2.4.3/§3.1.4: each row's label is the book's label."""
    assert {row.value: row.label for row in TABLES[name].rows} == BOOK[name][1]


@pytest.mark.parametrize("name", list(TableName), ids=str)
def test_descriptions_are_present_and_unique(name):
    """§2.1.3 etc.: every row has its own short description (the project's own words)."""
    descriptions = [row.description for row in TABLES[name].rows]
    assert all(text.strip() for text in descriptions)
    assert len(set(descriptions)) == len(descriptions)
    assert all(len(text) <= 120 for text in descriptions)


@pytest.mark.parametrize(
    ("spread", "label"),
    [
        (0, "Mere Success"),
        (1, "Mere Success"),
        (4, "Mere Success"),
        (5, "Solid Success"),
        (-1, "Narrow Miss"),
        (-5, "Narrow Miss"),
        (-6, "Notable Failure"),
        (-10, "Notable Failure"),
        (-11, "Significant Failure"),
        (19, "Significant Success"),
        (20, "Flawless Victory"),
        (31, "Flawless Victory"),
        (-20, "Utter Catastrophe"),
        (-99, "Utter Catastrophe"),
    ],
)
def test_section_2_4_1_spread_bands(spread, label):
    """§2.4.1 band rule: the highest row ≤ Δ; below the bottom row, the bottom row."""
    assert TABLES[TableName.SPREAD].label_for(spread) == label


@pytest.mark.parametrize(
    ("yield_", "label"),
    [
        (12, "Average"),
        (10, "Average"),
        (14, "Average"),
        (9, "Mediocre"),
        (-12, "Abysmal"),
        (-5, "Abysmal"),
        (-4, "Abysmal"),
        (-1, "Abysmal"),
        (0, "Poor"),
        (40, "Peerless"),
        (77, "Peerless"),
    ],
)
def test_section_2_1_3_yield_bands(yield_, label):
    """§2.1.3 band rule: yield 12 is Average; −12, below the table, is Abysmal."""
    assert TABLES[TableName.YIELD].label_for(yield_) == label


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (-11, "Major Handicap"),
        (-2, "Moderate Handicap"),
        (-1, "Minor Hindrance"),
        (2, "Minor Boon"),
    ],
)
def test_section_2_2_1_modifier_bands_with_uneven_rows(value, label):
    """§2.2.1 band rule across the uneven rows −5, −1, 0, +1, +5."""
    assert TABLES[TableName.MODIFIER].label_for(value) == label


@pytest.mark.parametrize(
    ("value", "label"), [(-3, "Nearly Certain"), (17, "Hard"), (100, "Nearly Impossible")]
)
def test_section_2_3_1_target_bands(value, label):
    """§2.3.1 band rule, including below the bottom row."""
    assert TABLES[TableName.TARGET].label_for(value) == label


@pytest.mark.parametrize(
    ("value", "label"),
    [
        (-3, "Relatively Safe / Protective"),
        (7, "Relatively Dangerous"),
        (-25, "Virtually Harmless / Supremely Protective"),
    ],
)
def test_section_2_4_3_depletion_bands(value, label):
    """§2.4.3 band rule, including below the bottom row."""
    assert TABLES[TableName.DEPLETION].label_for(value) == label


@pytest.mark.parametrize(("value", "label"), [(3, "Minimally Trained"), (7, "Competent")])
def test_section_3_1_4_magnitude_bands(value, label):
    """§3.1.4: a +7 quality (the usual PC maximum) reads as Competent."""
    assert TABLES[TableName.MAGNITUDE].label_for(value) == label


def test_band_returns_the_whole_row():
    """§2.4.1: band() gives the row itself (value, label and description)."""
    row = band(TABLES[TableName.SPREAD], 7)
    assert (row.value, row.label) == (5, "Solid Success")
    assert row.description


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(list(TableName)), value=st.integers(min_value=-1000, max_value=1000))
def test_band_rule_property(name, value):
    """§2.1.3/§2.2.1/§2.3.1/§2.4.1/§2.4.3/§3.1.4 band rule (docs/bullseye.md): highest row ≤ value,
    else the bottom row."""
    rows = BOOK[name][1]
    at_or_below = [v for v in rows if v <= value]
    expected_value = max(at_or_below) if at_or_below else min(rows)
    row = band(TABLES[name], value)
    assert row.value == expected_value
    assert row.label == rows[expected_value]


@pytest.mark.parametrize("name", list(TableName))
def test_labeller_follows_the_band_rule_at_every_value(name):
    """The band rule (§2.1.3 and the other tables) through ``labeller``, the prepared lookup
    a check labels its yield, target and spread with: the same label as ``label_for`` at
    every row's edge, between rows and below the bottom row."""
    table = TABLES[name]
    label = labeller(table)
    for value in range(-300, 301):
        assert label(value) == table.label_for(value), value
