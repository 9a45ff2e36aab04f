"""What good dice achieve: the effect of a group (D2) and the disjoint groups a multi-action
takes, decided in list order ("Multiple Effects: Multi-Actions", D3).

A group's effect is 1 + Σ (count − 1) over its faces: a good die alone is Minor, each die
matching another in the group adds one. So a group of effect exactly ``L ≥ 2`` is a set of
distinct faces, at least two dice of each, whose extra dice number ``L − 1``; a Minor is
one good die of any face. The search below works on the counts of the good faces only
(which faces they are never matters), so the odds can share it across every pool with the
same shape of matches.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

__all__ = [
    "Group",
    "Plan",
    "feasible",
    "group_effect",
    "list_order_successes",
    "plan",
    "pool_effect",
]

# One action's dice: (position in the counts, how many dice of that face) pairs.
Group = tuple[tuple[int, int], ...]
Plan = tuple[Group, ...]


def group_effect(counts: Sequence[int]) -> int:
    """The effect of one group, given how many dice of each face it holds (0 if empty)."""
    present = [count for count in counts if count > 0]
    return 1 + sum(count - 1 for count in present) if present else 0


def pool_effect(counts: Sequence[int]) -> int:
    """All good dice as one group: the most a single action could reach."""
    return group_effect(counts)


@lru_cache(maxsize=65536)
def _exact_groups(counts: tuple[int, ...], extra: int) -> tuple[Group, ...]:
    """Every group with exactly ``extra`` matching dice (effect ``extra + 1``), fewest dice
    first, then the earliest positions (the highest faces, as the gamble orders them)."""
    found: list[Group] = []

    def build(start: int, left: int, chosen: tuple[tuple[int, int], ...]) -> None:
        if left == 0:
            found.append(chosen)
            return
        for position in range(start, len(counts)):
            for size in range(2, min(counts[position], left + 1) + 1):
                build(position + 1, left - (size - 1), (*chosen, (position, size)))

    build(0, extra, ())
    return tuple(sorted(found, key=lambda group: (sum(size for _, size in group), group)))


@lru_cache(maxsize=262144)
def plan(counts: tuple[int, ...], levels: tuple[int, ...]) -> Plan | None:
    """Disjoint groups for every level of ``levels`` (in that order), each of effect exactly
    its level, or None when no such choice exists. Deterministic: the first choice found,
    groups tried fewest dice first; the Minors take leftover dice, highest faces first."""
    minors = sum(1 for level in levels if level == 1)
    demands = tuple(level - 1 for level in levels if level > 1)
    # Quick refusals: every extra die needs a match, and every group its own dice.
    if sum(demands) > sum(count - 1 for count in counts if count > 1):
        return None
    if sum(demands) + len(demands) + minors > sum(counts):
        return None
    matched = _matched(counts, demands, minors)
    if matched is None:
        return None
    left = list(counts)
    for group in matched:
        for position, size in group:
            left[position] -= size
    singles = list(_leftover(left))
    groups = iter(matched)
    return tuple(((singles.pop(0), 1),) if level == 1 else next(groups) for level in levels)


def _leftover(counts: Sequence[int]) -> Iterator[int]:
    for position, count in enumerate(counts):
        yield from (position,) * count


@lru_cache(maxsize=262144)
def _matched(counts: tuple[int, ...], demands: tuple[int, ...], minors: int) -> Plan | None:
    if not demands:
        return () if sum(counts) >= minors else None
    for group in _exact_groups(counts, demands[0]):
        rest = list(counts)
        for position, size in group:
            rest[position] -= size
        further = _matched(tuple(rest), demands[1:], minors)
        if further is not None:
            return (group, *further)
    return None


def feasible(counts: tuple[int, ...], levels: tuple[int, ...]) -> bool:
    """Whether every level can have its own group at once (order does not matter)."""
    return plan(counts, tuple(sorted(levels, reverse=True))) is not None


def list_order_successes(counts: tuple[int, ...], levels: Sequence[int]) -> tuple[bool, ...]:
    """D3: each action succeeds iff it can, together with every earlier action that
    succeeded. All succeed whenever that is possible; a failed action takes no dice."""
    kept: list[int] = []
    results = []
    for level in levels:
        ok = feasible(counts, (*kept, level))
        if ok:
            kept.append(level)
        results.append(ok)
    return tuple(results)
