"""The unit of work of every stateful route: load → rules → compare-and-set, with tokens,
``If-Match``, ``If-None-Match`` and ``Idempotency-Key``.

A ruleset hands it a *step*: given the stored state, the caller's role, the dice of
this attempt (:class:`SessionDice`: a provably fair session's, or the server's) and the
version the attempt makes if it is stored, the rules' answer (:class:`Decision`) — the
next state, its events and history, and what to answer. The engine settles the dice's
account in the state it stores (the roll number used up, the client seeds closed, the
seed revealed at the end), answers the dice's refusal to roll while client seeds are
awaited (``ClientSeedsAwaited``) and, for a session created with ``receipts: true``, signs
an answer whose step drew faces (``service.sessions.receipts``). The engine never decides
a rule; the step never touches Redis.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec
from litestar.exceptions import NotFoundException
from litestar.response import Response

from service.http.contract.errors import (
    ConcurrentUpdate,
    PreconditionFailed,
    SessionFull,
    UnreplicatedError,
)
from service.http.contract.preconditions import EntityTags, entity_tags, etag
from service.http.contract.problems import PROBLEM_MEDIA_TYPE, problem_body
from service.http.receipts.signing import receipts_of
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.metrics import SESSIONS_CREATED
from service.sessions.access import Access, role_of, token_of
from service.sessions.dice import ClientSeedsAwaited, Ended, SessionDice, revealed_closing
from service.sessions.idempotency import ANSWERED, Claim, Idempotency, answer_bytes, replay
from service.sessions.receipts import signed_answer
from service.sessions.store import (
    Committed,
    Full,
    Kept,
    Replayed,
    SessionStore,
    Stale,
    Stored,
)

if TYPE_CHECKING:
    from litestar import Request

    from service.http.shell.keys import ApiKeys
    from service.kernel.dice import RandomSource
    from service.kernel.events import Event
    from service.kernel.sessions import Applied
    from service.sessions.client import RedisClient
    from service.sessions.quota import SessionQuota

__all__ = ["Decision", "SessionEngine", "Step", "etag"]

S = TypeVar("S", bound=Value)

MAX_WRITE_ATTEMPTS = 25
_json = msgspec.json.Encoder()


@dataclass(frozen=True, slots=True)
class Decision(Generic[S]):
    """What a step decided: the rules' result, and the status and body to answer with."""

    applied: Applied[S]
    status: int
    body: object


# (state, role, dice, the version this attempt makes if stored: the stored one + 1).
Step = Callable[[S, str, SessionDice[S], int], Decision[S]]


class SessionEngine(Generic[S]):
    """One kind of session's reads and writes over HTTP; one per process and kind."""

    def __init__(
        self,
        store: SessionStore[S],
        client: RedisClient,
        token_header: str,
        *,
        default_ttl_ms: int,
        pending_lease_ms: int,
        rng: RandomSource,
        quota: SessionQuota,
        max_ttl_ms: int,
        ended: Ended[S] | None = None,
    ) -> None:
        """``rng``: the server's dice; ``quota``: the live sessions each client may keep;
        ``max_ttl_ms``: the longest a session may wait untouched; ``ended``: whether a
        state can roll no more (then a provably fair session's seed is revealed)."""
        self.store = store
        self._created = SESSIONS_CREATED.labels(store.kind.ruleset, store.kind.kind)
        self._quota = quota
        self._max_ttl_ms = max_ttl_ms
        self._rng = rng
        self._ended = ended
        self.kind = store.kind
        self._idempotency = Idempotency(
            client,
            store.kind,
            lease_ms=pending_lease_ms,
            kept_per_owner=store.answers_per_owner,
            max_bytes=store.max_bytes,
        )
        self._token_header = token_header.lower().encode("latin-1")
        self._default_ttl_ms = default_ttl_ms

    def ttl_ms(self, stored: Stored[S]) -> int:
        """The session's TTL (one stored by an older release carries none: the default)."""
        return stored.ttl_ms or self._default_ttl_ms

    def _missing(self, session_id: str) -> NotFoundException:
        return NotFoundException(detail=f"No {self.kind.kind} '{session_id}' (unknown or expired).")

    async def load(self, session_id: str, *, history: bool = False) -> Stored[S]:
        """The stored session, or 404."""
        stored = await self.store.load(session_id, history=history)
        if stored is None:
            raise self._missing(session_id)
        return stored

    def require_token(self, request: Request[Any, Any, Any]) -> None:
        """401 when the request presents no token at all: asked before the session is
        looked up, so a caller without credentials learns nothing of which sessions exist."""
        token_of(request, self._token_header, self.kind.kind)

    def role(self, request: Request[Any, Any, Any], access: Access) -> str:
        """The role the request's token opens (401 when none)."""
        token = token_of(request, self._token_header, self.kind.kind)
        return role_of(access, token, self.kind.kind)

    async def read(
        self,
        session_id: str,
        request: Request[Any, Any, Any],
        *,
        if_none_match: str | None,
        history: bool = False,
    ) -> tuple[Stored[S], str] | Response[None]:
        """The session and the caller's role; or 304 when ``if_none_match`` names its
        version (authorized first: a stranger learns nothing, not even the version)."""
        self.require_token(request)
        unless = None if if_none_match is None else entity_tags("If-None-Match", if_none_match)
        stored = await self.load(session_id, history=history)
        role = self.role(request, stored.access)
        if unless is not None and unless.matches_weakly(stored.version):
            return Response(None, status_code=304, headers={"ETag": etag(stored.version)})
        return stored, role

    async def create(
        self,
        session_id: str,
        applied: Applied[S],
        *,
        access: Access,
        ttl_ms: int,
        request: Request[Any, Any, Any],
    ) -> int:
        """Store a new session for the client ``request`` comes from; its version (1).

        Raises:
            RulesError: ``ttl-too-long``, a TTL past ``SESSION_TTL_MAX_SECONDS``.
            TooManySessions: the client keeps as many live sessions as it may.
        """
        if ttl_ms > self._max_ttl_ms:
            raise RulesError.from_concerns(
                [
                    Concern(
                        code="ttl-too-long",
                        pointer="/ttl_seconds",
                        detail=f"A {self.kind.kind} waits untouched at most "
                        f"{self._max_ttl_ms // 1000} s here (SESSION_TTL_MAX_SECONDS), not "
                        f"{ttl_ms // 1000}.",
                    )
                ]
            )
        api_keys: ApiKeys = request.app.state.api_keys
        identity = api_keys.identity(request.scope)
        state_key = self.kind.state(session_id)
        await self._quota.take(identity, state_key)
        try:
            written = await self.store.write(
                session_id,
                applied.state,
                expected_version=0,
                ttl_ms=ttl_ms,
                events=applied.events,
                history=applied.history,
                access=access,
            )
        except UnreplicatedError:
            raise  # made, only not yet on a replica: it keeps its place in the quota
        except BaseException:
            await asyncio.shield(self._quota.give_back(identity, state_key))
            raise
        if not isinstance(written, Committed):
            await self._quota.give_back(identity, state_key)
        if isinstance(written, Full):
            raise SessionFull(detail=_full(written, self.store.max_bytes))
        if not isinstance(written, Committed):
            raise ConcurrentUpdate(detail=f"A {self.kind.kind} with this id exists; retry.")
        self._created.inc()
        return written.version

    async def act(
        self,
        session_id: str,
        request: Request[Any, Any, Any],
        step: Step[S],
        *,
        idempotency_key: str | None,
        if_match: str | None,
        on_commit: Callable[[S, Decision[S]], None] | None = None,
    ) -> Response[bytes]:
        """Run ``step`` on the stored session and store its result atomically.

        ``on_commit``: told the state replaced and the decision, once, when (and only
        when) this request's decision is what was stored — never on a replay.
        """
        only_if = None if if_match is None else entity_tags("If-Match", if_match)
        # Start from this process's copy when copies have lately been current: then the
        # write is the only Redis round trip. A token's role never changes, so it may be
        # read off the copy; anything else decided on a copy is decided again on a fresh
        # read before it is answered.
        stored = self.store.copy_for_write(session_id)
        fresh = stored is None
        if stored is None:
            self.require_token(request)
            stored = await self.load(session_id)
        role = self.role(request, stored.access)
        if idempotency_key is None:
            return await self._attempts(
                session_id, request, stored, fresh, role, step, only_if, None, on_commit
            )
        claimed = await self._idempotency.claim(
            session_id,
            idempotency_key,
            principal=role,
            method=request.method,
            path=request.url.path,
            body=await request.body(),
        )
        if isinstance(claimed, Response):
            await self.store.confirm(session_id)  # its write may still want a replica
            return claimed
        try:
            return await self._attempts(
                session_id, request, stored, fresh, role, step, only_if, claimed, on_commit
            )
        except RulesError as error:
            status, content = problem_body(error)
            answer = answer_bytes(
                claimed.request, status, content, {"content-type": PROBLEM_MEDIA_TYPE}
            )
            held = await self._idempotency.keep(session_id, claimed, answer)
            if held is not None and held[:1] == ANSWERED:
                # This request outlived its lease and a retry of it was applied meanwhile
                # (which is why the rules now refuse it): the retry's answer is the answer.
                await self.store.confirm(session_id)
                return replay(held, claimed.request)
            raise
        except BaseException:
            # Nothing was written under the key (or the answer is there: then the release
            # leaves it), so a retry may go ahead without waiting out the lease.
            await asyncio.shield(self._idempotency.release(session_id, claimed))
            raise

    async def _attempts(
        self,
        session_id: str,
        request: Request[Any, Any, Any],
        stored: Stored[S],
        fresh: bool,
        role: str,
        step: Step[S],
        only_if: EntityTags | None,
        claim: Claim | None,
        on_commit: Callable[[S, Decision[S]], None] | None,
    ) -> Response[bytes]:
        for _ in range(MAX_WRITE_ATTEMPTS):
            try:
                decision, faces = self._decide(stored, role, step, only_if)
            except Exception:
                if fresh:
                    raise
                stored, fresh = await self.load(session_id), True
                continue
            version = stored.version + 1
            if faces:  # the session asked for receipts, and this answer rolled
                content = signed_answer(
                    receipts_of(request),
                    decision.body,
                    faces,
                    await request.body(),
                    ruleset=self.kind.ruleset,
                    operation=_operation_of(request),
                    answer_id=f"{session_id}:{version}",
                )
            else:
                content = _json.encode(decision.body)
            headers = {"ETag": etag(version)}
            record = None
            if claim is not None:
                answer = answer_bytes(
                    claim.request,
                    decision.status,
                    content,
                    {**headers, "content-type": "application/json"},
                )
                record = Kept(field=claim.field, owner=claim.owner, answer=answer)
            written = await self.store.write(
                session_id,
                decision.applied.state,
                expected_version=stored.version,
                ttl_ms=self.ttl_ms(stored),
                events=decision.applied.events,
                history=decision.applied.history,
                idempotency=record,
                from_copy=not fresh,
            )
            match written:
                case Committed():
                    if on_commit is not None:
                        on_commit(stored.state, decision)
                    return Response(
                        content,
                        status_code=decision.status,
                        headers=headers,
                        media_type="application/json",
                    )
                case Replayed():
                    assert claim is not None
                    await self.store.confirm(session_id)
                    return replay(written.record, claim.request)
                case Full():
                    raise SessionFull(detail=_full(written, self.store.max_bytes))
                case Stale(current=None):
                    raise self._missing(session_id)
                case Stale(current=current) if current is not None:
                    if fresh:  # another writer got there first: let the crowd spread out
                        await asyncio.sleep(random.uniform(0, 0.005))  # noqa: S311 - jitter
                    stored, fresh = current, True
        raise ConcurrentUpdate(detail="Too many concurrent updates; retry.")

    def _decide(
        self, stored: Stored[S], role: str, step: Step[S], only_if: EntityTags | None
    ) -> tuple[Decision[S], list[int] | None]:
        """The step's decision on ``stored``, settled, and the faces it drew (None unless
        the session asked for receipts)."""
        if only_if is not None and not only_if.matches_strongly(stored.version):
            raise PreconditionFailed(
                detail=f"The {self.kind.kind} is at version {stored.version} (ETag "
                f"{etag(stored.version)}), which If-Match does not name."
            )
        dice = SessionDice(self._rng, stored.state, self._ended)
        try:
            decision = step(stored.state, role, dice, stored.version + 1)
        except ClientSeedsAwaited as awaited:  # the dice refused: the step left nothing
            raise awaited.refusal() from None
        settled = dice.settle(decision.applied)
        if settled is not decision.applied:
            decision = dataclasses.replace(decision, applied=settled)
        return decision, dice.faces

    async def delete(self, session_id: str, closing: Event, state: S) -> None:
        """Remove the session (``state``: as last loaded); stream readers get ``closing``
        as its last event, with a provably fair session's server seed revealed."""
        await self.store.delete(session_id, revealed_closing(state, closing))


def _operation_of(request: Request[Any, Any, Any]) -> str:
    """The operation id of the route that answers (every session route names one)."""
    handler = request.route_handler
    operation = handler.operation_id
    return operation if isinstance(operation, str) else handler.handler_name


def _full(written: Full, ceiling: int) -> str:
    return (
        f"This change would make the session {written.total} bytes; a session keeps at most "
        f"{ceiling}."
    )
