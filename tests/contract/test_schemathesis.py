"""Schemathesis fuzzes the served app over HTTP, as any caller would reach it.

Served by its own process (not the in-process ASGI transport, which would run the
lifespan per request), with examples, coverage, fuzzing and stateful phases (following
the OpenAPI links from a created conflict, its id and GM token carried along), positive
and negative data, and every check enabled.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_EXAMPLES = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "100")


def test_schemathesis_finds_no_failure(served_url: str, tmp_path: Path) -> None:
    """Zero failures over every operation of the published document."""
    st = Path(sys.executable).with_name("st")
    result = subprocess.run(
        [
            str(st),
            "--config-file",
            str(CONFIG),
            "--no-color",
            "run",
            f"{served_url}/openapi.json",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--checks",
            "all",
            "--mode",
            "all",
            "--max-examples",
            MAX_EXAMPLES,
            "--seed",
            "20261122",
            "--workers",
            "1",  # one worker: the same seed gives the same cases, run after run
            "--report-dir",
            str(tmp_path),
            "--output-truncate",
            "false",
            # An event stream never ends while its conflict lives; tests/api covers it.
            "--exclude-operation-id",
            "streamConflictEvents",
        ],
        cwd=tmp_path,  # its crash cache and reports stay out of the work tree
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    failures_start = result.stdout.find("FAILURES")
    summary = (
        result.stdout[failures_start:][:20000] if failures_start >= 0 else result.stdout[-6000:]
    )
    assert result.returncode == 0, summary
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in result.stdout, f"phase {phase} did not pass:\n{summary}"
    assert re.search(r"^Test cases:\n\s+\d+ generated, (\d+) passed$", result.stdout, re.M), summary
    assert "failure" not in result.stdout.rsplit("SUMMARY", 1)[-1], summary
