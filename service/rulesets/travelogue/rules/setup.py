"""Checking the table's bullseyes before play ("The Set Up", "Bullseyes", "Your Name",
"The Blanks"): every violation and warning at once, each with a code and a JSON pointer.

The one check both the stateless ``bullseyes/validate`` and a game's creation run: the
former answers the report, the latter refuses an invalid one (`invalid-setup`, with the
violations as its ``errors``; see :func:`setup_error`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.travelogue.rules.sheet import MAX_PLAYERS, MIN_PLAYERS, Sheet, normalised
from service.rulesets.travelogue.rules.stats import STAT_ORDER, Stat

__all__ = [
    "INVALID_SETUP",
    "POINTS",
    "STAT_MAX",
    "TEXT_LIMITS",
    "SetupCode",
    "SetupFinding",
    "SetupReport",
    "check_setup",
    "setup_cost",
    "setup_error",
    "setup_warnings",
]

POINTS = 9  # D3: the four stats sum to exactly this
STAT_MAX = 9
# The longest each text may be, in characters as sent ("Your Name", "The Blanks").
TEXT_LIMITS: dict[str, int] = {"name": 40, "shooter": 120, "angel": 120, "beef": 200}
# Steps 6 and 7 multiply these pairs: Avoid × Allies (cracking), Armor × Angel (exposure).
_PARTNER = {
    Stat.AVOID: Stat.ALLIES,
    Stat.ALLIES: Stat.AVOID,
    Stat.ARMOR: Stat.ANGEL,
    Stat.ANGEL: Stat.ARMOR,
}
# The problem code a game's creation answers an invalid set-up with.
INVALID_SETUP = "travelogue/invalid-setup"


class SetupCode(StrEnum):
    """What a finding is about. Violations make the set-up invalid; `stat-zero` only warns."""

    PLAYER_COUNT = "player-count"
    DUPLICATE_PLAYER = "duplicate-player"
    BLANK_TEXT = "blank-text"
    TEXT_TOO_LONG = "text-too-long"
    STAT_RANGE = "stat-range"
    POINTS_NOT_NINE = "points-not-nine"
    DUPLICATE_NAME = "duplicate-name"
    NOT_CONNECTED = "not-connected"
    STAT_ZERO = "stat-zero"


class SetupFinding(Value, frozen=True, kw_only=True):
    """One violation or warning: what, where (a JSON pointer into the request) and why."""

    code: SetupCode
    pointer: Annotated[str, Meta(max_length=40)]
    detail: Annotated[str, Meta(max_length=400)]


Position = Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]


class SetupReport(Value, frozen=True, kw_only=True):
    """The verdict on a table's bullseyes: valid when there is no violation."""

    valid: bool
    violations: Annotated[tuple[SetupFinding, ...], Meta(max_length=100)]
    warnings: Annotated[tuple[SetupFinding, ...], Meta(max_length=100)]
    components: Annotated[
        tuple[Annotated[tuple[Position, ...], Meta(min_length=1, max_length=MAX_PLAYERS)], ...],
        Meta(
            max_length=MAX_PLAYERS,
            description="The link graph's components (D2): each the positions in `bullseyes` "
            "it joins, ascending; the first bullseye's component first, the others by their "
            "first member. Valid set-ups have exactly one.",
        ),
    ]


def _texts(sheet: Sheet, keys: Mapping[str, str], at: str, found: list[SetupFinding]) -> None:
    for field, limit in TEXT_LIMITS.items():
        text: str = getattr(sheet, field)
        if not keys[field]:
            found.append(
                SetupFinding(
                    code=SetupCode.BLANK_TEXT,
                    pointer=f"{at}/{field}",
                    detail=f"The bullseye's {field} is blank: every blank is filled in.",
                )
            )
        elif len(text) > limit:
            found.append(
                SetupFinding(
                    code=SetupCode.TEXT_TOO_LONG,
                    pointer=f"{at}/{field}",
                    detail=f"A {field} is at most {limit} characters, not {len(text)}.",
                )
            )


def _stats(sheet: Sheet, at: str, found: list[SetupFinding], warnings: list[SetupFinding]) -> None:
    in_range = True
    for stat in STAT_ORDER:
        value = sheet.stats.of(stat)
        pointer = f"{at}/stats/{stat.value}"
        if not 0 <= value <= STAT_MAX:
            in_range = False
            found.append(
                SetupFinding(
                    code=SetupCode.STAT_RANGE,
                    pointer=pointer,
                    detail=f"A stat is 0 to {STAT_MAX}, not {value}.",
                )
            )
        elif value == 0:
            warnings.append(
                SetupFinding(
                    code=SetupCode.STAT_ZERO,
                    pointer=pointer,
                    detail=f"{stat.value.capitalize()} is 0: allowed (D3), but its product "
                    f"with {_PARTNER[stat].value} is then 0, so any die of that pool puts the "
                    "focus at risk, and a smallest stat of 0 is caught at any lead.",
                )
            )
    total = sheet.stats.total
    if in_range and total != POINTS:
        found.append(
            SetupFinding(
                code=SetupCode.POINTS_NOT_NINE,
                pointer=f"{at}/stats",
                detail=f"The four stats share exactly {POINTS} points, not {total}.",
            )
        )


def _components(keys: Sequence[Mapping[str, str]]) -> tuple[tuple[int, ...], ...]:
    """D2: linked when the shooters or the beefs are equal once normalised (blanks link
    nothing); connected through chains of links. Angels are never compared. ``keys``: each
    sheet's texts, normalised."""
    parent = list(range(len(keys)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for field in ("shooter", "beef"):
        first_with: dict[str, int] = {}
        for i, texts in enumerate(keys):
            key = texts[field]
            if not key:
                continue
            if key in first_with:
                parent[root(i)] = root(first_with[key])
            else:
                first_with[key] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(keys)):
        groups.setdefault(root(i), []).append(i)
    return tuple(tuple(members) for members in sorted(groups.values(), key=lambda g: g[0]))


def setup_cost(sheets: Sequence[Sheet]) -> int:
    """What checking ``sheets`` costs, in characters NFKC works through: every text that is
    not all ASCII (an ASCII text passes NFKC's quick check at once). Up to about 1.5 µs a
    character: U+FDFA expands eighteenfold (docs/input-costs.md)."""
    return sum(
        len(text)
        for sheet in sheets
        for text in (sheet.name, sheet.shooter, sheet.angel, sheet.beef)
        if not text.isascii()
    )


def check_setup(sheets: Sequence[Sheet], at: str = "/bullseyes") -> SetupReport:
    """Every violation and warning of the table's ``sheets`` at once; pointers are under
    ``at`` (``/bullseyes/<i>/…``), the same in a validation and in a game's creation.

    Violations: `player-count` (4–6), `duplicate-player` (the later sheet's `player`),
    `blank-text`, `text-too-long` (name ≤ 40, shooter and angel ≤ 120, beef ≤ 200),
    `stat-range` (0–9), `points-not-nine` (D3), `duplicate-name` (normalised, at the later
    one, D4), `not-connected` (each bullseye outside the first one's component, D2).
    Warning: `stat-zero` (D3).
    """
    violations: list[SetupFinding] = []
    warnings: list[SetupFinding] = []
    if not MIN_PLAYERS <= len(sheets) <= MAX_PLAYERS:
        violations.append(
            SetupFinding(
                code=SetupCode.PLAYER_COUNT,
                pointer=at,
                detail=f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(sheets)}.",
            )
        )
    players: set[str] = set()
    names: set[str] = set()
    # Each text normalised once: for long non-ASCII texts, the check's costliest step.
    keys = [{field: normalised(getattr(sheet, field)) for field in TEXT_LIMITS} for sheet in sheets]
    for i, sheet in enumerate(sheets):
        pointer = f"{at}/{i}"
        if sheet.player in players:
            violations.append(
                SetupFinding(
                    code=SetupCode.DUPLICATE_PLAYER,
                    pointer=f"{pointer}/player",
                    detail=f"Player {sheet.player!r} already has a bullseye: one each.",
                )
            )
        players.add(sheet.player)
        _texts(sheet, keys[i], pointer, violations)
        _stats(sheet, pointer, violations, warnings)
        name = keys[i]["name"]
        if name and name in names:
            violations.append(
                SetupFinding(
                    code=SetupCode.DUPLICATE_NAME,
                    pointer=f"{pointer}/name",
                    detail=f"Another bullseye is already called {sheet.name.strip()!r}: "
                    "a name is the only handle the others have (D4).",
                )
            )
        names.add(name)
    components = _components(keys)
    for i in sorted(j for outside in components[1:] for j in outside):
        violations.append(
            SetupFinding(
                code=SetupCode.NOT_CONNECTED,
                pointer=f"{at}/{i}",
                detail=f"This bullseye shares no shooter or beef, even through others, with "
                f"the first one's group: everyone is connected, not just paired (D2; "
                f"{len(components)} groups).",
            )
        )
    return SetupReport(
        valid=not violations,
        violations=tuple(violations),
        warnings=tuple(warnings),
        components=components,
    )


def setup_error(report: SetupReport) -> RulesError:
    """The refusal of a game's creation with an invalid set-up: 422 `invalid-setup`, its
    ``errors`` the report's violations (``pointer``, ``code`` as `travelogue/<code>`,
    ``detail``)."""
    concerns = tuple(
        Concern(code=f"travelogue/{v.code.value}", pointer=v.pointer, detail=v.detail)
        for v in report.violations
    )
    count = len(concerns)
    detail = concerns[0].detail if count == 1 else f"The set-up breaks {count} rules."
    return RulesError(INVALID_SETUP, detail, concerns)


def setup_warnings(report: SetupReport) -> tuple[Concern, ...]:
    """The report's warnings as a game keeps them (`stat-zero`, code `travelogue/<code>`)."""
    return tuple(
        Concern(code=f"travelogue/{w.code.value}", pointer=w.pointer, detail=w.detail)
        for w in report.warnings
    )
