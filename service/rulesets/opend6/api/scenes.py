"""``/v1/opend6/scenes``: combat rounds kept in Redis through the shared session engine."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Annotated, Any

from litestar import Controller, Request, delete, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import Body, Parameter
from litestar.response import Response
from msgspec import Meta

from service.http.contract.body import StrictJson
from service.http.contract.context import new_id
from service.http.contract.problems import problem_responses
from service.http.shell.allow import allow
from service.http.shell.fast_json import FastJson
from service.kernel.bounds import Name, Timestamp
from service.kernel.fairness import AwaitClientSeeds, ClientSeedsAtCreation, FairnessView
from service.kernel.receipts import ReceiptsAsked
from service.kernel.sessions import GM, require_gm
from service.kernel.summary import MaybeSummary
from service.kernel.values import Value, as_view
from service.rulesets.opend6.api.examples import MOVE_EXAMPLES, SCENE_EXAMPLES
from service.rulesets.opend6.api.scene_views import (
    SceneParticipantView,
    ScenePendingRollView,
    SceneRulesView,
    pending_view,
)
from service.rulesets.opend6.rules.scenes.events import SceneClosed, SceneLogEntry
from service.rulesets.opend6.rules.scenes.flow import acting, waiting_for
from service.rulesets.opend6.rules.scenes.model import (
    MAX_PARTICIPANTS,
    Scene,
    SceneDiceSource,
    SceneOrderPlace,
    SceneParticipant,
    SceneParticipantRound,
    ScenePhase,
    ScenePlayer,
    SceneRules,
    SceneStatus,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove, SceneMoveType
from service.rulesets.opend6.rules.scenes.play import apply, new_scene
from service.rulesets.opend6.rules.summary import move_summary
from service.sessions.access import issue_tokens
from service.sessions.dice import FAIR_DICE_DESCRIPTION, SessionDice, with_fairness
from service.sessions.engine import Decision, SessionEngine, etag
from service.sessions.host import SessionSpec, session_host
from service.sessions.keys import SessionKind
from service.sessions.params import (
    CREATED_HEADERS,
    VERSION_HEADERS,
    IdempotencyKey,
    IfMatch,
    IfNoneMatch,
    SessionTtl,
)
from service.sessions.problems import SessionProblem
from service.sessions.receipts import SESSION_RECEIPTS_DESCRIPTION, ReceiptsWanted, SessionReceipt

__all__ = ["SCENES", "TOKEN_REQUIRED", "SceneController"]

SCENES = SessionSpec(
    kind=SessionKind("opend6", "scene"),
    state_type=Scene,
    history_type=SceneLogEntry,
    token_header="x-scene-token",  # noqa: S106 - a header name, not a secret
    ended=lambda scene: scene.status is SceneStatus.ENDED,  # `end_scene`: no roll after it
)
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"sceneToken": []}, {"sceneTokenHeader": []}]
SceneIdParam = Annotated[str, Parameter(max_length=64, description="The scene's id.")]


class CreateScene(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new scene: the GM's rules, the players (each gets a token) and the participants."""

    name: Name
    ttl_seconds: SessionTtl | None = None
    rules: SceneRules = SceneRules()
    players: Annotated[tuple[ScenePlayer, ...], Meta(max_length=12)] = ()
    participants: Annotated[
        tuple[SceneParticipant, ...], Meta(min_length=1, max_length=MAX_PARTICIPANTS)
    ]
    client_seeds: ClientSeedsAtCreation = None
    await_client_seeds: AwaitClientSeeds = False
    receipts: ReceiptsWanted = False


class SceneParticipantState(Value, frozen=True, kw_only=True):
    """A participant and its round so far."""

    participant: SceneParticipantView
    round: SceneParticipantRound


class SceneState(Value, frozen=True, kw_only=True):
    """The scene as its table sees it: whose move it is (`acting`, `waiting_for`), the
    order, every participant's round, and the rolls awaiting the GM."""

    id: str
    name: str
    rules: SceneRulesView
    status: SceneStatus
    round: int
    phase: ScenePhase
    elapsed_seconds: int
    order: tuple[SceneOrderPlace, ...]
    current: str | None
    interrupting: str | None
    acting: Annotated[
        tuple[str, ...],
        Meta(
            description="Participants who may make turn moves now (declare, roll, wait, "
            "end_turn): the current one, an interrupter, waiters who may interrupt."
        ),
    ]
    waiting_for: Annotated[
        tuple[str, ...],
        Meta(
            description="Whose move it is, as roles (`gm` or player ids): the controllers of "
            "`acting` participants, of those yet to roll initiative, and `gm` while a roll "
            "awaits resolution or the order awaits `set_order`."
        ),
    ]
    players: tuple[ScenePlayer, ...]
    participants: tuple[SceneParticipantState, ...]
    pending: tuple[ScenePendingRollView, ...]
    fairness: Annotated[
        FairnessView | None,
        Meta(
            description="With server dice: the committed seed's `commitment`, the client "
            "seeds the participants added since (`openD6SceneClientSeed`) and `rolls`; "
            "`server_seed` once the scene has ended (`end_scene`) or in `scene.closed`. Null "
            "with the table's dice."
        ),
    ]
    receipts: ReceiptsAsked


class SceneView(SceneState, frozen=True, kw_only=True):
    """The scene, with its version (also its `ETag`) and when it expires."""

    expires_at: Timestamp
    version: int


class SceneTokens(Value, frozen=True, kw_only=True):
    gm: str
    players: dict[str, str]


class SceneCreated(SceneView, frozen=True, kw_only=True):
    """The new scene and its tokens, shown only here."""

    tokens: SceneTokens


class SceneMoveMade(Value, frozen=True, kw_only=True):
    """The move as applied, its log entry, the scene after it, and the roll it made or
    resolved in one line (null when it rolled nothing)."""

    move: SceneMoveType
    result: SceneLogEntry
    scene: SceneState
    summary: MaybeSummary
    receipt: SessionReceipt = None


class SceneRoundLog(Value, frozen=True, kw_only=True):
    round: int
    moves: tuple[SceneLogEntry, ...]


def state_of(scene: Scene) -> SceneState:
    return SceneState(
        id=scene.id,
        name=scene.name,
        rules=as_view(scene.rules, SceneRulesView),
        status=scene.status,
        round=scene.round,
        phase=scene.phase,
        elapsed_seconds=scene.elapsed_seconds,
        order=scene.order,
        current=scene.current,
        interrupting=scene.interrupting,
        acting=acting(scene),
        waiting_for=waiting_for(scene),
        players=scene.players,
        participants=tuple(
            SceneParticipantState(
                participant=as_view(p, SceneParticipantView), round=scene.rounds[p.id]
            )
            for p in scene.participants
        ),
        pending=tuple(pending_view(roll) for roll in scene.pending),
        fairness=None if scene.fairness is None else scene.fairness.view(),
        receipts=scene.receipts,
    )


def view_of(scene: Scene, *, version: int, expires_at: float) -> SceneView:
    state = state_of(scene)
    return SceneView(
        **{field: getattr(state, field) for field in SceneState.__struct_fields__},
        expires_at=datetime.fromtimestamp(expires_at, UTC),
        version=version,
    )


_MOVES_DESCRIPTION = """\
One move of the scene, by `type`, for the current `round` (another round: 409
`wrong-round`). Accepts `Idempotency-Key` and `If-Match`. The answer is the move's log
entry and the scene after it.

* `initiative` (the participant's controller; phase `initiative`, rolled methods): an
  Acumen roll each, once a round (or a scene); when every able participant has rolled,
  the order is set (D16) and turns begin.
* `set_order` (the GM; `first_action`): who goes first; "Ties/No Rolls" orders the rest,
  for the whole scene. `first` absent or empty: "Ties/No Rolls" orders everyone.
* `declare` (controller; its turn or interrupting): the round's actions, once; the
  "Multi-Action Penalty" is −1D per action beyond the allotment.
* `roll` (controller): `action`/`attack` on its turn or interrupting, with an action
  left; other kinds any time in `turns`/`round_end`. It waits in `pending` for the GM.
  `related_rolls`: rolls resolved against a difficulty (or opposed) this round or the
  last, anyone's, each once ("Free Actions (related skills)"; the last 100 are kept).
  `opposes`: a pending roll of another participant this one resists, one resister a
  roll, never one with the GM's `difficulty` ("Opposed Difficulties"): the resister uses
  up an action (an `action`/`attack` roll, on its turn or interrupting), or the GM
  grants a `free` reaction roll; a `damage_resistance` roll resists a `damage` roll.
  Else 422 `cannot-oppose`. GM only: `difficulty` (kept for the resolution) and
  `resolve_now` (409 `interrupt-window` while another participant waits with actions
  left, D18). A roll keeps the multi-action penalty in force when it was made; one the
  penalty takes below 1D is 422 `zero-dice` at `/participant` (its `declare`, D3).
* `spend_character_points` (the roll's controller): while its roll is pending, CP dice
  added after seeing it (the server rolls them; with a Fate Point only under
  `cp_with_fp`; at most `character_point_limit` on the roll in all, 20 when unlimited,
  D7).
* `climactic_fate_point` (controller): one Fate Point, paid now, doubles the
  participant's rolls this round but initiative and `equipment` ("Fate Points"); before
  its first roll of the round (409 `already-rolled`), once a scene (the service's game
  session, D19; `climactic_used` carries one over) unless the GM's `climax` — then once
  a round. Its rolls show no Fate Point spent and take no other.
* `wait` (controller; its turn): costs an action, rolls nothing, passes the turn. A waiter
  with actions left acts only by interrupting another's pending roll, or at the round's
  end (D18); after an interrupt it keeps waiting while actions remain.
* `end_turn` (controller; its turn or interrupt), with no roll of its own pending. Ending
  an interrupt hands back to the current turn; at the round's end a waiter gives up its
  remaining actions.
* `resolve` (the GM): a pending roll's difficulty (never the player's; else the one set
  with the roll), Critical-Failure option and modifiers (which need a difficulty: 422
  `modifiers-without-difficulty`); `wild_die_only` reads the Wild
  Die's first toss alone (no Character Points on such a roll, D14). When one roll opposes another,
  resolving either judges both ("Opposed Difficulties", D17): the opposed roll's maker is
  the initiator and wins ties, the modifiers count against the named roll's side, and a
  `difficulty` is 422 `opposed-difficulty`; the log entry's `opposed` has both sides.
* `move_up` (the GM): a participant "moves up" its turn to react now (catching, resisting
  a mental attempt): it interrupts at once, what it does takes its actions, and its own
  turn, if still to come, stays. One interrupt at a time (409 `interrupting`).
* `set_able` (the GM): an unable participant loses the turn that comes while it is unable
  (its current one, too); able again before its place in the order comes, it acts there.
  One unable while initiative is rolled rolls none and takes the last place
  (`decided_by: unable`).
* `next_round` (the GM; no roll pending): ends the round now, also before every turn is
  taken; `end_scene` (the GM).

**A round ends by itself.** When its last turn is over (an `end_turn`, a `wait` or a
`set_able` passing it on) with no roll pending and no waiter with actions left, the next
round begins within the same move: the answer's scene has `round` one higher,
`elapsed_seconds` 5 more, phase `initiative` (`rolled_per_round`: everyone rolls again) or
`turns` (the order kept, its first participant's turn), and the stream sends
`round.started`. A move that still names the old round is 409 `wrong-round`: take the
round from the answer (or `GET` the scene). Otherwise the phase becomes `round_end`, where
waiters may still act and the GM's `next_round` ends the round.

A group (`members` > 1, the GM's) acts as one: one initiative, one roll per action (D19).
A player's token moves only its own participants (403 `not-your-participant`); GM moves
are the GM's (403 `gm-only`); a turn move out of turn is 403 `not-your-turn`, saying whose
turn it is. With `dice_source: server` faces and seeds are refused (422 `faces-not-allowed`).
Rounds are 5 s of game time ("Game Time").
"""


def _created_links() -> dict[str, Any]:
    def to(operation_id: str) -> dict[str, Any]:
        return {
            "operationId": operation_id,
            "parameters": {"scene_id": "$response.body#/id"},
            "description": "With a token of the scene (`tokens` in this answer).",
        }

    return {"GetScene": to("openD6GetScene"), "MakeMove": to("openD6SceneMove")}


SCENE_LINKS = _created_links()


class SceneController(Controller):
    """OpenD6 scenes: combat rounds, state only in Redis."""

    path = "/scenes"
    tags = ["opend6"]

    @post(
        "/",
        operation_id="openD6CreateScene",
        response_headers=CREATED_HEADERS,
        summary="Start a scene",
        description="The GM's rules (initiative method, Critical-Failure option, CP limit, "
        "`cp_with_fp`, optional initiative bonus, `climax`, dice source), the players and the "
        "participants. Each participant's `controller` is `gm` or a player's id; a group "
        "(`members` > 1) is the GM's (D19). Tokens — the GM's and each player's — are shown "
        "**only here**. Then the GM (`gm`) and each player may add its own client seed "
        "(`openD6SceneClientSeed`), each with its own token."
        + FAIR_DICE_DESCRIPTION
        + SESSION_RECEIPTS_DESCRIPTION,
        dto=StrictJson[CreateScene],
        return_dto=None,
        status_code=201,
        responses=problem_responses(400, 409, 413, 415, 422, 503),
    )
    async def create(
        self,
        data: Annotated[CreateScene, Body(examples=SCENE_EXAMPLES)],
        request: Request[Any, Any, Any],
    ) -> Response[SceneCreated]:
        """Create the scene and its tokens."""
        host = session_host(request)
        scenes: SessionEngine[Scene] = host.engine(SCENES)
        ttl = data.ttl_seconds or host.settings.conflict_ttl_seconds
        applied = new_scene(
            scene_id=new_id(),
            name=data.name,
            rules=data.rules,
            players=data.players,
            participants=data.participants,
        )
        applied = with_fairness(
            applied,
            host.rng,
            server_dice=data.rules.dice_source is SceneDiceSource.SERVER,
            client_seeds=data.client_seeds,
            await_client_seeds=data.await_client_seeds,
            receipts=data.receipts,
            participants=(GM, *(p.id for p in data.players)),
        )
        tokens, access = issue_tokens((p.id for p in data.players), gm=True)
        scene = applied.state
        version = await scenes.create(
            scene.id, applied, access=access, ttl_ms=ttl * 1000, request=request
        )
        view = view_of(scene, version=version, expires_at=time.time() + ttl)
        assert tokens.gm is not None
        created = SceneCreated(
            **{field: getattr(view, field) for field in SceneView.__struct_fields__},
            tokens=SceneTokens(gm=tokens.gm, players=tokens.players),
        )
        return Response(
            created,
            status_code=201,
            headers={"Location": f"/v1/opend6/scenes/{scene.id}", "ETag": etag(version)},
        )

    options = allow("/{scene_id:str}", "DELETE, GET, OPTIONS")

    @get(
        "/{scene_id:str}",
        operation_id="openD6GetScene",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="The scene as it stands",
        description="Any token of the scene. `ETag` is its version; `If-None-Match` with it "
        "answers 304 while unchanged.",
        responses={
            304: ResponseSpec(None, description="Not modified: still at that version."),
            **problem_responses(400, 401, 404, 503),
        },
    )
    async def read(
        self,
        scene_id: SceneIdParam,
        request: Request[Any, Any, Any],
        if_none_match: IfNoneMatch = None,
    ) -> Response[SceneView]:
        """Read the scene."""
        scenes: SessionEngine[Scene] = session_host(request).engine(SCENES)
        read = await scenes.read(scene_id, request, if_none_match=if_none_match)
        if isinstance(read, Response):
            return read  # type: ignore[return-value]  # 304, no body
        stored, _ = read
        view = view_of(stored.state, version=stored.version, expires_at=stored.expires_at)
        return Response(view, headers={"ETag": etag(stored.version)})

    @get(
        "/{scene_id:str}/rounds/{number:int}",
        operation_id="openD6SceneRound",
        middleware=[FastJson],
        security=TOKEN_REQUIRED,
        summary="A round's log",
        description="Every move of round `number`, in order, with each resolved roll's full "
        "result. Any token of the scene.",
        responses=problem_responses(400, 401, 404, 503),
    )
    async def round_log(
        self,
        scene_id: SceneIdParam,
        number: Annotated[int, Parameter(ge=1, le=100000, description="The round.")],
        request: Request[Any, Any, Any],
    ) -> SceneRoundLog:
        """One round's moves."""
        scenes: SessionEngine[Scene] = session_host(request).engine(SCENES)
        scenes.require_token(request)
        stored = await scenes.load(scene_id, history=True)
        scenes.role(request, stored.access)
        moves = tuple(entry for entry in stored.history or () if entry.round == number)
        return SceneRoundLog(round=number, moves=moves)

    @post(
        "/{scene_id:str}/moves",
        operation_id="openD6SceneMove",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="Make a move",
        description=_MOVES_DESCRIPTION,
        dto=StrictJson.of_union(SceneMove, "SceneMove"),
        return_dto=None,
        status_code=200,
        responses=problem_responses(
            400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=SessionProblem
        ),
    )
    async def move(
        self,
        scene_id: SceneIdParam,
        data: Annotated[SceneMove, Body(examples=MOVE_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[SceneMoveMade]:
        """Apply one move."""
        host = session_host(request)
        scenes: SessionEngine[Scene] = host.engine(SCENES)

        def step(
            scene: Scene, role: str, dice: SessionDice[Scene], _version: int
        ) -> Decision[Scene]:
            roll_id = f"r{scene.rolls_made + 1}"
            applied = dice.settle(apply(scene, data, role, dice, roll_id))
            entry = applied.history[-1]
            assert isinstance(entry, SceneLogEntry)
            made = SceneMoveMade(
                move=SceneMoveType.of(data),
                result=entry,
                scene=state_of(applied.state),
                summary=move_summary(data, entry, applied.state),
            )
            return Decision(applied, 200, made)

        return await scenes.act(  # type: ignore[return-value]
            scene_id, request, step, idempotency_key=idempotency_key, if_match=if_match
        )

    @delete(
        "/{scene_id:str}",
        operation_id="openD6DeleteScene",
        security=TOKEN_REQUIRED,
        summary="End and remove the scene (GM)",
        status_code=204,
        responses=problem_responses(400, 401, 403, 404, 503),
    )
    async def remove(self, scene_id: SceneIdParam, request: Request[Any, Any, Any]) -> None:
        """Delete it; event-stream readers get `scene.closed`."""
        scenes: SessionEngine[Scene] = session_host(request).engine(SCENES)
        scenes.require_token(request)
        stored = await scenes.load(scene_id)
        require_gm(scenes.role(request, stored.access), "delete the scene")
        await scenes.delete(scene_id, SceneClosed(), stored.state)
