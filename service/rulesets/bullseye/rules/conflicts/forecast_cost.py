"""What a conflict's forecast costs, estimated before anything is computed (µs, on the
reference machine: 2 cores), so the service computes it off the worker's event loop
(service.http.odds.gate).

A decided conflict answers its settled winner: nothing to compute. An active one is
bounded by :data:`~service.rulesets.bullseye.rules.conflicts.forecast.BOUNDS`, each
bound checked before the work it limits (the round's joint, the chain, the simulation's
draws): over 150 seeded random conflicts (``python -m tests.bench.forecast``) the median
was 22 ms of CPU and the slowest 95 ms. The estimate is that worst case, so an active
conflict's forecast is always computed by the worker's odds pool, never in line.
"""

from __future__ import annotations

from service.rulesets.bullseye.rules.conflicts.forecast import ForecastRequest
from service.rulesets.bullseye.rules.conflicts.model import ConflictStatus

__all__ = ["FORECAST_US", "SETTLED_US", "forecast_cost"]

FORECAST_US = 100_000
SETTLED_US = 100


def forecast_cost(request: ForecastRequest) -> int:
    """µs to answer ``conflictForecast`` for ``request``."""
    return FORECAST_US if request.conflict.status is ConflictStatus.ACTIVE else SETTLED_US
