"""Exact odds of one roll and of an opposed pair ("Wild Die", "Character Points",
"Determining Success", "Opposed Difficulties"; docs/opend6.md, "How the odds are computed").

A roll here is its dice and nothing else: ``regular`` d6s, one Wild Die, ``cp_dice``
Character Point dice and ``pips`` (the code's pips, bonuses, related-skill modifiers:
whatever adds a fixed amount). The Wild Die and every CP die explode on a 6 (``6X + R``);
an initial 1 on the Wild Die is a Critical Failure, a CP die's 1 is plain. Under the
GM's option `cancel_highest` (D4, D5) that roll loses the Wild Die and its highest
regular die (none when there is none), the pips and CP dice stay; under `complication`
everything counts. So, with ``Pc`` the complication distribution and ``m = 1 + cp_dice``
exploding dice::

    P_cancel(t) = Pc(t) − ⅙·P(Reg + 1 + ΣCP + pips = t) + ⅙·P(Reg − max + ΣCP + pips = t)

Each term is ``6·J + (finite part)`` with ``J`` negative binomial (service.kernel.exact),
so every probability is a finite sum of Fractions: nothing is simulated, nothing
rounded until the answer's 12 decimals. Work is cached per ``(regular, cp_dice,
option)``; pips only shift a total and a difficulty only reads a cumulative sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from service.kernel.exact import (
    ExplodingSum,
    Pmf,
    combine,
    exploding,
    explosions_at_least,
    highest_of,
    mean,
    shift,
    sum_of,
    sum_without_highest,
    uniform,
)
from service.kernel.values import Value
from service.rulesets.opend6.rules.spec import CriticalFailure

__all__ = [
    "LISTING_CUTOFF",
    "ExactOpposedOdds",
    "ExactRollOdds",
    "ExactWildDieOnlyOdds",
    "OpposedOdds",
    "RollDice",
    "RollOdds",
    "SuccessOdds",
    "TailOdds",
    "TotalOdds",
    "WildDieOnlyOdds",
    "exact_odds",
    "exact_opposed_odds",
    "exact_wild_die_only_odds",
    "odds",
    "opposed_odds",
    "total_prefix",
    "wild_die_only_odds",
]

SIDES = 6
DECIMALS = 12
LISTING_CUTOFF = Fraction(1, 10**12)  # the listing stops once P(total > T) ≤ this
SIXTH = Fraction(1, SIDES)


class RollDice(Value, frozen=True, kw_only=True):
    """The dice of one roll, as the odds see them: ``regular`` d6s (the rolled code's dice
    but the Wild Die, ≥ 0), ``cp_dice`` Character Point dice (before and after pooled),
    ``pips`` (code pips, bonuses and related-skill modifiers; any sign) and the GM's
    Critical Failure option, which picks the listed distribution (D5)."""

    regular: int
    cp_dice: int = 0
    pips: int = 0
    critical_failure: CriticalFailure = CriticalFailure.CANCEL_HIGHEST


class TotalOdds(Value, frozen=True, kw_only=True):
    """One total and its probability (12 decimals)."""

    total: int
    probability: float


class TailOdds(Value, frozen=True, kw_only=True):
    """Everything past the listing: ``P(total > above)``, at most 10⁻¹²."""

    above: int
    probability: float


class SuccessOdds(Value, frozen=True, kw_only=True):
    """``P(total ≥ difficulty)`` under each Critical Failure option (D2, D5)."""

    cancel_highest: float
    complication: float


class RollOdds(Value, frozen=True, kw_only=True):
    """The odds answer of one roll (12 decimals).

    ``distribution`` and ``mean`` are those of the roll's own ``critical_failure`` option
    (default `cancel_highest`, D5); totals of probability 0 are left out (1D under
    `cancel_highest` never totals 1 or 6). ``p_success`` gives both options whenever a
    difficulty is given; ``p_success_with_complication`` is the chance that, under
    `complication`, the roll succeeds *and* the Wild Die's first toss was a 1.
    """

    distribution: tuple[TotalOdds, ...]
    tail: TailOdds
    mean: float
    p_critical_success: float
    p_critical_failure: float
    p_success: SuccessOdds | None = None
    p_success_with_complication: float | None = None


class WildDieOnlyOdds(Value, frozen=True, kw_only=True):
    """Wild Die Only (D14): one toss, no explosion: 6, 1 (a success with a complication),
    anything else."""

    critical_success: float
    success: float
    complication: float


class OpposedOdds(Value, frozen=True, kw_only=True):
    """``p_initiator_wins`` sums over the resister's totals up to its listing cut-off, so
    the true chance lies in ``[p_initiator_wins, p_initiator_wins + max_error]``."""

    p_initiator_wins: float
    max_error: float


@dataclass(frozen=True, slots=True)
class ExactRollOdds:
    """:class:`RollOdds` as Fractions. ``distribution`` is the listed prefix (pips
    applied; its window ends at ``tail_above``); ``tail`` = ``P(total > tail_above)``,
    so ``distribution.mass() + tail == 1``."""

    distribution: Pmf
    tail_above: int
    tail: Fraction
    mean: Fraction
    p_critical_success: Fraction
    p_critical_failure: Fraction
    p_success_cancel_highest: Fraction | None
    p_success_complication: Fraction | None
    p_success_with_complication: Fraction | None


@dataclass(frozen=True, slots=True)
class ExactWildDieOnlyOdds:
    """:class:`WildDieOnlyOdds` as Fractions."""

    critical_success: Fraction
    success: Fraction
    complication: Fraction


@dataclass(frozen=True, slots=True)
class ExactOpposedOdds:
    """:class:`OpposedOdds` as Fractions."""

    p_initiator_wins: Fraction
    max_error: Fraction


def exact_odds(dice: RollDice, difficulty: int | None = None) -> ExactRollOdds:
    """The exact odds of one roll; success iff total ≥ ``difficulty`` (D2).

    Raises:
        ValueError: a negative number of dice.
    """
    model = _model(dice.regular, dice.cp_dice)
    option = CriticalFailure(dice.critical_failure)
    listed, above, tail = _listing(dice.regular, dice.cp_dice, option)
    cancel = complication = with_complication = None
    if difficulty is not None:
        needed = difficulty - dice.pips
        cancel = model.at_least(CriticalFailure.CANCEL_HIGHEST, needed)
        complication = model.at_least(CriticalFailure.COMPLICATION, needed)
        with_complication = SIXTH * model.wild_one.probability_at_least(needed)
    return ExactRollOdds(
        distribution=shift(listed, dice.pips),
        tail_above=above + dice.pips,
        tail=tail,
        mean=model.mean(option) + dice.pips,
        p_critical_success=SIXTH,
        p_critical_failure=SIXTH,
        p_success_cancel_highest=cancel,
        p_success_complication=complication,
        p_success_with_complication=with_complication,
    )


def odds(dice: RollDice, difficulty: int | None = None) -> RollOdds:
    """:func:`exact_odds`, rounded to 12 decimals for the answer."""
    exact = exact_odds(dice, difficulty)
    listed = exact.distribution
    distribution = tuple(
        TotalOdds(
            total=listed.low + index, probability=round(weight / listed.denominator, DECIMALS)
        )
        for index, weight in enumerate(listed.weights)
        if weight
    )
    p_success = None
    if exact.p_success_cancel_highest is not None and exact.p_success_complication is not None:
        p_success = SuccessOdds(
            cancel_highest=_rounded(exact.p_success_cancel_highest),
            complication=_rounded(exact.p_success_complication),
        )
    with_complication = exact.p_success_with_complication
    return RollOdds(
        distribution=distribution,
        tail=TailOdds(above=exact.tail_above, probability=_rounded(exact.tail)),
        mean=_rounded(exact.mean),
        p_critical_success=_rounded(exact.p_critical_success),
        p_critical_failure=_rounded(exact.p_critical_failure),
        p_success=p_success,
        p_success_with_complication=None
        if with_complication is None
        else _rounded(with_complication),
    )


def exact_wild_die_only_odds() -> ExactWildDieOnlyOdds:
    """Wild Die Only ("Special Difficulties", D14): one fair toss, so 1/6, 4/6, 1/6."""
    return ExactWildDieOnlyOdds(critical_success=SIXTH, success=4 * SIXTH, complication=SIXTH)


def wild_die_only_odds() -> WildDieOnlyOdds:
    """:func:`exact_wild_die_only_odds`, rounded to 12 decimals."""
    exact = exact_wild_die_only_odds()
    return WildDieOnlyOdds(
        critical_success=_rounded(exact.critical_success),
        success=_rounded(exact.success),
        complication=_rounded(exact.complication),
    )


def exact_opposed_odds(
    initiator: RollDice, resister: RollDice, shift_by: int = 0
) -> ExactOpposedOdds:
    """The initiator A wins iff ``A ≥ B + shift_by`` ("Opposed Difficulties": ties to the
    initiator), ``shift_by = (uA + mA) − (uB + mB)``, each side's unskilled and difficulty
    modifiers (D17). ``Σ_b P(B = b)·P(A ≥ b + shift_by)`` over the resister's listed
    totals; ``max_error`` is the resister's tail past its listing.
    """
    resisted, above, tail = _listing(
        resister.regular, resister.cp_dice, CriticalFailure(resister.critical_failure)
    )
    # On dice alone (pips off both sides): A0 ≥ B0 + need.
    need = shift_by + resister.pips - initiator.pips
    through = above + need - 1  # the highest A0 whose cumulative chance is read
    initiating = _prefix(
        initiator.regular, initiator.cp_dice, CriticalFailure(initiator.critical_failure), through
    )
    cumulative = [0]
    for weight in initiating.weights:
        cumulative.append(cumulative[-1] + weight)
    whole_a = initiating.denominator  # P(A0 ≥ x) = (whole_a − Σ_{a<x} weight) / whole_a
    numerator = 0
    for index, weight in enumerate(resisted.weights):
        if weight:
            fewer = resisted.low + index + need - initiating.low  # how many A0 values lie below
            numerator += weight * (whole_a - cumulative[max(0, min(fewer, len(cumulative) - 1))])
    wins = Fraction(numerator, resisted.denominator * whole_a)
    return ExactOpposedOdds(p_initiator_wins=wins, max_error=tail)


def opposed_odds(initiator: RollDice, resister: RollDice, shift_by: int = 0) -> OpposedOdds:
    """:func:`exact_opposed_odds`, rounded to 12 decimals."""
    exact = exact_opposed_odds(initiator, resister, shift_by)
    return OpposedOdds(
        p_initiator_wins=_rounded(exact.p_initiator_wins), max_error=_rounded(exact.max_error)
    )


def total_prefix(dice: RollDice, through: int) -> Pmf:
    """The exact distribution of every total ≤ ``through`` under the roll's option (a
    prefix :class:`Pmf`, pips applied): for tests and for any odds this module lacks."""
    prefix = _prefix(
        dice.regular, dice.cp_dice, CriticalFailure(dice.critical_failure), through - dice.pips
    )
    return shift(prefix, dice.pips)


@dataclass(frozen=True, slots=True)
class _Model:
    """The three unbounded distributions the formula combines (pips left out):
    ``complication`` Reg + Wild + ΣCP; ``wild_one`` Reg + 1 + ΣCP, the Critical Failure
    branch as it counts under `complication`; ``cancelled`` Reg − max + ΣCP, the same
    branch under `cancel_highest`."""

    regular: int
    complication: ExplodingSum
    wild_one: ExplodingSum
    cancelled: ExplodingSum

    def at_least(self, option: CriticalFailure, threshold: int) -> Fraction:
        """``P(total ≥ threshold)`` under ``option``, exactly."""
        chance = self.complication.probability_at_least(threshold)
        if option == CriticalFailure.COMPLICATION:
            return chance
        return (
            chance
            - SIXTH * self.wild_one.probability_at_least(threshold)
            + SIXTH * self.cancelled.probability_at_least(threshold)
        )

    def prefix(self, option: CriticalFailure, through: int) -> Pmf:
        """Every total ≤ ``through`` under ``option``."""
        whole = self.complication.prefix(through)
        if option == CriticalFailure.COMPLICATION:
            return whole
        return combine(
            (
                (1, whole),
                (-SIXTH, self.wild_one.prefix(through)),
                (SIXTH, self.cancelled.prefix(through)),
            )
        )

    def mean(self, option: CriticalFailure) -> Fraction:
        """Closed form: ``7/2·r + 21/5·m``, less ``⅙·(1 + E[max of r dice])`` under
        `cancel_highest` (``⅙`` when r = 0: only the Wild Die goes, D4)."""
        dice = self.complication.count
        whole = Fraction(7, 2) * self.regular + Fraction(21, 5) * dice
        if option == CriticalFailure.COMPLICATION:
            return whole
        highest = mean(highest_of(SIDES, self.regular)) if self.regular else Fraction(0)
        return whole - SIXTH * (1 + highest)


# Bounded caches: a 120-die entry holds a few hundred kB of integers, a 30-die one tens.
@lru_cache(maxsize=128)
def _model(regular: int, cp_dice: int) -> _Model:
    if regular < 0 or cp_dice < 0:
        raise ValueError("a roll has no negative number of dice")
    reg = sum_of(uniform(1, SIDES), regular)
    return _Model(
        regular=regular,
        complication=exploding(SIDES, 1 + cp_dice, reg),
        wild_one=exploding(SIDES, cp_dice, shift(reg, 1)),
        cancelled=exploding(SIDES, cp_dice, sum_without_highest(SIDES, regular)),
    )


@lru_cache(maxsize=128)
def _listing(regular: int, cp_dice: int, option: CriticalFailure) -> tuple[Pmf, int, Fraction]:
    """The listed totals (pips left out) up to the first ``T`` with ``P(total > T) ≤
    10⁻¹²``, that ``T``, and ``P(total > T)`` from the closed form (not as 1 − the
    listing: tests check that the two agree).

    Where to look: every total is at most ``max(finite part) + 6·J`` (cancelling only
    lowers it), so once ``P(J ≥ k) ≤ 10⁻¹²``, ``T ≤ max + 6·(k − 1)``.
    """
    model = _model(regular, cp_dice)
    count = model.complication.count
    k = 1
    while explosions_at_least(SIDES, count, k) > LISTING_CUTOFF:
        k += 1
    bound = model.complication.base.high + SIDES * (k - 1)
    prefix = model.prefix(option, bound)
    denominator, running = prefix.denominator, 0
    for index, weight in enumerate(prefix.weights):
        running += weight
        if (denominator - running) * LISTING_CUTOFF.denominator <= denominator:
            above = prefix.low + index
            listed = Pmf(prefix.low, prefix.weights[: index + 1], denominator)
            return listed, above, model.at_least(option, above + 1)
    raise AssertionError("the bound on explosions holds the cut-off")  # pragma: no cover


@lru_cache(maxsize=32)
def _prefix(regular: int, cp_dice: int, option: CriticalFailure, through: int) -> Pmf:
    return _model(regular, cp_dice).prefix(option, through)


def _rounded(value: Fraction) -> float:
    """A Fraction to a float (correctly rounded by int division), then to 12 decimals."""
    return round(value.numerator / value.denominator, DECIMALS)
