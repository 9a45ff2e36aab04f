"""OpenD6 as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.contract.registry import Ruleset, RulesetWork
from service.rulesets.opend6.api.examples import (
    CLIENT_SEED_EXAMPLES,
    INITIATIVE_EXAMPLES,
    SCENE_PLAYS,
)
from service.rulesets.opend6.api.problems import OPEND6_PROBLEMS
from service.rulesets.opend6.api.reference import (
    DIE_CODE_EXAMPLES,
    DieCodeController,
    OpenD6TableController,
)
from service.rulesets.opend6.api.rolls import (
    OPPOSED,
    ROLLS,
    InitiativeController,
)
from service.rulesets.opend6.api.scenes import (
    SCENE_LINKS,
    SCENES,
    TOKEN_REQUIRED,
    SceneController,
)
from service.rulesets.opend6.rules.scenes.events import SceneEvent
from service.sessions.client_seeds import client_seed_routes
from service.sessions.routes import stream_routes

__all__ = ["OPEND6", "SCENE_SEEDS", "SCENE_STREAMS"]

# A scene's event stream and its stream tickets, as every kind of session has them.
SCENE_STREAMS = stream_routes(
    SCENES,
    path="/scenes",
    id_parameter="scene_id",
    security=TOKEN_REQUIRED,
    tags=["opend6"],
    ticket_operation_id="openD6SceneStreamTicket",
    events_operation_id="openD6SceneEvents",
    events=SceneEvent,
)
# Each participant's client seed, added after creation, as every kind with server dice has it.
SCENE_SEEDS = client_seed_routes(
    SCENES,
    path="/scenes",
    id_parameter="scene_id",
    security=TOKEN_REQUIRED,
    tags=["opend6"],
    operation_id="openD6SceneClientSeed",
    examples=CLIENT_SEED_EXAMPLES,
)


OPEND6 = Ruleset(
    id="opend6",
    title="OpenD6 Fantasy Game Basics",
    # West End Games' open release of OpenD6 Fantasy; the service implements its "Game
    # Basics" chapter.
    work=RulesetWork(title="OpenD6 Fantasy Game Basics", author="West End Games", year=2009),
    route_prefix="/v1/opend6",
    router=Router(
        "/v1/opend6",
        route_handlers=[
            ROLLS.router,
            OPPOSED.router,
            InitiativeController,
            DieCodeController,
            OpenD6TableController,
            SceneController,
            SCENE_STREAMS.router,
            SCENE_SEEDS.router,
        ],
    ),
    schema_prefix="OpenD6",
    problems=OPEND6_PROBLEMS,
    tags=(
        Tag(
            name="opend6",
            description="OpenD6: die codes, the Wild Die, Character and Fate Points, "
            "difficulties. Quoted names are the seed's headings; D-numbers the service's "
            "decisions (docs/opend6.md).",
        ),
    ),
    description="Die-code rolls with the Wild Die, Character and Fate Points, difficulties "
    "and result points; die-code arithmetic and the reference tables. Quoted names refer to "
    "the seed's headings, D-numbers to the decisions in docs/opend6.md.",
    stateful=("scene",),
    links={"openD6CreateScene": {**SCENE_LINKS, **SCENE_STREAMS.links(), **SCENE_SEEDS.links()}},
    examples={
        **ROLLS.examples,
        "openD6DieCodes": DIE_CODE_EXAMPLES,
        **OPPOSED.examples,
        "openD6Initiative": INITIATIVE_EXAMPLES,
    },
    plays=SCENE_PLAYS,
)
