"""Provably fair sessions under concurrency: writers that lose a compare-and-set run their
step again on the fresher state, and must draw that state's roll number — never use up
two (docs/verifiable-rolls.md, "Provably fair sessions"). Every participant of a fair
conflict submits at once, round after round, against the served app; the stream's order
of `submission.received` is the order the writes were stored, so the k-th one must show
the faces of roll k."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from tests.support.bullseye_conflicts import DUELIST, bearer, conflict_body
from tests.support.fair_dice import faces, seed_matches, stream_events

ROUNDS = 4


async def _play(url: str) -> tuple[dict[str, Any], dict[str, Any]]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        body = conflict_body(
            dice_source="server",
            players=[
                {"id": "ana", "name": "Ana", "qualities": [DUELIST]},
                {"id": "bo", "name": "Bo", "qualities": [DUELIST]},
                {"id": "cy", "name": "Cy", "qualities": [DUELIST]},
            ],
        )
        answer = await http.post("/v1/conflicts", json=body)
        assert answer.status_code == 201, answer.text
        created = answer.json()
        path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
        who = {"gm": tokens["gm"], **tokens["players"]}
        gm = bearer(tokens["gm"])
        # Bo adds his seed after the commitment, with his own token, before any roll.
        seeded = await http.post(
            f"{path}/client-seeds", json={"seed": "bo-2"}, headers=bearer(tokens["players"]["bo"])
        )
        assert seeded.status_code == 200, seeded.text
        for number in range(1, ROUNDS + 1):
            answers = await asyncio.gather(
                *(
                    http.post(
                        f"{path}/rounds/{number}/checks",
                        json={"participant": participant},
                        headers=bearer(token),
                    )
                    for participant, token in who.items()
                )
            )
            assert all(a.status_code in (200, 202) for a in answers), [a.text for a in answers]
            view = (await http.get(path, headers=gm)).json()
            if view["status"] != "active":
                break
        view = (await http.get(path, headers=gm)).json()
        assert (await http.delete(path, headers=gm)).status_code == 204
        return created, view


def test_concurrent_submissions_use_one_roll_number_each(served_url: str, redis_url: str) -> None:
    created, view = asyncio.run(_play(served_url))
    events = stream_events(redis_url, CONFLICTS.kind.events(created["id"]))
    closed, data = events[-1]
    assert closed == "conflict.closed"
    fairness = {**view["fairness"], "server_seed": data["server_seed"]}
    assert seed_matches(fairness["server_seed"], created["fairness"]["commitment"])
    assert fairness["client_seeds"] == [{"participant": "bo", "seed": "bo-2"}]
    submissions = [data for kind, data in events if kind == "submission.received"]
    # Every stored submission used exactly one number: no gaps, no number used twice.
    assert view["fairness"]["rolls"] == len(submissions) == 4 * len(view["rounds"])
    rounds = {r["number"]: r for r in view["rounds"]}
    for n, submitted in enumerate(submissions, start=1):
        played = rounds[submitted["round"]]
        who = submitted["participant"]
        effort = played["gm"] if who == "gm" else played["players"][who]
        assert effort["faces"] == faces(fairness, n, 20, 1), (n, submitted)
