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
    # A game's actions: what the game's state allows now (409), whose move it is (403),
    # the action itself (422).
    "wrong-step": (
        409,
        "Not now",
        "Nobody may take this action in the game's current step; `waiting_for` says what "
        "the game waits for.",
    ),
    "game-ended": (
        409,
        "Game ended",
        "The game has ended; it takes no more actions. Checked before `wrong-step`: once "
        "the game is over nobody may do anything, and this code says why.",
    ),
    "action-limit-reached": (
        409,
        "Action limit reached",
        "A game takes at most 10 000 actions (D29).",
    ),
    "not-your-move": (
        403,
        "Not your move",
        "Another player acts now (or this player may not take this action); the problem "
        "carries `waiting_for`.",
    ),
    "flag-not-in-middle": (
        422,
        "Flag not in the middle",
        '"Rules", "Evidence Flag": a player reaches out with a flag from the middle, one in '
        "hand at most (D10).",
    ),
    "unknown-player": (422, "Unknown player", "No player of that id at this table."),
    "hand-to-self": (
        422,
        "Handed to oneself",
        "A flag is handed to any other player, even one who is out (D6).",
    ),
    "not-running": (
        422,
        "Not running",
        "Only a running bullseye reaches out, benefits from a flag (D8), receives points "
        "(D25) or renames his Angel (D27).",
    ),
    "unknown-ring": (
        422,
        "Unknown ring",
        "A target's rings are loved_ones, friends, possessions and reputation (D1).",
    ),
    "flag-not-on-target": (
        422,
        "Flag not on a target",
        '"Moving Flags": a neighbour move takes a flag from a running bullseye\'s ring.',
    ),
    "own-target": (
        422,
        "Own target",
        '"Moving Flags": the mover moves a flag from another bullseye\'s target to another '
        "bullseye's, neither his own.",
    ),
    "same-ring": (422, "Same ring", '"Moving Flags": a flag moves to a different ring.'),
    "cannot-undo": (
        422,
        "Cannot undo",
        '"Moving Flags": the upper neighbour\'s mover may not move the flag the lower one '
        "just moved (D20). Checked before `own-target`: the flag just moved may sit on "
        "the mover's own target, and undoing is the rule such a move breaks first.",
    ),
    "not-eligible": (
        422,
        "Not eligible",
        '"Getting Caught, Getting Away": a caught bullseye\'s Shooter points go to those '
        "sharing his shooter, his Angel points to those sharing his beef; an escaped one's "
        "to those sharing either; only running bullseyes receive (D24, D25).",
    ),
    "allocation-mismatch": (
        422,
        "Pool not given exactly",
        "Each pool is split freely but completely: its allocations sum to its points (D24).",
    ),
    "unknown-pool": (
        422,
        "Unknown pool",
        "The departure's pools are those `departure.pools` lists (shooter_aim, shooter_ammo, "
        "angel_aim, angel_ammo if caught; aim, ammo if escaped).",
    ),
    "seed-not-allowed": (
        422,
        "A seed with the table's dice",
        "A seed draws the server's dice: it is given only with `dice_source: server`, at "
        "creation (D28).",
    ),
    "game-not-ended": (
        409,
        "Game not ended",
        "A game is deleted only once it has ended, so no single player can end the table's "
        "game; an unfinished one expires (D31).",
    ),
    # The dice (D28).
    "faces-not-allowed": (
        422,
        "The server rolls",
        "This game's dice are the server's (`dice_source: server`, fixed at creation, D28): "
        "no faces.",
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
