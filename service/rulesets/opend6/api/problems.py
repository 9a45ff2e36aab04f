"""What each of OpenD6's rule codes means, for ``GET /problems/opend6/{code}``.

One entry per code: ``code: (status, title, description)``. The code is the part after
``opend6/``; the problem type is ``/problems/opend6/<code>``. Headings in quotes are the
seed's; D-numbers are the decisions of design/opend6.md, Part 4.
"""

from __future__ import annotations

from service.http.problem_types import ProblemType, problem_type

__all__ = ["OPEND6_PROBLEMS"]

_PROBLEMS: dict[str, tuple[int, str, str]] = {
    "invalid-code": (
        422,
        "Not a die code",
        '"Rolling Dice": a die code is `<dice>D[+<pips>]`, dice and pips each 0…40.',
    ),
    "negative-code": (
        422,
        "Die code below zero",
        '"Rolling Dice": subtracting borrows a die as three pips (4D+1 − 3D+2 = 0D+2), but a '
        "die code never goes below 0D; a penalty is a modifier, not a code (D1).",
    ),
    "value-outside-level": (
        422,
        "Difficulty outside its level",
        '"Standard Difficulties": a number given with a level lies in that level\'s range '
        "(Easy 6–10, …, Legendary 31 or more); a level alone is its range's top (D8).",
    ),
    "rush-short-task": (
        422,
        "Task too short to rush",
        '"Rushing": only a task that normally takes 10 seconds (two rounds) or more can be '
        "done in less time.",
    ),
    "rush-too-far": (
        422,
        "Rushed below a quarter of the time",
        '"Rushing": no task is done in less than a quarter of its normal time. Saving a '
        "quarter, half or three quarters raises the difficulty by +5, +10, +20 (D11).",
    ),
    # The roll (service/rulesets/opend6/rules/rolls.py and its helpers).
    "negative-adds": (
        422,
        "Skill below its governing attribute",
        '"Alternate Attribute Option": the adds carried over are the skill less its governing '
        "attribute (D12); a skill below that attribute has none.",
    ),
    "zero-dice": (
        422,
        "No die left to roll",
        '"Rolling Dice": penalties took the roll below 1D; every roll needs its Wild Die (D3).',
    ),
    "too-many-dice": (
        422,
        "Too many dice",
        "A roll has at most 120 dice, so every request's work is bounded (D7).",
    ),
    "faces-missing": (
        422,
        "Faces missing",
        "The table's `faces` have fewer dice than the roll needs, or an exploding chain ends "
        "in a 6 (one more toss is due); the detail says how many more.",
    ),
    "faces-surplus": (
        422,
        "Too many faces",
        "The table's `faces` have more dice than the roll has.",
    ),
    "wild-chain": (
        422,
        "Not an exploding chain",
        '"Wild Die", "Character Points": an exploding die\'s chain is 6s and then one face that '
        "is not a 6; a face inside the chain that is not a 6 cannot be followed by more.",
    ),
    "faces-with-seed": (
        422,
        "Faces and a seed",
        "Give the faces rolled at the table or a seed for the server's dice, not both.",
    ),
    "cp-limit": (
        422,
        "Over the Character Point limit",
        '"Character Points": the GM limits the points a roll takes (easy 2, cinematic 5, '
        "universe-shaking unlimited, served as 20: D7).",
    ),
    "cp-with-fp": (
        422,
        "Character Points with a Fate Point",
        '"Improving a Roll": Character Points and a Fate Point on one roll only in a cinematic '
        "game, by the GM's `cp_with_fp`.",
    ),
    "fp-not-allowed": (
        422,
        "No Fate Point here",
        '"Fate Points": a Fate Point doubles the character\'s own code, once, before the roll: '
        "never on initiative, never on equipment's code (D6).",
    ),
    "not-enough-points": (
        422,
        "Not enough points",
        "The roll spends more Character Points or Fate Points than `available` holds.",
    ),
    "duplicate-participant": (
        422,
        "Participant listed twice",
        "Each participant of an initiative (or a scene) has its own id.",
    ),
    "points-on-wild-die-only": (
        422,
        "Points on a Wild-Die-only roll",
        '"Special Difficulties": a Wild-Die-only roll is one toss of the Wild Die; no '
        "Character Point or Fate Point changes it (D14).",
    ),
}

OPEND6_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(f"opend6/{code}", status, title, description)
    for code, (status, title, description) in _PROBLEMS.items()
)
