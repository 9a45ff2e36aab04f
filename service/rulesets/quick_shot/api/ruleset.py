"""Quick Shot as the host sees it: routes, problem types, tags and examples."""

from __future__ import annotations

from litestar import Router
from litestar.openapi.spec import Tag

from service.http.contract.registry import Ruleset, RulesetWork
from service.rulesets.quick_shot.api.characters import CHARACTER_EXAMPLES, CharacterController
from service.rulesets.quick_shot.api.gambles import GAMBLES
from service.rulesets.quick_shot.api.problems import QUICK_SHOT_PROBLEMS
from service.rulesets.quick_shot.api.tables import QuickShotTableController
from service.rulesets.quick_shot.api.willpower import REARRANGE_EXAMPLES, WillpowerController

__all__ = ["QUICK_SHOT"]


QUICK_SHOT = Ruleset(
    id="quick-shot",
    title="Quick Shot",
    # A wiki; its revision of 30 October 2010 is by Bryanhm.
    work=RulesetWork(title="Quick Shot", author="Bryanhm", year=2010),
    route_prefix="/v1/quick-shot",
    router=Router(
        "/v1/quick-shot",
        route_handlers=[
            GAMBLES.router,
            QuickShotTableController,
            CharacterController,
            WillpowerController,
        ],
    ),
    schema_prefix="QuickShot",
    problems=QUICK_SHOT_PROBLEMS,
    tags=(
        Tag(
            name="quick-shot",
            description="Quick Shot: gambles on 8 d8s with difficulties Minor … "
            "Overwhelming, multi-actions on disjoint groups of dice, willpower bets and "
            "criticals; exact odds beside the seed's tables. Stateless: the client keeps "
            "WP and charges (D1). Quoted names are the seed's headings; D-numbers the "
            "service's decisions.",
        ),
    ),
    description="Gambles with multi-actions, team work, damage, fatigue and paradox "
    "actions, willpower bets and criticals; their exact odds beside the seed's published "
    "tables; the difficulty, bet and odds tables. The dice model is reconstructed from the "
    "seed's odds tables (D2). Stateless. Quoted names refer to the seed's headings, "
    "D-numbers to the service's decisions.",
    # The stateful phase of a contract run (and a client) follows the list to one table.
    links={
        "quickShotTables": {
            "FirstTable": {
                "operationId": "quickShotTable",
                "parameters": {"name": "$response.body#/tables/0/name"},
                "description": "The first table of the list, by its `name`.",
            }
        }
    },
    examples={
        **GAMBLES.examples,
        "quickShotValidateCharacter": CHARACTER_EXAMPLES,
        "quickShotRearrangeWillpower": REARRANGE_EXAMPLES,
    },
)
