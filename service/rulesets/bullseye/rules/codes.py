"""Bullseye's rule codes: each is also its problem type ``/problems/{code}``."""

from __future__ import annotations

from enum import StrEnum

from service.kernel import dice

__all__ = ["STATE_CONFLICTS", "RuleCode"]


class RuleCode(StrEnum):
    """Stable codes of rule violations; each is also a problem type ``/problems/{code}``."""

    QUICK10_WITH_DEPLETION = "quick10-with-depletion"
    QUICK10_WITH_ROLL = "quick10-with-roll"
    QUICK10_WITH_BULLSEYE = "quick10-with-bullseye"
    # The table's faces, refused as in every game (the kernel's FaceRefusals, issue 38).
    FACES_AND_SEED = dice.FACES_AND_SEED
    FACES_MISSING = dice.FACES_MISSING
    FACES_EXTRA = dice.FACES_EXTRA
    FACE_OUT_OF_RANGE = dice.FACE_OUT_OF_RANGE
    CHARACTER_INCAPACITATED = "character-incapacitated"
    CHARACTER_RETIRED = "character-retired"
    CURRENT_ABOVE_MAXIMUM = "current-above-maximum"
    DUPLICATE_DEPLETABLE = "duplicate-depletable"
    UNKNOWN_DEPLETABLE = "unknown-depletable"
    AFFECTS_REQUIRED = "affects-required"
    RESTORATION_TARGET = "restoration-target"
    RESTORATION_WITH_DEPLETION = "restoration-with-depletion"
    PATIENT_RETIRED = "patient-retired"
    SITUATIONAL_OUT_OF_RANGE = "situational-out-of-range"
    TOO_MANY_QUALITIES_OF_TYPE = "too-many-qualities-of-type"
    SEED_IGNORED = "seed-ignored"
    INVALID_PLAYER_ID = "invalid-player-id"
    NO_CONFLICT_SCORE = "no-conflict-score"
    FACES_NOT_ALLOWED = dice.FACES_NOT_ALLOWED
    SEED_NOT_ALLOWED = "seed-not-allowed"
    NO_BULLSEYE_LEFT = "no-bullseye-left"
    UNKNOWN_PLAYER = "unknown-player"
    PLAYER_CHECK_MISSING = "player-check-missing"
    NOT_ON_WINNING_SIDE = "not-on-winning-side"
    UNDECLARED_QUALITY = "undeclared-quality"
    # The conflict's state forbids the action now (HTTP 409).
    CONFLICT_NOT_ACTIVE = "conflict-not-active"
    ROUND_IN_PROGRESS = "round-in-progress"
    WRONG_ROUND = "wrong-round"
    ALREADY_SUBMITTED = "already-submitted"
    CONFLICT_NOT_DECIDED = "conflict-not-decided"
    OUTCOME_ALREADY_MADE = "outcome-already-made"
    ROUND_LIMIT_REACHED = "round-limit-reached"
    NOT_DECIDING = "not-deciding"
    CHECKS_OUTSTANDING = "checks-outstanding"


STATE_CONFLICTS = frozenset(
    {
        RuleCode.CONFLICT_NOT_ACTIVE,
        RuleCode.ROUND_IN_PROGRESS,
        RuleCode.WRONG_ROUND,
        RuleCode.ALREADY_SUBMITTED,
        RuleCode.CONFLICT_NOT_DECIDED,
        RuleCode.OUTCOME_ALREADY_MADE,
        RuleCode.ROUND_LIMIT_REACHED,
        RuleCode.NOT_DECIDING,
        RuleCode.CHECKS_OUTSTANDING,
    }
)
