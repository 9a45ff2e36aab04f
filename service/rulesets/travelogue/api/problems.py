"""What each of the travelogue's rule codes means, for ``GET /problems/travelogue/{code}``.

One entry per code: ``code: (status, title, description)``. The code is the part after
``travelogue/``; the problem type is ``/problems/travelogue/<code>``. Headings in quotes are
the text's; D-numbers are the decisions listed in docs/travelogue.md. Every code a game can
answer with is here, the set-up's (the ``errors[].code`` of `invalid-setup`) included.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, UnsetType

from service.http.contract.problem_types import ProblemType, problem_type
from service.http.odds.gate import OddsProblem
from service.kernel.values import Value
from service.rulesets.travelogue.rules.game.errors import GAME_PROBLEMS
from service.rulesets.travelogue.rules.game.waiting import WaitingFor
from service.sessions.problems import SessionProblem

__all__ = ["TRAVELOGUE_PROBLEMS", "GameOddsProblem", "GameProblem", "MissingDice", "RollProblem"]

_WAITING_FOR = (
    "`wrong-step` (409) and `not-your-move` (403): who may act now, and how, as the "
    "game's own `waiting_for`."
)
_MISSING = "`faces-missing`: how many of the table's dice each pool still needs."


class MissingDice(Value, frozen=True, kw_only=True):
    """How many of the table's dice each pool still needs (0: none)."""

    shooter: Annotated[int, Meta(ge=0)]
    angel: Annotated[int, Meta(ge=0)]


class RollProblem(OddsProblem, frozen=True, kw_only=True):
    """A problem of a roll of the pools: `faces-missing` says how many dice are missing."""

    missing: Annotated[MissingDice | UnsetType, Meta(description=_MISSING)] = UNSET


class GameProblem(SessionProblem, frozen=True, kw_only=True):
    """A problem of a game's action: a refused move says what the game waits for,
    `faces-missing` how many of the table's dice the pools still need."""

    waiting_for: Annotated[WaitingFor | UnsetType, Meta(description=_WAITING_FOR)] = UNSET
    missing: Annotated[MissingDice | UnsetType, Meta(description=_MISSING)] = UNSET


class GameOddsProblem(OddsProblem, frozen=True, kw_only=True):
    """A problem of a game's pending odds: out of step, what the game waits for."""

    waiting_for: Annotated[WaitingFor | UnsetType, Meta(description=_WAITING_FOR)] = UNSET


_PROBLEMS: dict[str, tuple[int, str, str]] = {
    # The set-up ("The Set Up", "Bullseyes", "Your Name", "The Blanks").
    "invalid-setup": (
        422,
        "Invalid set-up",
        "A game is created only from bullseyes that break no set-up rule; `errors` lists "
        "every violation at once, each with its code (below), pointer and detail. "
        "`POST /v1/travelogue/bullseyes/validate` gives the same report without a game.",
    ),
    "player-count": (422, "4 to 6 players", '"The Set Up": a table has 4 to 6 players.'),
    "duplicate-player": (
        422,
        "Player listed twice",
        "Each player has one bullseye: player ids are unique at a table.",
    ),
    "blank-text": (
        422,
        "A blank left blank",
        '"The Blanks": every bullseye has a name, a shooter, an angel and a beef.',
    ),
    "text-too-long": (
        422,
        "Text too long",
        "A name is at most 40 characters, a shooter or an angel 120, a beef 200.",
    ),
    "stat-range": (422, "Stat out of range", "Each stat is 0 to 9 (D3)."),
    "points-not-nine": (
        422,
        "Not 9 points",
        '"Bullseyes": Avoid, Armor, Angel and Allies share exactly 9 points (D3).',
    ),
    "duplicate-name": (
        422,
        "Name taken",
        '"Your Name": a first name is the only handle the others have, so no two bullseyes '
        "share one, compared case-insensitively once trimmed (D4).",
    ),
    "not-connected": (
        422,
        "Not connected",
        "Bullseyes are linked by a shared shooter or beef (compared after Unicode NFKC "
        "normalisation, case folding, trimming and collapsing whitespace), and all of them "
        "must form one group through such links: being paired is not enough (D2).",
    ),
    # Dice (D28).
    "faces-and-seed": (
        422,
        "Faces and a seed",
        "Give the table's faces or a seed for the server's dice, not both.",
    ),
    "faces-missing": (
        422,
        "Faces missing",
        "The table's dice are exactly what the roll needs (`waiting_for.dice_needed` in a "
        "game; Ammo dice per pool for a roll); the extension member `missing` says how many "
        "are missing (per pool for the pools).",
    ),
    "faces-extra": (422, "Too many faces", "More faces than the roll has dice."),
    "face-out-of-range": (422, "Not a d6 face", "A die shows 1 to 6."),
    "too-many-dice": (
        422,
        "Too many dice for the odds",
        "Exact odds are computed for at most 30 dice a pool, so every request's work stays "
        "bounded.",
    ),
    # A game's own refusals (its actions, its deletion) are the game engine's.
    **GAME_PROBLEMS,
}

TRAVELOGUE_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(f"travelogue/{code}", status, title, description)
    for code, (status, title, description) in _PROBLEMS.items()
)
