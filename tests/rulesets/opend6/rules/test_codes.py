"""Die codes ("Rolling Dice"): parsing, per-component arithmetic (D1), borrowing, ordering,
display normalisation and the refusal of a negative code."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.codes import DieCode, code_of, subtract

components = st.integers(min_value=0, max_value=40)
codes = st.builds(DieCode, dice=components, pips=components)


@pytest.mark.parametrize(
    ("text", "dice", "pips", "answer"),
    [
        ("3D+1", 3, 1, "3D+1"),
        ("3d+1", 3, 1, "3D+1"),
        ("4d", 4, 0, "4D"),
        ("0D+2", 0, 2, "0D+2"),
        ("40D+40", 40, 40, "40D+40"),
        ("2D+0", 2, 0, "2D"),
    ],
)
def test_a_code_parses_with_either_d_and_answers_upper_case(
    text: str, dice: int, pips: int, answer: str
) -> None:
    """ "Rolling Dice": `<dice>D[+<pips>]`, `d` accepted, written back upper-case."""
    code = code_of(text)
    assert (code.dice, code.pips) == (dice, pips)
    assert code.text == answer


@pytest.mark.parametrize("text", ["41D", "3D+41", "99d+99"])
def test_a_component_above_40_is_refused_at_its_pointer(text: str) -> None:
    with pytest.raises(RulesError) as caught:
        code_of(text, "/code")
    assert caught.value.code == "opend6/invalid-code"
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        ("opend6/invalid-code", "/code")
    ]


def test_addition_is_per_component() -> None:
    """ "Rolling Dice": 2D+2 + 1D+1 = 3D+3; pips never become dice (D1)."""
    assert code_of("2D+2").plus(code_of("1D+1")) == DieCode(dice=3, pips=3)
    assert code_of("0D+2").plus(code_of("0D+2")).text == "0D+4"


def test_a_shovel_adds_a_die_to_lifting() -> None:
    """ "Rolling Dice" (the shovel example): lifting 4D + 1D → 5D."""
    assert code_of("4D").plus(code_of("1D")).text == "5D"


def test_doubling_doubles_dice_and_pips() -> None:
    """ "Fate Points" via D1: 4D+2 → 8D+4, not 9D+1."""
    assert code_of("4D+2").doubled().text == "8D+4"


@pytest.mark.parametrize(
    ("minuend", "subtrahend", "difference"),
    [
        ("4D+1", "3D+2", "0D+2"),  # borrowing: one die becomes three pips
        ("4D+2", "1D+1", "3D+1"),
        ("3D", "0D+1", "2D+2"),
        ("3D+1", "3D+1", "0D"),
        ("0D+5", "1D", "0D+2"),  # no die to take: three pips pay for it
    ],
)
def test_subtraction_borrows_a_die_as_three_pips(
    minuend: str, subtrahend: str, difference: str
) -> None:
    assert subtract(code_of(minuend), code_of(subtrahend)).text == difference
    assert code_of(minuend).minus(code_of(subtrahend)) == code_of(difference)


@pytest.mark.parametrize(("minuend", "subtrahend"), [("3D+2", "4D+1"), ("0D+2", "0D+3")])
def test_a_negative_result_is_refused(minuend: str, subtrahend: str) -> None:
    """Codes have no negative pips or dice (D1): a penalty is a modifier, not a code."""
    assert code_of(minuend).minus(code_of(subtrahend)) is None
    with pytest.raises(RulesError) as caught:
        subtract(code_of(minuend), code_of(subtrahend), "/minus")
    assert caught.value.code == "opend6/negative-code"
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        ("opend6/negative-code", "/minus")
    ]


def test_codes_order_by_three_pips_a_die() -> None:
    """Ordering counts 3·dice + pips: 3D+2 < 4D < 4D+1, 2D+3 ties 3D."""
    ordered = sorted(["4D+1", "3D+2", "4D", "1D+2"], key=lambda t: code_of(t).in_pips)
    assert ordered == ["1D+2", "3D+2", "4D", "4D+1"]
    assert code_of("2D+3").in_pips == code_of("3D").in_pips == 9


@pytest.mark.parametrize(
    ("text", "shown"), [("4D+5", "5D+2"), ("0D+3", "1D"), ("3D+2", "3D+2"), ("0D+7", "2D+1")]
)
def test_normalising_shows_three_pips_as_a_die(text: str, shown: str) -> None:
    """Display only: the code itself keeps its pips (D1)."""
    code = code_of(text)
    assert code.normalised().text == shown
    assert code.normalised().in_pips == code.in_pips


@given(codes, codes)
def test_subtracting_undoes_adding(a: DieCode, b: DieCode) -> None:
    assert subtract(a.plus(b), b) == a
    assert a.plus(b).in_pips == a.in_pips + b.in_pips


@given(codes, codes)
def test_a_difference_exists_iff_the_subtrahend_is_no_larger(a: DieCode, b: DieCode) -> None:
    difference = a.minus(b)
    assert (difference is not None) == (b.in_pips <= a.in_pips)
    if difference is not None:
        assert difference.in_pips == a.in_pips - b.in_pips
