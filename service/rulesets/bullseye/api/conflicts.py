"""``/v1/conflicts``: expanded conflicts (§4), their state kept only in Redis."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, get, post, route
from litestar.datastructures import State
from litestar.enums import HttpMethod
from litestar.exceptions import NotFoundException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, HeaderParameter, Parameter
from litestar.response import Response, ServerSentEvent, ServerSentEventMessage
from msgspec import Meta

from service.http.body import StrictJson
from service.http.context import new_id
from service.http.problems import (
    PROBLEM_MEDIA_TYPE,
    ConcurrentUpdate,
    Forbidden,
    IdempotencyKeyReused,
    PreconditionFailed,
    RequestInFlight,
    StoreError,
    Unauthorized,
    problem_body,
    problem_responses,
)
from service.kernel.bounds import Name
from service.kernel.errors import RulesError
from service.kernel.values import Value
from service.metrics import CONFLICTS_CREATED, CONFLICTS_DECIDED
from service.rulesets.bullseye.api.checks import ServerDice
from service.rulesets.bullseye.api.conflict_store import (
    Access,
    ConflictStore,
    IdempotencyRecord,
    Loaded,
    token_hash,
)
from service.rulesets.bullseye.api.examples import CONFLICT_EXAMPLES
from service.rulesets.bullseye.rules.checks import CheckResult
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    MAX_PLAYERS,
    Conflict,
    ConflictStatus,
    DiceSource,
    Event,
    OppositionSpec,
    OutcomeRequest,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Round,
    Scores,
    Side,
    Submit,
    apply,
    new_conflict,
)
from service.rulesets.bullseye.rules.dice import DiceKind

__all__ = [
    "CREATED_LINKS",
    "ConflictController",
    "ConflictCreated",
    "ConflictView",
    "CreateConflict",
]

MAX_WRITE_ATTEMPTS = 25
# A token is required, as the bearer credential or as the X-Conflict-Token header parameter
# (which links can carry); hence the bearer scheme is one alternative, the parameter the other.
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"conflictToken": []}, {}]
SSE_BLOCK_MS = 15_000
ConflictId = Annotated[str, Parameter(max_length=64, description="The conflict's id.")]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        max_length=255,
        required=False,
        description="Retry safely: the same key and body return the first response.",
    ),
]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        max_length=32,
        required=False,
        description='Act only if the conflict is still at this version: `"<version>"`.',
    ),
]
ConflictToken = Annotated[
    str | None,
    HeaderParameter(
        name="X-Conflict-Token",
        max_length=128,
        required=False,
        description="The conflict's GM or player token; when present it is used instead of "
        "`Authorization: Bearer <token>`.",
    ),
]


class CreateConflict(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new expanded conflict (§4)."""

    name: Name
    players: Annotated[tuple[PlayerSpec, ...], Meta(min_length=1, max_length=MAX_PLAYERS)]
    opposition: OppositionSpec
    depletable_at_issue: Name | None = None
    dice: DiceKind = DiceKind.D20
    dice_source: DiceSource = DiceSource.SERVER
    ttl_seconds: Annotated[int, Meta(ge=60, le=604800)] | None = None


class ConflictView(Value, frozen=True, kw_only=True):
    """A conflict as its participants see it: other participants' pending rolls stay hidden."""

    id: str
    name: str
    status: ConflictStatus
    round: int
    scores: Scores
    players: tuple[PlayerSpec, ...]
    opposition: OppositionSpec
    dice: DiceKind
    dice_source: DiceSource
    depletable_at_issue: str | None
    rounds: tuple[Round, ...]
    winner: Side | None
    outcome: CheckResult | None
    submitted: tuple[str, ...]
    waiting_for: tuple[str, ...]
    bullseyes_left: dict[str, int]
    expires_at: str
    version: int


class Tokens(Value, frozen=True, kw_only=True):
    """Bearer tokens: shown once, at creation, and stored only as hashes."""

    gm: str
    players: dict[str, str]


class ConflictCreated(ConflictView, frozen=True, kw_only=True):
    """The new conflict and its tokens."""

    tokens: Tokens


class SubmissionAccepted(Value, frozen=True, kw_only=True):
    """A check that waits for the rest of its round."""

    round: int
    participant: str
    waiting_for: tuple[str, ...]


class SubmitCheck(ParticipantCheck, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant's check for a round: ``participant`` is ``gm`` or a player id."""

    participant: Annotated[str, Meta(min_length=1, max_length=40)]


def view_of(conflict: Conflict) -> ConflictView:
    """What a client may see of ``conflict``."""
    everyone = (GM, *(p.id for p in conflict.players))
    return ConflictView(
        id=conflict.id,
        name=conflict.name,
        status=conflict.status,
        round=conflict.round,
        scores=conflict.scores,
        players=conflict.players,
        opposition=conflict.opposition,
        dice=conflict.dice,
        dice_source=conflict.dice_source,
        depletable_at_issue=conflict.depletable_at_issue,
        rounds=conflict.rounds,
        winner=conflict.winner,
        outcome=conflict.outcome,
        submitted=tuple(p for p in everyone if p in conflict.pending),
        waiting_for=tuple(
            p
            for p in everyone
            if p not in conflict.pending and conflict.status is ConflictStatus.ACTIVE
        ),
        bullseyes_left={
            p.id: p.bullseyes - conflict.bullseyes_used.get(p.id, 0) for p in conflict.players
        },
        expires_at=datetime.fromtimestamp(conflict.expires_at, UTC).isoformat(),
        version=conflict.version,
    )


def _etag(version: int) -> str:
    return f'"{version}"'


_json = msgspec.json.Encoder()


def _token_of(request: Request[Any, Any, Any], header_token: str | None) -> str:
    """X-Conflict-Token first: Authorization may carry a service-level credential."""
    if header_token:
        return header_token
    authorization = request.headers.get("authorization", "")
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    raise Unauthorized(detail="Send the conflict's token: Authorization: Bearer <token>.")


def _role(access: Access, token: str) -> str:
    """GM or a player id; compared in constant time against every stored hash."""
    digest = token_hash(token)
    role = None
    if hmac.compare_digest(digest, access.gm):
        role = GM
    for player_id, stored in access.players.items():
        if hmac.compare_digest(digest, stored):
            role = player_id
    if role is None:
        raise Unauthorized(detail="This token does not open this conflict.")
    return role


def _gm_only(role: str) -> None:
    if role != GM:
        raise Forbidden(detail="Only the GM's token may do this.")


def _store(state: State) -> ConflictStore:
    store: ConflictStore = state.conflicts
    return store


async def _load(store: ConflictStore, conflict_id: str) -> Loaded:
    loaded = await store.load(conflict_id)
    if loaded is None:
        raise NotFoundException(detail=f"No conflict '{conflict_id}' (unknown or expired).")
    return loaded


Step = Callable[[Conflict, str], tuple[Conflict, list[Event], int, Any]]


class _Mutation:
    """Load → rules → compare-and-set, retried on contention; idempotent when asked."""

    def __init__(self, state: State, request: Request[Any, Any, Any], token: str | None) -> None:
        self.store = _store(state)
        self.settings = state.settings
        self.request = request
        self.token = token

    async def run(
        self,
        conflict_id: str,
        step: Step,
        *,
        body: bytes,
        idempotency_key: str | None,
        if_match: str | None,
    ) -> Response[Any]:
        if idempotency_key is None:
            return await self._attempts(conflict_id, step, if_match, None)
        return await self._idempotent(conflict_id, step, body, idempotency_key, if_match)

    async def _idempotent(
        self, conflict_id: str, step: Step, body: bytes, key: str, if_match: str | None
    ) -> Response[bytes]:
        body_hash = hashlib.sha256(body).hexdigest()
        held = await self.store.claim_idempotency(conflict_id, key, body_hash)
        if held is not None:
            if held.body_hash != body_hash:
                raise IdempotencyKeyReused(detail="This Idempotency-Key came with another body.")
            if held.pending:
                raise RequestInFlight(detail="The first request with this key is still running.")
            return Response(
                held.body,
                status_code=held.status,
                headers=held.headers,
                media_type=held.headers.get("content-type", "application/json"),
            )
        try:
            return await self._attempts(conflict_id, step, if_match, (key, body_hash))
        except RulesError as error:
            kept = problem_body(error)
            record = IdempotencyRecord(
                body_hash=body_hash,
                status=kept[0],
                body=kept[1],
                headers={"content-type": PROBLEM_MEDIA_TYPE},
            )
            await self.store.finish_idempotency(conflict_id, key, record, _ttl_ms(self.settings))
            raise
        except BaseException:
            await self.store.finish_idempotency(conflict_id, key, None, 0)
            raise

    async def _attempts(
        self, conflict_id: str, step: Step, if_match: str | None, idem: tuple[str, str] | None
    ) -> Response[bytes]:
        # Start from this process's copy when copies have lately been current: then the
        # write is the only Redis round trip. Anything decided on a copy that may be stale
        # (a refusal, a failed If-Match) is decided again on a fresh read before it is
        # answered.
        loaded = self.store.copy_for_write(conflict_id)
        fresh = loaded is None
        if loaded is None:
            loaded = await _load(self.store, conflict_id)
        for _ in range(MAX_WRITE_ATTEMPTS):
            try:
                decided = self._decide(loaded, step, if_match, idem)
            except Exception:
                if fresh:
                    raise
                loaded, fresh = await _load(self.store, conflict_id), True
                continue
            new, events, response, record = decided
            refused = await self.store.write(
                new,
                expected_version=loaded.conflict.version,
                events=events,
                ttl_ms=new.ttl_seconds * 1000,
                idempotency=record,
                from_copy=not fresh,
            )
            if refused is None:
                was = loaded.conflict.status
                if new.status is ConflictStatus.DECIDED and was is not ConflictStatus.DECIDED:
                    CONFLICTS_DECIDED.inc()
                return response
            if refused.current is None:
                raise NotFoundException(detail=f"No conflict '{conflict_id}' (unknown or expired).")
            if fresh:  # another writer got there first: let the crowd spread out
                await asyncio.sleep(random.uniform(0, 0.005))  # noqa: S311 - jitter, not secrecy
            loaded, fresh = refused.current, True
        raise ConcurrentUpdate(detail="Too many concurrent updates; retry.")

    def _decide(
        self, loaded: Loaded, step: Step, if_match: str | None, idem: tuple[str, str] | None
    ) -> tuple[Conflict, list[Event], Response[bytes], tuple[str, IdempotencyRecord] | None]:
        """Authorize, check If-Match, apply the rules: the new state and its answer."""
        role = _role(loaded.access, _token_of(self.request, self.token))
        old = loaded.conflict
        if if_match is not None and if_match.strip() != _etag(old.version):
            raise PreconditionFailed(
                detail=f"The conflict is at version {old.version}, not {if_match}."
            )
        new, events, status, payload = step(old, role)
        new = msgspec.structs.replace(
            new, version=old.version + 1, expires_at=time.time() + new.ttl_seconds
        )
        content = _json.encode(payload(new) if callable(payload) else payload)
        headers = {"ETag": _etag(new.version)}
        record = None
        if idem is not None:
            record = (
                idem[0],
                IdempotencyRecord(
                    body_hash=idem[1],
                    status=status,
                    body=content,
                    headers={**headers, "content-type": "application/json"},
                ),
            )
        response = Response(
            content, status_code=status, headers=headers, media_type="application/json"
        )
        return new, events, response, record


def _ttl_ms(settings: Any) -> int:
    return int(settings.conflict_ttl_seconds) * 1000


async def _raw_body(request: Request[Any, Any, Any]) -> bytes:
    return await request.body()


def _with_gm_token(operation_id: str, **parameters: str) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "parameters": {
            "conflict_id": "$response.body#/id",
            "header.X-Conflict-Token": "$response.body#/tokens/gm",
            **parameters,
        },
    }


# OpenAPI links from a created conflict to what can be done with it, carrying its id and
# the GM's token, so that clients and stateful fuzzers can follow them.
CREATED_LINKS = {
    "GetConflict": _with_gm_token("getConflict"),
    "ResolveRound": _with_gm_token("resolveRound"),
    "SubmitGmCheck": _with_gm_token("submitRoundCheck", number="$response.body#/round"),
    "MakeOutcomeCheck": _with_gm_token("makeOutcomeCheck"),
    "DeleteConflict": _with_gm_token("deleteConflict"),
}


class ConflictController(Controller):
    """Expanded conflicts, any number of clients at once, state only in Redis."""

    path = "/conflicts"
    tags = ["conflicts"]

    @post(
        "/",
        operation_id="createConflict",
        summary="Start an expanded conflict",
        description="§4.2: the players' score is the total magnitude of every PC's relevant "
        "qualities; the opposition's is that times the number of PCs. The answer carries "
        "the GM's and each player's token — **shown only here**; keep them.",
        dto=StrictJson[CreateConflict],
        return_dto=None,
        status_code=201,
        responses=problem_responses(400, 413, 415, 422, 503),
    )
    async def create(
        self,
        data: Annotated[
            CreateConflict,
            Body(examples=CONFLICT_EXAMPLES),
        ],
        state: State,
        rng: ServerDice,
    ) -> Response[ConflictCreated]:
        """Create the conflict and its tokens."""
        ttl = data.ttl_seconds or state.settings.conflict_ttl_seconds
        conflict, events = new_conflict(
            conflict_id=new_id(),
            name=data.name,
            players=data.players,
            opposition=data.opposition,
            dice=data.dice,
            dice_source=data.dice_source,
            depletable_at_issue=data.depletable_at_issue,
            now=time.time(),
            ttl_seconds=ttl,
        )
        tokens = Tokens(
            gm=secrets.token_urlsafe(32),
            players={p.id: secrets.token_urlsafe(32) for p in data.players},
        )
        access = Access(
            gm=token_hash(tokens.gm),
            players={pid: token_hash(t) for pid, t in tokens.players.items()},
        )
        await _store(state).write(
            conflict, expected_version=0, events=events, ttl_ms=ttl * 1000, access=access
        )
        CONFLICTS_CREATED.inc()
        view = view_of(conflict)
        created = ConflictCreated(**msgspec.structs.asdict(view), tokens=tokens)
        return Response(
            created,
            status_code=201,
            headers={"Location": f"/v1/conflicts/{conflict.id}", "ETag": _etag(conflict.version)},
        )

    @route(
        "/{conflict_id:str}",
        http_method=[HttpMethod.OPTIONS],
        include_in_schema=False,
        sync_to_thread=False,
    )
    def conflict_options(self) -> Response[None]:
        """Allow lists every method of the path (Litestar's automatic OPTIONS lists only the
        first handler registered for a shared path)."""
        return Response(None, status_code=204, headers={"Allow": "DELETE, GET, OPTIONS"})

    @get(
        "/{conflict_id:str}",
        operation_id="getConflict",
        security=TOKEN_REQUIRED,
        summary="The conflict as it stands",
        description="Any token of the conflict may read it. `ETag` is its version.",
        responses=problem_responses(400, 401, 404, 503),
    )
    async def read(
        self,
        conflict_id: ConflictId,
        state: State,
        request: Request[Any, Any, Any],
        x_conflict_token: ConflictToken = None,
    ) -> Response[ConflictView]:
        """Read the conflict."""
        loaded = await _load(_store(state), conflict_id)
        _role(loaded.access, _token_of(request, x_conflict_token))
        return Response(view_of(loaded.conflict), headers={"ETag": _etag(loaded.conflict.version)})

    @post(
        "/{conflict_id:str}/rounds",
        operation_id="resolveRound",
        security=TOKEN_REQUIRED,
        summary="Resolve the whole current round (GM)",
        description="§4.3: the GM's check against each player's, simultaneously, every "
        "pairing against the scores from before the round. Every player must have a check. "
        "Accepts `Idempotency-Key` and `If-Match`.",
        dto=StrictJson[ResolveRound],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 401, 403, 404, 409, 412, 413, 415, 422, 503),
    )
    async def resolve_round(
        self,
        conflict_id: ConflictId,
        data: Annotated[ResolveRound, Body()],
        state: State,
        request: Request[Any, Any, Any],
        rng: ServerDice,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
        x_conflict_token: ConflictToken = None,
    ) -> Response[Round]:
        """The round, resolved."""

        def step(conflict: Conflict, role: str) -> tuple[Conflict, list[Event], int, Any]:
            _gm_only(role)
            new, events = apply(conflict, data, rng)
            return new, events, 200, lambda c: c.rounds[-1]

        return await _Mutation(state, request, x_conflict_token).run(
            conflict_id,
            step,
            body=await _raw_body(request),
            idempotency_key=idempotency_key,
            if_match=if_match,
        )

    @post(
        "/{conflict_id:str}/rounds/{number:int}/checks",
        operation_id="submitRoundCheck",
        security=TOKEN_REQUIRED,
        summary="One participant's check for round n",
        description="The GM's token submits for `gm`, a player's token for that player. "
        "**202** while the round waits for others; **200** with the resolved round when this "
        "check completes it. A round other than the current one is a 409.",
        dto=StrictJson[SubmitCheck],
        return_dto=None,
        status_code=200,
        responses={
            202: ResponseSpec(
                data_container=SubmissionAccepted,
                description="Accepted; the round waits for the participants in `waiting_for`.",
            ),
            **problem_responses(400, 401, 403, 404, 409, 412, 413, 415, 422, 503),
        },
    )
    async def submit_check(
        self,
        conflict_id: ConflictId,
        number: Annotated[int, Parameter(ge=1, le=100000, description="The round.")],
        data: Annotated[SubmitCheck, Body()],
        state: State,
        request: Request[Any, Any, Any],
        rng: ServerDice,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
        x_conflict_token: ConflictToken = None,
    ) -> Response[Round]:
        """Accept one check; resolve the round if it was the last."""
        check = ParticipantCheck(
            **{f: getattr(data, f) for f in ParticipantCheck.__struct_fields__}
        )

        def step(conflict: Conflict, role: str) -> tuple[Conflict, list[Event], int, Any]:
            if role != GM and role != data.participant:
                raise Forbidden(detail=f"This token may only submit for '{role}'.")
            if role == GM and data.participant != GM:
                raise Forbidden(detail="The GM's token submits the GM's own check ('gm').")
            new, events = apply(
                conflict, Submit(number=number, participant=data.participant, check=check), rng
            )
            if len(new.rounds) > len(conflict.rounds):
                return new, events, 200, lambda c: c.rounds[-1]
            return (
                new,
                events,
                202,
                lambda c: SubmissionAccepted(
                    round=number, participant=data.participant, waiting_for=view_of(c).waiting_for
                ),
            )

        return await _Mutation(state, request, x_conflict_token).run(
            conflict_id,
            step,
            body=await _raw_body(request),
            idempotency_key=idempotency_key,
            if_match=if_match,
        )

    @post(
        "/{conflict_id:str}/outcome",
        operation_id="makeOutcomeCheck",
        security=TOKEN_REQUIRED,
        summary="The final check of the winning side (GM)",
        description="§4.4: after the conflict is decided, the winning side checks against "
        "`target` with its remaining conflict score as a bonus. When the players win, give "
        "a check for each candidate: the one with the highest total modifier makes it. "
        "With a depletable quality at issue, depletion applies as for any check.",
        dto=StrictJson[OutcomeRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 401, 403, 404, 409, 412, 413, 415, 422, 503),
    )
    async def outcome(
        self,
        conflict_id: ConflictId,
        data: Annotated[OutcomeRequest, Body()],
        state: State,
        request: Request[Any, Any, Any],
        rng: ServerDice,
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
        x_conflict_token: ConflictToken = None,
    ) -> Response[CheckResult]:
        """The outcome check."""

        def step(conflict: Conflict, role: str) -> tuple[Conflict, list[Event], int, Any]:
            _gm_only(role)
            new, events = apply(conflict, data, rng, new_id())
            return new, events, 200, lambda c: c.outcome

        return await _Mutation(state, request, x_conflict_token).run(
            conflict_id,
            step,
            body=await _raw_body(request),
            idempotency_key=idempotency_key,
            if_match=if_match,
        )

    @delete(
        "/{conflict_id:str}",
        operation_id="deleteConflict",
        security=TOKEN_REQUIRED,
        summary="End and remove the conflict (GM)",
        status_code=204,
        responses=problem_responses(400, 401, 403, 404, 503),
    )
    async def remove(
        self,
        conflict_id: ConflictId,
        state: State,
        request: Request[Any, Any, Any],
        x_conflict_token: ConflictToken = None,
    ) -> None:
        """Delete it; event-stream readers get `conflict.closed`."""
        store = _store(state)
        loaded = await _load(store, conflict_id)
        _gm_only(_role(loaded.access, _token_of(request, x_conflict_token)))
        await store.delete(conflict_id)

    @get(
        "/{conflict_id:str}/events",
        operation_id="streamConflictEvents",
        security=TOKEN_REQUIRED,
        summary="Server-sent events of the conflict",
        description="`text/event-stream` of `submission.received`, `round.resolved`, "
        "`conflict.decided`, `outcome.made` and `conflict.closed`, each with an `id:`. "
        "Reconnect with `Last-Event-ID` to resume without missing any. The stream ends "
        "after `conflict.closed`.",
        responses=problem_responses(400, 401, 404, 503),
        media_type="text/event-stream",
    )
    async def events(
        self,
        conflict_id: ConflictId,
        state: State,
        request: Request[Any, Any, Any],
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                max_length=64,
                required=False,
                description="Resume after this event id.",
            ),
        ] = None,
        x_conflict_token: ConflictToken = None,
    ) -> ServerSentEvent:
        """Stream the conflict's events."""
        access = await _store(state).load_access(conflict_id)
        if access is None:
            raise NotFoundException(detail=f"No conflict '{conflict_id}' (unknown or expired).")
        _role(access, _token_of(request, x_conflict_token))
        streams = ConflictStore(state.redis_streams)
        after = last_event_id if last_event_id and _is_stream_id(last_event_id) else "0"
        return ServerSentEvent(_event_messages(streams, conflict_id, after, state.stopping))


def _is_stream_id(value: str) -> bool:
    milliseconds, _, sequence = value.partition("-")
    return milliseconds.isdigit() and (sequence == "" or sequence.isdigit())


async def _event_messages(
    store: ConflictStore, conflict_id: str, after: str, stopping: asyncio.Event
) -> AsyncIterator[ServerSentEventMessage]:
    while True:
        reading = asyncio.ensure_future(store.read_events(conflict_id, after, SSE_BLOCK_MS))
        stop = asyncio.ensure_future(stopping.wait())
        await asyncio.wait((reading, stop), return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        if not reading.done():  # the worker is stopping: end here, the client resumes
            reading.cancel()
            yield ServerSentEventMessage(comment="server stopping; reconnect with Last-Event-ID")
            return
        try:
            batch = reading.result()
        except StoreError:
            return
        if not batch:
            yield ServerSentEventMessage(comment="keep-alive")
            continue
        for event_id, event_type, data in batch:
            after = event_id
            payload = _json.encode(store.decode_event_data(data)).decode()
            yield ServerSentEventMessage(data=payload, event=event_type, id=event_id)
            if event_type == "conflict.closed":
                return
