"""Conflict submissions are bound to the sheet (docs/bullseye.md, "Expanded conflicts" under
"Rules as applied, and decisions"): a check may use only the qualities declared for its
checker when the conflict was created."""

from __future__ import annotations

from service.kernel.errors import Concern
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conflicts.model import QualityRef
from service.rulesets.bullseye.rules.modifiers import Quality

__all__ = ["named_qualities"]


def named_qualities(
    who: str, declared: tuple[Quality, ...], refs: tuple[QualityRef, ...], pointer: str
) -> tuple[tuple[Quality, ...], list[Concern]]:
    """The qualities ``who`` declared (``declared``) that ``refs`` name (by name, or as the
    declared object itself), and an ``undeclared-quality`` concern for each that is not
    one of them or differs. The caller has found the checker (once per round)."""
    if not refs:
        return (), []
    by_name: dict[str, Quality] = {}
    for each in declared:  # the last of a name wins, as a dict display would have it
        by_name[each.name.casefold()] = each
    found: list[Quality] = []
    concerns: list[Concern] = []
    for index, ref in enumerate(refs):
        name = ref if isinstance(ref, str) else ref.name
        quality = by_name.get(name.casefold())
        if quality is None:
            detail = f"'{name}' is not one of {who}'s declared qualities."
        elif not isinstance(ref, str) and (ref.type, ref.magnitude) != (
            quality.type,
            quality.magnitude,
        ):
            detail = (
                f"'{name}' is declared as {quality.type} {quality.magnitude:+d}, "
                f"not {ref.type} {ref.magnitude:+d}."
            )
        else:
            found.append(quality)
            continue
        concerns.append(
            Concern(
                code=RuleCode.UNDECLARED_QUALITY,
                pointer=f"{pointer}/qualities/{index}",
                detail=detail,
            )
        )
    return tuple(found), concerns
