"""``make bench-odds`` (and the end of ``make bench``): the worst case of every ruleset's
odds operation, cold (nothing cached: neither the rules' memos nor the service's cache),
in µs: as estimated up front (the ``rules/odds_cost.py`` the service decides by), computed
in-process, and through HTTP.

In-process: the rules' function and its JSON, the rules' memos cleared before each of
three runs; the fastest is kept. Through HTTP: each case on a freshly started service
(one worker, default settings), its odds pool started first by another request, so the
case is the first of its kind there; the client's time, then the server's own
(``Server-Timing``) and which path served it, then the same request again (the cache).
Timings are reported, never asserted.
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec

from service.rulesets.bullseye.rules.check_odds import check_odds
from service.rulesets.bullseye.rules.check_odds_cost import check_odds_cost
from service.rulesets.bullseye.rules.checks import CheckShape
from service.rulesets.opend6.rules.odds_cost import opposed_odds_cost, roll_odds_cost
from service.rulesets.opend6.rules.roll_odds import (
    OpposedOddsRequest,
    opposed_roll_odds,
    roll_odds,
)
from service.rulesets.opend6.rules.spec import OddsRequest
from service.rulesets.quick_shot.rules.gambles import QuickShotOddsRequest
from service.rulesets.quick_shot.rules.odds import gamble_odds
from service.rulesets.quick_shot.rules.odds_cost import gamble_odds_cost
from service.rulesets.self_conflict.rules.checks import TalentOddsRequest
from service.rulesets.self_conflict.rules.odds import talent_odds
from service.rulesets.self_conflict.rules.odds_cost import talent_odds_cost
from service.rulesets.travelogue.rules.odds import pools_odds
from service.rulesets.travelogue.rules.odds_cost import pools_odds_cost
from service.rulesets.travelogue.rules.roll import PoolsRequest
from service.settings import Settings
from tests.bench.flood_odds import opend6_side
from tests.support.served import ServedApp


@dataclass(frozen=True)
class OddsCase:
    """The costliest request an odds operation accepts, and how the service computes it."""

    operation: str
    label: str
    path: str
    body: dict[str, Any]
    request_type: type[msgspec.Struct]
    compute: Callable[[Any], msgspec.Struct]
    cost: Callable[[Any], float]

    @functools.cached_property
    def request(self) -> Any:
        return msgspec.convert(self.body, self.request_type)


def cases() -> list[OddsCase]:
    largest = opend6_side(120, 20)
    return [
        OddsCase(
            "checkOdds",
            "core +8, health at issue (every dice kind)",
            "/v1/checks/odds",
            {
                "target": 20,
                "qualities": [{"name": "Hero", "type": "core", "magnitude": 8}],
                "depletable": [{"name": "Health", "current": 30, "maximum": 40}],
                "depletion": {"actor": {"threat": 3}, "opposition": {"threat": 5}},
            },
            CheckShape,
            check_odds,
            check_odds_cost,
        ),
        OddsCase(
            "openD6RollOdds",
            "120 dice, 20 CP dice",
            "/v1/opend6/rolls/odds",
            {**largest, "difficulty": {"kind": "number", "value": 200}},
            OddsRequest,
            roll_odds,
            roll_odds_cost,
        ),
        OddsCase(
            "openD6OpposedOdds",
            "120 + 20 CP against 120 + 19 CP",  # two sides to build: the dearest
            "/v1/opend6/opposed/odds",
            {"initiator": largest, "resister": opend6_side(120, 19)},
            OpposedOddsRequest,
            opposed_roll_odds,
            opposed_odds_cost,
        ),
        OddsCase(
            "selfConflictCheckOdds",
            "level 3, GM +4, karma −2",
            "/v1/self-conflict/checks/odds",
            {
                "talent": {"name": "Pilot", "level": 3},
                "conflict_modifiers": [{"label": "GM", "value": 4}],
                "karma": {"balance": 5, "modifier": -2},
            },
            TalentOddsRequest,
            talent_odds,
            talent_odds_cost,
        ),
        OddsCase(
            "quickShotGambleOdds",
            "6 actions, 10 dice, TN 4",
            "/v1/quick-shot/gambles/odds",
            {"actions": [{"difficulty": "minor"}] * 6, "wp_bet": 3, "target_number": 4},
            QuickShotOddsRequest,
            gamble_odds,
            gamble_odds_cost,
        ),
        OddsCase(
            "travelogueRollOdds",
            "30 dice vs 30, Aim 3, stats 9",
            "/v1/travelogue/rolls/odds",
            {
                "shooter": {"aim": 3, "ammo": 30},
                "angel": {"aim": 3, "ammo": 30},
                "stats": {"avoid": 9, "armor": 9, "angel": 9, "allies": 9},
            },
            PoolsRequest,
            pools_odds,
            pools_odds_cost,
        ),
    ]


# Starts a service's odds pool without warming any case's memos: pools have none.
_POOL_WARM_UP = (
    "/v1/travelogue/rolls/odds",
    {
        "shooter": {"aim": 2, "ammo": 20},
        "angel": {"aim": 2, "ammo": 20},
        "stats": {"avoid": 1, "armor": 1, "angel": 1, "allies": 1},
    },
)


def _clear_memos() -> None:
    """Every memo of the rules and the kernel (functools caches), as in a fresh process."""
    for name, module in list(sys.modules.items()):
        if name.startswith(("service.rulesets.", "service.kernel.")):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def in_process_us(case: OddsCase, runs: int = 3) -> float:
    fastest = float("inf")
    for _ in range(runs):
        _clear_memos()
        started = time.perf_counter()
        msgspec.json.encode(case.compute(case.request))
        fastest = min(fastest, time.perf_counter() - started)
    return fastest * 1e6


@dataclass(frozen=True)
class Served:
    client_us: float
    server_us: float
    path: str
    cached_us: float


def _server_timing(answer: httpx.Response) -> tuple[str, float]:
    timing = answer.headers["server-timing"]  # odds;desc="pool";dur=1.234
    return timing.split('"')[1], float(timing.rsplit("dur=", 1)[1]) * 1000


def through_http(case: OddsCase, workdir: Path) -> Served:
    app = ServedApp({"REDIS_URL": ""}, workdir / f"{case.operation}-{id(case)}.log")
    try:
        app.wait_ready(timeout=60)
        with httpx.Client(base_url=app.url, timeout=120) as client:
            warm_up = client.post(_POOL_WARM_UP[0], json=_POOL_WARM_UP[1])
            assert _server_timing(warm_up)[0] == "pool", warm_up.headers
            started = time.perf_counter()
            answer = client.post(case.path, json=case.body)
            client_us = (time.perf_counter() - started) * 1e6
            assert answer.status_code == 200, answer.text
            path, server_us = _server_timing(answer)
            started = time.perf_counter()
            again = client.post(case.path, json=case.body)
            cached_us = (time.perf_counter() - started) * 1e6
            assert _server_timing(again)[0] == "cache"
        return Served(client_us, server_us, path, cached_us)
    finally:
        app.stop()


def report() -> None:
    settings = Settings()
    print(
        "\nodds, the worst case of each operation, cold (µs; HTTP: a fresh server, one "
        f"worker; in line within {settings.odds_inline_ms:g} ms estimated, in the pool "
        f"within {settings.odds_max_ms:g} ms, refused beyond; load average "
        f"{os.getloadavg()[0]:.1f})\n"
    )
    print(
        f"{'operation':22} {'request':34} {'estimate':>9} {'in-proc':>9} "
        f"{'HTTP':>9} {'server':>9} {'served':>7} {'cached':>7}"
    )
    workdir = Path(tempfile.mkdtemp(prefix="bullseye-bench-odds-"))
    for case in cases():
        estimate = case.cost(case.request)
        computed = in_process_us(case)
        served = through_http(case, workdir)
        print(
            f"{case.operation:22} {case.label:34} {estimate:9.0f} {computed:9.0f} "
            f"{served.client_us:9.0f} {served.server_us:9.0f} {served.path:>7} "
            f"{served.cached_us:7.0f}"
        )
    print(f"\nserver logs: {workdir}")


def main() -> int:
    report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
