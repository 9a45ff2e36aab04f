"""``/v1/quick-shot/characters/validate``: a character sheet checked against its charges
("General Pool", "Drives", "Extras", "Types", "Cost", "Charges")."""

from __future__ import annotations

import copy
from typing import Annotated, Any

from litestar import Controller, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.rulesets.quick_shot.rules.characters import (
    QuickShotCharacterReport,
    QuickShotCharacterValidation,
    validate_character,
)

__all__ = ["CHARACTER_EXAMPLES", "FIELD_AGENT", "CharacterController"]

# The design's sheet: a stat at TN 4 (one significant), a minor and a significant extra,
# a general pool bought up to 6 (one major); 6/1/1 earned pays for it once five minors
# combine into the second significant.
FIELD_AGENT: dict[str, Any] = {
    "character": {
        "name": "Ines Calder",
        "stats": [
            {"name": "Firearms", "target_number": 4},
            {"name": "Driving"},
        ],
        "general_pool": {"maximum": 6, "current": 6},
        "drives": [
            {"name": "Duty", "goal": "Keep the field office running without its director", "wp": 4},
            {"name": "Revenge", "goal": "Find whoever sold the safe-house address", "wp": 1},
        ],
        "extras": [
            {
                "name": "Police scanner",
                "type": "minor",
                "description": "A handheld scanner tuned to the city's dispatch channels.",
            },
            {
                "name": "Read the room",
                "type": "significant",
                "description": "She senses the mood of a crowd and who in it is lying or afraid.",
                "limitation": "Only among people she can see",
            },
        ],
        "charges": {"minor": 6, "significant": 1, "major": 1},
    }
}

_SHORT: dict[str, Any] = copy.deepcopy(FIELD_AGENT)
_SHORT["character"]["charges"]["minor"] = 5

CHARACTER_EXAMPLES = [
    Example(
        summary="A sheet its charges pay for",
        description="Needs 1 minor, 2 significant (an extra, TN 5 → 4) and 1 major (pool 6); "
        "five of the 6 minors combine into the second significant: valid, 0/0/0 remaining.",
        value=FIELD_AGENT,
    ),
    Example(
        summary="One minor charge short",
        description="The same sheet with 5 minors: the combination leaves no minor for the "
        "minor extra, `charges-insufficient`, `missing_minor_equivalent` 1.",
        value=_SHORT,
    ),
]

_VALIDATE_DESCRIPTION = """\
Checks a character sheet against the charges it earned and reports **every** violation and
warning at once, each with a `code`, a JSON `pointer` into this request and a sentence. A
sheet that breaks the rules is still a **200** with `valid: false`; only a malformed body
is a 400. The schema's ranges are wider than the rules' (a target number 1–9), so every
break is reported together. The service stores nothing: the sheet is the client's (D1).

**What a sheet needs** ("Extras", "Types", "Cost", "General Pool"): one charge of its type
per extra (`minor`, `significant`, `major`); one significant charge per step a stat's
target number sits away from 5, either way — a TN 6 costs its step like a TN 4 (D12); one
major charge per general-pool point above 5 (D11).

**Combining** ("Cost", "Charges", D10): five minors make a significant and five
significants a major, never the other way. Majors short are made from significants, then
every significant short (its own needs and those) from minors; `combined` counts these
combinations, `remaining` is earned − needed after them (below 0 only in minors, by
`missing_minor_equivalent`, the shortfall in minor charges). Charges are never split.

**Violations**: `duplicate-name` (stats, drives or extras, each list on its own; trimmed,
case-folded; at the later one's `name`), `target-number-out-of-range` (outside 3–7, at its
`target_number`), `pool-over-maximum` (`current` above `maximum`),
`charges-insufficient` (at `/character/charges`).

**Warnings**, never a violation: `general-pool-below-five` ("General Pool": most
characters have 5), `drive-without-goal` (a blank goal, "Drives"),
`extra-description-short` (fewer words than 3 for a minor extra, 6 for a significant, 10
for a major: "Types" asks more of stronger extras).

`general_pool` answers the base 5, the points bought and the maximum; `willpower` the WP
held now: the general pool's `current` (its `maximum` when `current` is null), the drives'
sum, and both together.
"""


class CharacterController(Controller):
    """Character validation, stateless."""

    path = "/characters"
    tags = ["quick-shot"]

    @post(
        "/validate",
        operation_id="quickShotValidateCharacter",
        summary="Validate a character sheet",
        description=_VALIDATE_DESCRIPTION,
        dto=StrictJson[QuickShotCharacterValidation],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415),
    )
    def validate(
        self, data: Annotated[QuickShotCharacterValidation, Body(examples=CHARACTER_EXAMPLES)]
    ) -> QuickShotCharacterReport:
        """Every violation and warning, and the charges' account."""
        return validate_character(data)
