"""``/v1/characters/validate`` and ``/v1/parties/validate``: character creation (§3.3, §7)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, post
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.kernel.values import Value
from service.rulesets.bullseye.api.examples import CHARACTER_EXAMPLES, PARTY_EXAMPLES
from service.rulesets.bullseye.rules.characters import (
    Character,
    CharacterValidationReport,
    Variants,
    validate_character,
)
from service.rulesets.bullseye.rules.parties import (
    PartyValidation,
    PartyValidationReport,
    validate_party,
)

__all__ = ["CharacterController", "CharacterValidation"]


class CharacterValidation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A sheet to check, the variants in play and, under §7.3, the sheet as it was."""

    character: Character
    variants: Variants = Variants()
    previous: Character | None = None


_CHARACTER_DESCRIPTION = """\
Checks a sheet against character creation (§3.3) and reports **every** violation at once,
each with a stable `code`, a JSON `pointer` into this request and a sentence a player
understands, plus the point breakdown and each depletable quality's condition thresholds.

A well-formed but invalid character is still a **200** with `valid: false`; only a
malformed body is a 400.

* 60 points (§3.3.2), +1 per 10 conflicts with `variants.advancement_conflicts` (§7.4).
* One core quality at +8; one starting quality at +7 for each of intrinsic, experiential
  and material (free); up to two more of each at +1…+6 for 2 points per +1 (§3.3.3).
* Depletable quality 20…60, 1 point each above 20 (§3.3.4); two of them from the same
  budget with `variants.multiple_depletables` (§7.6).
* Depletion modifier 0…−10, 4 points per −1 (§3.3.5).
* Negative qualities (decision): −1…−10, free, with a warning.
* `variants.define_during_play` (§7.3): unspent points and undefined starting qualities
  are expected; with `previous`, an established quality may not change or disappear, and
  neither may an established depletable quality (matched by name) or its maximum, nor a
  depletion modifier already bought (below 0 on `previous`; a 0 is not yet defined) —
  unless `variants.advancement_conflicts` has earned at least one point (10 or more,
  §7.4): then a maximum may rise and the modifier improve (more negative), never the
  reverse. Codes `established-depletable-changed`, `established-depletable-removed`,
  `established-depletion-modifier-changed`.
"""


class CharacterController(Controller):
    """Character and party validation."""

    tags = ["characters"]

    @post(
        "/characters/validate",
        operation_id="validateCharacter",
        summary="Validate a character sheet",
        description=_CHARACTER_DESCRIPTION,
        dto=StrictJson[CharacterValidation],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415),
    )
    def validate_character(
        self, data: Annotated[CharacterValidation, Body(examples=CHARACTER_EXAMPLES)]
    ) -> CharacterValidationReport:
        """Every violation and warning, the points and the conditions."""
        return validate_character(data.character, data.variants, data.previous)

    @post(
        "/parties/validate",
        operation_id="validateParty",
        summary="Validate characters sharing a group depletable quality (§7.5)",
        description="Each member is validated as by `validateCharacter`, paying its "
        "`contribution` to the shared score from its own budget; the shared score is 20 plus "
        "every contribution (decision on §7.5). Party-level violations (duplicate character "
        "names, a member's own depletable named like the group's) come with pointers too.",
        dto=StrictJson[PartyValidation],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415),
    )
    def validate_party(
        self, data: Annotated[PartyValidation, Body(examples=PARTY_EXAMPLES)]
    ) -> PartyValidationReport:
        """Every member's verdict and the group's."""
        return validate_party(data)
