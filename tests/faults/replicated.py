"""A command run against a primary with one replica (real redis-server processes, started
here and stopped after), whose URL it gets as ``REDIS_URL``: what ``REDIS_WAIT_REPLICAS``
costs, measured by the project's own benchmarks.

    python -m tests.faults.replicated make bench-instructions BENCH_ARGS='-s round'
    REDIS_WAIT_REPLICAS=1 python -m tests.faults.replicated make bench-instructions ...
    python -m tests.faults.replicated --lag 0.002 make bench    (a replica 2 ms away)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from tests.support.ha_redis import Replicated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lag", type=float, default=0.0, help="seconds the replica is behind")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args()
    if not arguments.command:
        parser.error("a command to run")
    with Replicated(1, lag=arguments.lag) as nodes:
        nodes.start()
        print(f"REDIS_URL={nodes.url} (a primary, its replica on port {nodes.data[1].port})")
        env = {**os.environ, "REDIS_URL": nodes.url}
        return subprocess.run(arguments.command, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
