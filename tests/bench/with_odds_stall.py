"""How long a roll asking ``with_odds`` at OpenD6's largest pool (120 dice, 20 CP dice)
holds a served worker: /healthz's slowest answer while the roll is answered, cold.

    .venv/bin/python -m tests.bench.with_odds_stall 2      # the gate's default budget
    .venv/bin/python -m tests.bench.with_odds_stall 1000   # everything in line, as before
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from tests.bench.flood_odds import opend6_side
from tests.bench.odds import _POOL_WARM_UP
from tests.support.served import ServedApp


def measure(inline_ms: str, workdir: Path) -> str:
    app = ServedApp(
        {"REDIS_URL": "", "ODDS_INLINE_MS": inline_ms}, workdir / f"served-{inline_ms}.log"
    )
    try:
        app.wait_ready(timeout=60)
        with httpx.Client(base_url=app.url, timeout=120) as client:
            client.post(_POOL_WARM_UP[0], json=_POOL_WARM_UP[1])  # the pool started
            body = {**opend6_side(120, 20), "with_odds": True}
            body.pop("faces", None)
            stop, waits = threading.Event(), []

            def probe() -> None:
                with httpx.Client(base_url=app.url, timeout=10) as prober:
                    while not stop.is_set():
                        started = time.perf_counter()
                        prober.get("/healthz")
                        waits.append((time.perf_counter() - started) * 1000)

            prober = threading.Thread(target=probe)
            prober.start()
            time.sleep(0.3)
            started = time.perf_counter()
            rolled = client.post("/v1/opend6/rolls", json=body)
            took = (time.perf_counter() - started) * 1000
            time.sleep(0.1)
            stop.set()
            prober.join()
            assert rolled.status_code == 200, rolled.text
            assert rolled.json()["odds"], rolled.text
        return (
            f"ODDS_INLINE_MS={inline_ms}: the roll {took:.1f} ms; /healthz meanwhile "
            f"{len(waits)} answers, the slowest {max(waits):.1f} ms"
        )
    finally:
        app.stop()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as workdir:
        print(measure(sys.argv[1] if len(sys.argv) > 1 else "2", Path(workdir)))
