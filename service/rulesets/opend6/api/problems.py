"""What each of OpenD6's rule codes means, for ``GET /problems/opend6/{code}``.

One entry per code: ``code: (status, title, description)``. The code is the part after
``opend6/``; the problem type is ``/problems/opend6/<code>``. Headings in quotes are the
seed's; D-numbers are the decisions listed in docs/opend6.md.
"""

from __future__ import annotations

from service.http.contract.problem_types import ProblemType, problem_type

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
        '"Rolling Dice": penalties took the roll below 1D; every roll needs its Wild Die (D3). '
        "The pointer names the cause: the declared actions' multi-action penalty "
        "(`/actions/declared`; in a scene, `/participant`), a penalty bonus (`/bonuses/<i>`), "
        "else the base.",
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
    "faces-extra": (
        422,
        "Too many faces",
        "The table's `faces` have more dice than the roll has; a Wild-Die-Only roll has one "
        "toss of the Wild Die and nothing else (D14). Until issue 38 this was "
        "`faces-surplus`; every game now says `faces-extra`.",
    ),
    "wild-chain": (
        422,
        "Not an exploding chain",
        '"Wild Die", "Character Points": an exploding die\'s chain is 6s and then one face that '
        "is not a 6; a face inside the chain that is not a 6 cannot be followed by more.",
    ),
    "faces-and-seed": (
        422,
        "Faces and a seed",
        "Give the faces rolled at the table or a seed for the server's dice, not both. Until "
        "issue 38 this was `faces-with-seed`; every game now says `faces-and-seed`.",
    ),
    "cp-limit": (
        422,
        "Over the Character Point limit",
        '"Character Points": the GM limits the points a roll takes, before and after together '
        "(easy 2, cinematic 5, universe-shaking unlimited — a null `character_point_limit` — "
        "served as 20: D7).",
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
    # Scenes: who may move (403), what the scene's state allows now (409), the move (422).
    "gm-only": (403, "The GM's move", "Only the GM's token makes this move."),
    "not-your-participant": (
        403,
        "Not your participant",
        "A player's token moves only the participants it controls (the GM's moves anyone).",
    ),
    "not-your-turn": (
        403,
        "Not your turn",
        "A turn move (declare, an action roll, wait, end_turn) is made on the participant's "
        "turn, by an interrupter, or by a waiter at the round's end (D18); the detail says "
        "whose turn it is.",
    ),
    "wrong-round": (409, "Another round", "The move names a round the scene is not at."),
    "wrong-phase": (
        409,
        "Not in this phase",
        "The move belongs to another phase of the round (initiative, turns, round_end).",
    ),
    "roll-pending": (
        409,
        "A roll is pending",
        "A roll waits for the GM's resolution first (or too many rolls wait already).",
    ),
    "not-pending": (409, "No such pending roll", "The roll is resolved, or never was made."),
    "already-declared": (409, "Already declared", "Actions are declared once a round."),
    "already-rolled": (
        409,
        "Already rolled",
        "Initiative is rolled once a round (or scene); a climactic Fate Point is spent before "
        "the participant's first roll of the round.",
    ),
    "interrupt-window": (
        409,
        "A waiter may interrupt",
        "The GM's `resolve_now` waits while a waiter with actions left could still interrupt "
        "the roll (D18); leave it pending and `resolve` it.",
    ),
    "interrupting": (
        409,
        "An interrupt is under way",
        "One participant interrupts at a time; the GM moves another up once it ends.",
    ),
    "scene-ended": (409, "Scene ended", "The scene has ended; it takes no more moves."),
    "not-declared": (422, "Not declared", "Declare the round's actions before acting."),
    "no-actions-left": (
        422,
        "No action left",
        "Every declared action of this round is used; unused ones die with the round.",
    ),
    "faces-not-allowed": (
        422,
        "The server rolls",
        "This scene's dice are rolled by the server (`dice_source: server`): no faces or seeds.",
    ),
    "not-able": (422, "Unable to act", "The GM has marked the participant unable to act."),
    "not-waiting": (
        422,
        "Not out of turn",
        "Moving up is for a participant whose turn it is not.",
    ),
    "climactic-used": (
        422,
        "Climactic Fate Point spent",
        '"Fate Points": a Fate Point spent climactically doubles a round\'s rolls, once a '
        "scene (the service's game session, D19) unless the GM's `climax` allows more; "
        "still once a round.",
    ),
    "related-unknown": (
        422,
        "No such related roll",
        '"Free Actions (related skills)": a related roll is one resolved against a difficulty '
        "(or opposed) this round or the last; older ones are forgotten.",
    ),
    "related-used": (
        422,
        "Related roll used",
        '"Free Actions (related skills)": a roll modifies one later related roll, once.',
    ),
    "cannot-oppose": (
        422,
        "Cannot oppose that roll",
        '"Opposed Difficulties": a roll opposes one pending roll of another participant, '
        "without a difficulty of the GM's, that neither opposes another nor is opposed "
        "already. The resister uses up an action (an action or attack roll), or the GM "
        "grants a free reaction roll; a damage_resistance roll resists a damage roll.",
    ),
    "modifiers-without-difficulty": (
        422,
        "Modifiers without a difficulty",
        '"Generic Modifiers" raise a difficulty: resolving a roll that is not opposed with '
        "modifiers takes a difficulty, the GM's now or set with the roll.",
    ),
    "opposed-difficulty": (
        422,
        "Opposed rolls have no difficulty",
        "\"Opposed Difficulties\": each side's total is the other's difficulty; the GM gives "
        "modifiers instead (D17).",
    ),
    "unknown-participant": (422, "Unknown participant", "No participant of that id here."),
    "unknown-controller": (
        422,
        "Unknown controller",
        "A participant's controller is `gm` or one of the scene's players.",
    ),
    "group-not-gm": (422, "Group not the GM's", "Groups (members > 1) are the GM's (D19)."),
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
