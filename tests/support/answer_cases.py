"""Every published example and the problems around it, sent to a running service; every
answer kept with the operation that gave it.

tests/contract checks each problem against the schema its operation declares (extension
members included); tests/clients (`make client-check`) reads every answer through both
generated clients. The requests:

1. every published example: the stateless ones, then each ruleset's plays, step by step;
2. the reads: every GET without a path parameter, a table of each index, a problem type,
   and unknown or too long names;
3. the problems: for each operation with a body, one that breaks the schema, malformed
   JSON, none, one too large, one not JSON; on each session a play left, every operation
   on it without a token, on an unknown session and an id too long, with each role's
   token (the play's request again, now out of turn), a stale and a malformed If-Match, a
   malformed If-None-Match, an Idempotency-Key first sent elsewhere or by another
   participant; a creation with too long a TTL; and each case of
   :mod:`tests.support.refusal_cases` (every problem extension member among them, and a
   warning in a 200).

Run against a service whose odds limit is 0 (``ODDS_WORKERS=0 ODDS_INLINE_MS=0``), the
examples (``strict=False``: nothing asserted) give every odds operation's
`odds-too-costly`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.support.examples import PLAYS, STATELESS, operation_routes
from tests.support.refusal_cases import CREATE_REFUSALS, DETOURS, STATELESS_CASES, Detour

__all__ = [
    "DOCUMENT",
    "OPERATIONS",
    "Answered",
    "Cases",
    "all_cases",
    "declared_schema",
    "odds_cases",
    "unanswered",
]

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi/openapi.json").read_text()
)
_PARAMETER = re.compile(r"\{(\w+)(?::\w+)?\}")
_UNKNOWN_ID = "0" * 32
_LONG = "x" * 65  # longer than any path parameter may be
_TOO_LARGE = 70 * 1024  # over MAX_BODY_BYTES' 64 KiB default


@dataclass(frozen=True)
class Answered:
    """One answer: what was asked (``case``, in words), by which operation, and what came."""

    case: str
    operation_id: str
    status: int
    media_type: str
    body: Any  # the decoded JSON; None for an answer without one


@dataclass(frozen=True)
class _Operation:
    operation_id: str
    method: str
    path: str
    statuses: frozenset[int]
    body: bool
    headers: frozenset[str]
    token: bool  # a session's token (else no credential, or an API key only with API_KEYS)


def _operations() -> dict[str, _Operation]:
    found = {}
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or method == "head":
                continue
            found[operation["operationId"]] = _Operation(
                operation_id=operation["operationId"],
                method=method.upper(),
                path=path,
                statuses=frozenset(int(s) for s in operation["responses"] if s.isdigit()),
                body="requestBody" in operation,
                headers=frozenset(
                    p["name"] for p in operation.get("parameters", []) if p["in"] == "header"
                ),
                token=any(operation.get("security", [])),
            )
    return found


OPERATIONS = _operations()


def declared_schema(answer: Answered) -> dict[str, Any] | None:
    """The schema ``answer``'s operation declares for its status and media type (None:
    undeclared)."""
    operation = OPERATIONS[answer.operation_id]
    declared = DOCUMENT["paths"][operation.path][operation.method.lower()]["responses"]
    content = declared.get(str(answer.status), {}).get("content", {})
    media = content.get(answer.media_type)
    return None if media is None else dict(media["schema"])


# Statuses declared that no request here brings about, and why.
_UNREACHED = {
    408: "a body that stalls for BODY_READ_TIMEOUT_SECONDS",
    429: "RATE_LIMIT, or a session quota, exhausted",
    503: "Redis unreachable or full, or the odds pool full",
}


def _unreached(operation: _Operation, status: int) -> str | None:
    if status in _UNREACHED:
        return _UNREACHED[status]
    if status == 401 and not operation.token:
        return "only where API_KEYS is set"
    if status == 409 and operation.method == "POST" and operation.statuses & {201}:
        return "a new session's id taken by another"
    if status == 403 and operation.operation_id.endswith(("ClientSeed", "ClientSeeds")):
        return "only for an Idempotency-Key kept by a release before 2026-12"
    if status == 200 and operation.operation_id.endswith("Events"):
        return "an event stream, not a JSON answer"
    if status == 200 and operation.operation_id == "submitRoundCheck":
        return "the round completed by a check: `Round`, as resolveRound's 200"
    return None


def unanswered(answers: list[Answered]) -> list[str]:
    """Every operation's declared problem statuses and first 2xx without an answer here
    (but those :func:`_unreached` excuses), and every answer its operation does not
    declare (status and media type)."""
    seen: dict[str, set[int]] = {}
    missing = []
    for answer in answers:
        seen.setdefault(answer.operation_id, set()).add(answer.status)
        if answer.body is not None and declared_schema(answer) is None:
            missing.append(f"{answer.operation_id} {answer.status} {answer.media_type}: undeclared")
    for operation in OPERATIONS.values():
        wanted = {s for s in operation.statuses if s >= 400} | {min(operation.statuses)}
        for status in sorted(wanted - seen.get(operation.operation_id, set())):
            if _unreached(operation, status) is None:
                missing.append(f"{operation.operation_id} {status}: no answer")
    return missing


def _url(template: str, values: Mapping[str, object]) -> str:
    return _PARAMETER.sub(lambda match: str(values[match[1]]), template)


@dataclass
class _Session:
    """A session a play created: its creation's answer (id, tokens) and what its steps sent."""

    create_operation: str
    answer: dict[str, Any]
    paths: dict[str, dict[str, object]] = field(default_factory=dict)

    @property
    def roles(self) -> list[str]:
        tokens = self.answer["tokens"]
        return [*(["gm"] if tokens.get("gm") else []), *tokens["players"]]

    def token(self, role: str) -> str:
        tokens = self.answer["tokens"]
        return str(tokens["gm"] if role == "gm" else tokens["players"][role])

    def operations(self) -> list[_Operation]:
        """The operations on this session (its path's first parameter is the session's
        id), its deletion last."""
        base = OPERATIONS[self.create_operation].path
        found = [op for op in OPERATIONS.values() if op.path.startswith(base + "/{")]
        return sorted(found, key=lambda op: op.method == "DELETE")

    def url(self, operation: _Operation, session_id: str | None = None) -> str:
        names = _PARAMETER.findall(operation.path)
        values: dict[str, object] = {"number": 1, **self.paths.get(operation.operation_id, {})}
        values[names[0]] = session_id or self.answer["id"]
        return _url(operation.path, values)


class Cases:
    """Sends requests through ``client`` and keeps every answer.

    ``strict``: a play's steps must answer as published (False against a service that
    refuses them, such as one whose odds limit is 0).
    """

    def __init__(self, client: httpx.Client, *, strict: bool = True) -> None:
        self.client = client
        self.strict = strict
        self.answers: list[Answered] = []
        self.sessions: list[_Session] = []
        self.bodies: dict[str, Any] = {}  # operation id → the first body a play sent it

    def send(
        self,
        case: str,
        operation_id: str,
        url: str,
        *,
        body: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        attempts: int = 1,
    ) -> httpx.Response:
        method = OPERATIONS[operation_id].method
        sent = dict(headers or {})
        if content is None and body is not None:
            content = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        for attempt in range(attempts, 0, -1):
            try:
                response = self.client.request(method, url, content=content, headers=sent)
                break
            except httpx.TransportError:
                if attempt == 1:
                    raise
        media_type = response.headers.get("content-type", "").split(";")[0].strip()
        decoded = response.json() if media_type.endswith("json") and response.content else None
        self.answers.append(Answered(case, operation_id, response.status_code, media_type, decoded))
        return response

    # 1. The published examples ---------------------------------------------------------

    def examples(self) -> None:
        routes = operation_routes()
        for operation_id, summary, body in STATELESS:
            _, path = routes[operation_id]
            answer = self.send(f"example: {summary}", operation_id, path, body=body)
            self._expect(answer, range(200, 300), summary)
        for _, play in PLAYS:
            self._play(play.summary, play.create_operation, play.create.value, play.steps)

    def _play(self, summary: str, create: str, body: Any, steps: Any) -> _Session | None:
        created = self.send(f"play: {summary}", create, OPERATIONS[create].path, body=body)
        self._expect(created, (201,), summary)
        if created.status_code != 201:
            return None
        session = _Session(create, created.json())
        self.sessions.append(session)
        for index, step in enumerate(steps, start=1):
            session.paths.setdefault(step.operation_id, dict(step.path))
            value = None if step.example is None else step.example.value
            if value is not None:
                self.bodies.setdefault(step.operation_id, value)
            answer = self.send(
                f"play: {summary}, step {index}",
                step.operation_id,
                self._step_url(session, step),
                body=value,
                headers={"Authorization": f"Bearer {session.token(step.role)}"},
            )
            self._expect(answer, (step.status,), f"{summary}, step {index}")
        return session

    @staticmethod
    def _step_url(session: _Session, step: Any) -> str:
        operation = OPERATIONS[step.operation_id]
        names = _PARAMETER.findall(operation.path)
        return _url(operation.path, {**step.path, names[0]: session.answer["id"]})

    def _expect(self, response: httpx.Response, statuses: Any, where: str) -> None:
        if self.strict:
            assert response.status_code in statuses, f"{where}: {response.text}"

    # 2. The reads ----------------------------------------------------------------------

    def reads(self) -> None:
        for operation in OPERATIONS.values():
            if operation.method != "GET" or "{" in operation.path:
                continue
            if operation.operation_id == "getCondition":
                url = operation.path + "?maximum=10&current=4"
            else:
                url = operation.path
            self.send("a read", operation.operation_id, url)
        for operation_id, index in (
            ("getTable", "listTables"),
            ("openD6Table", "openD6Tables"),
            ("quickShotTable", "quickShotTables"),
            ("selfConflictTable", "selfConflictTables"),
        ):
            listed = self.client.get(OPERATIONS[index].path).json()
            name = _first_name(listed)
            self.send("a table", operation_id, _url(OPERATIONS[operation_id].path, {"name": name}))
            for case, wrong in (("an unknown table", "no-such-table"), ("a name too long", _LONG)):
                self.send(case, operation_id, _url(OPERATIONS[operation_id].path, {"name": wrong}))
        self.send("a problem type", "getProblemType", "/problems/not-found")
        self.send("an unknown problem type", "getProblemType", "/problems/no-such-code")
        self.send("a code too long", "getProblemType", f"/problems/{_LONG}")
        self.send("a game's problem type", "getRulesetProblemType", "/problems/opend6/zero-dice")
        self.send("an unknown one", "getRulesetProblemType", "/problems/opend6/no-such-code")
        self.send("a code too long", "getRulesetProblemType", f"/problems/opend6/{_LONG}")
        self.send("a bad parameter", "getCondition", "/v1/conditions?maximum=0&current=1")
        self.send("a missing one", "getCondition", "/v1/conditions?maximum=10")
        self.send("a rule refusal", "getCondition", "/v1/conditions?maximum=10&current=11")

    # 3. The problems ----------------------------------------------------------------------

    def body_refusals(self) -> None:
        """Every operation with a body: the shell's refusals of the body itself."""
        for operation in OPERATIONS.values():
            if not operation.body:
                continue
            session = self._session_of(operation)
            if session is None and "{" in operation.path:
                continue
            url = session.url(operation) if session else operation.path
            token = session.token(session.roles[0]) if session else None
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            oid = operation.operation_id
            self.send("an unknown member", oid, url, body={"no_such_member": 1}, headers=headers)
            self.send("malformed JSON", oid, url, content=b'{"a" 1}', headers=_json(headers))
            self.send("no body", oid, url, content=b"", headers=_json(headers))
            big = json.dumps({"padding": "x" * _TOO_LARGE}).encode()
            # Refused on its Content-Length, the connection closed: over a real connection
            # the client, still sending, may see it reset before it reads the 413.
            close = {**_json(headers), "Connection": "close"}
            self.send("a body too large", oid, url, content=big, headers=close, attempts=5)
            text = {**headers, "Content-Type": "text/plain"}
            self.send("a body not JSON", oid, url, content=b"{}", headers=text)

    def stateless_cases(self) -> None:
        for sent in STATELESS_CASES:
            path = OPERATIONS[sent.operation_id].path
            answer = self.send(sent.case, sent.operation_id, path, body=sent.body)
            self._expect(answer, (sent.status,), sent.case)
            if self.strict:
                for member in sent.members:
                    assert answer.json().get(member), (sent.case, member, answer.text)

    def create_refusals(self) -> None:
        for refusal in CREATE_REFUSALS:
            play = next(p for _, p in PLAYS if p.create_operation == refusal.operation_id)
            body = {**(play.create.value or {}), **refusal.changes}
            path = OPERATIONS[refusal.operation_id].path
            answer = self.send(refusal.case, refusal.operation_id, path, body=body)
            self._expect(answer, (refusal.status,), refusal.case)

    def session_refusals(self) -> None:
        """On each session its play left, every operation: without a token, on an unknown
        session and on an id too long, with each role's token (the players' first: the
        GM's may delete), with a stale and a malformed If-Match, a malformed If-None-Match,
        an Idempotency-Key reused with another body and by another participant."""
        for session in list(self.sessions):
            for operation in session.operations():
                self._refuse_on(session, operation)

    def _refuse_on(self, session: _Session, operation: _Operation) -> None:
        oid, url = operation.operation_id, session.url(operation)
        body = self.bodies.get(oid, {} if operation.body else None)
        roles = session.roles[::-1]  # the players first: the GM's token may delete
        first = _bearer(session, roles[0])
        self.send("no token", oid, url, body=body)
        unknown = session.url(operation, _UNKNOWN_ID)
        self.send("an unknown session", oid, unknown, body=body, headers=first)
        too_long = session.url(operation, _LONG)
        self.send("a session id too long", oid, too_long, body=body, headers=first)
        if oid.endswith("Events"):
            return  # a stream's own answer is no JSON: only its refusals are read here
        if "Idempotency-Key" in operation.headers:
            self._reuse_keys(session, operation, body, roles)
        for role in roles:
            self.send(f"as {role}", oid, url, body=body, headers=_bearer(session, role))
        if "If-Match" in operation.headers:
            stale = {**_bearer(session, roles[0]), "If-Match": '"999999"'}
            self.send("a stale If-Match", oid, url, body=body, headers=stale)
            malformed = {**_bearer(session, roles[0]), "If-Match": "999999"}
            self.send("a malformed If-Match", oid, url, body=body, headers=malformed)
        if "If-None-Match" in operation.headers:
            malformed = {**first, "If-None-Match": "999999"}
            self.send("a malformed If-None-Match", oid, url, headers=malformed)

    def _reuse_keys(
        self, session: _Session, operation: _Operation, body: Any, roles: list[str]
    ) -> None:
        """A key first sent to another operation (422), and one another participant sent
        first (403)."""
        oid, url = operation.operation_id, session.url(operation)
        others = [
            op
            for op in session.operations()
            if op is not operation and "Idempotency-Key" in op.headers
        ]
        first = _bearer(session, roles[0])
        if others:
            key = {"Idempotency-Key": f"elsewhere-{oid}"}
            other_body = self.bodies.get(others[0].operation_id, {} if others[0].body else None)
            self.send(
                "an Idempotency-Key",
                others[0].operation_id,
                session.url(others[0]),
                body=other_body,
                headers={**first, **key},
            )
            self.send("it sent here too", oid, url, body=body, headers={**first, **key})
        key = {"Idempotency-Key": f"theirs-{oid}"}
        self.send("an Idempotency-Key", oid, url, body=body, headers={**first, **key})
        last = _bearer(session, roles[-1])
        self.send("it sent by another participant", oid, url, body=body, headers={**last, **key})

    def detours(self) -> None:
        for detour in DETOURS:
            self._detour(detour)

    def _detour(self, detour: Detour) -> None:
        play = next(p for _, p in PLAYS if p.summary.startswith(detour.play))
        create = {**(play.create.value or {}), **detour.create}
        session = self._play(
            f"{detour.case} (set up)", play.create_operation, create, play.steps[: detour.after]
        )
        assert session is not None, detour.case
        operation = OPERATIONS[detour.operation_id]
        session.paths[detour.operation_id] = dict(detour.path)
        body = detour.body
        if detour.step_body is not None and (example := play.steps[detour.step_body].example):
            body = example.value
        answer = self.send(
            detour.case,
            detour.operation_id,
            session.url(operation),
            body=body,
            headers=_bearer(session, detour.role),
        )
        self._expect(answer, (detour.status,), detour.case)
        if self.strict:
            for member in detour.members:
                assert member in answer.json(), (detour.case, member, answer.text)

    def _session_of(self, operation: _Operation) -> _Session | None:
        return next((s for s in self.sessions if operation in s.operations()), None)


def _first_name(listed: Any) -> str:
    """The first table name of a table index (whatever its list is called)."""
    items = next(value for value in listed.values() if isinstance(value, list))
    first = items[0]
    return str(first if isinstance(first, str) else first["name"])


def _json(headers: Mapping[str, str]) -> dict[str, str]:
    return {**headers, "Content-Type": "application/json"}


def _bearer(session: _Session, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {session.token(role)}"}


def all_cases(client: httpx.Client) -> list[Answered]:
    """Every case above against a service as configured by default."""
    cases = Cases(client)
    cases.examples()
    cases.reads()
    cases.detours()
    cases.stateless_cases()
    cases.create_refusals()
    cases.body_refusals()
    cases.session_refusals()
    return cases.answers


def odds_cases(client: httpx.Client) -> list[Answered]:
    """The examples against a service that computes no odds (its limit 0): every odds
    operation's `odds-too-costly` among the answers."""
    cases = Cases(client, strict=False)
    cases.examples()
    return cases.answers


def by_operation(answers: list[Answered]) -> Iterator[tuple[str, list[Answered]]]:
    operations: dict[str, list[Answered]] = {}
    for answer in answers:
        operations.setdefault(answer.operation_id, []).append(answer)
    yield from sorted(operations.items())
