"""Reading the Prometheus exposition text."""

from __future__ import annotations

import re


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition text (0 when absent)."""
    want = {f'{key}="{value}"' for key, value in labels.items()}
    total = 0.0
    for line in text.splitlines():
        match = re.match(rf"^{name}(?:{{(.*)}})? (\S+)$", line)
        if match and want <= set((match[1] or "").split(",")):
            total += float(match[2])
    return total
