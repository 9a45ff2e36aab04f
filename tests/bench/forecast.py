"""The Bullseye conflict forecast's cost, in-process: ``python -m tests.bench.forecast``.

Random conflicts (seeded: 1–12 PCs, every dice kind, one to four qualities each, threats
and protections) forecast once each, cold; prints CPU time (``time.process_time``, so
other jobs on the machine count less) — the slowest, the median, and how many were solved
exactly or simulated, by reason — then each bounded path at its bound.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from service.rulesets.bullseye.rules.conflicts import (
    DiceSource,
    OppositionSpec,
    PlayerSpec,
    new_conflict,
)
from service.rulesets.bullseye.rules.conflicts.forecast import ExactOutlook, forecast
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType

CAPPED = (QualityType.CORE, QualityType.INTRINSIC, QualityType.EXPERIENTIAL, QualityType.MATERIAL)


def _qualities(rng: random.Random, count: int) -> tuple[Quality, ...]:
    return tuple(
        Quality(name=f"Q{i}", type=CAPPED[i], magnitude=rng.randint(1, 10)) for i in range(count)
    )


def random_conflicts(count: int, seed: int = 5):
    rng = random.Random(seed)
    for index in range(count):
        players = tuple(
            PlayerSpec(
                id=f"pc{i}",
                name=f"PC {i}",
                qualities=_qualities(rng, rng.randint(1, 4)),
                threat=rng.randint(-3, 6),
                depletion_modifier=-rng.randint(0, 4),
            )
            for i in range(rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 12]))
        )
        opposition = OppositionSpec(
            name="Foe",
            qualities=_qualities(rng, rng.randint(0, 3)),
            threat=rng.randint(-3, 6),
            depletion_modifier=-rng.randint(0, 4),
        )
        yield new_conflict(
            conflict_id=f"bench-{index}",
            name="Bench",
            players=players,
            opposition=opposition,
            dice=rng.choice(list(DiceKind)),
            dice_source=DiceSource.SERVER,
            depletable_at_issue=None,
        ).state


def main(count: int = 150) -> None:
    timings: list[tuple[float, str]] = []
    methods: Counter[str] = Counter()
    for conflict in random_conflicts(count):
        start = time.process_time()
        answer = forecast(conflict, version=1, viewer="gm")
        elapsed = (time.process_time() - start) * 1000
        winner = answer.winner
        how = "exact" if isinstance(winner, ExactOutlook) else f"simulation ({winner.reason})"
        methods[how] += 1
        label = (
            f"{len(conflict.players)} PCs, {conflict.dice}, scores "
            f"{conflict.scores.players}/{conflict.scores.opposition}: {how}"
        )
        timings.append((elapsed, label))
    timings.sort(reverse=True)
    print(f"Bullseye conflict forecast, {count} random conflicts, CPU ms:")
    print(f"  median {statistics.median(t for t, _ in timings):.1f}")
    for elapsed, label in timings[:5]:
        print(f"  {elapsed:6.1f}  {label}")
    for how, n in methods.most_common():
        print(f"  {n:4d} × {how}")


if __name__ == "__main__":
    main()
