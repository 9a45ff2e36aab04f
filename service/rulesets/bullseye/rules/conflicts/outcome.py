"""§4.4: the winning side's final check, its remaining conflict score as a bonus."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import RulesError
from service.kernel.sessions import GM, Applied
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    DepletionAtIssue,
    modifier_lines,
    resolve_check,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conflicts.events import OutcomeMade
from service.rulesets.bullseye.rules.conflicts.model import (
    Conflict,
    ConflictStatus,
    OutcomeRequest,
    ParticipantCheck,
    Side,
)
from service.rulesets.bullseye.rules.conflicts.opening import refuse
from service.rulesets.bullseye.rules.conflicts.rounds import (
    bullseyes_after,
    check_concerns,
    depletable_of,
    player_of,
)
from service.rulesets.bullseye.rules.depletion import DepletionSide
from service.rulesets.bullseye.rules.modifiers import ModifierLine, ModifierSource

__all__ = ["make_outcome"]


def make_outcome(
    conflict: Conflict, action: OutcomeRequest, rng: RandomSource, check_id: str
) -> Applied[Conflict]:
    """§4.4: the winners' final check, their remaining score as a bonus."""
    if conflict.status is not ConflictStatus.DECIDED or conflict.winner is None:
        raise RulesError(
            RuleCode.CONFLICT_NOT_DECIDED,
            "The outcome check comes after the conflict is decided (§4.4).",
        )
    if conflict.outcome is not None:
        raise RulesError(RuleCode.OUTCOME_ALREADY_MADE, "The outcome check has been made.")
    winners = conflict.winner
    allowed = {GM} if winners is Side.OPPOSITION else {p.id for p in conflict.players}
    if strangers := [member for member in action.checks if member not in allowed]:
        who = "the GM ('gm')" if winners is Side.OPPOSITION else "the players"
        raise RulesError.from_concerns(
            [
                refuse(
                    RuleCode.NOT_ON_WINNING_SIDE,
                    f"/checks/{member}",
                    f"The {winners.value} won; the final check is made by {who} (§4.4).",
                )
                for member in strangers
            ]
        )
    score = conflict.scores.players if winners is Side.PLAYERS else conflict.scores.opposition
    bonus = (
        ModifierLine(
            source=ModifierSource.CONFLICT_SCORE,
            name="remaining conflict score",
            type=None,
            magnitude=score,
            applied=score,
            note="§4.4: the winning side's remaining conflict score",
        ),
    )

    def request_for(member: str, check: ParticipantCheck) -> CheckRequest:
        player = player_of(conflict, member)
        mine = (
            (player.threat, player.depletion_modifier)
            if player
            else (conflict.opposition.threat, conflict.opposition.depletion_modifier)
        )
        theirs = (
            (conflict.opposition.threat, conflict.opposition.depletion_modifier)
            if player
            else (0, 0)
        )
        at_issue = None
        if conflict.depletable_at_issue is not None:
            at_issue = DepletionAtIssue(
                actor=DepletionSide(threat=mine[0], depletion_modifier=mine[1]),
                opposition=DepletionSide(threat=theirs[0], depletion_modifier=theirs[1]),
            )
        return CheckRequest(
            target=action.target,
            qualities=check.qualities,
            situational=check.situational,
            depletable=depletable_of(conflict, member),
            depletion=at_issue,
            dice=conflict.dice,
            roll=check.roll,
            seed=check.seed,
            bullseye=check.bullseye,
            strict=check.strict,
        )

    # The player with the highest total modifier makes it (§4.4); ties: the first listed.
    def total(member: str) -> int:
        check = action.checks[member]
        lines, _ = modifier_lines(
            check.qualities, check.situational, depletable_of(conflict, member), strict=False
        )
        return sum(line.applied for line in lines)

    maker = max(action.checks, key=total)
    check = action.checks[maker]
    if concerns := check_concerns(conflict, maker, check, f"/checks/{maker}"):
        raise RulesError.from_concerns(concerns)
    result = resolve_check(request_for(maker, check), rng, check_id, bonus=bonus)
    conflict = msgspec.structs.replace(
        conflict,
        outcome=result,
        bullseyes_used=bullseyes_after(conflict, {maker: check}),
    )
    return Applied(conflict, (OutcomeMade(by=maker, outcome=result.outcome),))
