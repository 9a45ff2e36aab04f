"""Exact odds of one roll and of an opposed pair ("Wild Die", "Character Points",
"Determining Success", "Opposed Difficulties"; docs/opend6.md, "How the odds are computed").

A roll here is its dice and nothing else: ``regular`` d6s, one Wild Die, ``cp_dice``
Character Point dice and ``pips`` (the code's pips, bonuses, related-skill modifiers:
whatever adds a fixed amount). The Wild Die and every CP die explode on a 6 (``6X + R``);
an initial 1 on the Wild Die is a Critical Failure, a CP die's 1 is plain. Under the
GM's option `complication` everything counts: ``Reg + Wild + ΣCP``, one
:class:`~service.kernel.exact.ExplodingSum` of ``m = 1 + cp_dice`` exploding dice. Under
`cancel_highest` (D4, D5) a first 1 takes away the Wild Die and the highest regular die
(none when there is none), the pips and CP dice stay; so the total is a *mixture* over the
Wild Die's first toss ``f``:

* ``f`` = 1…5 (⅚): ``ΣCP`` plus, given ``f``, ``Reg + f`` for 2…5 (⅘) or ``Reg − max`` for
  1 (⅕): ``cp_dice`` exploding dice over that finite part;
* ``f`` = 6 (⅙): ``Reg + 6 + Wild' + ΣCP``, a fresh Wild Die ``Wild'``: ``m`` exploding
  dice over ``Reg + 6``.

Each part is ``6·J + (finite part)`` with ``J`` negative binomial (service.kernel.exact),
so a point, a prefix and ``P(total ≥ t)`` are finite sums, and so is ``P(A ≥ B + s)`` of
two rolls (:func:`~service.kernel.exact.mixture_difference_at_least`): nothing is
simulated, nothing rounded until the answer's 12 decimals. Work is cached per
``(regular, cp_dice)``; pips only shift a total and a difficulty only reads a cumulative sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.chance import Chance, Exact, Probability, chance, fraction_of
from service.kernel.exact import (
    ExplodingSum,
    Pmf,
    combine,
    convolve,
    exploding,
    explosions_at_least,
    fraction_text,
    highest_of,
    mean,
    mixture_difference_at_least,
    shift,
    sum_of,
    sum_without_highest,
    uniform,
)
from service.kernel.values import Value
from service.rulesets.opend6.rules.spec import CriticalFailure

__all__ = [
    "LISTING_CUTOFF",
    "AtLeastOdds",
    "DifficultyChances",
    "ExactOpposedOdds",
    "ExactRollOdds",
    "ExactWildDieOnlyOdds",
    "OpposedOdds",
    "RollChances",
    "RollDice",
    "RollOdds",
    "SuccessOdds",
    "TailOdds",
    "TotalChances",
    "TotalOdds",
    "WildDieOnlyChances",
    "WildDieOnlyOdds",
    "chances",
    "exact_odds",
    "exact_opposed_odds",
    "exact_wild_die_only_odds",
    "legacy_odds",
    "odds",
    "opposed_odds",
    "total_prefix",
    "wild_die_only_chances",
    "wild_die_only_odds",
]

SIDES = 6
LISTING_CUTOFF = Fraction(1, 10**12)  # the listing stops once P(total > T) ≤ this
SIXTH = Fraction(1, SIDES)

MeanExact = Annotated[
    str,
    Meta(
        pattern=r"^-?(0|[1-9][0-9]{0,199})/[1-9][0-9]{0,199}$",
        max_length=402,
        description="An expected total as a reduced fraction, numerator/denominator (the "
        "sign on the numerator).",
        examples=["7409/720"],
    ),
]


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
    """One total and its probability."""

    total: int
    p: Probability
    exact: Exact


class TailOdds(Value, frozen=True, kw_only=True):
    """Everything past the listing: ``P(total > above)``, at most 10⁻¹²."""

    above: int
    p: Probability
    exact: Exact


class SuccessOdds(Value, frozen=True, kw_only=True):
    """``P(total ≥ difficulty)`` under each Critical Failure option (D2, D5)."""

    cancel_highest: Chance
    complication: Chance


class RollOdds(Value, frozen=True, kw_only=True):
    """The odds answer of one roll, every probability exact (`exact`) and to 12 decimals (`p`).

    ``distribution`` and ``mean`` are those of the roll's own ``critical_failure`` option
    (default `cancel_highest`, D5); totals of probability 0 are left out (1D under
    `cancel_highest` never totals 1 or 6). ``p_success`` gives both options whenever a
    difficulty is given; ``p_success_with_complication`` is the chance that, under
    `complication`, the roll succeeds *and* the Wild Die's first toss was a 1.
    """

    distribution: tuple[TotalOdds, ...]
    tail: TailOdds
    mean: Annotated[float, Meta(description="The expected total, to 12 decimals.")]
    mean_exact: MeanExact
    p_critical_success: Chance
    p_critical_failure: Chance
    p_success: SuccessOdds | None = None
    p_success_with_complication: Chance | None = None


class AtLeastOdds(Value, frozen=True, kw_only=True):
    """``P(total ≥ total)``: the chance to meet that number, as against a difficulty of it
    ("Determining Success", D2)."""

    total: int
    p: Probability
    exact: Exact


_AT_LEAST_DESCRIPTION = (
    "`P(total ≥ t)` for every total t from the lowest the roll can make to `tail.above`, "
    "ascending: the chance to meet a difficulty of t without naming one (D2; a resisting "
    "roll must beat it: read the row of t + 1). Below the first row the chance is 1; past "
    "the last, `P(total ≥ tail.above + 1)` is `tail`."
)


class TotalChances(Value, frozen=True, kw_only=True, tag_field="kind", tag="total"):
    """A rolled total and no difficulty (`kind: total`): its distribution under the roll's
    own Critical Failure option (D5), the chance of every "at least" total, and the Wild
    Die's Critical Success and Critical Failure (1/6 each)."""

    distribution: tuple[TotalOdds, ...]
    tail: TailOdds
    mean: Annotated[float, Meta(description="The expected total, to 12 decimals.")]
    mean_exact: MeanExact
    at_least: Annotated[tuple[AtLeastOdds, ...], Meta(description=_AT_LEAST_DESCRIPTION)]
    critical_success: Chance
    critical_failure: Chance


class DifficultyChances(TotalChances, frozen=True, kw_only=True, tag="difficulty"):
    """A rolled total against a difficulty (`kind: difficulty`): everything of `total`, the
    least total that succeeds (`needed`: the difficulty, + 1 for a resisting roll, D2) and
    the chance of success under each Critical Failure option (D5). An `automatic`
    difficulty succeeds without a roll: 1 under both, 0 with a complication."""

    needed: int
    success: SuccessOdds
    success_with_complication: Annotated[
        Chance,
        Meta(
            description="Under `complication`: the roll succeeds and the Wild Die's first "
            "toss was a 1 (a success with a complication)."
        ),
    ]


class WildDieOnlyChances(Value, frozen=True, kw_only=True, tag_field="kind", tag="wild_die_only"):
    """Wild Die Only (`kind: wild_die_only`, D14): one toss, no explosion — 6 a Critical
    Success, 1 a success with a complication, anything else a plain success."""

    critical_success: Chance
    success: Chance
    complication: Chance


RollChances = Annotated[
    TotalChances | DifficultyChances | WildDieOnlyChances,
    Meta(
        description="The roll's odds in one shape, by `kind`: `total` (no difficulty), "
        "`difficulty` (a total against one) or `wild_die_only` (one toss, D14). Every "
        "member is always sent; no sibling is null."
    ),
]


class WildDieOnlyOdds(Value, frozen=True, kw_only=True):
    """Wild Die Only (D14): one toss, no explosion: 6, 1 (a success with a complication),
    anything else."""

    critical_success: Chance
    success: Chance
    complication: Chance


class OpposedOdds(Value, frozen=True, kw_only=True):
    """The initiator's chance to win, ties included (D2): exact, no series cut off."""

    p_initiator_wins: Chance


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
    """:class:`OpposedOdds` as a Fraction."""

    p_initiator_wins: Fraction


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
        with_complication = SIXTH * _wild_one(dice.regular, dice.cp_dice).probability_at_least(
            needed
        )
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
    """:func:`exact_odds` in the answer's shape: each probability exact and to 12 decimals."""
    exact = exact_odds(dice, difficulty)
    rows = _rows(dice.regular, dice.cp_dice, CriticalFailure(dice.critical_failure))
    distribution = tuple(
        TotalOdds(total=total + dice.pips, p=p, exact=text) for total, p, text in rows
    )
    tail_p, tail_exact = fraction_of(exact.tail)
    p_success = None
    if exact.p_success_cancel_highest is not None and exact.p_success_complication is not None:
        p_success = SuccessOdds(
            cancel_highest=chance(exact.p_success_cancel_highest),
            complication=chance(exact.p_success_complication),
        )
    with_complication = exact.p_success_with_complication
    return RollOdds(
        distribution=distribution,
        tail=TailOdds(above=exact.tail_above, p=tail_p, exact=tail_exact),
        mean=_decimal(exact.mean),
        mean_exact=fraction_text(exact.mean),
        p_critical_success=chance(exact.p_critical_success),
        p_critical_failure=chance(exact.p_critical_failure),
        p_success=p_success,
        p_success_with_complication=None
        if with_complication is None
        else chance(with_complication),
    )


def exact_wild_die_only_odds() -> ExactWildDieOnlyOdds:
    """Wild Die Only ("Special Difficulties", D14): one fair toss, so 1/6, 4/6, 1/6."""
    return ExactWildDieOnlyOdds(critical_success=SIXTH, success=4 * SIXTH, complication=SIXTH)


def wild_die_only_odds() -> WildDieOnlyOdds:
    """:func:`exact_wild_die_only_odds` in the answer's shape."""
    exact = exact_wild_die_only_odds()
    return WildDieOnlyOdds(
        critical_success=chance(exact.critical_success),
        success=chance(exact.success),
        complication=chance(exact.complication),
    )


def chances(dice: RollDice, needed: int | None = None) -> TotalChances | DifficultyChances:
    """The odds of a rolled total in the one shape of :data:`RollChances`: `total`, or
    `difficulty` when the roll succeeds iff its total ≥ ``needed`` (D2)."""
    listed = odds(dice, needed)
    total = TotalChances(
        distribution=listed.distribution,
        tail=listed.tail,
        mean=listed.mean,
        mean_exact=listed.mean_exact,
        at_least=tuple(
            AtLeastOdds(total=total + dice.pips, p=p, exact=text)
            for total, p, text in _at_least_rows(
                dice.regular, dice.cp_dice, CriticalFailure(dice.critical_failure)
            )
        ),
        critical_success=listed.p_critical_success,
        critical_failure=listed.p_critical_failure,
    )
    if needed is None:
        return total
    assert listed.p_success is not None
    assert listed.p_success_with_complication is not None
    return DifficultyChances(
        **msgspec.structs.asdict(total),
        needed=needed,
        success=listed.p_success,
        success_with_complication=listed.p_success_with_complication,
    )


def legacy_odds(rolled: TotalChances | DifficultyChances) -> RollOdds:
    """The deprecated ``odds`` member (its nullable siblings) read off the new shape: one
    computation, two shapes, until the old one goes with a new version."""
    judged = rolled if isinstance(rolled, DifficultyChances) else None
    return RollOdds(
        distribution=rolled.distribution,
        tail=rolled.tail,
        mean=rolled.mean,
        mean_exact=rolled.mean_exact,
        p_critical_success=rolled.critical_success,
        p_critical_failure=rolled.critical_failure,
        p_success=None if judged is None else judged.success,
        p_success_with_complication=None if judged is None else judged.success_with_complication,
    )


def wild_die_only_chances() -> WildDieOnlyChances:
    """:func:`exact_wild_die_only_odds` as a member of :data:`RollChances`."""
    exact = exact_wild_die_only_odds()
    return WildDieOnlyChances(
        critical_success=chance(exact.critical_success),
        success=chance(exact.success),
        complication=chance(exact.complication),
    )


def exact_opposed_odds(
    initiator: RollDice, resister: RollDice, shift_by: int = 0
) -> ExactOpposedOdds:
    """The initiator A wins iff ``A ≥ B + shift_by`` ("Opposed Difficulties": ties to the
    initiator), ``shift_by = (uA + mA) − (uB + mB)``, each side's unskilled and difficulty
    modifiers (D17). On dice alone (pips off both sides) that is ``A0 − B0 ≥ need``, a
    difference of two mixtures of exploding sums: exact, whatever the pools and the shift.
    """
    need = shift_by + resister.pips - initiator.pips
    wins = _opposed(
        initiator.regular,
        initiator.cp_dice,
        CriticalFailure(initiator.critical_failure),
        resister.regular,
        resister.cp_dice,
        CriticalFailure(resister.critical_failure),
        need,
    )
    return ExactOpposedOdds(p_initiator_wins=wins)


def opposed_odds(initiator: RollDice, resister: RollDice, shift_by: int = 0) -> OpposedOdds:
    """:func:`exact_opposed_odds` in the answer's shape."""
    return OpposedOdds(
        p_initiator_wins=chance(exact_opposed_odds(initiator, resister, shift_by).p_initiator_wins)
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
    """A roll's total (pips left out) under each option, as weighted exploding sums:
    ``complication`` Reg + Wild + ΣCP; ``cancel_highest`` the mixture over the Wild Die's
    first toss (module docstring). ``regular_sum`` is Reg, the regular dice alone."""

    regular: int
    regular_sum: Pmf
    complication: ExplodingSum
    cancel_highest: tuple[tuple[Fraction, ExplodingSum], ...]

    def parts(self, option: CriticalFailure) -> tuple[tuple[Fraction, ExplodingSum], ...]:
        """The total under ``option``: ``(weight, exploding sum)`` pairs, weights summing to 1."""
        if option == CriticalFailure.COMPLICATION:
            return ((Fraction(1), self.complication),)
        return self.cancel_highest

    def at_least(self, option: CriticalFailure, threshold: int) -> Fraction:
        """``P(total ≥ threshold)`` under ``option``, exactly."""
        return sum(
            (weight * part.probability_at_least(threshold) for weight, part in self.parts(option)),
            Fraction(0),
        )

    def prefix(self, option: CriticalFailure, through: int) -> Pmf:
        """Every total ≤ ``through`` under ``option``."""
        parts = self.parts(option)
        if len(parts) == 1:
            return parts[0][1].prefix(through)
        return combine((weight, part.prefix(through)) for weight, part in parts)

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
    # The Wild Die's first toss f = 1…5, given that: Reg + f for 2…5, Reg − max for 1 (D4).
    stopped = combine(
        (
            (Fraction(4, 5), convolve(reg, uniform(2, SIDES - 1))),
            (Fraction(1, 5), sum_without_highest(SIDES, regular)),
        )
    )
    complication = exploding(SIDES, 1 + cp_dice, reg)
    return _Model(
        regular=regular,
        regular_sum=reg,
        complication=complication,
        cancel_highest=(
            (Fraction(5, 6), exploding(SIDES, cp_dice, stopped)),
            # f = 6: it counts and a fresh Wild Die follows, the same m exploding dice.
            (SIXTH, ExplodingSum(SIDES, complication.count, shift(complication.base, SIDES))),
        ),
    )


@lru_cache(maxsize=128)
def _wild_one(regular: int, cp_dice: int) -> ExplodingSum:
    """Reg + 1 + ΣCP: the Critical Failure branch as it counts under `complication`, for
    ``p_success_with_complication`` (opposed odds never need it)."""
    return exploding(SIDES, cp_dice, shift(_model(regular, cp_dice).regular_sum, 1))


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


@lru_cache(maxsize=256)
def _opposed(
    regular_a: int,
    cp_a: int,
    option_a: CriticalFailure,
    regular_b: int,
    cp_b: int,
    option_b: CriticalFailure,
    need: int,
) -> Fraction:
    """``P(A0 − B0 ≥ need)`` on dice alone (pips off both sides)."""
    return mixture_difference_at_least(
        _model(regular_a, cp_a).parts(option_a), _model(regular_b, cp_b).parts(option_b), need
    )


@lru_cache(maxsize=128)
def _rows(
    regular: int, cp_dice: int, option: CriticalFailure
) -> tuple[tuple[int, float, str], ...]:
    """The listing as ``(total, p, exact)`` (pips left out): reducing and writing out a few
    hundred long fractions is most of a warm answer's work, so it is done once."""
    listed, _, _ = _listing(regular, cp_dice, option)
    return tuple((total, *fraction_of(p)) for total, p in listed.items())


@lru_cache(maxsize=128)
def _at_least_rows(
    regular: int, cp_dice: int, option: CriticalFailure
) -> tuple[tuple[int, float, str], ...]:
    """``(t, p, exact)`` of ``P(total ≥ t)`` for every t from the lowest possible total to
    the listing's end (pips left out): the listed weights summed from the top, plus the
    exact tail beyond. Cached like :func:`_rows`, for the same reason."""
    listed, _, tail = _listing(regular, cp_dice, option)
    weights, denominator = listed.weights, listed.denominator
    first = next(index for index, weight in enumerate(weights) if weight)
    rows: list[tuple[int, float, str]] = []
    above = 0
    for index in range(len(weights) - 1, first - 1, -1):
        above += weights[index]
        rows.append((listed.low + index, *fraction_of(Fraction(above, denominator) + tail)))
    rows.reverse()
    return tuple(rows)


def _decimal(value: Fraction) -> float:
    """A Fraction to a float (correctly rounded by int division), then to 12 decimals."""
    return round(value.numerator / value.denominator, 12)
