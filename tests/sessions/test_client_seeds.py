"""Commit first, then seeds (docs/verifiable-rolls.md, "Provably fair sessions"), for every
kind of session with the server's dice, over HTTP against the real app and Redis: the
creation publishes the commitment and takes no client seed; each participant adds its own
with its own token (`POST …/{id}/client-seeds`), as a session write (a version, an event,
If-Match, Idempotency-Key); the first roll closes the seeds; `await_client_seeds` holds
every roll until all are in. Every refusal changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.support.fair_dice import stream_events
from tests.support.fair_sessions import FAIR_KINDS, FairKind, FairSession
from tests.support.problems import assert_problem

IDS = [kind.name for kind in FAIR_KINDS]


def _version(session: FairSession) -> int:
    answer = session.read()
    assert answer.status_code == 200, answer.text
    return int(answer.headers["ETag"].strip('"'))


def _fairness(session: FairSession) -> dict[str, Any]:
    fairness: dict[str, Any] = session.read().json()["fairness"]
    return fairness


def _events(redis_url: str, kind: FairKind, session: FairSession) -> list[tuple[str, dict]]:
    return stream_events(redis_url, kind.spec.kind.events(session.id))


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_creation_commits_before_any_seed_and_takes_none(
    client: TestClient, kind: FairKind
) -> None:
    """The commitment is published at creation with no client seed: seeds in the body are
    422 `client-seeds-at-creation` at `/client_seeds`; none, null or `{}` is a creation."""
    refused = client.post(kind.collection, json={**kind.body(), "client_seeds": {"gm": "s"}})
    problem = assert_problem(refused, 422, "client-seeds-at-creation")
    assert [e["pointer"] for e in problem["errors"]] == ["/client_seeds"]
    assert "client-seeds" in problem["detail"]
    for empty in ({}, None):
        session = kind.create(client, client_seeds=empty)
        fairness = session.created["fairness"]
        assert len(fairness["commitment"]) == 64
        assert fairness["client_seeds"] == []
        assert (fairness["seeds_closed"], fairness["awaiting_seeds"]) == (False, [])
        assert (fairness["rolls"], fairness["server_seed"]) == (0, None)


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_each_participant_adds_its_own_seed_as_a_session_write(
    client: TestClient, redis_url: str, kind: FairKind
) -> None:
    """The token's role is the participant: seeds are kept in the order added, each makes
    a version (its ETag) and puts `client_seed.added` on the stream."""
    session = kind.create(client)
    version = _version(session)
    added = list(reversed(kind.participants))  # not the order of creation: the order added
    for n, participant in enumerate(added, start=1):
        answer = session.add_seed(participant, f"{participant}-seed_{n}")
        assert answer.status_code == 200, answer.text
        assert answer.headers["ETag"] == f'"{version + n}"'
        body = answer.json()
        assert body["client_seeds"][-1] == {
            "participant": participant,
            "seed": f"{participant}-seed_{n}",
        }
        assert body["commitment"] == session.created["fairness"]["commitment"]
    assert [c["participant"] for c in _fairness(session)["client_seeds"]] == added
    assert _version(session) == version + len(added)
    seeded = [
        data for name, data in _events(redis_url, kind, session) if name == "client_seed.added"
    ]
    assert [(d["participant"], d["seed"]) for d in seeded] == [
        (p, f"{p}-seed_{n}") for n, p in enumerate(added, start=1)
    ]


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_a_second_seed_from_the_same_participant_is_refused(
    client: TestClient, kind: FairKind
) -> None:
    """One seed a participant: another is 409 `client-seed-already-given`, same version."""
    session = kind.create(client)
    first = kind.participants[-1]
    assert session.add_seed(first, "mine").status_code == 200
    version, fairness = _version(session), _fairness(session)
    assert_problem(session.add_seed(first, "another"), 409, "client-seed-already-given")
    assert (_version(session), _fairness(session)) == (version, fairness)


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_the_first_roll_closes_the_seeds(
    client: TestClient, redis_url: str, kind: FairKind
) -> None:
    """Moves that roll nothing leave the seeds open; the first roll of the server's dice
    closes them, and a seed after it is 409 `client-seeds-closed` and changes nothing."""
    session = kind.create(client)
    early, late = kind.participants[0], kind.participants[-1]
    assert session.add_seed(early, "early").status_code == 200
    kind.before_roll(session)
    assert _fairness(session)["seeds_closed"] is False
    rolled = kind.roll(session)
    assert rolled.status_code in (200, 202), rolled.text
    fairness = _fairness(session)
    assert (fairness["seeds_closed"], fairness["rolls"]) == (True, 1)
    version, events = _version(session), _events(redis_url, kind, session)
    assert_problem(session.add_seed(late, "too-late"), 409, "client-seeds-closed")
    assert (_version(session), _fairness(session)) == (version, fairness)
    assert _events(redis_url, kind, session) == events
    assert [c["participant"] for c in fairness["client_seeds"]] == [early]


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_awaited_seeds_hold_every_roll_until_all_are_in(
    client: TestClient, redis_url: str, kind: FairKind
) -> None:
    """`await_client_seeds: true`: moves that roll nothing go ahead; a roll while seeds are
    missing is 409 `client-seeds-awaited` naming them, and stores nothing (no version, no
    roll number, no event); once every participant has added its seed, it rolls."""
    session = kind.create(client, await_client_seeds=True)
    everyone = list(kind.participants)
    assert session.created["fairness"]["awaiting_seeds"] == everyone
    kind.before_roll(session)
    first, *others = everyone
    assert session.add_seed(first, "first").json()["awaiting_seeds"] == others
    version, fairness = _version(session), _fairness(session)
    events = _events(redis_url, kind, session)
    problem = assert_problem(kind.roll(session), 409, "client-seeds-awaited")
    assert problem["awaiting"] == others
    assert all(name in problem["detail"] for name in others)
    assert (_version(session), _fairness(session)) == (version, fairness)
    assert _events(redis_url, kind, session) == events
    for participant in others:
        assert session.add_seed(participant, f"{participant}-1").status_code == 200
    assert _fairness(session)["awaiting_seeds"] == []
    rolled = kind.roll(session)
    assert rolled.status_code in (200, 202), rolled.text
    assert _fairness(session)["rolls"] == 1


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_an_idempotent_retry_of_a_seed_replays_its_answer(
    client: TestClient, redis_url: str, kind: FairKind
) -> None:
    """The same Idempotency-Key and body answer the first answer (same ETag), adding the
    seed once: one version, one event."""
    session = kind.create(client)
    who = kind.participants[-1]
    version = _version(session)
    first = session.add_seed(who, "once", **{"Idempotency-Key": "seed-1"})
    again = session.add_seed(who, "once", **{"Idempotency-Key": "seed-1"})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert first.headers["ETag"] == again.headers["ETag"] == f'"{version + 1}"'
    assert _version(session) == version + 1
    seeded = [
        data for name, data in _events(redis_url, kind, session) if name == "client_seed.added"
    ]
    assert len(seeded) == 1
    other = session.add_seed(who, "other", **{"Idempotency-Key": "seed-1"})
    assert_problem(other, 422, "idempotency-key-reused")


@pytest.mark.parametrize("kind", FAIR_KINDS, ids=IDS)
def test_a_seed_for_another_version_is_412(client: TestClient, kind: FairKind) -> None:
    """If-Match names the version the seed was meant for: a stale one changes nothing."""
    session = kind.create(client)
    version = _version(session)
    first, second = kind.participants[0], kind.participants[-1]
    assert session.add_seed(first, "a", **{"If-Match": f'"{version}"'}).status_code == 200
    stale = session.add_seed(second, "b", **{"If-Match": f'"{version}"'})
    assert_problem(stale, 412, "precondition-failed")
    assert [c["participant"] for c in _fairness(session)["client_seeds"]] == [first]


def test_a_session_without_server_dice_takes_no_seed(client: TestClient) -> None:
    """Table dice and a seeded game have no fairness: a seed is 422
    `client-seeds-without-server-dice` (as at creation), and so is awaiting seeds."""
    conflict, scene, game = FAIR_KINDS
    for kind, fields in (
        (conflict, {"dice_source": "client"}),
        (scene, {"rules": {"dice_source": "client"}}),
        (game, {"seed": 7}),
        (game, {"dice_source": "table"}),
    ):
        session = kind.create(client, **fields)
        assert session.created["fairness"] is None
        refused = session.add_seed(kind.participants[-1], "s")
        problem = assert_problem(refused, 422, "client-seeds-without-server-dice")
        assert [e["pointer"] for e in problem["errors"]] == ["/seed"]
        awaiting = client.post(
            kind.collection, json={**kind.body(), **fields, "await_client_seeds": True}
        )
        problem = assert_problem(awaiting, 422, "client-seeds-without-server-dice")
        assert [e["pointer"] for e in problem["errors"]] == ["/await_client_seeds"]


def test_a_game_numbers_its_versions_past_the_seeds_added_between_its_actions(
    client: TestClient, redis_url: str
) -> None:
    """A seed added makes a version like an action (the engine's): the action after it
    answers, stamps its events with and lists in its history the version it made, so the
    history's versions skip the seeds' (D29's count of actions does not)."""
    game = FAIR_KINDS[2]
    session = game.create(client)
    assert session.add_seed("vera", "v").status_code == 200  # version 2
    take = {"type": "take_flag", "flag": 4, "to": "annie", "on_behalf_of": "annie"}
    taken = client.post(f"{session.path}/actions", json=take, headers=session.auth("hugo"))
    assert taken.status_code == 200, taken.text
    assert taken.headers["ETag"] == '"3"'
    assert taken.json()["game"]["version"] == 3
    assert taken.json()["game"]["actions"] == 1
    assert {e["version"] for e in taken.json()["events"]} == {3}
    assert session.add_seed("annie", "a").status_code == 200  # version 4
    accept = {"type": "accept_flag", "ring": "loved_ones"}
    accepted = client.post(f"{session.path}/actions", json=accept, headers=session.auth("annie"))
    assert accepted.json()["game"]["version"] == 5
    events = _events(redis_url, game, session)
    seeded = [(d["version"], d["actor"]) for name, d in events if name == "client_seed.added"]
    assert seeded == [(2, "vera"), (4, "annie")]
    history = client.get(f"{session.path}/history", headers=session.auth("hugo")).json()
    assert [item["version"] for item in history["items"]] == [3, 5]
    page = client.get(
        f"{session.path}/history", params={"after": 3, "limit": 1}, headers=session.auth("hugo")
    ).json()
    assert ([i["version"] for i in page["items"]], page["next_after"]) == ([5], None)
    first = client.get(
        f"{session.path}/history", params={"limit": 1}, headers=session.auth("hugo")
    ).json()
    assert ([i["version"] for i in first["items"]], first["next_after"]) == ([3], 3)
    assert session.read().json()["version"] == 5
