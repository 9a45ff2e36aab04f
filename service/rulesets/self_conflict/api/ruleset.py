"""Self/Conflict as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.contract.registry import Ruleset, RulesetWork
from service.rulesets.self_conflict.api.checks import CHECKS
from service.rulesets.self_conflict.api.examples import OBJECT_EXAMPLES
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
    work=RulesetWork(title="An untitled 2d6 talent system", author="JurviZ", year=2004),
    route_prefix="/v1/self-conflict",
    router=Router(
        "/v1/self-conflict",
        route_handlers=[
            CHECKS.router,
            SelfConflictObjectController,
            SelfConflictTableController,
            SelfConflictBasicTalentController,
        ],
    ),
    schema_prefix="SelfConflict",
    problems=SELF_CONFLICT_PROBLEMS,
    tags=(
        Tag(
            name="self-conflict",
            description="Self/Conflict: a Self die and a Conflict die against a talent "
            "level 0–6, criticals, karma, objects. Stateless: the client keeps an object's "
            "karma (D1). Quoted names are the seed's headings; D-numbers the service's "
            "decisions (docs/self-conflict.md).",
        ),
    ),
    description="Talent checks with the Self and Conflict dice, criticals, GM modifiers and "
    "karma; their exact odds; object validation; the talent scale, status ladder and "
    "outcomes. Stateless. Quoted names refer to the seed's headings, D-numbers to the "
    "decisions in docs/self-conflict.md.",
    examples={
        **CHECKS.examples,
        "selfConflictValidateObject": OBJECT_EXAMPLES,
    },
)
