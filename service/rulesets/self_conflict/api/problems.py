"""What each of Self/Conflict's rule codes means, for ``GET /problems/self-conflict/{code}``.

One entry per code: ``code: (status, title, description)``. The code is the part after
``self-conflict/``; the problem type is ``/problems/self-conflict/<code>``. Headings in
quotes are the seed's; D-numbers are the decisions listed in docs/self-conflict.md.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, UnsetType

from service.http.contract.problem_types import ProblemType, problem_type
from service.http.odds.gate import OddsProblem
from service.rulesets.self_conflict.rules.checks import SelfConflictDieRole

__all__ = ["SELF_CONFLICT_PROBLEMS", "CheckProblem"]


class CheckProblem(OddsProblem, frozen=True, kw_only=True):
    """A problem of a talent check: `faces-missing` says which faces are still needed."""

    missing: (
        Annotated[
            int, Meta(ge=1, description="`faces-missing`: how many more faces the check needs.")
        ]
        | UnsetType
    ) = UNSET
    roles: Annotated[
        tuple[SelfConflictDieRole, ...] | UnsetType,
        Meta(description="`faces-missing`: the role of each face still needed, in rolling order."),
    ] = UNSET


_PROBLEMS: dict[str, tuple[int, str, str]] = {
    "faces-and-seed": (
        422,
        "Faces and a seed",
        "Give the dice rolled at the table (`faces`) or a `seed` for the server's dice, not "
        "both (D7).",
    ),
    "faces-missing": (
        422,
        "Faces missing",
        '"Task resolution and other rules": each main die equal to the talent level (after '
        "modifiers) takes one re-roll die, Self's first, so the count is known only once the "
        "natural pair is (D7). The problem's extension members say what is missing: "
        "`missing` (how many more faces) and `roles` (`conflict`, `self_reroll`, "
        "`conflict_reroll`, in rolling order). With a single face, only the Conflict die is "
        "known to be missing; re-rolls may follow.",
    ),
    "faces-extra": (
        422,
        "Too many faces",
        "`faces` has more dice than the check uses: a critical uses two (it ends the roll, "
        "D2), otherwise two plus one per main die equal to the level (D7).",
    ),
    "conflict-modifier-out-of-range": (
        422,
        "GM modifiers out of range",
        '"Task resolution and other rules": the GM\'s modifiers on the Conflict die must sum '
        "to −10…+10 (D4); past −7 or +6 nothing changes anyway.",
    ),
    "karma-insufficient": (
        422,
        "Not enough karma",
        '"Task resolution and other rules" (karma): a karma modifier k on the Self die costs '
        "|k| points, and the object's `balance` does not cover it (D5).",
    ),
}

SELF_CONFLICT_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(f"self-conflict/{code}", status, title, description)
    for code, (status, title, description) in _PROBLEMS.items()
)
