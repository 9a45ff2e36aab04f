"""``/v1/travelogue/games``: a table's chase kept in Redis through the shared session engine.

One token per player and no GM (D31). The rules decide every action (``rules/game``); the
routes only load, apply and store, with tokens, ``If-Match``, ``If-None-Match`` and
``Idempotency-Key`` as every session kind has them.
"""

from __future__ import annotations

import bisect
import functools
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
from service.http.odds.gate import ODDS_HEADERS, OddsGateDependency
from service.http.shell.allow import allow
from service.http.shell.fast_json import FastJson
from service.kernel.bounds import Name
from service.kernel.events import Event
from service.kernel.fairness import AwaitClientSeeds, ClientSeed, ClientSeedsAtCreation
from service.kernel.values import Value
from service.rulesets.travelogue.api.bullseyes import with_setup_check
from service.rulesets.travelogue.api.game_examples import ACTION_EXAMPLES, CREATE_EXAMPLES
from service.rulesets.travelogue.api.game_views import (
    ActionTaken,
    CreatedGame,
    GameTokens,
    HistoryPage,
    history_item,
)
from service.rulesets.travelogue.api.problems import GameOddsProblem, GameProblem
from service.rulesets.travelogue.rules.game.actions import Action
from service.rulesets.travelogue.rules.game.ending import close
from service.rulesets.travelogue.rules.game.engine import HistoryEntry, apply
from service.rulesets.travelogue.rules.game.events import GameClientSeedAdded
from service.rulesets.travelogue.rules.game.model import (
    FLAG_COUNT,
    Game,
    GameStatus,
    Kind,
    WhoseDice,
)
from service.rulesets.travelogue.rules.game.pending import pending_pools
from service.rulesets.travelogue.rules.game.setup import set_up_game
from service.rulesets.travelogue.rules.game.view import GameView, game_state, game_view
from service.rulesets.travelogue.rules.odds import PoolsOdds, pools_odds
from service.rulesets.travelogue.rules.odds_cost import pools_odds_cost
from service.rulesets.travelogue.rules.roll import Seed
from service.rulesets.travelogue.rules.sheet import MAX_PLAYERS, Sheet
from service.rulesets.travelogue.rules.summary import action_summary
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
from service.sessions.receipts import SESSION_RECEIPTS_DESCRIPTION, ReceiptsWanted

__all__ = ["GAMES", "GAME_LINKS", "TOKEN_REQUIRED", "GameController", "seed_added"]

GAMES = SessionSpec(
    kind=SessionKind("travelogue", "game"),
    state_type=Game,
    history_type=HistoryEntry,
    token_header="x-game-token",  # noqa: S106 - a header name, not a secret
    ended=lambda game: game.status is not GameStatus.ACTIVE,  # an ended game rolls no more
)
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"gameToken": []}, {"gameTokenHeader": []}]
GameIdParam = Annotated[str, Parameter(max_length=64, description="The game's id.")]
# A game draws its unseeded server dice from the operating system's generator (D28): no
# player can predict or pick a roll by retrying.
HISTORY_PAGE = 100


class CreateGame(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new game: its name, the table's bullseyes, whose dice, how long it keeps."""

    name: Name
    bullseyes: Annotated[
        tuple[Sheet, ...],
        Meta(
            min_length=1,
            max_length=MAX_PLAYERS,
            description="4–6 sheets, one per player, in seat order (fewer than 4 is the "
            "set-up's `player-count`, reported with every other violation).",
        ),
    ]
    dice_source: Annotated[
        WhoseDice,
        Meta(description="`server`: the service rolls; `table`: the players send `faces`."),
    ] = WhoseDice.SERVER
    seed: Seed | None = None
    flag_kinds: (
        Annotated[
            tuple[Kind, ...],
            Meta(
                min_length=FLAG_COUNT,
                max_length=FLAG_COUNT,
                description="What each flag 1–12 adds; null: odd Aim, even Ammo (D5).",
            ),
        ]
        | None
    ) = None
    ttl_seconds: SessionTtl | None = None
    client_seeds: ClientSeedsAtCreation = None
    await_client_seeds: AwaitClientSeeds = False
    receipts: ReceiptsWanted = False


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def seed_added(seed: ClientSeed, version: int) -> Event:
    """``client_seed.added`` as the game's stream tells every event: stamped with the
    version the addition made, when, and by whom (the player who added it)."""
    return GameClientSeedAdded(
        participant=seed.participant,
        seed=seed.seed,
        version=version,
        at=_now(),
        actor=seed.participant,
    )


def _expiry(expires_at: float) -> datetime:
    return datetime.fromtimestamp(expires_at, UTC)


_CREATE_DESCRIPTION = """\
A table's game from its bullseyes ("The Set Up"): flags 1–6 in the middle, 7–12 in the
box, every Shooter Aim 1 Ammo 1 and Angel 0/0, every circle empty; version 1, `ETag: "1"`.

The bullseyes are checked as `travelogueValidateBullseyes` checks them; any violation is
422 `invalid-setup` with **every** violation in `errors` (codes `travelogue/<code>`:
`player-count`, `stat-range`, `not-connected`, …), nothing stored. Warnings (`stat-zero`)
are kept in the game's `warnings`.

**Dice** (D28), fixed for the game: `server` (the default) rolls every die, from `seed` if
given (the i-th rolling action draws from `(seed, i)`, so a seeded game replays) — a seed
with `table` dice is 422 `seed-not-allowed`; `table` takes each roll's `faces` from the
players, exactly `waiting_for.dice_needed`. `flag_kinds`: what each flag adds (D5).

One token per player and no GM (D31); the tokens are shown **only here**. Any token reads
the game; `waiting_for` names who may act and how. Limits (D29): at most 300 attention
phases and 10 000 actions — the 300th attention ends the game (`ending.reason: limit`).

An unseeded game with `server` dice is provably fair: once it is created, each player may
add its own client seed with its own token (`travelogueGameClientSeed`), which makes a
version like an action (the history lists actions only). A seeded game keeps
`fairness: null`: its dice follow from the caller's public `seed` by design (D28), so there
is nothing to commit to, and a client seed for it (or with `table` dice), or
`await_client_seeds`, is 422 `client-seeds-without-server-dice`. Nor are its rolls signed:
`receipts: true` with a `seed` (or with `table` dice) is 422
`receipts-without-server-dice`.
"""

_ACTIONS_DESCRIPTION = """\
One action, by `type` (the design's "Actions"); `waiting_for` in every game answer names
who may send which now. Accepts `If-Match` (412 when the game moved on) and
`Idempotency-Key` (a retry returns the first answer and never rolls again; the same key
with another body → 422, while the first runs → 409). The answer is the game after the
action and the events it put on the stream; each applied action makes `version` + 1 (so
does each client seed a player adds, `travelogueGameClientSeed`).

* `play` (any running player): `take_flag {flag, to?, on_behalf_of?}` — one middle flag in
  hand at most (D10); `to` hands it at once. `play.taken` (the reacher): `hand_flag {to,
  on_behalf_of?}` to any other player, even one who is out (D6), for himself or a running
  bullseye (D8); or `return_flag`. `play.handed` (the holder): `accept_flag {ring}` (any
  ring, flipped ones too, D9; the holder's accept is the table's, D7) or `reject_flag`.
* `attention.roll` (every player, D11): `roll_attention {faces?}`; the hot lead and the
  die find a flag and its bullseye's ring or centre. `attention.pools` (the active
  player): `roll_pools {faces?: {shooter, angel}}`; `GET …/odds` gives its exact odds first.
  `attention.risk`: `buy_out {tie_break?}` (a point at a time from the highest stat, D14)
  or `let_flip` (a ring gets its X, the centre means caught, D15). `attention.scene`:
  `close_scene {note?}` (notes are stored only, D30).
* `departure.vote` (each other running player, D22): `vote {go_for_broke}` — unanimous or
  not at all. `departure.final`: `roll_final {faces?}`, the voters **in seat order** (D23;
  a tie is `at_large`). `departure.distribute` (the leaver): `distribute {allocations,
  note?}`, each pool given completely to those eligible (D24, D25).
* `moves.lower` / `moves.upper` (the neighbour flag's owner when the move comes, D18, D19):
  `move_flag {flag, to_bullseye, to_ring}` or `pass`; the upper may not move the flag the
  lower moved (`cannot-undo`, D20).

**After a scene**, in this order (D21): the rolled flag becomes the hot lead, the old one
returns to the middle (D16) with every box flag numbered t+1…t+6, counting past 12 by
alias (D17); then the departure, if he was caught or escaped — a departed target's flags
return to the middle (D26), and going for broke ends the game there; then the neighbour
moves; then `play` again.
* `rename_angel {name}` (a player whose bullseye runs, any step but `ended`; never listed
  in `waiting_for`, D27).

**Dice** (D28): with `server` dice `faces` are 422 `faces-not-allowed`; with `table` dice
exactly `waiting_for.dice_needed` — `die` for the attention die, `shooter` and `angel` for
the pools — each 1…6 (else `faces-missing` with `missing`, `faces-extra`,
`face-out-of-range`).

**Refusals, in this order**: 401 token → 404 game → 412 `If-Match` → 409 `game-ended`
(checked before `wrong-step`: an ended game takes nothing, and that says why), `wrong-step`
(nobody may do this now), `action-limit-reached` (10 000, D29) → 403 `not-your-move`,
carrying `waiting_for` → 422 the action's own codes (`flag-not-in-middle`,
`unknown-player`, `hand-to-self`, `not-running`, `unknown-ring`, `flag-not-on-target`,
`cannot-undo` — checked before `own-target` —, `own-target`, `same-ring`, `not-eligible`,
`allocation-mismatch`, `unknown-pool`), then the dice's. A refusal changes nothing.

**The end**: `ending.reason` is `none_running` (nobody runs), `went_for_broke` (the final
rolls settled every runner) or `limit` (the 300th attention, D29); whoever still runs is
`at_large`.
"""


def _created_links() -> dict[str, Any]:
    def to(operation_id: str) -> dict[str, Any]:
        return {
            "operationId": operation_id,
            "parameters": {"game_id": "$response.body#/id"},
            "description": "With a player's token of the game (`tokens` in this answer).",
        }

    return {
        "GetGame": to("travelogueGetGame"),
        "TakeAction": to("travelogueGameAction"),
        "GameHistory": to("travelogueGameHistory"),
    }


GAME_LINKS = _created_links()


class GameController(Controller):
    """The travelogue's games: state only in Redis."""

    path = "/games"
    tags = ["travelogue"]

    @post(
        "/",
        operation_id="travelogueCreateGame",
        response_headers=CREATED_HEADERS,
        summary="Start a game",
        description=_CREATE_DESCRIPTION + FAIR_DICE_DESCRIPTION + SESSION_RECEIPTS_DESCRIPTION,
        dto=StrictJson[CreateGame],
        return_dto=None,
        status_code=201,
        responses=problem_responses(400, 409, 413, 415, 422, 503),
    )
    async def create(
        self,
        data: Annotated[CreateGame, Body(examples=CREATE_EXAMPLES)],
        request: Request[Any, Any, Any],
    ) -> Response[CreatedGame]:
        """Check the bullseyes, create the game and its tokens."""
        host = session_host(request)
        games: SessionEngine[Game] = host.engine(GAMES)
        ttl = data.ttl_seconds or host.settings.conflict_ttl_seconds
        set_up = functools.partial(
            set_up_game,
            data.bullseyes,
            game_id=new_id(),
            name=data.name,
            dice_source=data.dice_source,
            seed=data.seed,
            flag_kinds=data.flag_kinds,
            at=_now(),
        )
        applied = await with_setup_check(data.bullseyes, set_up)
        applied = with_fairness(
            applied,
            host.rng,
            server_dice=data.dice_source is WhoseDice.SERVER and data.seed is None,
            client_seeds=data.client_seeds,
            await_client_seeds=data.await_client_seeds,
            receipts=data.receipts,
            participants=(sheet.player for sheet in data.bullseyes),
        )
        tokens, access = issue_tokens((sheet.player for sheet in data.bullseyes), gm=False)
        game = applied.state
        version = await games.create(
            game.id, applied, access=access, ttl_ms=ttl * 1000, request=request
        )
        view = game_view(game, version=version, expires_at=_expiry(time.time() + ttl))
        created = CreatedGame(
            **{field: getattr(view, field) for field in GameView.__struct_fields__},
            tokens=GameTokens(players=tokens.players),
        )
        return Response(
            created,
            status_code=201,
            headers={"Location": f"/v1/travelogue/games/{game.id}", "ETag": etag(version)},
        )

    options = allow("/{game_id:str}", "DELETE, GET, OPTIONS")

    @get(
        "/{game_id:str}",
        operation_id="travelogueGetGame",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="The game as it stands",
        description="Any player's token; the same for everyone (all of it is on the table). "
        "`ETag` is its version; `If-None-Match` with it answers 304 while unchanged. "
        "`waiting_for` names who may act and how, and the table's dice a roll needs "
        "(`dice_needed`: `die` for the attention die, `shooter`/`angel` for the pools).",
        responses={
            304: ResponseSpec(None, description="Not modified: still at that version."),
            **problem_responses(400, 401, 404, 503),
        },
    )
    async def read(
        self,
        game_id: GameIdParam,
        request: Request[Any, Any, Any],
        if_none_match: IfNoneMatch = None,
    ) -> Response[GameView]:
        """Read the game."""
        games: SessionEngine[Game] = session_host(request).engine(GAMES)
        read = await games.read(game_id, request, if_none_match=if_none_match)
        if isinstance(read, Response):
            return read  # type: ignore[return-value]  # 304, no body
        stored, _ = read
        view = game_view(
            stored.state, version=stored.version, expires_at=_expiry(stored.expires_at)
        )
        return Response(view, headers={"ETag": etag(stored.version)})

    @post(
        "/{game_id:str}/actions",
        operation_id="travelogueGameAction",
        middleware=[FastJson],
        response_headers=VERSION_HEADERS,
        security=TOKEN_REQUIRED,
        summary="Take an action",
        description=_ACTIONS_DESCRIPTION,
        dto=StrictJson.of_union(Action, "TravelogueAction"),
        return_dto=None,
        status_code=200,
        responses=problem_responses(
            400, 401, 403, 404, 409, 412, 413, 415, 422, 503, problem=GameProblem
        ),
    )
    async def act(
        self,
        game_id: GameIdParam,
        data: Annotated[Action, Body(examples=ACTION_EXAMPLES)],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[ActionTaken]:
        """Apply one action."""
        host = session_host(request)
        games: SessionEngine[Game] = host.engine(GAMES)
        at = _now()

        def step(game: Game, role: str, dice: SessionDice[Game], version: int) -> Decision[Game]:
            applied = dice.settle(apply(game, role, data, dice, at=at, version=version))
            taken = ActionTaken(
                game=game_state(applied.state, version=version),
                events=applied.events,  # type: ignore[arg-type]  # the game's own events
                summary=action_summary(applied.events),  # type: ignore[arg-type]  # the same
            )
            return Decision(applied, 200, taken)

        return await games.act(  # type: ignore[return-value]
            game_id, request, step, idempotency_key=idempotency_key, if_match=if_match
        )

    @get(
        "/{game_id:str}/odds",
        operation_id="travelogueGameOdds",
        security=TOKEN_REQUIRED,
        summary="The odds of the pending roll of the pools",
        description="In step `attention.pools`: the exact odds of the active player's "
        "`roll_pools`, as `travelogueRollOdds` computes them for his Shooter (the attention's "
        "+1 included), his Angel and his stats as they stand (at most 30 dice a pool, else "
        "422 `too-many-dice`). In any other step 409 `wrong-step`, with `waiting_for`. Any "
        "player's token.",
        responses=problem_responses(
            400,
            401,
            404,
            409,
            422,
            503,
            meanings={503: "The state store (Redis) is unreachable, or the odds pool is busy."},
            problem=GameOddsProblem,
        ),
        response_headers=ODDS_HEADERS,
    )
    async def odds(
        self,
        game_id: GameIdParam,
        request: Request[Any, Any, Any],
        odds_gate: OddsGateDependency,
    ) -> Response[PoolsOdds]:
        """The pending roll's odds."""
        games: SessionEngine[Game] = session_host(request).engine(GAMES)
        games.require_token(request)
        stored = await games.load(game_id)
        games.role(request, stored.access)
        return await odds_gate.answer(pending_pools(stored.state), pools_odds, cost=pools_odds_cost)

    @get(
        "/{game_id:str}/history",
        operation_id="travelogueGameHistory",
        security=TOKEN_REQUIRED,
        summary="The actions so far",
        description="The applied actions in order, each with the version it made, its "
        "actor, the action as sent (notes included, D30) and a rolling action's dice — kept "
        "apart from the game's state. A client seed added makes a version too, never listed "
        "here (it is in `fairness.client_seeds` and on the stream): versions may skip. "
        "`after`: a version (0 or 1: from the first action); "
        f"`limit`: at most {HISTORY_PAGE} a page; `next_after` continues. Any player's token.",
        responses=problem_responses(400, 401, 404, 503),
    )
    async def history(
        self,
        game_id: GameIdParam,
        request: Request[Any, Any, Any],
        after: Annotated[
            int, Parameter(ge=0, le=100000, description="Actions that made a later version.")
        ] = 0,
        limit: Annotated[
            int, Parameter(ge=1, le=HISTORY_PAGE, description="At most this many actions.")
        ] = HISTORY_PAGE,
    ) -> HistoryPage:
        """A page of the history."""
        games: SessionEngine[Game] = session_host(request).engine(GAMES)
        games.require_token(request)
        stored = await games.load(game_id, history=True)
        games.role(request, stored.access)
        entries = [e for e in stored.history or () if isinstance(e, HistoryEntry)]
        versions = [entry.version_made(n) for n, entry in enumerate(entries, start=1)]
        first = bisect.bisect_right(versions, after)  # versions only grow
        page = range(first, min(first + limit, len(entries)))
        items = tuple(history_item(entries[i], versions[i]) for i in page)
        more = page.stop < len(entries)
        return HistoryPage(items=items, next_after=versions[page.stop - 1] if more else None)

    @delete(
        "/{game_id:str}",
        operation_id="travelogueDeleteGame",
        security=TOKEN_REQUIRED,
        summary="Remove an ended game",
        description="Any player's token, once the game has `ended`: 204, and event-stream "
        "readers get `game.closed`. Earlier: 409 `game-not-ended` — no single player can end "
        "the table's game; an unfinished one expires (D31).",
        status_code=204,
        responses=problem_responses(400, 401, 404, 409, 503),
    )
    async def remove(self, game_id: GameIdParam, request: Request[Any, Any, Any]) -> None:
        """Delete it; event-stream readers get `game.closed`."""
        games: SessionEngine[Game] = session_host(request).engine(GAMES)
        games.require_token(request)
        stored = await games.load(game_id)
        role = games.role(request, stored.access)
        closing = close(stored.state, role, version=stored.version, at=_now())
        await games.delete(game_id, closing, stored.state)
