"""A realistic mixed workload for load-testing a Bullseye service (any URL).

    make load URL=http://127.0.0.1:8000 USERS=50 DURATION=1m

Table users resolve checks and batches and validate sheets; conflict users run whole
expanded conflicts in which every player submits its own check concurrently, the GM last
or first at random, until the conflict is decided, then make the outcome check and
delete it. Set ``BULLSEYE_API_KEY`` when the deployment requires API keys.
"""

from __future__ import annotations

import os
import random
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from locust import HttpUser, between, task

from service.rulesets.bullseye.api.examples import VALID_CHARACTER
from tests.bench.bodies import BATCH, CHECK

API_KEY = os.environ.get("BULLSEYE_API_KEY")
PLAYERS = 4


def _headers(token: str | None = None) -> dict[str, str]:
    headers = {"X-API-Key": API_KEY} if API_KEY else {}
    if token:
        headers["X-Conflict-Token"] = token
    return headers


class TableUser(HttpUser):
    """A chat bot or VTT module resolving checks and validating characters."""

    weight = 3
    wait_time = between(0.1, 0.5)

    @task(6)
    def check(self) -> None:
        self.client.post("/v1/checks", json=CHECK, headers=_headers())

    @task(1)
    def batch(self) -> None:
        self.client.post("/v1/checks/batch", json=BATCH, headers=_headers())

    @task(2)
    def validate(self) -> None:
        self.client.post("/v1/characters/validate", json=VALID_CHARACTER, headers=_headers())

    @task(1)
    def tables(self) -> None:
        self.client.get("/v1/tables/spread", headers=_headers())


class ConflictUser(HttpUser):
    """A GM running an expanded conflict whose players act at the same time."""

    weight = 1
    wait_time = between(0.5, 2)

    def _create(self) -> dict[str, Any]:
        body = {
            "name": f"load-{uuid.uuid4().hex[:8]}",
            "players": [
                {
                    "id": f"p{i}",
                    "name": f"Player {i}",
                    "threat": random.randint(0, 5),
                    "qualities": [{"name": "Tough", "type": "intrinsic", "magnitude": 6}],
                }
                for i in range(PLAYERS)
            ],
            "opposition": {"name": "Horde", "threat": 3},
        }
        return self.client.post("/v1/conflicts", json=body, headers=_headers()).json()

    def _submit(self, path: str, number: int, who: str, token: str) -> int:
        with self.client.post(
            f"{path}/rounds/{number}/checks",
            json={"participant": who},
            headers=_headers(token),
            name="/v1/conflicts/[id]/rounds/[n]/checks",
            catch_response=True,
        ) as response:
            if response.status_code in (200, 202):
                response.success()
            return response.status_code

    @task
    def run_a_conflict(self) -> None:
        conflict = self._create()
        path, tokens = f"/v1/conflicts/{conflict['id']}", conflict["tokens"]
        participants = [("gm", tokens["gm"]), *tokens["players"].items()]
        for number in range(1, 30):
            random.shuffle(participants)
            with ThreadPoolExecutor(len(participants)) as pool:
                list(pool.map(lambda p, n=number: self._submit(path, n, *p), participants))
            state = self.client.get(
                path, headers=_headers(tokens["gm"]), name="/v1/conflicts/[id]"
            ).json()
            if state["status"] != "active":
                break
        if state.get("winner") == "players":
            checks: dict[str, Any] = {pid: {} for pid in tokens["players"]}
        else:
            checks = {"gm": {}}
        self.client.post(
            f"{path}/outcome",
            json={"target": 15, "checks": checks},
            headers=_headers(tokens["gm"]),
            name="/v1/conflicts/[id]/outcome",
        )
        self.client.delete(path, headers=_headers(tokens["gm"]), name="/v1/conflicts/[id]")
