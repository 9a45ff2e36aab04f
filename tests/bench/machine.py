"""What machine a benchmark ran on, for its report's heading.

Seconds depend on it: the same two-core size has been an AMD EPYC one day and a 2.1 GHz
Intel Xeon the next, and a signature costs a different number of µs on each (the
instruction counts of ``make bench-instructions`` do not move with it).
"""

from __future__ import annotations

import os
from pathlib import Path


def _model_name(cpuinfo: str) -> str | None:
    for line in cpuinfo.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "model name" and value.strip():
            return value.strip()
    return None


def machine() -> str:
    """The processor's model name and the number of cores, as Linux reports them."""
    try:
        model = _model_name(Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        model = None
    return f"{model or 'unknown processor'}, {os.cpu_count() or 1} cores"
