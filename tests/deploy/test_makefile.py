"""The Makefile's promises to a newcomer, checked with `make -n` (nothing is installed).

`make run` installs the runtime dependencies only, everything comes from uv.lock (and
make refuses a stale lock), and `make test` on a machine without Chromium either installs
it or stops before anything else runs, printing the one command to run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def make(*args: str) -> subprocess.CompletedProcess[str]:
    # Not the flags and variables of a `make test` this may run under.
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def dry_run(target: str, tmp_path: Path) -> list[str]:
    """The commands `make TARGET` would run on a fresh clone (no .venv yet)."""
    result = make("-n", target, f"VENV={tmp_path / 'venv'}")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def syncs(lines: list[str]) -> list[str]:
    return [line for line in lines if " sync " in line and "/uv " in line]


def test_make_run_installs_the_runtime_dependencies_from_the_lock_only(tmp_path: Path) -> None:
    lines = dry_run("run", tmp_path)
    assert syncs(lines), lines
    for line in syncs(lines):
        assert "--locked" in line.split()
        assert "--extra" not in line, line
        assert "--all-extras" not in line, line
    assert any("lock --check" in line for line in lines), "a stale lock must stop make run"
    assert not any("pip install" in line and "uv==" not in line for line in lines), lines


def test_make_test_adds_the_dev_extra_after_checking_for_chromium(tmp_path: Path) -> None:
    lines = dry_run("test", tmp_path)
    (sync,) = syncs(lines)
    assert "--locked" in sync.split()
    assert "--extra dev" in sync
    chromium = next(i for i, line in enumerate(lines) if "command -v" in line)
    assert chromium < lines.index(sync), "Chromium is checked before anything is installed"
    pytest_runs = [i for i, line in enumerate(lines) if "-m pytest" in line]
    assert pytest_runs
    assert chromium < pytest_runs[0]


def test_with_chromium_the_check_says_nothing() -> None:
    result = make("-s", "chromium", "CHROMIUM=no-such-browser sh")
    assert result.returncode == 0, result.stderr
    assert result.stdout == result.stderr == ""


def test_without_chromium_and_no_way_to_install_it_make_stops_with_the_command() -> None:
    # SYSTEM_INSTALL=no: as when make is neither root nor allowed password-less sudo.
    result = make("-s", "chromium", "CHROMIUM=no-such-browser", "SYSTEM_INSTALL=no")
    assert result.returncode != 0
    if shutil.which("apt-get"):
        assert "apt-get install -y chromium" in result.stderr, result.stderr
    assert "chromium" in result.stderr
