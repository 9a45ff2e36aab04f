"""Exact distributions over integer totals, for the odds a ruleset answers with.

Why exact: an odds answer quoted to 12 decimals must be the same on every call and every
replica, and tests compare it with the fractions a rulebook's arithmetic gives; a
simulation does neither. Why integer weights over one denominator rather than a
``dict[int, Fraction]``: a Fraction reduces by a gcd at every step, while convolving
integer sequences is plain integer multiplication, done here as one big-int product
(Kronecker substitution), so even a 120-die roll takes milliseconds. Fractions appear
only where a caller reads a probability.

Two kinds of distribution:

* :class:`Pmf`, a finite one: ``P(low + i) = weights[i] / denominator``. It may also be
  the exact *prefix* of an unbounded distribution (its mass is then below 1): every value
  it lists is exact, the values above its window are left out.
* :class:`ExplodingSum`, an unbounded one: ``count`` exploding dice (a top face counts
  and the die is tossed again, any other face counts and stops) plus an independent
  finite part. One such die with ``s`` sides is ``s·X + R``, ``X`` geometric
  (``P(X = k) = (s−1)/s · s⁻ᵏ``), ``R`` uniform on ``1…s−1``, independent; so the sum
  is ``s·J + base`` with ``J`` negative binomial and ``base`` finite, and every
  probability the rules ask for (a point, a prefix, ``P(total ≥ t)``) is a finite sum.
  So is ``P(A − B ≥ m)`` of two of them, or of two :data:`Mixture` of them (a total that
  branches on a die), which an opposed roll asks: :func:`mixture_difference_at_least`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, lcm

__all__ = [
    "ExplodingSum",
    "Mixture",
    "Pmf",
    "combine",
    "convolve",
    "difference_at_least",
    "exploding",
    "explosions",
    "explosions_at_least",
    "fraction_text",
    "highest_of",
    "mean",
    "mixture_difference_at_least",
    "negated",
    "point",
    "probability_at_least",
    "shift",
    "sum_of",
    "sum_without_highest",
    "uniform",
]

# Below this many terms on the shorter side, schoolbook multiplication beats packing.
_SCHOOLBOOK = 8


@dataclass(frozen=True, slots=True)
class Pmf:
    """An exact (sub-)probability mass function on the integers ``low … high``.

    ``P(low + i) = weights[i] / denominator``; weights are non-negative and need not be
    reduced (the Fractions read from them are). A complete distribution has weights
    summing to the denominator; a *prefix* of an unbounded one (see
    :meth:`ExplodingSum.prefix`) sums to less and is exact for every value it lists.
    An empty ``weights`` is the zero measure.
    """

    low: int
    weights: tuple[int, ...]
    denominator: int

    def __post_init__(self) -> None:
        if self.denominator <= 0:
            raise ValueError("a Pmf's denominator is positive")

    @property
    def high(self) -> int:
        """The highest value in the window (``low − 1`` when it is empty)."""
        return self.low + len(self.weights) - 1

    @property
    def complete(self) -> bool:
        """Whether all the mass is here (a distribution, not a prefix of one)."""
        return sum(self.weights) == self.denominator

    def probability(self, value: int) -> Fraction:
        """``P(value)``; 0 outside the window."""
        index = value - self.low
        if 0 <= index < len(self.weights):
            return Fraction(self.weights[index], self.denominator)
        return Fraction(0)

    def items(self) -> Iterator[tuple[int, Fraction]]:
        """``(value, probability)`` for every value of positive probability, ascending."""
        for index, weight in enumerate(self.weights):
            if weight:
                yield self.low + index, Fraction(weight, self.denominator)

    def mass(self) -> Fraction:
        """The total probability listed: 1 for a complete distribution."""
        return Fraction(sum(self.weights), self.denominator)

    def probability_below(self, threshold: int) -> Fraction:
        """``P(value < threshold)``: exact for a prefix too, as long as
        ``threshold ≤ high + 1`` (raises ``ValueError`` past an incomplete window)."""
        if threshold > self.high + 1 and not self.complete:
            raise ValueError(f"this prefix is exact only below {self.high + 1}")
        count = max(0, min(len(self.weights), threshold - self.low))
        return Fraction(sum(self.weights[:count]), self.denominator)


def point(value: int) -> Pmf:
    """Certainty: ``value`` with probability 1 (a fixed modifier, or nothing rolled)."""
    return Pmf(value, (1,), 1)


def uniform(low: int, high: int) -> Pmf:
    """Every integer of ``low … high`` equally likely: one fair die is ``uniform(1, 6)``.

    The weights are all 1, so an n-fold :func:`sum_of` holds the classic counts of ways
    (3d6: 1, 3, 6, 10, …) over ``sidesⁿ``.
    """
    if high < low:
        raise ValueError("uniform needs low ≤ high")
    size = high - low + 1
    return Pmf(low, (1,) * size, size)


def shift(pmf: Pmf, by: int) -> Pmf:
    """The distribution of ``value + by`` (pips, a fixed bonus)."""
    return Pmf(pmf.low + by, pmf.weights, pmf.denominator)


def negated(pmf: Pmf) -> Pmf:
    """The distribution of ``−value``: with :func:`convolve`, a difference of two values
    (one side's yield less the other's)."""
    return Pmf(-pmf.high, pmf.weights[::-1], pmf.denominator)


def convolve(a: Pmf, b: Pmf) -> Pmf:
    """The distribution of the sum of two independent values (works on prefixes as well:
    the result is then exact up to ``min(a.high + b.low, b.high + a.low)``, the caller
    trims it)."""
    return Pmf(a.low + b.low, tuple(_product(a.weights, b.weights)), a.denominator * b.denominator)


def sum_of(pmf: Pmf, n: int) -> Pmf:
    """The sum of ``n`` independent copies (``n`` dice alike), by repeated squaring;
    ``n = 0`` is :func:`point` (0)."""
    if n < 0:
        raise ValueError("sum_of needs n ≥ 0")
    result = point(0)
    power = pmf
    while n:
        if n & 1:
            result = convolve(result, power)
        n >>= 1
        if n:
            power = convolve(power, power)
    return result


def combine(terms: Iterable[tuple[Fraction | int, Pmf]]) -> Pmf:
    """``Σ coefficient · pmf``, value by value, over a common denominator.

    Coefficients may be negative (a rule that replaces one outcome by another is "the
    whole, minus that branch, plus its replacement"), but every resulting probability
    must be ≥ 0, else ``ValueError``. Prefixes combine into a prefix exact up to the
    lowest ``high`` among them; the caller keeps to it. Values cancelled to 0 at the
    bottom leave the window, so ``low`` is the least possible value.
    """
    parts = [(Fraction(coefficient), pmf) for coefficient, pmf in terms if pmf.weights]
    parts = [(coefficient, pmf) for coefficient, pmf in parts if coefficient]
    if not parts:
        return Pmf(0, (), 1)
    denominator = lcm(*(c.denominator * pmf.denominator for c, pmf in parts))
    low = min(pmf.low for _, pmf in parts)
    high = max(pmf.high for _, pmf in parts)
    weights = [0] * (high - low + 1)
    for coefficient, pmf in parts:
        factor = coefficient.numerator * (
            denominator // (coefficient.denominator * pmf.denominator)
        )
        offset = pmf.low - low
        for index, weight in enumerate(pmf.weights, offset):
            weights[index] += factor * weight
    if any(weight < 0 for weight in weights):
        raise ValueError("a combination of distributions gave a negative probability")
    start = next((index for index, weight in enumerate(weights) if weight), len(weights))
    start = min(start, len(weights) - 1)  # keep the window's end: a prefix is exact up to it
    return Pmf(low + start, tuple(weights[start:]), denominator)


def mean(pmf: Pmf) -> Fraction:
    """The expected value of a complete distribution (``ValueError`` for a prefix)."""
    if not pmf.complete:
        raise ValueError("the mean of a prefix is not known from its window")
    first = sum(index * weight for index, weight in enumerate(pmf.weights))
    return pmf.low + Fraction(first, pmf.denominator)


def probability_at_least(pmf: Pmf, threshold: int) -> Fraction:
    """``P(value ≥ threshold)`` = 1 − ``P(value < threshold)``: a success chance against a
    difficulty met on a tie. For a prefix, exact while ``threshold ≤ high + 1``."""
    return 1 - pmf.probability_below(threshold)


def highest_of(sides: int, n: int) -> Pmf:
    """The highest face of ``n ≥ 1`` dice: ``P(max = h) = (hⁿ − (h−1)ⁿ) / sidesⁿ``."""
    if n < 1 or sides < 1:
        raise ValueError("highest_of needs at least one die of at least one side")
    return Pmf(1, tuple(h**n - (h - 1) ** n for h in range(1, sides + 1)), sides**n)


def sum_without_highest(sides: int, n: int) -> Pmf:
    """The sum of ``n`` dice once their highest is taken away (one of equals).

    The dice with highest ``h`` and sum ``s`` number ``[xˢ]((x+…+xʰ)ⁿ − (x+…+xʰ⁻¹)ⁿ)``:
    every face ≤ h, less those where every face ≤ h − 1. Summed over ``h`` at ``s − h``.
    ``n = 0`` leaves nothing: :func:`point` (0).
    """
    if n < 0 or sides < 1:
        raise ValueError("sum_without_highest needs n ≥ 0 dice of at least one side")
    if n == 0:
        return point(0)
    weights = [0] * ((n - 1) * sides + 1)  # by value 0 … (n − 1)·sides
    below = [0] * (n * sides + 1)  # coefficients of (x+…+x^(h−1))ⁿ; for h = 1, none
    for h in range(1, sides + 1):
        counts = sum_of(uniform(1, h), n)  # (x+…+xʰ)ⁿ: coefficients from xⁿ
        upto = [0] * (n * sides + 1)
        for index, count in enumerate(counts.weights, counts.low):
            upto[index] = count
        for total in range(n, n * h + 1):
            ways = upto[total] - below[total]
            if ways:
                weights[total - h] += ways
        below = upto
    return Pmf(n - 1, tuple(weights[n - 1 :]), sides**n)  # the least: all 1s, one dropped


def explosions(sides: int, count: int, j: int) -> Fraction:
    """``P(J = j)`` for ``J`` the explosions (top faces) of ``count`` exploding dice:
    negative binomial, ``C(j+count−1, count−1) · ((sides−1)/sides)^count · sides⁻ʲ``."""
    if j < 0:
        return Fraction(0)
    if count == 0:
        return Fraction(int(j == 0))
    return Fraction(comb(j + count - 1, count - 1) * (sides - 1) ** count, sides ** (count + j))


def explosions_at_least(sides: int, count: int, k: int) -> Fraction:
    """``P(J ≥ k)``: at most ``count − 1`` stops among the first ``k + count − 1`` tosses,
    ``Σ_{i<count} C(k+count−1, i) (sides−1)ⁱ / sides^(k+count−1)``; 1 for ``k ≤ 0``."""
    if k <= 0:
        return Fraction(1)
    if count == 0:
        return Fraction(0)
    return Fraction(_at_least_numerator(sides, count, k), sides ** (k + count - 1))


@dataclass(frozen=True, slots=True)
class ExplodingSum:
    """``count`` exploding dice of ``sides`` sides plus an independent finite ``plus``,
    held as ``sides·J + base``: ``J`` the explosions (negative binomial), ``base`` the
    finite rest (each die's stopping face, uniform on ``1…sides−1``, summed, and ``plus``).
    Build it with :func:`exploding`."""

    sides: int
    count: int
    base: Pmf

    @property
    def low(self) -> int:
        """The least total (no die explodes, every stopping face a 1)."""
        return self.base.low

    def mean(self) -> Fraction:
        """``E[base] + sides·E[J]``, ``E[J] = count / (sides − 1)`` (a d6: 21/5 a die)."""
        return mean(self.base) + Fraction(self.sides * self.count, self.sides - 1)

    def probability_at_least(self, threshold: int) -> Fraction:
        """``P(total ≥ threshold) = Σ_b P(base = b) · P(J ≥ ⌈(threshold − b)/sides⌉)``:
        a finite sum, however high the threshold."""
        base, sides, count = self.base, self.sides, self.count
        by_k: dict[int, int] = {}
        for index, weight in enumerate(base.weights):
            if weight:
                k = max(0, -((base.low + index - threshold) // sides))  # ⌈(t − b)/s⌉, ≥ 0
                by_k[k] = by_k.get(k, 0) + weight
        certain = by_k.pop(0, 0)  # k = 0: P(J ≥ 0) = 1
        if not by_k or not count:
            return Fraction(certain, base.denominator)
        first, top = min(by_k), max(by_k)
        exponent = top + count - 1  # the common power of sides below
        numerators = _at_least_numerators(sides, count, first, top)
        numerator = 0
        for k in range(first, top + 1):  # Horner: Σ w_k·A(k)·s^(top − k)
            numerator = numerator * sides + by_k.get(k, 0) * numerators[k - first]
        return Fraction(certain * sides**exponent + numerator, base.denominator * sides**exponent)

    def prefix(self, through: int) -> Pmf:
        """The exact distribution of every total ≤ ``through`` (a prefix :class:`Pmf`
        whose window ends at ``through``; the mass above it is left out)."""
        base, sides, count = self.base, self.sides, self.count
        if through < base.low:
            return Pmf(base.low, (), base.denominator)
        top = (through - base.low) // sides  # the most explosions that stay ≤ through
        keep = through - base.low + 1
        if count == 0:
            weights = list(base.weights[:keep])
            weights += [0] * (keep - len(weights))
            return Pmf(base.low, tuple(weights), base.denominator)
        # P(J = j) = C(j+c−1, c−1)(s−1)^c / s^(c+j), all over s^(c+top)
        stops = (sides - 1) ** count
        jumps = [
            comb(j + count - 1, count - 1) * stops * sides ** (top - j) for j in range(top + 1)
        ]
        # J moves a total by whole multiples of sides, so each residue class of the base
        # convolves with J on its own: `sides` products a sides-th the length, no zeros.
        weights = [0] * keep
        for residue in range(min(sides, keep)):
            for i, weight in enumerate(_product(base.weights[residue:keep:sides], jumps)):
                index = residue + i * sides
                if index >= keep:
                    break
                weights[index] = weight
        return Pmf(base.low, tuple(weights), base.denominator * sides ** (count + top))


def exploding(sides: int, count: int, plus: Pmf | None = None) -> ExplodingSum:
    """``count`` exploding dice (OpenD6's Wild Die and Character Point dice are d6 ones)
    plus ``plus`` (regular dice, pips…; nothing when omitted)."""
    if sides < 2 or count < 0:
        raise ValueError("exploding needs count ≥ 0 dice of at least two sides")
    base = sum_of(uniform(1, sides - 1), count)
    if plus is not None:
        base = convolve(base, plus)
    return ExplodingSum(sides, count, base)


def _at_least_numerator(sides: int, count: int, k: int) -> int:
    """The numerator of :func:`explosions_at_least` over ``sides^(k+count−1)``, k ≥ 1."""
    tosses = k + count - 1
    return sum(comb(tosses, i) * (sides - 1) ** i for i in range(count))


def _product(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The coefficients of the product of two polynomials with non-negative integer
    coefficients. Long ones go through one big-int product: each sequence is packed
    into an integer, a coefficient every ``width`` bytes, wide enough that no sum of
    products carries into the next (Kronecker substitution), and unpacked again."""
    if not a or not b:
        return []
    if min(len(a), len(b)) <= _SCHOOLBOOK:
        short, long = (a, b) if len(a) <= len(b) else (b, a)
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(short):
            if x:
                for j, y in enumerate(long, i):
                    out[j] += x * y
        return out
    bits = max(a).bit_length() + max(b).bit_length() + min(len(a), len(b)).bit_length()
    width = bits // 8 + 1
    packed_a = int.from_bytes(b"".join(x.to_bytes(width, "little") for x in a), "little")
    packed_b = int.from_bytes(b"".join(y.to_bytes(width, "little") for y in b), "little")
    size = len(a) + len(b) - 1
    raw = (packed_a * packed_b).to_bytes(width * size, "little")
    return [int.from_bytes(raw[i : i + width], "little") for i in range(0, width * size, width)]


Mixture = Sequence[tuple[Fraction | int, ExplodingSum]]
"""A total that is one of several :class:`ExplodingSum` by chance: ``(weight, sum)`` pairs,
weights ≥ 0 (a rule that branches on a die, e.g. the first toss of OpenD6's Wild Die)."""


def difference_at_least(a: ExplodingSum, b: ExplodingSum, margin: int = 0) -> Fraction:
    """``P(A − B ≥ margin)`` for independent ``A`` and ``B`` with dice of equal sides:
    exact, with no truncated series (see :func:`mixture_difference_at_least`)."""
    return mixture_difference_at_least(((1, a),), ((1, b),), margin)


def mixture_difference_at_least(a: Mixture, b: Mixture, margin: int = 0) -> Fraction:
    """``P(A − B ≥ margin)`` for independent mixtures ``A`` and ``B``, exactly.

    With ``A = s·J_A + X_A`` and ``B = s·J_B + X_B`` (``J`` negative binomial, ``X``
    finite), ``A − B ≥ margin`` iff ``J_A − J_B ≥ k`` with ``k = ⌈(margin − X_A + X_B)/s⌉``.
    So the answer is ``Σ_k W_k·G(k)``: ``W_k = P(that ceiling = k)``, a finite
    distribution (:func:`_window_weights`), and ``G(k) = P(J_A − J_B ≥ k)``, which has a
    closed form (:func:`_gap_sum`). The parts of one side with equal dice are merged
    first, so a side of two parts makes at most four pairs.

    Raises:
        ValueError: dice of different sides, or a negative weight.
    """
    grouped_a, grouped_b = _by_count(a), _by_count(b)
    sides = {s for s, _ in grouped_a} | {s for s, _ in grouped_b}
    if len(sides) > 1:
        raise ValueError("a difference of exploding sums needs dice of equal sides")
    total = Fraction(0)
    for (s, count_a), base_a in grouped_a.items():
        for (_, count_b), base_b in grouped_b.items():
            below, above = _window_weights(base_a, base_b, margin, s)
            # G(k) for k ≥ 1 from its closed form; for k ≤ 0 as 1 − P(J_B − J_A ≥ 1 − k).
            pair = (
                _gap_sum(s, count_a, count_b, above)
                + sum(below.values())
                - _gap_sum(s, count_b, count_a, {1 - k: w for k, w in below.items()})
            )
            total += pair / (base_a.denominator * base_b.denominator)
    return total


def _by_count(parts: Mixture) -> dict[tuple[int, int], Pmf]:
    """The parts of a mixture merged by (sides, count): ``Σ weight·base`` per key."""
    keyed: dict[tuple[int, int], list[tuple[Fraction | int, Pmf]]] = {}
    for weight, part in parts:
        if weight < 0:
            raise ValueError("a mixture's weights are ≥ 0")
        if weight:
            keyed.setdefault((part.sides, part.count), []).append((weight, part.base))
    return {
        key: terms[0][1] if len(terms) == 1 and terms[0][0] == 1 else combine(terms)
        for key, terms in keyed.items()
    }


def _window_weights(
    a: Pmf, b: Pmf, margin: int, sides: int
) -> tuple[dict[int, int], dict[int, int]]:
    """``W_k``, the weight (over ``a.denominator·b.denominator``) of
    ``k = ⌈(margin − x + y)/sides⌉`` for ``x`` from ``a`` and ``y`` from ``b``, split into
    ``k ≤ 0`` and ``k ≥ 1``.

    With ``e = x − margin`` and ``y = sides·v + σ``: ``k = v − ⌊(e − σ)/sides⌋``. For each
    residue ``σ``, ``a`` summed over windows of ``sides`` values (``F_σ(u)``, ``u = ⌊(e −
    σ)/sides⌋``) correlates with ``b``'s values of that residue: ``sides`` products a
    ``sides``-th as long as the whole difference, read only where they are needed.
    """
    below: dict[int, int] = {}
    above: dict[int, int] = {}
    if not a.weights or not b.weights:
        return below, above
    low = a.low - margin  # e's window
    cumulative = [0]
    for weight in a.weights:
        cumulative.append(cumulative[-1] + weight)

    def up_to(e: int) -> int:  # Σ of a's weights at e' < e
        return cumulative[max(0, min(len(a.weights), e - low))]

    high = low + len(a.weights) - 1
    for residue in range(sides):
        v_low = -((residue - b.low) // sides)  # ⌈(b.low − σ)/s⌉
        v_high = (b.high - residue) // sides
        if v_high < v_low:
            continue
        column = b.weights[sides * v_low + residue - b.low :: sides]  # b at v_low … v_high
        u_low, u_high = (low - residue) // sides, (high - residue) // sides
        # F_σ(u) for u from u_high down to u_low: reversed, so the product is a correlation.
        windows = [
            up_to(sides * u + residue + sides) - up_to(sides * u + residue)
            for u in range(u_high, u_low - 1, -1)
        ]
        for index, weight in enumerate(_product(windows, column)):
            if weight:
                k = index - u_high + v_low
                side = above if k >= 1 else below
                side[k] = side.get(k, 0) + weight
    return below, above


def _gap_sum(sides: int, count_a: int, count_b: int, weights: dict[int, int]) -> Fraction:
    """``Σ_k w_k·P(J_A − J_B ≥ k)`` over ``k ≥ 1``, as a Fraction of the same denominator
    as the weights' (the caller divides by it): exact.

    ``P(J_A ≥ n) = A(n)/s^(n+a−1)`` with the integer ``A(n) = Σ_{i<a} C(n+a−1, i)(s−1)ⁱ``
    (:func:`explosions_at_least`), so
    ``G(k) = Σ_j P(J_B = j)·P(J_A ≥ j + k) = (s−1)ᵇ/s^(a+b−1+k) · Σ_j p_k(j)·s⁻²ʲ`` with
    the polynomial ``p_k(j) = C(j+b−1, b−1)·A(j+k)`` of degree ``N = a+b−2``. A series
    ``Σ_j p(j)yʲ`` of a polynomial is ``Σ_n Δⁿp(0)·yⁿ/(1−y)ⁿ⁺¹``, here with ``y = s⁻²``
    ``= s²/M^(N+1) · Σ_{j≤N} λ_j p(j)`` (``M = s² − 1``, ``λ`` from :func:`_series_factors`):
    ``G(k) = T(k) / (s^(a+b−1+k)·M^(N+1))`` with the integer
    ``T(k) = (s−1)ᵇ s² Σ_j λ_j C(j+b−1, b−1) A(j+k)``. One die each, a d6:
    ``G(k) = 6/7 · 6⁻ᵏ``.
    """
    weights = {k: w for k, w in weights.items() if w}
    if not weights or count_a == 0:
        return Fraction(0)  # J_A − J_B ≤ 0 < k
    first, last = min(weights), max(weights)
    if first < 1:
        raise ValueError("the closed form holds for k ≥ 1")
    if count_b == 0:  # G(k) = P(J_A ≥ k)
        numerators = _at_least_numerators(sides, count_a, first, last)
        acc = 0
        for k in range(first, last + 1):  # Horner: Σ w_k·A(k)·s^(last − k)
            acc = acc * sides + weights.get(k, 0) * numerators[k - first]
        return Fraction(acc, sides ** (last + count_a - 1))
    degree = count_a + count_b - 2
    values = _gap_numerators(sides, count_a, count_b, first, last)
    acc = 0
    for k in range(first, last + 1):  # Horner: Σ w_k·T(k)·s^(last − k)
        acc = acc * sides + weights.get(k, 0) * values[k - first]
    denominator = sides ** (count_a + count_b - 1 + last) * (sides**2 - 1) ** (degree + 1)
    return Fraction(acc, denominator)


def _gap_numerators(sides: int, count_a: int, count_b: int, first: int, last: int) -> list[int]:
    """``T(k)`` of :func:`_gap_sum` for ``k = first … last``: ``count_a`` of them from the
    definition, the rest by forward differences (``T`` is a polynomial in ``k`` of degree
    ``count_a − 1``, so its ``count_a``-th difference is 0)."""
    factors = _series_factors(sides, count_a, count_b)
    direct = min(count_a, last - first + 1)
    numerators = _at_least_numerators(sides, count_a, first, first + direct - 1 + len(factors) - 1)
    scale = (sides - 1) ** count_b * sides**2
    values = [
        scale * sum(f * numerators[i + j] for j, f in enumerate(factors)) for i in range(direct)
    ]
    differences = list(values)  # Δ^i T(first), in place
    for order in range(1, direct):
        for i in range(direct - 1, order - 1, -1):
            differences[i] -= differences[i - 1]
    for step in range(1, last - first + 1):  # the table moves from T(first) along k
        for i in range(direct - 1):
            differences[i] += differences[i + 1]
        if step >= direct:
            values.append(differences[0])
    return values


def _at_least_numerators(sides: int, count: int, first: int, last: int) -> list[int]:
    """``A(n) = Σ_{i<count} C(n+count−1, i)(sides−1)ⁱ`` for ``n = first … last`` (≥ 0):
    ``P(J ≥ n) = A(n)/sides^(n+count−1)``. The first from its sum, the rest by
    ``P(J ≥ n+1) = P(J ≥ n) − P(J = n)``:
    ``A(n+1) = sides·A(n) − C(n+count−1, count−1)·(sides−1)^count``."""
    if count == 0:
        return [int(n == 0) for n in range(first, last + 1)]
    stops = (sides - 1) ** count
    value = sum(comb(first + count - 1, i) * (sides - 1) ** i for i in range(count))
    ways = comb(first + count - 1, count - 1)  # C(n+c−1, c−1), moved along n
    out = []
    for n in range(first, last + 1):
        out.append(value)
        value = sides * value - ways * stops
        ways = ways * (n + count) // (n + 1)
    return out


@lru_cache(maxsize=1024)
def _series_factors(sides: int, count_a: int, count_b: int) -> tuple[int, ...]:
    """``λ_j·C(j+b−1, b−1)`` for ``j = 0 … N`` (:func:`_gap_sum`), where
    ``λ_j = Σ_{n=j}^{N} (−1)^(n−j) C(n, j) M^(N−n)``, ``M = sides² − 1``: the weights that
    turn ``N + 1`` values of a degree-N polynomial into ``Σ_n Δⁿp(0)·M^(N−n)``."""
    degree = count_a + count_b - 2
    m = sides**2 - 1
    factors = []
    for j in range(degree + 1):
        lam = sum((-1) ** (n - j) * comb(n, j) * m ** (degree - n) for n in range(j, degree + 1))
        factors.append(lam * comb(j + count_b - 1, count_b - 1))
    return tuple(factors)


def fraction_text(value: Fraction | int) -> str:
    """An exact value that is not a probability (a mean, say) as ``numerator/denominator``,
    reduced, the sign on the numerator: ``-7/6``, ``0/1``. Probabilities use
    :func:`service.kernel.chance.chance`."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"
