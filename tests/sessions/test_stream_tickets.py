"""Stream tickets for every kind of session, from the shared engine (ARCHITECTURE.md
"Sessions": "accepts a short-lived stream ticket so a browser's EventSource can connect"):
each kind declares its spec and gets `POST …/events/tickets` beside `GET …/events`, alike —
the service run as its own process, as a user starts it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema_rs import Draft202012Validator

from service.hosted import RULESETS
from tests.support.openapi import default_document
from tests.support.problems import assert_problem
from tests.support.served import ServedApp
from tests.support.session_kinds import KINDS, Kind
from tests.support.sse import read_sse

IDS = [f"{kind.ruleset}-{kind.kind}" for kind in KINDS]
DOCUMENT: dict[str, Any] = default_document()


def test_every_kind_of_session_the_registry_lists_is_tried_here() -> None:
    """A new kind (the travelogue's chase, …) must join KINDS, and so these tests."""
    listed = {(ruleset.id, kind) for ruleset in RULESETS for kind in ruleset.stateful}
    assert listed == {(kind.ruleset, kind.kind) for kind in KINDS}


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_every_event_stream_is_published_with_its_ticket_route_and_links(kind: Kind) -> None:
    paths = DOCUMENT["paths"]
    (item,) = (p for p in paths if p.startswith(kind.collection + "/{") and p.endswith("/events"))
    events, ticket = paths[item]["get"], paths[item + "/tickets"]["post"]
    assert events["security"] == [*ticket["security"], {}]  # a ticket instead of a token
    created = ticket["responses"]["201"]["content"]["application/json"]["schema"]
    assert created == {"$ref": "#/components/schemas/StreamTicket"}
    assert f"`{ticket['operationId']}`" in events["description"]
    links = paths[kind.collection]["post"]["responses"]["201"]["links"]
    linked = {link["operationId"] for link in links.values()}
    assert {ticket["operationId"], events["operationId"]} <= linked


def test_the_conflicts_published_ticket_operation_is_kept() -> None:
    """Generated clients call it by this id, at this path."""
    operation = DOCUMENT["paths"]["/v1/conflicts/{conflict_id}/events/tickets"]["post"]
    assert operation["operationId"] == "createStreamTicket"
    assert [p["name"] for p in operation["parameters"]] == ["conflict_id"]


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_a_ticket_opens_the_stream_without_a_token(served_url: str, kind: Kind) -> None:
    with httpx.Client(base_url=served_url, timeout=10) as client:
        session = kind.create(client)
        issued = client.post(f"{session.path}/events/tickets", headers=session.player)
        assert issued.status_code == 201, issued.text
        ticket = issued.json()
        assert set(ticket) == {"ticket", "expires_in"}
        assert ticket["expires_in"] == 60  # STREAM_TICKET_SECONDS
        assert session.player["Authorization"].split()[1] not in ticket["ticket"]
        assert kind.player_move(client, session).status_code in (200, 202)
        # No Authorization header, as a browser's EventSource sends none.
        with client.stream(
            "GET", f"{session.path}/events", params={"ticket": ticket["ticket"]}
        ) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            (event,) = read_sse(stream, 1)
    assert event["event"] == kind.event
    assert event["id"]


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_only_a_token_of_the_session_gets_a_ticket(served_url: str, kind: Kind) -> None:
    with httpx.Client(base_url=served_url, timeout=10) as client:
        session = kind.create(client)
        tickets = f"{session.path}/events/tickets"
        assert_problem(client.post(tickets), 401, "unauthorized")
        assert_problem(client.post(tickets, headers=_bearer("nope")), 401, "unauthorized")
        unknown = f"{kind.collection}/no-such/events/tickets"
        assert_problem(client.post(unknown, headers=session.gm), 404, "not-found")


def test_a_ticket_opens_only_its_own_sessions_stream(served_url: str) -> None:
    """Not another session of its kind, nor one of another kind, nor any other route."""
    with httpx.Client(base_url=served_url, timeout=10) as client:
        sessions = [(kind, kind.create(client)) for kind in KINDS for _ in range(2)]
        tickets = {
            session.path: client.post(f"{session.path}/events/tickets", headers=session.gm).json()[
                "ticket"
            ]
            for _, session in sessions
        }
        for (_, holder), (_, other) in itertools.permutations(sessions, 2):
            answer = client.get(f"{other.path}/events", params={"ticket": tickets[holder.path]})
            assert_problem(answer, 401, "unauthorized")
        for _, session in sessions:
            read = client.get(session.path, params={"ticket": tickets[session.path]})
            assert_problem(read, 401, "unauthorized")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_a_ticket_opens_one_stream_once(served_url: str, kind: Kind) -> None:
    """Security review: a ticket in a URL could be used again for 60 s, and proxies log
    query strings. A ticket now opens one stream, once."""
    with httpx.Client(base_url=served_url, timeout=10) as client:
        session = kind.create(client)
        ticket = client.post(f"{session.path}/events/tickets", headers=session.player).json()
        assert kind.player_move(client, session).status_code in (200, 202)
        params = {"ticket": ticket["ticket"]}
        with client.stream("GET", f"{session.path}/events", params=params) as stream:
            assert stream.status_code == 200
            read_sse(stream, 1)
        again = client.get(f"{session.path}/events", params=params)
    assert_problem(again, 401, "unauthorized")
    assert "was used" in again.json()["detail"]


def test_a_new_ticket_resumes_after_the_last_event_by_query(served_url: str) -> None:
    """A browser cannot set Last-Event-ID on a new EventSource: ``?last_event_id=`` resumes
    the same way, with the new ticket a reconnection needs."""
    game = next(kind for kind in KINDS if kind.kind == "game")
    with httpx.Client(base_url=served_url, timeout=10) as client:
        session = game.create(client)
        assert game.player_move(client, session).status_code == 200
        events = f"{session.path}/events"
        tickets = f"{session.path}/events/tickets"
        first = client.post(tickets, headers=session.player).json()["ticket"]
        with client.stream("GET", events, params={"ticket": first}) as stream:
            created, moved = read_sse(stream, 2)
        second = client.post(tickets, headers=session.player).json()["ticket"]
        resume = {"ticket": second, "last_event_id": created["id"]}
        with client.stream("GET", events, params=resume) as stream:
            (resumed,) = read_sse(stream, 1)
    assert created["event"] == "game.created"
    assert resumed == moved  # after the id given: the creation is not replayed


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_answers_that_carry_a_secret_are_never_stored(served_url: str, kind: Kind) -> None:
    """Security review: the 201 answers carrying tokens (and a ticket's) had no
    ``Cache-Control: no-store``; the published document declares it too."""
    with httpx.Client(base_url=served_url, timeout=10) as client:
        created = client.post(kind.collection, json=kind.body())
        tokens = created.json()["tokens"]
        token = tokens.get("gm") or next(iter(tokens["players"].values()))
        path = f"{kind.collection}/{created.json()['id']}/events/tickets"
        ticket = client.post(path, headers=_bearer(token))
    assert created.headers["cache-control"] == "no-store"
    assert ticket.headers["cache-control"] == "no-store"
    paths = DOCUMENT["paths"]
    for answer in (
        paths[kind.collection]["post"]["responses"]["201"],
        next(v["post"] for p, v in paths.items() if p.startswith(kind.collection + "/{")
             and p.endswith("/events/tickets"))["responses"]["201"],
    ):  # fmt: skip
        assert answer["headers"]["Cache-Control"] == {"$ref": "#/components/headers/Cache-Control"}


def test_with_api_keys_a_ticket_opens_the_stream_without_the_key(
    redis_url: str, tmp_path: Path
) -> None:
    """Reliability probe: with API_KEYS set no browser could follow a session — the stream
    route asked for the key, which EventSource cannot send, even with a valid ticket."""
    key = "browser-key-0123456789abcdefghijklmnop"
    app = ServedApp({"REDIS_URL": redis_url, "API_KEYS": key}, tmp_path / "log")
    game = next(kind for kind in KINDS if kind.kind == "game")
    try:
        app.wait_ready()
        with httpx.Client(base_url=app.url, timeout=10) as client:
            keyed = httpx.Client(base_url=app.url, timeout=10, headers={"X-API-Key": key})
            with keyed:
                session = game.create(keyed)
                issued = keyed.post(f"{session.path}/events/tickets", headers=session.player)
            assert issued.status_code == 201, issued.text
            ticket = issued.json()["ticket"]
            events = f"{session.path}/events"
            assert_problem(client.get(events, headers=session.player), 401, "api-key-required")
            no_ticket = client.post(f"{session.path}/events/tickets", headers=session.player)
            assert_problem(no_ticket, 401, "api-key-required")
            with client.stream("GET", events, params={"ticket": ticket}) as stream:
                status = stream.status_code
                (created,) = read_sse(stream, 1)
            made_up = client.get(events, params={"ticket": "made-up"})
    finally:
        app.stop()
    assert status == 200
    assert created["event"] == "game.created"
    assert_problem(made_up, 401, "unauthorized")  # a ticket, not a way around the key


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_every_events_data_is_one_of_its_streams_published_schemas(
    served_url: str, kind: Kind
) -> None:
    """Integrators' review: the stream operation's schema was empty, and an event's `data`
    lacked the `type` its typed schema has. Each frame's data now names its event and
    matches the stream operation's published schema (the kind's event union)."""
    paths = DOCUMENT["paths"]
    (item,) = (p for p in paths if p.startswith(kind.collection + "/{") and p.endswith("/events"))
    schema = paths[item]["get"]["responses"]["200"]["content"]["text/event-stream"]["schema"]
    validator = Draft202012Validator({**schema, "components": DOCUMENT["components"]})
    with httpx.Client(base_url=served_url, timeout=10) as client:
        session = kind.create(client)
        assert kind.player_move(client, session).status_code in (200, 202)
        with client.stream("GET", f"{session.path}/events", headers=session.gm) as stream:
            (frame,) = read_sse(stream, 1)
    data = json.loads(frame["data"])
    assert data["type"] == frame["event"]
    assert validator.is_valid(data), list(validator.iter_errors(data))
    assert not validator.is_valid({**data, "type": "no.such-event"})
