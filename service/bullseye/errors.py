"""Domain errors: one small hierarchy with stable codes, mapped to HTTP once, in ``api/``."""

from __future__ import annotations

from enum import StrEnum

from service.bullseye.values import Value

__all__ = ["STATE_CONFLICTS", "Concern", "RuleCode", "RulesError"]


class RuleCode(StrEnum):
    """Stable codes of rule violations; each is also a problem type ``/problems/{code}``."""

    QUICK10_WITH_DEPLETION = "quick10-with-depletion"
    QUICK10_WITH_ROLL = "quick10-with-roll"
    QUICK10_WITH_BULLSEYE = "quick10-with-bullseye"
    ROLL_WITH_SEED = "roll-with-seed"
    ILLEGAL_FACES = "illegal-faces"
    CHARACTER_INCAPACITATED = "character-incapacitated"
    CHARACTER_RETIRED = "character-retired"
    CURRENT_ABOVE_MAXIMUM = "current-above-maximum"
    DUPLICATE_DEPLETABLE = "duplicate-depletable"
    UNKNOWN_DEPLETABLE = "unknown-depletable"
    AFFECTS_REQUIRED = "affects-required"
    SITUATIONAL_OUT_OF_RANGE = "situational-out-of-range"
    TOO_MANY_QUALITIES_OF_TYPE = "too-many-qualities-of-type"
    SEED_IGNORED = "seed-ignored"
    INVALID_PLAYER_ID = "invalid-player-id"
    NO_CONFLICT_SCORE = "no-conflict-score"
    FACES_NOT_ALLOWED = "faces-not-allowed"
    SEED_NOT_ALLOWED = "seed-not-allowed"
    NO_BULLSEYE_LEFT = "no-bullseye-left"
    UNKNOWN_PLAYER = "unknown-player"
    PLAYER_CHECK_MISSING = "player-check-missing"
    NOT_ON_WINNING_SIDE = "not-on-winning-side"
    # The conflict's state forbids the action now (HTTP 409).
    CONFLICT_NOT_ACTIVE = "conflict-not-active"
    ROUND_IN_PROGRESS = "round-in-progress"
    WRONG_ROUND = "wrong-round"
    ALREADY_SUBMITTED = "already-submitted"
    CONFLICT_NOT_DECIDED = "conflict-not-decided"
    OUTCOME_ALREADY_MADE = "outcome-already-made"
    ROUND_LIMIT_REACHED = "round-limit-reached"


STATE_CONFLICTS = frozenset(
    {
        RuleCode.CONFLICT_NOT_ACTIVE,
        RuleCode.ROUND_IN_PROGRESS,
        RuleCode.WRONG_ROUND,
        RuleCode.ALREADY_SUBMITTED,
        RuleCode.CONFLICT_NOT_DECIDED,
        RuleCode.OUTCOME_ALREADY_MADE,
        RuleCode.ROUND_LIMIT_REACHED,
    }
)


class Concern(Value, frozen=True, kw_only=True, omit_defaults=True):
    """One thing wrong with an input: what (`code`), where and why.

    Where is a JSON `pointer` into the body, or the query `parameter` at fault.
    """

    code: RuleCode
    detail: str
    pointer: str | None = None
    parameter: str | None = None

    def under(self, prefix: str) -> Concern:
        """The same concern, its pointer moved under ``prefix`` (e.g. a batch item)."""
        if self.pointer is None:
            return self
        return Concern(code=self.code, pointer=prefix + self.pointer, detail=self.detail)


class RulesError(Exception):
    """A well-formed request the rules refuse; carries every concern found, at once."""

    def __init__(self, code: RuleCode, detail: str, concerns: tuple[Concern, ...] = ()) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.concerns = concerns

    def under(self, prefix: str) -> RulesError:
        """The same error with every pointer moved under ``prefix``."""
        return RulesError(self.code, self.detail, tuple(c.under(prefix) for c in self.concerns))

    @classmethod
    def from_concerns(cls, concerns: list[Concern]) -> RulesError:
        """One error for several concerns; its code is the first concern's."""
        first = concerns[0]
        detail = first.detail if len(concerns) == 1 else f"{len(concerns)} rule violations."
        return cls(first.code, detail, tuple(concerns))
