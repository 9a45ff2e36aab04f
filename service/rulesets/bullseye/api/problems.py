"""What each of Bullseye's rule codes means, for ``GET /problems/{code}``."""

from __future__ import annotations

from service.http.contract.problem_types import ProblemType, problem_type
from service.http.odds.gate import FacesProblem
from service.rulesets.bullseye.rules.codes import STATE_CONFLICTS, RuleCode
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS

__all__ = ["BULLSEYE_PROBLEMS", "ResolveCheckProblem"]


class ResolveCheckProblem(FacesProblem, frozen=True, kw_only=True):
    """A problem of a check: `faces-missing` and `faces-extra` say by how many faces the
    table's roll is off (§7.1), as in every game."""


_TEXTS: dict[RuleCode, tuple[str, str]] = {
    RuleCode.QUICK10_WITH_DEPLETION: (
        "Quick 10 with the depletable quality at issue",
        "§2.5: a Quick 10 may not be taken on a check where a depletable quality is at "
        "issue. Roll instead, or drop the depletion block.",
    ),
    RuleCode.QUICK10_WITH_ROLL: (
        "Quick 10 with supplied faces",
        "§2.5: a Quick 10 takes 10 instead of rolling, so no faces can be supplied with it.",
    ),
    RuleCode.QUICK10_WITH_BULLSEYE: (
        "Quick 10 with a bullseye",
        "§7.2: a bullseye replaces the result of a roll; a Quick 10 rolls nothing.",
    ),
    RuleCode.FACES_AND_SEED: (
        "Supplied faces with a seed",
        "A seed asks the server to roll reproducibly; supplied faces say the dice were "
        "rolled at the table. Send one or the other. Until issue 38 this was "
        "`roll-with-seed`; every game now says `faces-and-seed`.",
    ),
    RuleCode.FACES_MISSING: (
        "Faces missing",
        "§7.1: supplied faces are one a die: one for d20, two for 2d10, three for 3d6, four "
        "for 4d6-4; fewer were given. On a check (`resolveCheck`) the extension member "
        "`missing` says how many more. Until issue 38 this was "
        "`illegal-faces`; every game now says `faces-missing`.",
    ),
    RuleCode.FACES_EXTRA: (
        "Too many faces",
        "§7.1: supplied faces are one a die: one for d20, two for 2d10, three for 3d6, four "
        "for 4d6-4; more were given. On a check (`resolveCheck`) the extension member "
        "`extra` says how many too many. Until issue 38 this was "
        "`illegal-faces`; every game now says `faces-extra`.",
    ),
    RuleCode.FACE_OUT_OF_RANGE: (
        "Face not possible for the dice",
        "§7.1: each supplied face is one the dice kind's die shows: 1–20 for d20, 1–10 for "
        "2d10, 1–6 for 3d6 and 4d6-4. Until issue 38 this was `illegal-faces`; every game "
        "now says `face-out-of-range`.",
    ),
    RuleCode.CHARACTER_INCAPACITATED: (
        "Character incapacitated",
        "§3.2.4: at or below one quarter of the maximum (rounded down) a character can "
        "take no actions until restored above that mark.",
    ),
    RuleCode.CHARACTER_RETIRED: (
        "Character retired",
        "§3.2.5: at zero or below the character is out of the game.",
    ),
    RuleCode.CURRENT_ABOVE_MAXIMUM: (
        "Score above its maximum",
        "§3.2.6: a depletable score is never above its maximum.",
    ),
    RuleCode.DUPLICATE_DEPLETABLE: (
        "Depletable quality listed twice",
        "Each depletable quality may appear once (names compare case-insensitively).",
    ),
    RuleCode.UNKNOWN_DEPLETABLE: (
        "Unknown depletable quality",
        "depletion.affects or restoration.depletable names a depletable quality that is "
        "not in depletable.",
    ),
    RuleCode.AFFECTS_REQUIRED: (
        "Say which depletable quality is affected",
        "§7.6: with two depletable qualities, a check at issue names the one or both it "
        "affects, before the roll.",
    ),
    RuleCode.RESTORATION_TARGET: (
        "Say whose score is restored",
        "§3.2.6: a restoration gives exactly one of restoration.depletable (the name of one "
        "of the actor's own depletable scores: the patient's own check) or "
        "restoration.patient (someone else's score: a healer's check).",
    ),
    RuleCode.RESTORATION_WITH_DEPLETION: (
        "Restoration with the depletable quality at issue",
        "§3.2.6 with §3.2.1: a check restores a depletable score or has one at issue, not "
        "both (decision). Send the restoration and the depletion as two checks.",
    ),
    RuleCode.PATIENT_RETIRED: (
        "Patient retired",
        "§3.2.5: at zero or below the character is out of the game, so no check restores "
        "it (decision on §3.2.6). An incapacitated patient can be restored by someone else.",
    ),
    RuleCode.SITUATIONAL_OUT_OF_RANGE: (
        "Situational modifiers out of range",
        "§6.3: situational modifiers total -5…+5 for one check. Lenient by default (a "
        "warning); refused when strict is true.",
    ),
    RuleCode.TOO_MANY_QUALITIES_OF_TYPE: (
        "Too many qualities of one type",
        "§6.3: one core, intrinsic, experiential or material quality per type applies in "
        "full and a second at half, rounded toward zero; a third or later is not applied (a "
        "warning), or refused when strict is true. Negative qualities are not capped.",
    ),
    RuleCode.INVALID_PLAYER_ID: (
        "Player id taken",
        "Player ids are unique within a conflict (ignoring case) and 'gm' is the GM's.",
    ),
    RuleCode.NO_CONFLICT_SCORE: (
        "No conflict score",
        "§4.2: the players' score is the total magnitude of their relevant qualities; it "
        "must be positive for a conflict to be played.",
    ),
    RuleCode.FACES_NOT_ALLOWED: (
        "Faces not allowed",
        "The conflict was created with dice_source: server; the server rolls every check.",
    ),
    RuleCode.SEED_NOT_ALLOWED: (
        "Seed not allowed",
        "The conflict was created with dice_source: server; participants cannot pick seeds.",
    ),
    RuleCode.NO_BULLSEYE_LEFT: (
        "No bullseye left",
        "§7.2: a player spends bullseyes they hold; the GM has none.",
    ),
    RuleCode.UNKNOWN_PLAYER: ("Unknown player", "No player with that id takes part."),
    RuleCode.PLAYER_CHECK_MISSING: (
        "A player's check is missing",
        "§4.3: the GM and every player involved check in every round.",
    ),
    RuleCode.NOT_ON_WINNING_SIDE: (
        "Not on the winning side",
        "§4.4: only the winning side makes the final check.",
    ),
    RuleCode.UNDECLARED_QUALITY: (
        "Quality not declared",
        "A check in a conflict may use only the qualities declared for its checker when the "
        "conflict was created (the PC's, or the opposition's for the GM), by name or as the "
        "declared object unchanged. The error's pointer names the quality refused.",
    ),
    RuleCode.NOT_DECIDING: (
        "No bullseye decision pending",
        "§7.2: only a participant who has submitted this round's check while holding an "
        "unspent bullseye may spend one on it or pass, once.",
    ),
    RuleCode.CHECKS_OUTSTANDING: (
        "Checks outstanding",
        "The GM closes a round's bullseye decisions only once every check is in; submit the "
        "missing ones first (the GM may submit for an absent player).",
    ),
    RuleCode.CONFLICT_NOT_ACTIVE: (
        "Conflict not active",
        "The conflict is decided or closed and takes no more rounds.",
    ),
    RuleCode.ROUND_IN_PROGRESS: (
        "Round in progress",
        "Participants have started submitting this round one by one; finish it that way.",
    ),
    RuleCode.WRONG_ROUND: (
        "Wrong round",
        "Checks are submitted to the conflict's current round only; GET the conflict for it.",
    ),
    RuleCode.ALREADY_SUBMITTED: (
        "Already submitted",
        "Each participant checks once per round.",
    ),
    RuleCode.CONFLICT_NOT_DECIDED: (
        "Conflict not decided",
        "§4.4: the outcome check comes after one side's score falls to 0 or below.",
    ),
    RuleCode.OUTCOME_ALREADY_MADE: ("Outcome already made", "§4.4: one final check only."),
    RuleCode.ROUND_LIMIT_REACHED: (
        "Round limit reached",
        f"A conflict takes at most {MAX_ROUNDS} rounds: its history keeps every round. The book "
        "sets no limit; settle a longer conflict at the table.",
    ),
    RuleCode.SEED_IGNORED: (
        "Seed not used",
        "A warning, not an error: a Quick 10 rolls nothing, so its seed had no effect.",
    ),
}


BULLSEYE_PROBLEMS: tuple[ProblemType, ...] = tuple(
    problem_type(code.value, 409 if code in STATE_CONFLICTS else 422, title, text)
    for code, (title, text) in _TEXTS.items()
)
