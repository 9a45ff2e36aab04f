"""Instructions of a conflict round's rules alone (callgrind): ``apply`` on the bench's
round (4 players, faces supplied, no quality named) and on a busier one (4 players, each
naming two declared qualities, a situational modifier, server dice), no HTTP, no Redis.

    python -m tests.bench.round_rules            kIr per round, each scenario
    python -m tests.bench.round_rules --keep DIR keep the callgrind files (callgrind_annotate)

As ``tests.bench.instructions``: collection only inside ``sys.call_tracing``, N rounds then
2N, one round is (I(2N) − I(N)) / N. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.bench.instructions import _measure as measure

SIZE = 200


def _scenarios() -> dict[str, Callable[[], object]]:
    import msgspec

    from service.rulesets.bullseye.rules.conflicts import (
        GM,
        DiceSource,
        OppositionSpec,
        PlayerSpec,
        ResolveRound,
        apply,
        new_conflict,
    )
    from service.rulesets.bullseye.rules.dice import DiceKind
    from tests.bench.bodies import FOUR_PLAYERS, ROUND

    players = msgspec.convert(FOUR_PLAYERS["players"], tuple[PlayerSpec, ...])
    bench = new_conflict(
        conflict_id="bench",
        name="Benchmark brawl",
        players=players,
        opposition=OppositionSpec(name="Horde"),
        dice=DiceKind.D20,
        dice_source=DiceSource.CLIENT,
        depletable_at_issue=None,
    ).state
    bench_round = msgspec.convert(ROUND, ResolveRound)

    qualities = [
        {"name": "Tough", "type": "intrinsic", "magnitude": 7},
        {"name": "Brawler", "type": "experiential", "magnitude": 4},
        {"name": "Club", "type": "material", "magnitude": 2},
    ]
    busy_players = msgspec.convert(
        [
            {
                "id": f"p{i}",
                "name": f"Player {i}",
                "qualities": qualities,
                "threat": 2,
                "bullseyes": 1,
                "depletable": {"name": "health", "current": 30, "maximum": 40},
            }
            for i in range(4)
        ],
        tuple[PlayerSpec, ...],
    )
    busy = new_conflict(
        conflict_id="busy",
        name="Busy brawl",
        players=busy_players,
        opposition=msgspec.convert({"name": "Horde", "qualities": qualities}, OppositionSpec),
        dice=DiceKind.D20,
        dice_source=DiceSource.SERVER,
        depletable_at_issue=None,
    ).state
    check = {"qualities": ["Tough", "brawler"], "situational": [{"label": "dark", "magnitude": -1}]}
    busy_round = msgspec.convert(
        {"gm": check, "players": {f"p{i}": check for i in range(4)}}, ResolveRound
    )
    rng = random.Random(1)
    return {
        "round": lambda: apply(bench, bench_round, GM, rng),
        "busy-round": lambda: apply(busy, busy_round, GM, rng),
    }


def _inside(names: list[str]) -> None:
    scenarios = _scenarios()
    for name in names:
        for _ in range(30):
            scenarios[name]()
    print("ready", flush=True)
    sys.stdin.readline()
    for name in names:
        call = scenarios[name]
        for count in (SIZE, 2 * SIZE, SIZE, 2 * SIZE):

            def stretch(count: int = count, call: Callable[[], object] = call) -> None:
                for _ in range(count):
                    call()

            print(f"stretch {name} {count}", flush=True)
            sys.call_tracing(stretch, ())
    print("done", flush=True)


def _measure(names: list[str], directory: Path) -> None:
    per, _ = measure(names, directory, module="tests.bench.round_rules")
    for name, values in per.items():
        print(f"  {name:12} {sum(values) / len(values):8.1f} kIr per round  ({values})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inside", action="store_true")
    parser.add_argument("--keep", type=Path)
    parser.add_argument("-s", dest="inside_names", action="append", help=argparse.SUPPRESS)
    parser.add_argument("names", nargs="*", default=["round", "busy-round"])
    args = parser.parse_args()
    if args.inside:
        _inside(args.inside_names or args.names)
        return
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        _measure(args.names, args.keep)
        return
    with tempfile.TemporaryDirectory() as directory:
        _measure(args.names, Path(directory))


if __name__ == "__main__":
    main()
