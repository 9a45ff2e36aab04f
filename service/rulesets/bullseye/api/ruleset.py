"""Bullseye as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.contract.registry import Ruleset, RulesetWork
from service.rulesets.bullseye.api.characters import CharacterController
from service.rulesets.bullseye.api.checks import CheckController
from service.rulesets.bullseye.api.conflict_routes import (
    CONFLICT_SEEDS,
    CONFLICT_STREAMS,
    CREATED_LINKS,
    ConflictController,
)
from service.rulesets.bullseye.api.examples import (
    BATCH_EXAMPLES,
    BULLSEYE_PLAYS,
    CHARACTER_EXAMPLES,
    CHECK_EXAMPLES,
    CHECK_ODDS_EXAMPLES,
    PARTY_EXAMPLES,
)
from service.rulesets.bullseye.api.problems import BULLSEYE_PROBLEMS
from service.rulesets.bullseye.api.reference import ConditionController, TableController

__all__ = ["BULLSEYE"]


BULLSEYE = Ruleset(
    id="bullseye",
    title="Bullseye v1.0",
    work=RulesetWork(title="Bullseye v1.0", author="Justin D. Jacobson", year=2008),
    # The first ruleset keeps the paths it was published with (/v1/checks, …).
    route_prefix="/v1",
    router=Router(
        "/v1",
        route_handlers=[
            CheckController,
            CharacterController,
            ConflictController,
            CONFLICT_STREAMS.router,
            CONFLICT_SEEDS.router,
            ConditionController,
            TableController,
        ],
    ),
    schema_prefix="",
    problems=BULLSEYE_PROBLEMS,
    tags=(
        Tag(name="checks", description="Bullseye: stateless checks (§2) and their exact odds."),
        Tag(name="characters", description="Bullseye: characters and their variants (§3.3, §7)."),
        Tag(name="conflicts", description="Bullseye: expanded conflicts (§4), state in Redis."),
        Tag(name="reference", description="Bullseye: conditions and narrative tables."),
    ),
    description="d20 checks with the book's modifier rules, conditions from depletable "
    "scores, point-buy characters, expanded conflicts and the narrative tables. Section "
    "numbers (§2.1.2) refer to the rulebook.",
    examples={
        "resolveCheck": CHECK_EXAMPLES,
        "resolveCheckBatch": BATCH_EXAMPLES,
        "checkOdds": CHECK_ODDS_EXAMPLES,
        "validateCharacter": CHARACTER_EXAMPLES,
        "validateParty": PARTY_EXAMPLES,
    },
    plays=BULLSEYE_PLAYS,
    stateful=("conflict",),
    links={"createConflict": CREATED_LINKS},
)
