"""A group depletable quality (§7.5): one shared score for several characters."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.bounds import Name
from service.kernel.values import Value
from service.rulesets.bullseye.rules.characters import (
    DEPLETABLE_BASE,
    Character,
    CharacterValidationReport,
    Finding,
    SheetCode,
    Variants,
    validate_character,
)
from service.rulesets.bullseye.rules.conditions import Thresholds, thresholds

__all__ = [
    "GroupDepletable",
    "GroupScore",
    "PartyMember",
    "PartyValidation",
    "PartyValidationReport",
    "validate_party",
]

MAX_PARTY = 12

Contribution = Annotated[
    int,
    Meta(ge=0, le=1000, description="Creation points this character puts into the group score."),
]


class GroupDepletable(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The shared depletable quality, e.g. time or anonymity."""

    name: Name


class PartyMember(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One character of the group and what it contributes to the shared score."""

    character: Character
    contribution: Contribution = 0
    previous: Character | None = None


class PartyValidation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Several characters sharing one depletable quality (§7.5)."""

    group_depletable: GroupDepletable
    members: Annotated[tuple[PartyMember, ...], Meta(min_length=1, max_length=MAX_PARTY)]
    variants: Variants = Variants()


class GroupScore(Value, frozen=True, kw_only=True):
    """The shared score: 20 plus every contribution (decision on §7.5)."""

    name: str
    maximum: int
    contributions: tuple[int, ...]
    thresholds: Thresholds


class PartyValidationReport(Value, frozen=True, kw_only=True):
    """The verdict on the group: its own findings, and each member's."""

    valid: bool
    violations: tuple[Finding, ...]
    members: tuple[CharacterValidationReport, ...]
    group: GroupScore


def validate_party(party: PartyValidation) -> PartyValidationReport:
    """Validate every member (paying its contribution from its own budget) and the group."""
    members = tuple(
        validate_character(
            member.character,
            party.variants,
            member.previous,
            prefix=f"/members/{index}/character",
            previous_prefix=f"/members/{index}/previous",
            group_contribution=member.contribution,
        )
        for index, member in enumerate(party.members)
    )
    violations: list[Finding] = []
    group_name = party.group_depletable.name.strip()
    if not group_name:
        violations.append(
            Finding(
                code=SheetCode.BLANK_NAME,
                pointer="/group_depletable/name",
                detail="The group depletable quality needs a name.",
            )
        )
    seen: dict[str, int] = {}
    for index, member in enumerate(party.members):
        key = member.character.name.strip().casefold()
        if key and key in seen:
            violations.append(
                Finding(
                    code=SheetCode.DUPLICATE_CHARACTER_NAME,
                    pointer=f"/members/{index}/character/name",
                    detail="Another member of the group is already called "
                    f"'{party.members[seen[key]].character.name}' (names ignore case).",
                )
            )
        seen.setdefault(key, index)
        for own_index, own in enumerate(member.character.depletable):
            if group_name and own.name.strip().casefold() == group_name.casefold():
                violations.append(
                    Finding(
                        code=SheetCode.DUPLICATE_DEPLETABLE_NAME,
                        pointer=f"/members/{index}/character/depletable/{own_index}/name",
                        detail=f"'{own.name}' is the group's depletable quality (§7.5); a "
                        "character's own one needs another name.",
                    )
                )
    contributions = tuple(member.contribution for member in party.members)
    maximum = DEPLETABLE_BASE + sum(contributions)
    group = GroupScore(
        name=party.group_depletable.name,
        maximum=maximum,
        contributions=contributions,
        thresholds=thresholds(maximum),
    )
    return PartyValidationReport(
        valid=not violations and all(member.valid for member in members),
        violations=tuple(violations),
        members=members,
        group=group,
    )
