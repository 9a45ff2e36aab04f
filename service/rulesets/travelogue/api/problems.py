"""What each of the travelogue's rule codes means, for ``GET /problems/travelogue/{code}``.

One entry per code: ``code: (status, title, description)``. The code is the part after
``travelogue/``; the problem type is ``/problems/travelogue/<code>``. Headings in quotes are
the text's; D-numbers are the decisions listed in docs/travelogue.md. Every code a game can
answer with is here, the set-up's (the ``errors[].code`` of `invalid-setup`) included.
"""

from __future__ import annotations

from service.http.problem_types import ProblemType, problem_type

__all__ = ["TRAVELOGUE_PROBLEMS"]

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
    "faces-not-allowed": (
        422,
        "The server rolls",
        "This game's dice are the server's (`dice_source: server`, fixed at creation, D28): "
        "no faces.",
    ),
    "too-many-dice": (
        422,
        "Too many dice for the odds",
        "Exact odds are computed for at most 30 dice a pool, so every request's work stays "
        "bounded.",
    ),
    # A game's actions: what the game's state allows now (409), whose move it is (403),
    # the action itself (422).
    "wrong-step": (
        409,
        "Not now",
        "Nobody may take this action in the game's current step; `waiting_for` says what "
        "the game waits for.",
    ),
    "game-ended": (409, "Game ended", "The game has ended; it takes no more actions."),
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
        "just moved (D20).",
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
    "game-not-ended": (
        409,
        "Game not ended",
        "A game is deleted only once it has ended, so no single player can end the table's "
        "game; an unfinished one expires (D31).",
    ),
}

TRAVELOGUE_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(f"travelogue/{code}", status, title, description)
    for code, (status, title, description) in _PROBLEMS.items()
)
