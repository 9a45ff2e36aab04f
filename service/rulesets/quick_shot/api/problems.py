"""What each of Quick Shot's rule codes means, for ``GET /problems/quick-shot/{code}``.

One entry per code: ``code: (status, title, description)``; the problem type is
``/problems/quick-shot/<code>``. Headings in quotes are the seed's; D-numbers the
service's decisions. The codes of character validation and WP rearranging are here too,
so the whole ruleset's catalogue is in one place.
"""

from __future__ import annotations

from service.http.contract.problem_types import ProblemType, problem_type
from service.http.odds.gate import FacesProblem

__all__ = ["QUICK_SHOT_PROBLEMS", "GambleProblem"]


class GambleProblem(FacesProblem, frozen=True, kw_only=True):
    """A problem of a gamble: `faces-missing` and `faces-extra` say by how many dice the
    table's faces are off."""


_PROBLEMS: dict[str, tuple[int, str, str]] = {
    "wp-bet-invalid": (
        422,
        "Not a bet the rules know",
        '"Bolstering": a gamble stakes 0, 1 (a ninth die) or 3 WP (a ninth and a tenth); a '
        "2 WP bet buys nothing the seed's tables know (D2).",
    ),
    "faces-and-seed": (
        422,
        "Faces and a seed",
        "Give the dice rolled at the table (`faces`) or a `seed` for the server's dice, not both.",
    ),
    "decline-with-dice": (
        422,
        "A declined gamble with dice",
        '"Step 3: Going for It": declining accepts failure and rolls nothing, so `decline` '
        "takes neither `faces` nor a `seed` (D9).",
    ),
    "faces-missing": (
        422,
        "Faces missing",
        'A gamble rolls 8 dice, 9 with a 1 WP bet, 10 with a 3 WP bet ("Bolstering"); fewer '
        "faces were given. The extension member `missing` says how many more.",
    ),
    "faces-extra": (
        422,
        "Too many faces",
        'More faces than the bet rolls (8, 9 or 10, "Bolstering"). The extension member '
        "`extra` says how many too many.",
    ),
    "drive-required": (
        422,
        "Which drive?",
        '"Drives": WP staked from a drive names that drive (`willpower.drive`).',
    ),
    "wp-insufficient": (
        422,
        "Not enough WP",
        "The pool holds less WP than this asks: a gamble's bet beyond `available` "
        '("Bolstering", D8), or a rearranging move removing more than the drive holds at '
        'that point ("Rearranging WP", D13).',
    ),
    "rearrange-odd": (
        422,
        "An odd removal",
        '"Rearranging WP": every 2 WP removed from one drive add 1 to another, so each '
        "move removes an even amount (D13).",
    ),
    "unknown-drive": (
        422,
        "Unknown drive",
        'A rearranging move names a drive the sheet does not list ("Drives"); the general '
        "pool is not a drive (D13).",
    ),
    "same-drive": (
        422,
        "Same drive",
        '"Rearranging WP" moves WP from one drive to another: `from` and `to` differ.',
    ),
    "vacation-too-short": (
        422,
        "Vacation too short",
        '"Rearranging WP" happens during a vacation of at least 7 days (D13).',
    ),
}

QUICK_SHOT_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(f"quick-shot/{code}", status, title, description)
    for code, (status, title, description) in _PROBLEMS.items()
)
