"""Session receipts (issue #26; docs/verifiable-rolls.md, "Session receipts"): a session
created with ``receipts: true`` answers every action that rolled the server's dice with a
signed receipt — checked here by a second JOSE implementation (jwcrypto) against the
served JWK Set, its digests recomputed with the reference RFC 8785 library. The receipt is
part of the stored idempotent answer and never of the session's state or history; a
session that does not ask answers ``receipt: null``; one that never rolls the server's
dice cannot ask (422 ``receipts-without-server-dice``), and every view says whether the
session asked. One test per kind of session: Bullseye's conflicts, OpenD6's scenes,
travelogue's games."""

from __future__ import annotations

import hashlib
from typing import Any

import redis
from litestar.testing import TestClient

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.rulesets.opend6.api.scenes import SCENES
from service.rulesets.travelogue.api.games import GAMES as GAME_KIND
from service.sessions.host import SessionSpec
from tests.http.test_receipts import independently_verified, sha256, without_receipt
from tests.rulesets.opend6.api.test_fair_scene import SCENE
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.problems import assert_problem
from tests.support.travelogue_bot import FixedPolicy
from tests.support.travelogue_games import GAMES, sheets_json

Json = dict[str, Any]


def _verified(client: TestClient, answer: Json, request: Json | None) -> Json:
    """The receipt's payload, once jwcrypto holds its signature and the digests match."""
    _, payload = independently_verified(
        answer["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert payload["answer_sha256"] == sha256(without_receipt(answer))
    empty = hashlib.sha256(b"").hexdigest()
    assert payload["request_sha256"] == (empty if request is None else sha256(request))
    assert payload["dice_source"] == "server"
    return payload


def _replayed(client: TestClient, path: str, body: Json | None, headers: dict[str, str]) -> Json:
    """The answer to ``body`` sent twice with one Idempotency-Key: the replay is the same
    answer, receipt and all."""
    keyed = {**headers, "Idempotency-Key": f"k-{path}-{len(str(body))}"}
    first = client.post(path, json=body, headers=keyed)
    again = client.post(path, json=body, headers=keyed)
    assert first.status_code in (200, 202), first.text
    assert (again.status_code, again.text) == (first.status_code, first.text)
    assert again.json()["receipt"] == first.json()["receipt"] is not None
    answer: Json = first.json()
    return answer


def _kept_nowhere(redis_url: str, spec: SessionSpec[Any], session_id: str, receipt: str) -> None:
    """Neither the stored state nor the history nor the events hold the receipt."""
    kind = spec.kind
    with redis.Redis.from_url(redis_url) as db:
        state = db.hgetall(kind.state(session_id))
        history = db.lrange(kind.history(session_id), 0, -1)
        events = db.xrange(kind.events(session_id))
    assert state
    stored = [*state.values(), *history, *(v for _, e in events for v in e.values())]
    signature = receipt.encode().split(b".")[2]
    assert not any(signature in value for value in stored)
    assert not any(b'"receipt":"' in value for value in stored)


def test_a_conflict_with_receipts_signs_each_rolling_action(
    client: TestClient, redis_url: str
) -> None:
    created = client.post("/v1/conflicts", json=conflict_body(dice_source="server", receipts=True))
    assert created.status_code == 201, created.text
    conflict = created.json()
    path, tokens = f"/v1/conflicts/{conflict['id']}", conflict["tokens"]

    # A submission that waits (202): its own roll, signed.
    check = {"participant": "ana", "qualities": ["Duelist"]}
    ana = bearer(tokens["players"]["ana"])
    waiting = _replayed(client, f"{path}/rounds/1/checks", check, ana)
    payload = _verified(client, waiting, check)
    assert payload["ruleset"] == "bullseye"
    assert payload["operation"] == "submitRoundCheck"
    assert payload["id"] == f"{conflict['id']}:2"  # the version this action made
    assert payload["faces"] == waiting["check"]["faces"]

    # The submission that resolves the round (200): only its own roll is this action's.
    for who in ("bo", "gm"):
        body = {"participant": who, "qualities": [] if who == "gm" else ["Giant"]}
        token = tokens["gm"] if who == "gm" else tokens["players"]["bo"]
        answer = client.post(f"{path}/rounds/1/checks", json=body, headers=bearer(token))
        assert answer.status_code in (200, 202), answer.text
    resolved = answer.json()
    assert resolved["kind"] == "round"
    payload = _verified(client, resolved, body)
    assert payload["faces"] == resolved["gm"]["faces"]
    assert payload["id"] == f"{conflict['id']}:4"

    # A whole round in one action: the GM's faces, then each player's, in their order.
    whole = {
        "gm": {},
        "players": {"ana": {"qualities": ["Duelist"]}, "bo": {"qualities": ["Giant"]}},
    }
    view = client.get(path, headers=bearer(tokens["gm"])).json()
    if view["status"] == "active":
        played = _replayed(client, f"{path}/rounds", whole, bearer(tokens["gm"]))
        payload = _verified(client, played, whole)
        assert payload["operation"] == "resolveRound"
        assert payload["faces"] == [
            *played["gm"]["faces"],
            *played["players"]["ana"]["faces"],
            *played["players"]["bo"]["faces"],
        ]
    _kept_nowhere(redis_url, CONFLICTS, conflict["id"], waiting["receipt"])
    rounds = client.get(path, headers=bearer(tokens["gm"])).json()["rounds"]
    assert rounds
    assert all("receipt" not in r for r in rounds)


def test_a_conflict_without_receipts_answers_none(client: TestClient) -> None:
    created = client.post("/v1/conflicts", json=conflict_body(dice_source="server")).json()
    path = f"/v1/conflicts/{created['id']}/rounds/1/checks"
    check = {"participant": "ana", "qualities": ["Duelist"]}
    answer = client.post(path, json=check, headers=bearer(created["tokens"]["players"]["ana"]))
    assert answer.status_code == 202, answer.text
    assert answer.json()["check"]["faces"]
    assert answer.json()["receipt"] is None


def _scene(client: TestClient, **extra: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    created = client.post("/v1/opend6/scenes", json={**SCENE, **extra})
    assert created.status_code == 201, created.text
    body = created.json()
    gm = {"Authorization": f"Bearer {body['tokens']['gm']}"}
    ana = {"Authorization": f"Bearer {body['tokens']['players']['ana']}"}
    return body["id"], gm, ana


def _scene_faces(faces: Json) -> list[int]:
    """A roll's faces in rolling order: regular, Wild Die chain, CP chains before, after."""
    chains = [*faces["character_points"], *(faces["character_points_after"] or [])]
    return [*faces["regular"], *faces["wild"], *(face for chain in chains for face in chain)]


def test_a_scene_with_receipts_signs_its_rolls_and_nothing_else(
    client: TestClient, redis_url: str
) -> None:
    scene_id, gm, ana = _scene(client, receipts=True)
    moves = f"/v1/opend6/scenes/{scene_id}/moves"
    order = {"round": 1, "type": "set_order", "first": ["ana-pc"]}
    unrolled = client.post(moves, json=order, headers=gm)
    assert unrolled.status_code == 200, unrolled.text
    assert unrolled.json()["receipt"] is None  # no dice, nothing to sign
    declared = {"round": 1, "type": "declare", "participant": "ana-pc", "actions": 1}
    assert client.post(moves, json=declared, headers=ana).status_code == 200

    roll = {
        "round": 1,
        "type": "roll",
        "participant": "ana-pc",
        "spec": {"base": {"type": "skill", "code": "3D"}},
    }
    rolled = _replayed(client, moves, roll, ana)
    payload = _verified(client, rolled, roll)
    assert (payload["ruleset"], payload["operation"]) == ("opend6", "openD6SceneMove")
    assert payload["id"] == f"{scene_id}:4"
    pending = rolled["scene"]["pending"][0]  # the roll awaits the GM's difficulty
    assert payload["faces"] == _scene_faces(pending["roll"]["faces"])
    assert len(payload["faces"]) == 3
    _kept_nowhere(redis_url, SCENES, scene_id, rolled["receipt"])
    log = client.get(f"/v1/opend6/scenes/{scene_id}/rounds/1", headers=gm)
    assert "receipt" not in log.text


def test_a_scene_without_receipts_answers_none(client: TestClient) -> None:
    scene_id, gm, ana = _scene(client)
    moves = f"/v1/opend6/scenes/{scene_id}/moves"
    client.post(moves, json={"round": 1, "type": "set_order", "first": ["ana-pc"]}, headers=gm)
    client.post(
        moves,
        json={"round": 1, "type": "declare", "participant": "ana-pc", "actions": 1},
        headers=ana,
    )
    skill = {"base": {"type": "skill", "code": "3D"}}
    roll = {"round": 1, "type": "roll", "participant": "ana-pc", "spec": skill}
    rolled = client.post(moves, json=roll, headers=ana)
    assert rolled.status_code == 200, rolled.text
    assert rolled.json()["scene"]["pending"][0]["roll"]["faces"]["regular"]
    assert rolled.json()["receipt"] is None


def _game(client: TestClient, **extra: Any) -> tuple[Json, str]:
    body = {"name": "Signed train", "bullseyes": sheets_json(), "dice_source": "server", **extra}
    created = client.post(GAMES, json=body)
    assert created.status_code == 201, created.text
    game: Json = created.json()
    return game, f"{GAMES}/{game['id']}"


def _first_roll(client: TestClient, game: Json, path: str) -> tuple[Json, Json, dict[str, str]]:
    """Play by Part 3's fixed policy up to the first action that rolls: the answers before
    it carry no receipt. That action is sent with an Idempotency-Key, twice."""
    policy, view, tokens = FixedPolicy(), game, game["tokens"]["players"]
    while True:
        actor, action = policy.next(view)
        headers = {"X-Game-Token": tokens[actor]}
        before = client.get(path, headers=headers).json()["fairness"]["rolls"]
        answer = client.post(
            f"{path}/actions",
            json=action,
            headers={**headers, "Idempotency-Key": f"a{view['version']}"},
        )
        assert answer.status_code == 200, answer.text
        if answer.json()["game"]["fairness"]["rolls"] > before:
            return answer.json(), action, {**headers, "Idempotency-Key": f"a{view['version']}"}
        assert answer.json()["receipt"] is None
        view = answer.json()["game"]


def test_a_game_with_receipts_signs_its_rolling_actions(client: TestClient, redis_url: str) -> None:
    game, path = _game(client, receipts=True)
    answer, action, headers = _first_roll(client, game, path)
    again = client.post(f"{path}/actions", json=action, headers=headers)
    assert again.json() == answer  # the replay: the same receipt
    payload = _verified(client, answer, action)
    assert (payload["ruleset"], payload["operation"]) == ("travelogue", "travelogueGameAction")
    assert payload["id"] == f"{game['id']}:{answer['game']['version']}"
    history = client.get(f"{path}/history", headers={"X-Game-Token": headers["X-Game-Token"]})
    items = history.json()["items"]
    dice = items[-1]["result"]
    assert dice
    assert payload["faces"] == _travelogue_faces(dice)
    assert "receipt" not in history.text
    _kept_nowhere(redis_url, GAME_KIND, game["id"], answer["receipt"])


def _travelogue_faces(result: Json) -> list[int]:
    """A rolling action's faces in rolling order: the attention die, or the Shooter's dice
    then the Angel's."""
    if result["die"] is not None:
        return [result["die"]]
    return [*result["shooter"], *result["angel"]]


def test_a_game_without_receipts_answers_none(client: TestClient) -> None:
    game, path = _game(client)
    policy, tokens = FixedPolicy(), game["tokens"]["players"]
    actor, action = policy.next(game)
    answer = client.post(f"{path}/actions", json=action, headers={"X-Game-Token": tokens[actor]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["receipt"] is None


def test_the_outcome_check_is_signed_and_its_stored_copy_is_not(
    client: TestClient, redis_url: str
) -> None:
    """§4.4: the conflict's last roll; the outcome kept in the state says `receipt: null`.
    The service's own verifier agrees with jwcrypto."""
    created = client.post("/v1/conflicts", json=conflict_body(dice_source="server", receipts=True))
    conflict = created.json()
    path, gm = f"/v1/conflicts/{conflict['id']}", bearer(conflict["tokens"]["gm"])
    whole = {
        "gm": {},
        "players": {"ana": {"qualities": ["Duelist"]}, "bo": {"qualities": ["Giant"]}},
    }
    view = client.get(path, headers=gm).json()
    while view["status"] == "active":
        assert view["round"] < 60
        assert client.post(f"{path}/rounds", json=whole, headers=gm).status_code == 200
        view = client.get(path, headers=gm).json()
    maker = "gm" if view["winner"] == "opposition" else "ana"
    body = {"target": 12, "checks": {maker: {} if maker == "gm" else {"qualities": ["Duelist"]}}}
    outcome = _replayed(client, f"{path}/outcome", body, gm)
    payload = _verified(client, outcome, body)
    assert payload["operation"] == "makeOutcomeCheck"
    assert payload["faces"] == outcome["faces"]
    assert client.get(path, headers=gm).json()["outcome"]["receipt"] is None
    _kept_nowhere(redis_url, CONFLICTS, conflict["id"], outcome["receipt"])
    verdict = client.post(
        "/v1/receipts/verify",
        json={"receipt": outcome["receipt"], "answer": outcome, "request": body},
    ).json()
    assert (verdict["valid"], verdict["checked"]) == (True, ["signature", "answer", "request"])
    tampered = {**outcome, "faces": [f % 20 + 1 for f in outcome["faces"]]}
    refused = client.post(
        "/v1/receipts/verify", json={"receipt": outcome["receipt"], "answer": tampered}
    ).json()
    assert (refused["valid"], refused["reason"]) == (False, "answer-mismatch")


def _refused_receipts(response: Any) -> None:
    """422 ``receipts-without-server-dice`` at ``/receipts``: the session would never sign."""
    problem = assert_problem(response, 422, "receipts-without-server-dice")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("receipts-without-server-dice", "/receipts")
    ]


# Gap 1: a session that never rolls the server's dice cannot ask for receipts.


def test_a_conflict_on_the_table_s_dice_takes_no_receipts(client: TestClient) -> None:
    _refused_receipts(client.post("/v1/conflicts", json=conflict_body(receipts=True)))
    both = client.post(
        "/v1/conflicts", json=conflict_body(receipts=True, client_seeds={"ana": "a"})
    )
    problem = assert_problem(both, 422, "client-seeds-without-server-dice")
    assert [e["pointer"] for e in problem["errors"]] == ["/client_seeds", "/receipts"]
    created = client.post("/v1/conflicts", json=conflict_body(receipts=False))
    assert created.status_code == 201, created.text


def test_a_scene_on_the_table_s_dice_takes_no_receipts(client: TestClient) -> None:
    table = {**SCENE, "rules": {"dice_source": "client"}, "client_seeds": None}
    _refused_receipts(client.post("/v1/opend6/scenes", json={**table, "receipts": True}))
    created = client.post("/v1/opend6/scenes", json={**table, "receipts": False})
    assert created.status_code == 201, created.text


def test_a_seeded_or_table_game_takes_no_receipts(client: TestClient) -> None:
    """A seeded game's dice follow from its public seed (D28), a table game's from the
    players: neither has server dice to sign."""
    for dice in ({"dice_source": "server", "seed": 7}, {"dice_source": "table"}):
        body = {"name": "Open", "bullseyes": sheets_json(), **dice}
        _refused_receipts(client.post(GAMES, json={**body, "receipts": True}))
        assert client.post(GAMES, json=body).status_code == 201


# Gap 2: every view of a session says whether it asked for receipts.


def test_a_conflict_shows_whether_it_asked_for_receipts(client: TestClient) -> None:
    for asked in (True, False):
        created = client.post(
            "/v1/conflicts", json=conflict_body(dice_source="server", receipts=asked)
        )
        assert created.status_code == 201, created.text
        conflict = created.json()
        assert conflict["receipts"] is asked
        path, gm = f"/v1/conflicts/{conflict['id']}", bearer(conflict["tokens"]["gm"])
        assert client.get(path, headers=gm).json()["receipts"] is asked
    table = client.post("/v1/conflicts", json=conflict_body()).json()
    assert table["receipts"] is False


def test_a_scene_shows_whether_it_asked_for_receipts(client: TestClient) -> None:
    for asked in (True, False):
        scene_id, gm, _ = _scene(client, receipts=asked)
        path = f"/v1/opend6/scenes/{scene_id}"
        assert client.get(path, headers=gm).json()["receipts"] is asked
        order = {"round": 1, "type": "set_order", "first": ["ana-pc"]}
        moved = client.post(f"{path}/moves", json=order, headers=gm)
        assert moved.status_code == 200, moved.text
        assert moved.json()["scene"]["receipts"] is asked
    created = client.post("/v1/opend6/scenes", json={**SCENE, "receipts": True})
    assert created.json()["receipts"] is True


def test_a_game_shows_whether_it_asked_for_receipts(client: TestClient) -> None:
    for asked in (True, False):
        game, path = _game(client, receipts=asked)
        assert game["receipts"] is asked
        tokens = game["tokens"]["players"]
        actor, action = FixedPolicy().next(game)
        headers = {"X-Game-Token": tokens[actor]}
        assert client.get(path, headers=headers).json()["receipts"] is asked
        acted = client.post(f"{path}/actions", json=action, headers=headers)
        assert acted.status_code == 200, acted.text
        assert acted.json()["game"]["receipts"] is asked
