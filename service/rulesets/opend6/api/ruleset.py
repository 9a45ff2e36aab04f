"""OpenD6 as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.registry import Ruleset, example_bodies
from service.rulesets.opend6.api.examples import ROLL_EXAMPLES
from service.rulesets.opend6.api.problems import OPEND6_PROBLEMS
from service.rulesets.opend6.api.reference import (
    DIE_CODE_EXAMPLES,
    DieCodeController,
    OpenD6TableController,
)
from service.rulesets.opend6.api.rolls import (
    InitiativeController,
    OddsController,
    OpposedController,
    RollController,
)
from service.rulesets.opend6.api.scenes import (
    SCENE_LINKS,
    SCENES,
    TOKEN_REQUIRED,
    SceneController,
)
from service.rulesets.opend6.rules.scenes.events import SCENE_EVENTS
from service.sessions.routes import stream_routes

__all__ = ["OPEND6", "SCENE_STREAMS"]

# A scene's event stream and its stream tickets, as every kind of session has them.
SCENE_STREAMS = stream_routes(
    SCENES,
    path="/scenes",
    id_parameter="scene_id",
    security=TOKEN_REQUIRED,
    tags=["opend6"],
    ticket_operation_id="opend6SceneStreamTicket",
    events_operation_id="opend6SceneEvents",
    events=SCENE_EVENTS,
)


OPEND6 = Ruleset(
    id="opend6",
    title="OpenD6 Fantasy Game Basics",
    source="OpenD6 Fantasy Game Basics: shared/seeds/004_ff52a7cb9597a967.txt",
    route_prefix="/v1/opend6",
    router=Router(
        "/v1/opend6",
        route_handlers=[
            RollController,
            OddsController,
            OpposedController,
            InitiativeController,
            DieCodeController,
            OpenD6TableController,
            SceneController,
            SCENE_STREAMS.router,
        ],
    ),
    problems=OPEND6_PROBLEMS,
    tags=(
        Tag(
            name="opend6",
            description="OpenD6: die codes, the Wild Die, Character and Fate Points, "
            "difficulties. Quoted names are the seed's headings; D-numbers the service's "
            "decisions (README).",
        ),
    ),
    description="Die-code rolls with the Wild Die, Character and Fate Points, difficulties "
    "and result points; die-code arithmetic and the reference tables. Quoted names refer to "
    "the seed's headings, D-numbers to the decisions in the README.",
    stateful=("scene",),
    links={"opend6CreateScene": {**SCENE_LINKS, **SCENE_STREAMS.links()}},
    examples={
        "opend6Roll": example_bodies(ROLL_EXAMPLES),
        "opend6DieCodes": example_bodies(DIE_CODE_EXAMPLES),
    },
)
