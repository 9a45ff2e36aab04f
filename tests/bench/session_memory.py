"""``python -m tests.bench.session_memory [N]``: what one player can make Redis hold with
refused requests that each carry a fresh ``Idempotency-Key`` (the security review's
figure: 300 such requests left 302 records, ~252 KB with 7-day TTLs, outside the session's
byte count of 218).

Serves the service as a user starts it (``python -m service``, its own embedded Redis),
creates a conflict, sends N (300) refused checks from one player with N distinct keys,
then reads Redis: the keys under the conflict's hash tag, their bytes (``MEMORY USAGE``),
how many are idempotency records, the session's own count of its bytes (``n``) and the
records' time to live. ``--tree DIR`` serves another checkout of the project instead (an
older release, to compare). Figures are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

from service.embedded_redis import EmbeddedRedis
from tests.support.served import free_port

QUALITY = {"name": "Q", "type": "core", "magnitude": 5}
CONFLICT = {
    "name": "Measured",
    "players": [{"id": "ana", "name": "Ana", "qualities": [QUALITY]}],
    "opposition": {"name": "Them"},
    "dice_source": "client",
}


def measure(requests: int, tree: Path) -> dict[str, object]:
    """Send ``requests`` refused, keyed checks to the service of ``tree``; what Redis holds
    of the conflict after."""
    with EmbeddedRedis() as url:
        port = free_port()
        env = {**os.environ, "REDIS_URL": url, "PORT": str(port), "WEB_CONCURRENCY": "1"}
        env["LOG_LEVEL"] = "ERROR"
        server = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=tree,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/healthz").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            created = httpx.post(f"{base}/v1/conflicts", json=CONFLICT).json()
            ana = created["tokens"]["players"]["ana"]
            path = f"{base}/v1/conflicts/{created['id']}/rounds/2/checks"  # the wrong round
            statuses = set()
            with httpx.Client() as client:
                for n in range(requests):
                    headers = {"Authorization": f"Bearer {ana}", "Idempotency-Key": f"k-{n}"}
                    body = {"participant": "ana", "roll": {"faces": [9]}}
                    statuses.add(client.post(path, json=body, headers=headers).status_code)
            store = redis.Redis.from_url(url)
            keys = list(store.scan_iter(f"*{{{created['id']}}}*"))
            records = [k for k in keys if b":idem:" in k or b":answers" in k]
            envelope = next(k for k in keys if k.endswith(b"}"))
            return {
                "refused requests": requests,
                "statuses": sorted(statuses),
                "keys": len(keys),
                "of them idempotency records": len(records),
                "bytes (MEMORY USAGE, every key)": sum(store.memory_usage(k) or 0 for k in keys),
                "bytes the session counts (n)": int(store.hget(envelope, "n") or 0),
                "records' TTL (hours)": sorted(
                    {round(store.pttl(k) / 3_600_000, 1) for k in records}
                ),
            }
        finally:
            server.terminate()
            server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("requests", nargs="?", type=int, default=300)
    parser.add_argument("--tree", type=Path, default=Path.cwd(), help="a checkout to serve")
    options = parser.parse_args()
    print(json.dumps(measure(options.requests, options.tree.resolve()), indent=2))


if __name__ == "__main__":
    main()
