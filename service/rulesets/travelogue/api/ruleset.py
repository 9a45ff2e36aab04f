"""The travelogue as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.contract.registry import Ruleset, RulesetWork
from service.rulesets.travelogue.api.bullseyes import BullseyeController
from service.rulesets.travelogue.api.examples import VALIDATE_EXAMPLES
from service.rulesets.travelogue.api.game_examples import CLIENT_SEED_EXAMPLES, GAME_PLAYS
from service.rulesets.travelogue.api.games import (
    GAME_LINKS,
    GAMES,
    TOKEN_REQUIRED,
    GameController,
    seed_added,
)
from service.rulesets.travelogue.api.problems import TRAVELOGUE_PROBLEMS
from service.rulesets.travelogue.api.rolls import ROLLS
from service.rulesets.travelogue.rules.game.events import GameClientSeedAdded, GameEvent
from service.sessions.client_seeds import client_seed_routes
from service.sessions.routes import stream_routes

__all__ = ["GAME_SEEDS", "GAME_STREAMS", "TRAVELOGUE"]

# A game's event stream and its stream tickets, as every kind of session has them.
GAME_STREAMS = stream_routes(
    GAMES,
    path="/games",
    id_parameter="game_id",
    security=TOKEN_REQUIRED,
    tags=["travelogue"],
    ticket_operation_id="travelogueGameStreamTicket",
    events_operation_id="travelogueGameEvents",
    events=GameEvent | GameClientSeedAdded,
)
# Each player's client seed, added after creation, as every kind with server dice has it;
# its event is stamped like the game's others.
GAME_SEEDS = client_seed_routes(
    GAMES,
    path="/games",
    id_parameter="game_id",
    security=TOKEN_REQUIRED,
    tags=["travelogue"],
    operation_id="travelogueGameClientSeed",
    examples=CLIENT_SEED_EXAMPLES,
    event=seed_added,
)


TRAVELOGUE = Ruleset(
    id="travelogue",
    title="Bullseye: An Urgent Travelogue",
    # The text gives no year.
    work=RulesetWork(title="Bullseye: An Urgent Travelogue", author="Judson Lester", year=None),
    route_prefix="/v1/travelogue",
    router=Router(
        "/v1/travelogue",
        route_handlers=[
            BullseyeController,
            ROLLS.router,
            GameController,
            GAME_STREAMS.router,
            GAME_SEEDS.router,
        ],
    ),
    schema_prefix="Travelogue",
    problems=TRAVELOGUE_PROBLEMS,
    tags=(
        Tag(
            name="travelogue",
            description="Bullseye: An Urgent Travelogue: a GM-less chase game for 4–6 "
            "players; Shooter and Angel dice pools, evidence flags, targets and rings. "
            "Quoted names are the text's headings; D-numbers the service's decisions "
            "(docs/travelogue.md).",
        ),
    ),
    description="Set-up validation of the bullseyes, one roll of the Shooter's and the "
    "Angel's pools and its exact odds, and whole games kept for the table: one token per "
    "player, no GM, the server's dice or the table's. Quoted names refer to the text's headings, "
    "D-numbers to the decisions in docs/travelogue.md.",
    stateful=("game",),
    links={"travelogueCreateGame": {**GAME_LINKS, **GAME_STREAMS.links(), **GAME_SEEDS.links()}},
    examples={
        "travelogueValidateBullseyes": VALIDATE_EXAMPLES,
        **ROLLS.examples,
    },
    plays=GAME_PLAYS,
)
