"""Self/Conflict as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.registry import Ruleset
from service.rulesets.self_conflict.api.checks import TalentCheckController
from service.rulesets.self_conflict.api.examples import (
    CHECK_EXAMPLES,
    OBJECT_EXAMPLES,
    ODDS_EXAMPLES,
)
from service.rulesets.self_conflict.api.objects import SelfConflictObjectController
from service.rulesets.self_conflict.api.problems import SELF_CONFLICT_PROBLEMS
from service.rulesets.self_conflict.api.reference import (
    SelfConflictBasicTalentController,
    SelfConflictTableController,
)

__all__ = ["SELF_CONFLICT"]


SELF_CONFLICT = Ruleset(
    id="self-conflict",
    title="Self/Conflict (a 2d6 talent system)",
    source="Untitled 2d6 talent system (JurviZ 2004): shared/seeds/002_997ffb55dcb54635.txt",
    route_prefix="/v1/self-conflict",
    router=Router(
        "/v1/self-conflict",
        route_handlers=[
            TalentCheckController,
            SelfConflictObjectController,
            SelfConflictTableController,
            SelfConflictBasicTalentController,
        ],
    ),
    problems=SELF_CONFLICT_PROBLEMS,
    tags=(
        Tag(
            name="self-conflict",
            description="Self/Conflict: a Self die and a Conflict die against a talent "
            "level 0–6, criticals, karma, objects. Stateless: the client keeps an object's "
            "karma (D1). Quoted names are the seed's headings; D-numbers the service's "
            "decisions (README).",
        ),
    ),
    description="Talent checks with the Self and Conflict dice, criticals, GM modifiers and "
    "karma; their exact odds; object validation; the talent scale, status ladder and "
    "outcomes. Stateless. Quoted names refer to the seed's headings, D-numbers to the "
    "decisions in the README.",
    examples={
        "selfConflictCheck": CHECK_EXAMPLES,
        "selfConflictCheckOdds": ODDS_EXAMPLES,
        "selfConflictValidateObject": OBJECT_EXAMPLES,
    },
)
