"""Every Redis error and fault on a session route is a 503 with Retry-After, never a 500,
with nothing half-written and a warning naming the error (reliability probe: a Redis
loading its data made every session route answer 500, because the session path's own
client returned redis-py's ``BusyLoadingError`` as a reply instead of raising it).

A matrix, through a real TCP proxy in front of a real Redis: for every kind of session,
its read and a write, each error reply Redis gives when it cannot run a command (the
proxy answers with Redis's own bytes, and Redis never sees the command), a connection
dropped halfway through a reply, and a reply that never comes."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from litestar.testing import TestClient

from tests.support.problems import assert_problem
from tests.support.proxy import HoldingProxy
from tests.support.session_kinds import KINDS, Kind, Session

# The error replies, as Redis sends them, and what redis-py's parser makes of each.
NOT_RUN = {
    "LOADING": (b"-LOADING Redis is loading the dataset in memory\r\n", "BusyLoadingError"),
    "BUSY": (
        b"-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN "
        b"NOSAVE.\r\n",
        "ResponseError",
    ),
    "MASTERDOWN": (
        b"-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.\r\n",
        "MasterDownError",
    ),
    "READONLY": (b"-READONLY You can't write against a read only replica.\r\n", "ReadOnlyError"),
    "OOM": (
        b"-OOM command not allowed when used memory > 'maxmemory'.\r\n",
        "OutOfMemoryError",
    ),
    "NOAUTH": (b"-NOAUTH Authentication required.\r\n", "AuthenticationError"),
    "WRONGPASS": (
        b"-WRONGPASS invalid username-password pair or user is disabled.\r\n",
        "AuthenticationError",
    ),
    "max clients": (b"-ERR max number of clients reached\r\n", "ConnectionError"),
}
KIND_IDS = [f"{kind.ruleset}-{kind.kind}" for kind in KINDS]


def _version(client: TestClient, session: Session) -> str:
    answer = client.get(session.path, headers=session.gm)
    assert answer.status_code == 200, answer.text
    return str(answer.headers["etag"])


def _write(client: TestClient, kind: Kind, session: Session, key: str) -> httpx.Response:
    keyed = Session(session.path, session.gm, {**session.player, "Idempotency-Key": key})
    return kind.player_move(client, keyed)  # type: ignore[arg-type]


def _warned(capfd: pytest.CaptureFixture[str], redis_error: str) -> bool:
    lines = [json.loads(x) for x in capfd.readouterr().err.splitlines() if x.startswith("{")]
    events = ("state_store_unavailable", "state_store_full")
    return any(
        line.get("event") in events and line.get("redis_error") == redis_error for line in lines
    )


@pytest.mark.parametrize("error", sorted(NOT_RUN))
@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_an_error_reply_is_a_503_and_nothing_is_written(
    through_proxy: TestClient,
    proxy: HoldingProxy,
    kind: Kind,
    error: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    reply, raised = NOT_RUN[error]
    code = "state-store-full" if error == "OOM" else "store-unavailable"
    app = through_proxy
    session = kind.create(app)  # type: ignore[arg-type]
    marker = session.path.rsplit("/", 1)[1].encode()
    before = _version(app, session)

    proxy.answer_next(marker, reply)
    read = app.get(session.path, headers=session.gm)
    proxy.answer_next(marker, reply)
    write = _write(app, kind, session, f"{error}-1")

    assert proxy.answered == 2
    for answer in (read, write):
        assert_problem(answer, 503, code)
        assert int(answer.headers["retry-after"]) >= 1
    assert _warned(capfd, raised)
    assert _version(app, session) == before  # nothing half-written
    # Nothing holds the key either: its retry goes through, once.
    retried = _write(app, kind, session, f"{error}-1")
    again = _write(app, kind, session, f"{error}-1")
    assert retried.status_code in (200, 202), retried.text
    assert again.content == retried.content
    assert _version(app, session) == f'"{int(before.strip(chr(34))) + 1}"'


@pytest.mark.parametrize("fault", ["a reply cut halfway", "a reply that never comes"])
@pytest.mark.parametrize("kind", KINDS, ids=KIND_IDS)
def test_a_fault_mid_reply_is_a_503_and_the_retry_is_applied_once(
    through_proxy: TestClient, proxy: HoldingProxy, kind: Kind, fault: str
) -> None:
    """The command ran; its reply was lost: the write is applied, and its retry with the
    same key answers what it did, without applying it again."""
    app = through_proxy
    session = kind.create(app)  # type: ignore[arg-type]
    marker = session.path.rsplit("/", 1)[1].encode()
    before = int(_version(app, session).strip('"'))

    def arm() -> None:
        if fault == "a reply cut halfway":
            proxy.cut_reply_to(marker)
        else:
            proxy.hold_reply_to(marker, seconds=1.0)

    arm()
    assert_problem(app.get(session.path, headers=session.gm), 503, "store-unavailable")
    arm()
    lost = _write(app, kind, session, "lost-1")
    assert_problem(lost, 503, "store-unavailable")
    assert int(lost.headers["retry-after"]) >= 1
    # The lost reply may have been the key's claim: it holds the key for its short lease,
    # and a retry meanwhile is told so (409 request-in-flight), as docs/sessions.md says.
    for _ in range(20):
        retried = _write(app, kind, session, "lost-1")
        if retried.status_code != 409 or "in-flight" not in retried.text:
            break
        time.sleep(int(retried.headers["retry-after"]) / 4)
    again = _write(app, kind, session, "lost-1")
    assert retried.status_code in (200, 202), retried.text
    assert again.content == retried.content
    assert _version(app, session) == f'"{before + 1}"'
