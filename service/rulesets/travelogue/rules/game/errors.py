"""The game's refusals: code → (status, title, description), for the HTTP layer's problem
catalogue (it registers them under `travelogue/<code>`), and the helpers that raise them.

Checked in the design's order: 409 `wrong-step`, `game-ended`, `action-limit-reached` →
403 `not-your-move` (carrying `waiting_for`) → 422 the action's own codes, then the dice's.
"""

from __future__ import annotations

from collections.abc import Mapping

from service.kernel.errors import Concern, RulesError

__all__ = ["GAME_PROBLEMS", "GAME_PROBLEM_STATUS", "refuse"]

GAME_PROBLEMS: dict[str, tuple[int, str, str]] = {
    "wrong-step": (
        409,
        "Not now",
        "Nobody may take this action at the game's current step; `waiting_for` says what "
        "the game waits for.",
    ),
    "game-ended": (409, "Game over", "The game has ended; it takes no more actions."),
    "action-limit-reached": (
        409,
        "Action limit reached",
        "A game takes at most 10 000 actions (D29).",
    ),
    "not-your-move": (
        403,
        "Not your move",
        "The game waits for someone else, or for another action of yours; the problem's "
        "`waiting_for` names who may act and how.",
    ),
    "flag-not-in-middle": (422, "Flag not in the middle", '"Rules": a reach takes a middle flag.'),
    "unknown-player": (422, "Unknown player", "No player at this table has that id."),
    "hand-to-self": (
        422,
        "Handed to oneself",
        '"Evidence Flag": a flag is handed to another player (D6).',
    ),
    "not-running": (
        422,
        "Not running",
        "Only a running bullseye benefits from a flag (D8), has his target's flags moved "
        "(D18) or receives a leaver's points (D25).",
    ),
    "unknown-ring": (
        422,
        "Unknown ring",
        "A ring is `loved_ones`, `friends`, `possessions` or `reputation` (D1).",
    ),
    "flag-not-on-target": (
        422,
        "Flag not on a target",
        '"Moving Flags": a move takes a flag from a ring of a running bullseye\'s target.',
    ),
    "own-target": (
        422,
        "Your own target",
        '"Moving Flags": the mover moves flags neither from nor onto his own target.',
    ),
    "same-ring": (422, "Same ring", '"Moving Flags": a flag moves to a different ring.'),
    "cannot-undo": (
        422,
        "Cannot undo",
        '"Moving Flags": the second move may not move the flag the first one moved (D20).',
    ),
    "not-eligible": (
        422,
        "Not eligible",
        '"Getting Caught, Getting Away": a pool goes to those sharing the leaver\'s shooter '
        "(or beef, by pool), who still run (D24, D25).",
    ),
    "allocation-mismatch": (
        422,
        "Pool not given exactly",
        "Each pool someone may take is given out completely, no more (D24).",
    ),
    "unknown-pool": (422, "Unknown pool", "The allocation names a pool this departure lacks."),
    "faces-not-allowed": (
        422,
        "Faces with the server's dice",
        "This game rolls the server's dice (D28); `faces` are for a table-dice game.",
    ),
}

GAME_PROBLEM_STATUS: Mapping[str, int] = {code: kind[0] for code, kind in GAME_PROBLEMS.items()}


def refuse(
    code: str,
    detail: str,
    pointer: str | None = None,
    extensions: Mapping[str, object] | None = None,
) -> RulesError:
    """The refusal ``travelogue/<code>`` (with one concern when ``pointer`` is given)."""
    full = f"travelogue/{code}"
    concerns = () if pointer is None else (Concern(code=full, pointer=pointer, detail=detail),)
    return RulesError(full, detail, concerns, extensions)
