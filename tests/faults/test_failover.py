"""The Sentinel run of ``make failover`` (tests/faults/failover.py), once, kept short: a
primary, a replica and three sentinels, the replica a quarter of a second behind (a slow
link: without WAIT such a run loses dozens of acknowledged writes). With writes waiting
for the replica (REDIS_WAIT_REPLICAS=1), the primary killed with SIGKILL under twenty
writers loses no acknowledged write and applies none twice, and every writer's writes
are answered again soon after the replica is promoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.faults.failover import run

pytestmark = pytest.mark.heavy(2)


def test_a_killed_primary_loses_no_acknowledged_write(tmp_path: Path) -> None:
    outcome = run("sentinel-lag-wait", before=1.5, after=1.0, log=tmp_path / "service.log")
    assert outcome.acknowledged > 100, outcome
    assert outcome.lost == 0, outcome
    assert outcome.duplicated == 0, outcome
    assert outcome.unsettled == 0, outcome
    assert outcome.refused == 0, outcome
    # Every writer back within seconds of the promotion (Sentinel's down-after: 1 s).
    assert outcome.all_after_promotion is not None, outcome
    assert outcome.all_after_promotion < 10, outcome
