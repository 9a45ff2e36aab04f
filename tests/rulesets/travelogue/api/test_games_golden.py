"""Part 3's seeded server game over HTTP (D28): seed 7 and the fixed policy, each player
acting with his own token, replay the pure engine's golden event log — in the actions'
answers, on the event stream (resumed from the middle with `Last-Event-ID`) and in the
history's dice — against the service run as its own process.

The golden log is the engine's, written without a clock: its events carry `at: ""`, the
service's a time. `at` is the one field dropped on both sides before comparing; the
stream's `id:` is the frame's, not the event's, and is compared only for its order.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import msgspec
import pytest

from tests.rulesets.travelogue.rules.game.golden import GOLDEN
from tests.support.sse import read_sse
from tests.support.travelogue_bot import FixedPolicy
from tests.support.travelogue_games import GAMES, sheets_json

STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _golden() -> list[dict[str, Any]]:
    return [_without_at(msgspec.json.decode(line)) for line in GOLDEN.read_bytes().splitlines()]


def _without_at(event: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in event.items() if name != "at"}


def _answered(event: dict[str, Any]) -> dict[str, Any]:
    """An answer's event (`type` and its fields) as the golden log writes it."""
    assert STAMP.fullmatch(event["at"]), event
    fields = {name: value for name, value in event.items() if name != "type"}
    return _without_at({"event": event["type"], **fields})


def _streamed(frame: dict[str, str]) -> dict[str, Any]:
    """A stream frame (`event:` and its `data:`, whose `type` is the event's name) as the
    golden log writes it."""
    data = msgspec.json.decode(frame["data"])
    assert data.pop("type") == frame["event"]
    return _without_at({"event": frame["event"], **data})


def _stream_order(frame: dict[str, str]) -> tuple[int, ...]:
    return tuple(int(part) for part in frame["id"].split("-"))


@pytest.fixture(scope="module")
def seeded(served_url: str) -> dict[str, Any]:
    """The seed-7 game played to its end over HTTP: its tokens, every answer's events and
    its history (read here: the stream test deletes the ended game)."""
    with httpx.Client(base_url=served_url, timeout=30) as http:
        created = http.post(
            GAMES,
            json={"name": "Seed 7", "bullseyes": sheets_json(), "dice_source": "server", "seed": 7},
        )
        assert created.status_code == 201, created.text
        game = created.json()
        path, tokens = f"{GAMES}/{game['id']}", game["tokens"]["players"]
        policy, view, answered, sent = FixedPolicy(), game, [], []
        while view["status"] == "active":
            actor, body = policy.next(view)
            answer = http.post(
                f"{path}/actions", json=body, headers={"X-Game-Token": tokens[actor]}
            )
            assert answer.status_code == 200, (len(sent), actor, body, answer.text)
            sent.append((actor, body["type"]))
            view = answer.json()["game"]
            answered.extend(answer.json()["events"])
        history: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = http.get(
                f"{path}/history", params={"after": after}, headers={"X-Game-Token": tokens["vera"]}
            )
            assert page.status_code == 200, page.text
            history.extend(page.json()["items"])
            after = page.json()["next_after"]
    return {
        "path": path,
        "tokens": tokens,
        "answered": answered,
        "sent": sent,
        "view": view,
        "history": history,
    }


def test_the_seeded_game_ends_and_its_answers_replay_the_golden_log(
    seeded: dict[str, Any],
) -> None:
    """The answers carry every event but the creation's, which only the stream has."""
    golden = _golden()
    assert seeded["view"]["status"] == "ended"
    assert seeded["view"]["version"] == golden[-1]["version"] == 1 + len(seeded["sent"])
    assert [_answered(event) for event in seeded["answered"]] == golden[1:]


def test_the_event_stream_replays_the_golden_log_and_resumes_from_the_middle(
    served_url: str, seeded: dict[str, Any]
) -> None:
    """Read from the start, the stream is the golden log; resumed with `Last-Event-ID` of
    a frame in the middle, it carries exactly the frames after it, then (the ended game
    deleted, D31) `game.closed` last."""
    golden = _golden()
    path, token = seeded["path"], seeded["tokens"]["annie"]
    with httpx.Client(base_url=served_url, timeout=30) as http:
        auth = {"Authorization": f"Bearer {token}"}
        with http.stream("GET", f"{path}/events", headers=auth) as stream:
            assert stream.status_code == 200
            frames = read_sse(stream, len(golden))
        assert [_streamed(frame) for frame in frames] == golden
        assert sorted(frames, key=_stream_order) == frames
        assert http.delete(path, headers=auth).status_code == 204
        middle = len(frames) // 2
        resume = {**auth, "Last-Event-ID": frames[middle]["id"]}
        with http.stream("GET", f"{path}/events", headers=resume) as stream:
            assert stream.status_code == 200
            rest = read_sse(stream, len(golden))  # fewer: the stream ends after game.closed
    assert rest[:-1] == frames[middle + 1 :]
    assert rest[-1]["event"] == "game.closed"
    assert _stream_order(rest[-1]) > _stream_order(frames[-1])


def test_the_history_lists_each_action_once_with_the_golden_logs_dice(
    seeded: dict[str, Any],
) -> None:
    """Every action the policy sent, in order, by its actor; each roll's dice are the
    ones the golden log's `attention.rolled` / `pools.rolled` show at that version."""
    golden = _golden()
    die = {e["version"]: e["die"] for e in golden if e["event"] == "attention.rolled"}
    pools = {
        e["version"]: (e["shooter"], e["angel"]) for e in golden if e["event"] == "pools.rolled"
    }
    items = seeded["history"]
    assert [(i["actor"], i["action"]["type"]) for i in items] == seeded["sent"]
    assert [i["version"] for i in items] == list(range(2, 2 + len(seeded["sent"])))
    rolled = {i["version"]: i["result"] for i in items if i["result"] is not None}
    assert set(rolled) == set(die) | set(pools)
    for version, result in rolled.items():
        if version in die:
            assert (result["die"], result["shooter"], result["angel"]) == (die[version], [], [])
        else:
            assert (result["die"], (result["shooter"], result["angel"])) == (None, pools[version])
