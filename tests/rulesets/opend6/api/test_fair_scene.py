"""A provably fair scene (docs/verifiable-rolls.md, "Provably fair sessions"; "Performing
Actions in Rounds", "Character Points"): created (the commitment published), each
participant's client seed added with its own token — the GM's between two moves that roll
nothing —, played to `end_scene` with the server's dice, then every roll re-derived from
the revealed seed and the round's log by the test's own implementation of
``hmac-sha256-v1``."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.rulesets.opend6.api.scenes import SCENES
from tests.support.fair_dice import Stream, seed_matches, stream_events
from tests.support.fair_sessions import SCENE
from tests.support.problems import assert_problem


def _chain(stream: Stream) -> list[int]:
    """An exploding die ("Wild Die"): 6s are tossed again."""
    tosses = [stream.randint(1, 6)]
    while tosses[-1] == 6:
        tosses.append(stream.randint(1, 6))
    return tosses


def test_a_fair_scene_reveals_a_seed_that_reproduces_every_roll(
    client: TestClient, redis_url: str
) -> None:
    created = client.post("/v1/opend6/scenes", json=SCENE)
    assert created.status_code == 201, created.text
    body = created.json()
    path = f"/v1/opend6/scenes/{body['id']}"
    gm = {"Authorization": f"Bearer {body['tokens']['gm']}"}
    ana = {"Authorization": f"Bearer {body['tokens']['players']['ana']}"}
    commitment = body["fairness"]["commitment"]
    assert body["fairness"]["client_seeds"] == []  # committed before any seed
    seen = [created.text]

    def add_seed(headers: dict[str, str], value: str) -> dict[str, Any]:
        answer = client.post(f"{path}/client-seeds", json={"seed": value}, headers=headers)
        assert answer.status_code == 200, answer.text
        fairness: dict[str, Any] = answer.json()
        return fairness

    def move(headers: dict[str, str], made: dict[str, Any]) -> dict[str, Any]:
        answer = client.post(f"{path}/moves", json={"round": 1, **made}, headers=headers)
        assert answer.status_code == 200, answer.text
        seen.append(answer.text)
        seen.append(client.get(path, headers=gm).text)
        result: dict[str, Any] = answer.json()
        return result

    assert add_seed(ana, "ana_seed")["client_seeds"] == [{"participant": "ana", "seed": "ana_seed"}]
    assert move(gm, {"type": "set_order", "first": ["ana-pc"]})["scene"]["fairness"]["rolls"] == 0
    assert add_seed(gm, "table-7")["client_seeds"][-1] == {"participant": "gm", "seed": "table-7"}
    declared = move(ana, {"type": "declare", "participant": "ana-pc", "actions": 1})
    assert declared["scene"]["fairness"]["seeds_closed"] is False
    skill = {"base": {"type": "skill", "code": "3D"}}
    rolled = move(ana, {"type": "roll", "participant": "ana-pc", "spec": skill})  # roll 1
    assert rolled["scene"]["fairness"]["rolls"] == 1
    assert rolled["scene"]["fairness"]["seeds_closed"] is True
    spent = move(ana, {"type": "spend_character_points", "round": 1, "roll": "r1", "count": 1})
    assert spent["scene"]["fairness"]["rolls"] == 2  # the CP die is roll 2
    ten = {"kind": "number", "value": 10}
    move(gm, {"type": "resolve", "roll": "r1", "difficulty": ten})
    move(ana, {"type": "end_turn", "participant": "ana-pc"})
    move(gm, {"type": "declare", "participant": "orc", "actions": 1})
    attribute = {"base": {"type": "attribute", "code": "2D"}}
    move(gm, {"type": "roll", "participant": "orc", "spec": attribute})  # roll 3
    move(gm, {"type": "resolve", "roll": "r2", "difficulty": ten})
    before_end = client.get(path, headers=gm).json()["fairness"]
    assert (before_end["rolls"], before_end["server_seed"]) == (3, None)
    ended = move(gm, {"type": "end_scene"})

    fairness = ended["scene"]["fairness"]  # the answer that ends it reveals it already
    assert fairness == client.get(path, headers=gm).json()["fairness"]
    seed = fairness["server_seed"]
    assert seed_matches(seed, commitment)
    assert not seed_matches("f" * 64, commitment)
    assert all(seed not in text for text in seen[:-2])

    # Every roll of the log, re-derived from both client seeds in the order added: roll 1
    # Ana's regular dice then her Wild Die, roll 2 the Character Point die she spent after,
    # roll 3 the orc's.
    seeds = [c["seed"] for c in fairness["client_seeds"]]
    assert seeds == ["ana_seed", "table-7"]
    log = client.get(f"{path}/rounds/1", headers=gm).json()["moves"]
    resolved = [m["result"]["faces"] for m in log if m["move"] == "resolve"]
    assert len(resolved) == 2
    ana_faces, orc_faces = resolved
    first = Stream(seed, seeds, 1)
    assert ana_faces["regular"] == [first.randint(1, 6) for _ in ana_faces["regular"]]
    assert ana_faces["wild"] == _chain(first)
    assert ana_faces["character_points_after"] == [_chain(Stream(seed, seeds, 2))]
    third = Stream(seed, seeds, 3)
    assert orc_faces["regular"] == [third.randint(1, 6) for _ in orc_faces["regular"]]
    assert orc_faces["wild"] == _chain(third)
    assert len(ana_faces["regular"]) == 2
    assert len(orc_faces["regular"]) == 1

    events = stream_events(redis_url, SCENES.kind.events(body["id"]))
    assert [data for kind, data in events if kind == "client_seed.added"] == [
        {"participant": "ana", "seed": "ana_seed"},
        {"participant": "gm", "seed": "table-7"},
    ]
    assert events[-1] == ("scene.ended", {"round": 1, "server_seed": seed})
    assert all(seed not in str(data) for _, data in events[:-1])
    assert client.delete(path, headers=gm).status_code == 204
    closed = stream_events(redis_url, SCENES.kind.events(body["id"]))[-1]
    assert closed == ("scene.closed", {"server_seed": seed})


def test_table_dice_scenes_have_no_fairness(client: TestClient) -> None:
    table = {**SCENE, "rules": {"dice_source": "client"}, "client_seeds": None}
    created = client.post("/v1/opend6/scenes", json=table)
    assert created.status_code == 201, created.text
    assert created.json()["fairness"] is None
    early = {**SCENE, "client_seeds": {"ana": "x"}}  # seeds come after the commitment
    problem = assert_problem(
        client.post("/v1/opend6/scenes", json=early), 422, "client-seeds-at-creation"
    )
    assert problem["errors"][0]["pointer"] == "/client_seeds"


def test_a_fair_scenes_initiative_rolls_are_logged_and_re_derived(client: TestClient) -> None:
    """Reliability probe: a scene's server-dice initiative roll took a fairness roll number,
    but its log entry had `result: null`, so its faces could not be re-derived. Each
    initiative move now logs its rolls (`initiative`), one roll number per move."""
    rolled = {**SCENE, "rules": {"initiative": "rolled_per_round", "dice_source": "server"}}
    created = client.post("/v1/opend6/scenes", json=rolled)
    assert created.status_code == 201, created.text
    body = created.json()
    path = f"/v1/opend6/scenes/{body['id']}"
    gm = {"Authorization": f"Bearer {body['tokens']['gm']}"}
    ana = {"Authorization": f"Bearer {body['tokens']['players']['ana']}"}
    assert client.post(f"{path}/client-seeds", json={"seed": "ana-7"}, headers=ana).is_success
    for headers, participant in ((ana, "ana-pc"), (gm, "orc")):
        made = {"type": "initiative", "round": 1, "rolls": [{"participant": participant}]}
        answer = client.post(f"{path}/moves", json=made, headers=headers)
        assert answer.status_code == 200, answer.text
    ended = client.post(f"{path}/moves", json={"round": 1, "type": "end_scene"}, headers=gm)
    assert ended.status_code == 200, ended.text
    fairness = ended.json()["scene"]["fairness"]
    seed, seeds = fairness["server_seed"], [c["seed"] for c in fairness["client_seeds"]]
    assert fairness["rolls"] == 2

    log = client.get(f"{path}/rounds/1", headers=gm).json()["moves"]
    initiative = [m["initiative"] for m in log if m["move"] == "initiative"]
    assert [len(rolls) for rolls in initiative] == [1, 1]
    for number, (roll,) in enumerate(initiative, start=1):
        stream = Stream(seed, seeds, number)
        faces = roll["faces"]
        assert faces["regular"] == [stream.randint(1, 6) for _ in faces["regular"]]
        assert faces["wild"] == _chain(stream)
    ana_roll, orc_roll = (rolls[0] for rolls in initiative)
    assert len(ana_roll["faces"]["regular"]) == 2  # Acumen 3D: two regular dice, the Wild Die
    assert len(orc_roll["faces"]["regular"]) == 1  # 2D
