"""The one-line ``summary`` of a talent check, in the seed's words ("Task resolution and
other rules"): the talent's level on "The Scale", the Self and Conflict dice with their
modifiers and how each compares with the level, the re-rolls, the points and the outcome
— Failure, Marginal success, Total success, Critical success or Critical failure (D14).
Built from the result alone (service.kernel.summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.summary import fitting, signed

if TYPE_CHECKING:
    from service.rulesets.self_conflict.rules.checks import SelfConflictDie, TalentCheckResult

__all__ = ["check_summary"]

_NAMES = {"self": "Self", "conflict": "Conflict"}


def _main(die: SelfConflictDie, reroll: SelfConflictDie | None, *, critical: bool) -> str:
    """``Conflict 5+2=7 over``, ``Self 4 equal (re-roll 5)`` (D6); a critical compares
    nothing (D2)."""
    text = f"{_NAMES[die.role]} {die.face}"
    if critical:
        return text
    if die.modifier:
        text += f"{signed(die.modifier)}={die.modified}"
    text += " " + die.comparison if die.comparison is not None else ""
    return text + f" (re-roll {reroll.face})" if reroll is not None else text


def check_summary(result: TalentCheckResult) -> str:
    """``Talent 4 (Fairly): Self 3 under, Conflict 5+2=7 over: 6 points, Marginal
    success``; a critical ends the roll (D2): ``Self 6, Conflict 6: Critical failure``."""
    dice = {die.role.value: die for die in result.dice}
    critical = result.critical is not None
    shown = ", ".join(
        _main(dice[role], dice.get(f"{role}_reroll"), critical=critical)
        for role in ("self", "conflict")
    )
    points = "" if result.total is None else f"{result.total} points, "
    text = f"Talent {result.talent.level} ({result.talent.label}): {shown}: {points}"
    text += result.outcome_label
    karma = result.karma
    moved = [f"{word} {n}" for word, n in (("spent", karma.spent), ("gained", karma.gained)) if n]
    if moved:
        text += f"; karma {', '.join(moved)}"
    return fitting(text)
