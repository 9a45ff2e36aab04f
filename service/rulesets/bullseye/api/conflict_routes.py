"""``/v1/conflicts``: expanded conflicts (§4), their state kept only in Redis.

Thin controllers: each write hands the session engine a *step* — the caller's role and
the stored conflict in, the rules' answer out — and the engine does the rest (tokens,
If-Match, Idempotency-Key, compare-and-set, events).
"""

from __future__ import annotations

import time
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, delete, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, Parameter
from litestar.response import Response

from service.http.contract.body import StrictJson
from service.http.contract.context import new_id
from service.http.contract.problems import problem_responses
from service.http.odds.gate import ODDS_HEADERS, OddsGateDependency, OddsProblem
from service.http.shell.allow import allow
from service.http.shell.fast_json import FastJson
from service.kernel.dice import RandomSource
from service.kernel.sessions import GM, Applied
from service.metrics import CONFLICTS_CREATED, CONFLICTS_DECIDED
from service.rulesets.bullseye.api.conflict_views import (
    CONFLICTS,
    BullseyeDecision,
    ConflictCreated,
    ConflictTokens,
    ConflictView,
    CreateConflict,
    RoundAnswer,
    SubmissionAccepted,
    SubmitCheck,
    round_answer,
    view_of,
)
from service.rulesets.bullseye.api.examples import (
    BULLSEYE_EXAMPLES,
    CLIENT_SEED_EXAMPLES,
    CONFLICT_EXAMPLES,
    OUTCOME_EXAMPLES,
    ROUND_EXAMPLES,
    SUBMIT_EXAMPLES,
)
from service.rulesets.bullseye.rules.conflicts import (
    CloseRound,
    Conflict,
    ConflictClosed,
    ConflictEvent,
    ConflictStatus,
    DecideBullseye,
    DiceSource,
    OutcomeCheck,
    OutcomeRequest,
    ParticipantCheck,
    ResolveRound,
    Submit,
    apply,
    deciding,
    may_end,
    new_conflict,
    waiting_for,
)
from service.rulesets.bullseye.rules.conflicts.forecast import (
    ConflictForecast,
    forecast_of,
    forecast_request,
)
from service.rulesets.bullseye.rules.conflicts.forecast_cost import forecast_cost
from service.rulesets.bullseye.rules.summary import submission_summary
from service.sessions.access import issue_tokens
from service.sessions.client_seeds import client_seed_routes
from service.sessions.dice import FAIR_DICE_DESCRIPTION, with_fairness
from service.sessions.engine import Decision, SessionEngine, Step, etag
from service.sessions.host import session_host
from service.sessions.params import (
    CREATED_HEADERS,
    VERSION_HEADERS,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
)
from service.sessions.problems import SessionProblem
from service.sessions.receipts import SESSION_RECEIPTS_DESCRIPTION
from service.sessions.routes import stream_routes

__all__ = ["CONFLICT_SEEDS", "CONFLICT_STREAMS", "CREATED_LINKS", "ConflictController"]

# A token is required: as the bearer credential, or in the X-Conflict-Token header (which
# leaves Authorization free for a bearer API key).
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"conflictToken": []}, {"conflictTokenHeader": []}]
ConflictId = Annotated[str, Parameter(max_length=64, description="The conflict's id.")]
_json = msgspec.json.Encoder()


FORECAST_DESCRIPTION = (
    "§4.3 and §4.4 in odds; any token of the conflict reads it, as `getConflict`. "
    "**The round in progress** (`pairings`, `this_round`): each pairing's exact odds — the "
    "player's side wins (the opposition loses), the GM's side wins, stalemate — and who "
    "loses how much (§2.4.2, as in any check against the GM's yield); the round as a whole: "
    "the pairings share the GM's one yield, so their losses are summed with it held fixed "
    "and then mixed over it — each side's total loss, whether this round decides the "
    "conflict, and the joint distribution of both scores after it (listed up to 1 000 "
    "entries). **Assumed** (decisions): each participant checks with every quality declared "
    "for it (§6.3's caps applied, negative ones included), its impairment (§3.2.3, the "
    "greatest under §7.6) and the conflict's dice (§7.1); no situational modifier, no "
    "Quick 10, no bullseye. A check already submitted this round is its yield, a known "
    "point (`basis: submitted`), for a reader who has seen that roll — whoever submitted "
    "it; to any other reader the roll stays hidden and the check is forecast as unmade "
    "(`basis: hidden`). A player still deciding on a bullseye (§7.2) is taken as it stands. "
    "**The whole conflict** (`winner`): a Markov chain over both scores (decided when a "
    "score is at or below 0 after a round and the scores differ; both at or below 0 and "
    "equal: sudden death), every later round alike. `method: exact` when its cost is "
    "within the bounds (the round's joint losses, the chain's states, and an exact "
    "fraction of at most 4 300 digits); otherwise `method: simulation`: seeded runs (the seed "
    "from the conflict's id and version, so an unchanged conflict answers the same), each "
    "chance `{p, low, high, runs}` with its Wilson 95 % interval, `reason` naming the "
    "bound passed. The service's round limit and bullseyes are left out of `winner`. A "
    "decided conflict answers its settled winner (probability 1, `this_round` null). Every "
    "exact probability is `{p, exact}`, `exact` a reduced fraction. `ETag` is the "
    "conflict's version; with `If-None-Match` set to it, 304. Like every odds answer it "
    "goes through the odds gate: an active conflict's forecast (estimated at 100 ms, its "
    "bounds' worst case) is computed by the worker's odds pool, off its event loop, and "
    "cached per version and set of rolls seen (`Server-Timing` says which)."
)


def _count_decided(before: Conflict, decision: Decision[Conflict]) -> None:
    if decision.applied.state.status is ConflictStatus.DECIDED and (
        before.status is not ConflictStatus.DECIDED
    ):
        CONFLICTS_DECIDED.inc()


async def _act(
    conflicts: SessionEngine[Conflict],
    conflict_id: str,
    request: Request[Any, Any, Any],
    step: Step[Conflict],
    idempotency_key: str | None,
    if_match: str | None,
) -> Response[bytes]:
    return await conflicts.act(
        conflict_id,
        request,
        step,
        idempotency_key=idempotency_key,
        if_match=if_match,
        on_commit=_count_decided,
    )


def _round_or_wait(applied: Applied[Conflict], participant: str) -> Decision[Conflict]:
    """200 with the round this action resolved, or 202 while the round still waits."""
    if applied.history:
        return Decision(applied, 200, round_answer(applied.history[-1]))
    conflict = applied.state
    check, may_spend, waiting = (
        conflict.pending[participant],
        participant in conflict.deciding,
        waiting_for(conflict),
    )
    accepted = SubmissionAccepted(
        round=conflict.round,
        participant=participant,
        check=check,
        may_spend_bullseye=may_spend,
        waiting_for=waiting,
        deciding=deciding(conflict),
        summary=submission_summary(
            conflict.round,
            participant,
            check,
            conflict.dice,
            may_spend_bullseye=may_spend,
            waiting_for=waiting,
        ),
    )
    return Decision(applied, 202, accepted)


# The conflict's event stream and its stream tickets, as every kind of session has them.
CONFLICT_STREAMS = stream_routes(
    CONFLICTS,
    path="/conflicts",
    id_parameter="conflict_id",
    security=TOKEN_REQUIRED,
    tags=["conflicts"],
    ticket_operation_id="createStreamTicket",
    events_operation_id="streamConflictEvents",
    events=ConflictEvent,
)
# Each participant's client seed, added after creation, as every kind with server dice has it.
CONFLICT_SEEDS = client_seed_routes(
    CONFLICTS,
    path="/conflicts",
    id_parameter="conflict_id",
    security=TOKEN_REQUIRED,
    tags=["conflicts"],
    operation_id="addConflictClientSeed",
    examples=CLIENT_SEED_EXAMPLES,
)


def _to(operation_id: str, **parameters: str) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "parameters": {"conflict_id": "$response.body#/id", **parameters},
        "description": "With a token of the conflict (`tokens` in this answer).",
    }


# OpenAPI links from a created conflict to what can be done with it, carrying its id (the
# token is a credential: a security scheme, not a link parameter).
CREATED_LINKS = {
    "GetConflict": _to("getConflict"),
    "GetForecast": _to("conflictForecast"),
    "ResolveRound": _to("resolveRound"),
    "SubmitGmCheck": {
        **_to("submitRoundCheck", number="$response.body#/round"),
        "requestBody": {"participant": "gm"},
    },
    "MakeOutcomeCheck": _to("makeOutcomeCheck"),
    "DeleteConflict": _to("deleteConflict"),
    **CONFLICT_STREAMS.links(),
    **CONFLICT_SEEDS.links(),
}


class ConflictController(Controller):
    """Expanded conflicts, any number of clients at once, state only in Redis."""

    path = "/conflicts"
    tags = ["conflicts"]

    @post(
        "/",
        operation_id="createConflict",
        response_headers=CREATED_HEADERS,
        summary="Start an expanded conflict",
        description="§4.2: the players' score is the total magnitude of every PC's relevant "
        "qualities; the opposition's is that times the number of PCs. The answer carries "
        "the GM's and each player's token — **shown only here**; keep them. Then the "
        "GM (`gm`) and each player may add its own client seed (`addConflictClientSeed`), "
        "each with its own token. The conflict's last server roll is its outcome check "
        "(§4.4): the seed is revealed with it (`outcome.made`), or when the conflict is "
        "deleted (`conflict.closed`), never at `conflict.decided`."
        + FAIR_DICE_DESCRIPTION
        + SESSION_RECEIPTS_DESCRIPTION,
        dto=StrictJson[CreateConflict],
        return_dto=None,
        status_code=201,
        responses=problem_responses(400, 409, 413, 415, 422, 503),
    )
    async def create(
        self,
        data: Annotated[CreateConflict, Body(examples=CONFLICT_EXAMPLES)],
        request: Request[Any, Any, Any],
    ) -> Response[ConflictCreated]:
        """Create the conflict and its tokens."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)
        ttl = data.ttl_seconds or host.settings.conflict_ttl_seconds
        applied = new_conflict(
            conflict_id=new_id(),
            name=data.name,
            players=data.players,
            opposition=data.opposition,
            dice=data.dice,
            dice_source=data.dice_source,
            depletable_at_issue=data.depletable_at_issue,
        )
        applied = with_fairness(
            applied,
            host.rng,
            server_dice=data.dice_source is DiceSource.SERVER,
            client_seeds=data.client_seeds,
            await_client_seeds=data.await_client_seeds,
            receipts=data.receipts,
            participants=(GM, *(p.id for p in data.players)),
        )
        tokens, access = issue_tokens((p.id for p in data.players), gm=True)
        conflict = applied.state
        version = await conflicts.create(
            conflict.id, applied, access=access, ttl_ms=ttl * 1000, request=request
        )
        CONFLICTS_CREATED.inc()
        view = view_of(conflict, version=version, expires_at=time.time() + ttl, rounds=())
        assert tokens.gm is not None
        created = ConflictCreated(
            **{field: getattr(view, field) for field in ConflictView.__struct_fields__},
            tokens=ConflictTokens(gm=tokens.gm, players=tokens.players),
        )
        return Response(
            created,
            status_code=201,
            headers={"Location": f"/v1/conflicts/{conflict.id}", "ETag": etag(version)},
        )

    options = allow("/{conflict_id:str}", "DELETE, GET, OPTIONS")

    @get(
        "/{conflict_id:str}",
        operation_id="getConflict",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="The conflict as it stands",
        description="Any token of the conflict may read it. `ETag` is its version; with "
        "`If-None-Match` set to it, an unchanged conflict answers 304 with no body.",
        responses={
            304: ResponseSpec(None, description="Not modified: still at that version."),
            **problem_responses(400, 401, 404, 503),
        },
    )
    async def read(
        self,
        conflict_id: ConflictId,
        request: Request[Any, Any, Any],
        if_none_match: IfNoneMatch = None,
    ) -> Response[ConflictView]:
        """Read the conflict."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)
        read = await conflicts.read(conflict_id, request, if_none_match=if_none_match, history=True)
        if isinstance(read, Response):
            return read  # type: ignore[return-value]  # 304, no body
        stored, _ = read

        def render() -> bytes:
            view = view_of(
                stored.state,
                version=stored.version,
                expires_at=stored.expires_at,
                rounds=stored.history or (),
            )
            return _json.encode(view)

        # The same for every token: encoded once per stored version (most of a read's
        # cost, measured, once the conflict has a few rounds).
        content: Any = conflicts.store.rendered(conflict_id, stored, "view", render)  # the view
        return Response(content, headers={"ETag": etag(stored.version)})

    @get(
        "/{conflict_id:str}/forecast",
        operation_id="conflictForecast",
        response_headers=[*VERSION_HEADERS, *ODDS_HEADERS],
        security=TOKEN_REQUIRED,
        summary="The odds of the round in progress and of the whole conflict",
        description=FORECAST_DESCRIPTION,
        responses={
            304: ResponseSpec(None, description="Not modified: still at that version."),
            **problem_responses(
                400,
                401,
                404,
                422,
                503,
                meanings={
                    422: "The forecast would cost more to compute than the service allows "
                    "(`odds-too-costly`: only when `ODDS_MAX_MS` is set below its 100 ms "
                    "estimate).",
                    503: "Redis is unreachable (`store-unavailable`), or this worker's odds "
                    "pool is full, lost a process or abandoned the forecast past its "
                    "deadline (`odds-busy`): retry after Retry-After seconds.",
                },
                problem=OddsProblem,
            ),
        },
    )
    async def forecast(
        self,
        conflict_id: ConflictId,
        request: Request[Any, Any, Any],
        odds_gate: OddsGateDependency,
        if_none_match: IfNoneMatch = None,
    ) -> Response[ConflictForecast]:
        """The forecast, as the reader may know the round: through the odds gate, so it
        is computed off the event loop, once per stored version and set of rolls seen."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)
        read = await conflicts.read(conflict_id, request, if_none_match=if_none_match)
        if isinstance(read, Response):
            return read  # type: ignore[return-value]  # 304, no body
        stored, role = read
        asked = forecast_request(stored.state, version=stored.version, viewer=role)
        response = await odds_gate.answer(asked, forecast_of, cost=forecast_cost)
        response.headers["ETag"] = etag(stored.version)
        return response

    @post(
        "/{conflict_id:str}/rounds",
        operation_id="resolveRound",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="Resolve the whole current round (GM)",
        description="§4.3: the GM's check against each player's, simultaneously, every "
        "pairing against the scores from before the round. Every player must have a check, "
        "using only its PC's declared qualities (the GM's: the opposition's), by name or as "
        "declared (`undeclared-quality` otherwise). The GM has every roll in hand, so "
        "bullseyes are declared with the checks (`bullseye: true`). Accepts "
        "`Idempotency-Key` and `If-Match`.",
        dto=StrictJson[ResolveRound],
        return_dto=None,
        status_code=200,
        responses=problem_responses(
            400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=SessionProblem
        ),
    )
    async def resolve_round(
        self,
        conflict_id: ConflictId,
        data: Annotated[ResolveRound, Body(examples=ROUND_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[RoundAnswer]:
        """The round, resolved."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)

        def step(
            conflict: Conflict, role: str, dice: RandomSource, _version: int
        ) -> Decision[Conflict]:
            applied = apply(conflict, data, role, dice)
            return Decision(applied, 200, round_answer(applied.history[-1]))

        return await _act(conflicts, conflict_id, request, step, idempotency_key, if_match)  # type: ignore[return-value]

    @post(
        "/{conflict_id:str}/rounds/{number:int}/checks",
        operation_id="submitRoundCheck",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="One participant's check for round n",
        description="A player's token submits for that player; the GM's for `gm`, or for "
        "any player who cannot (recorded in the round's `on_behalf` and the event's `by`). "
        "The check uses only the checker's declared qualities, by name or as declared "
        "(`undeclared-quality` otherwise); situational modifiers follow §6.3's lenient/"
        "strict rule; `quick10` takes 10 (§2.5). **202** while the round waits, with the "
        "sender's own roll (`check`): with server dice, a player holding a bullseye sees "
        "`may_spend_bullseye: true` and may spend it on that roll or pass "
        "(`decideBullseye`) until the round resolves (§7.2). **200** with the resolved round "
        "when every check is in and every bullseye decided. A round other than the current "
        "one is a 409.",
        dto=StrictJson[SubmitCheck],
        return_dto=None,
        status_code=200,
        responses={
            202: ResponseSpec(
                data_container=SubmissionAccepted,
                description="Accepted; the round waits for the participants in `waiting_for`.",
            ),
            **problem_responses(
                400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=SessionProblem
            ),
        },
    )
    async def submit_check(
        self,
        conflict_id: ConflictId,
        number: Annotated[int, Parameter(ge=1, le=100000, description="The round.")],
        data: Annotated[SubmitCheck, Body(examples=SUBMIT_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[RoundAnswer]:
        """Accept one check; resolve the round if it was the last."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)
        check = ParticipantCheck(
            **{f: getattr(data, f) for f in ParticipantCheck.__struct_fields__}
        )

        def step(
            conflict: Conflict, role: str, dice: RandomSource, _version: int
        ) -> Decision[Conflict]:
            action = Submit(number=number, participant=data.participant, check=check)
            return _round_or_wait(apply(conflict, action, role, dice), data.participant)

        return await _act(conflicts, conflict_id, request, step, idempotency_key, if_match)  # type: ignore[return-value]

    @post(
        "/{conflict_id:str}/rounds/{number:int}/bullseyes",
        operation_id="decideBullseye",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="Spend a bullseye on a roll already seen, or pass (§7.2)",
        description="After submitting with server dice while holding a bullseye "
        "(`may_spend_bullseye`), the player — or the GM for it — spends one (`spend: true`: "
        "the die result becomes 20, the faces stay on record) or passes. Once per check, "
        "before the round resolves (`not-deciding` otherwise). **200** with the resolved "
        "round when this was the last thing the round waited for, else **202**. Accepts "
        "`Idempotency-Key` and `If-Match`.",
        dto=StrictJson[BullseyeDecision],
        return_dto=None,
        status_code=200,
        responses={
            202: ResponseSpec(
                data_container=SubmissionAccepted,
                description="Decided; the round still waits (`waiting_for`, `deciding`).",
            ),
            **problem_responses(
                400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=SessionProblem
            ),
        },
    )
    async def decide_bullseye(
        self,
        conflict_id: ConflictId,
        number: Annotated[int, Parameter(ge=1, le=100000, description="The round.")],
        data: Annotated[BullseyeDecision, Body(examples=BULLSEYE_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[RoundAnswer]:
        """Spend or pass; resolve the round if nothing else is awaited."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)

        def step(
            conflict: Conflict, role: str, dice: RandomSource, _version: int
        ) -> Decision[Conflict]:
            action = DecideBullseye(number=number, participant=data.participant, spend=data.spend)
            return _round_or_wait(apply(conflict, action, role, dice), data.participant)

        return await _act(conflicts, conflict_id, request, step, idempotency_key, if_match)  # type: ignore[return-value]

    @post(
        "/{conflict_id:str}/rounds/{number:int}/close",
        operation_id="closeRound",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="Stop waiting for bullseye decisions and resolve the round (GM)",
        description="§7.2: every check is in but some holders have not spent or passed: "
        "they pass, and the round resolves (**200**). With checks still missing, 409 "
        "`checks-outstanding` (the GM may submit them for absent players). Accepts "
        "`Idempotency-Key` and `If-Match`.",
        status_code=200,
        responses=problem_responses(400, 401, 403, 404, 409, 412, 422, 503, problem=SessionProblem),
    )
    async def close_round(
        self,
        conflict_id: ConflictId,
        number: Annotated[int, Parameter(ge=1, le=100000, description="The round.")],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[RoundAnswer]:
        """Close the round."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)

        def step(
            conflict: Conflict, role: str, dice: RandomSource, _version: int
        ) -> Decision[Conflict]:
            applied = apply(conflict, CloseRound(number=number), role, dice)
            return Decision(applied, 200, round_answer(applied.history[-1]))

        return await _act(conflicts, conflict_id, request, step, idempotency_key, if_match)  # type: ignore[return-value]

    @post(
        "/{conflict_id:str}/outcome",
        operation_id="makeOutcomeCheck",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="The final check of the winning side (GM)",
        description="§4.4: after the conflict is decided, the winning side checks against "
        "`target` with its remaining conflict score as a bonus (none when that score is at "
        "or below 0, a decision). When the players win, give a check for each candidate: "
        "the one with the highest total modifier makes it; `by` says who did. With a "
        "depletable quality at issue it costs as any check: a PC's check against the "
        "opposition; the GM's check against every PC — on success each PC loses "
        "|spread| + the opposition's threat + its own depletion modifier, on failure the "
        "opposition loses once, against the greatest PC threat (a decision). `losses` lists "
        "each loss, `players_after` every PC's score at issue afterwards (also stored in "
        "the conflict's `players`). A Quick 10 is refused there (§2.5).",
        dto=StrictJson[OutcomeRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(
            400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=SessionProblem
        ),
    )
    async def outcome(
        self,
        conflict_id: ConflictId,
        data: Annotated[OutcomeRequest, Body(examples=OUTCOME_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[OutcomeCheck]:
        """The outcome check."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)

        def step(
            conflict: Conflict, role: str, dice: RandomSource, _version: int
        ) -> Decision[Conflict]:
            applied = apply(conflict, data, role, dice, new_id())
            return Decision(applied, 200, applied.state.outcome)

        return await _act(conflicts, conflict_id, request, step, idempotency_key, if_match)  # type: ignore[return-value]

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
        request: Request[Any, Any, Any],
    ) -> None:
        """Delete it; event-stream readers get `conflict.closed`."""
        host = session_host(request)
        conflicts = host.engine(CONFLICTS)
        conflicts.require_token(request)
        stored = await conflicts.load(conflict_id)
        may_end(conflicts.role(request, stored.access))
        await conflicts.delete(conflict_id, ConflictClosed(), stored.state)
