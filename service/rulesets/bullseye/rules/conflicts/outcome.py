"""§4.4: the winning side's final check, its remaining conflict score as a bonus."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.sessions import GM, Applied, require_gm
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    CheckResult,
    DepletableAfter,
    DepletableScore,
    DepletionAtIssue,
    Loser,
    modifier_lines,
    resolve_check,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import condition
from service.rulesets.bullseye.rules.conflicts.events import OutcomeMade
from service.rulesets.bullseye.rules.conflicts.model import (
    Conflict,
    ConflictStatus,
    OutcomeCheck,
    OutcomeLoss,
    OutcomeRequest,
    ParticipantCheck,
    PlayerSpec,
    Side,
)
from service.rulesets.bullseye.rules.conflicts.opening import refuse
from service.rulesets.bullseye.rules.conflicts.rounds import bullseyes_after, examine
from service.rulesets.bullseye.rules.depletion import DepletionSide, depletion_amount
from service.rulesets.bullseye.rules.modifiers import ModifierLine, ModifierSource, Quality
from service.rulesets.bullseye.rules.summary import outcome_summary

__all__ = ["make_outcome"]


def _bonus(score: int) -> tuple[ModifierLine, ...]:
    """§4.4: the remaining conflict score; at or below 0 it gives nothing (decision)."""
    return (
        ModifierLine(
            source=ModifierSource.CONFLICT_SCORE,
            name="remaining conflict score",
            type=None,
            magnitude=score,
            applied=max(0, score),
            note="§4.4: the winning side's remaining conflict score"
            if score > 0
            else "a remaining score at or below 0 gives no bonus (decision on §4.4)",
        ),
    )


def _refusals(
    conflict: Conflict, action: OutcomeRequest, winners: Side
) -> tuple[list[Concern], dict[str, tuple[Quality, ...]]]:
    """Every candidate's check must be one the conflict allows (all reported at once);
    with the declared qualities each allowed check names, found once."""
    players = {p.id: p for p in conflict.players}
    allowed = {GM} if winners is Side.OPPOSITION else players.keys()
    concerns: list[Concern] = []
    named: dict[str, tuple[Quality, ...]] = {}
    for member, check in action.checks.items():
        pointer = f"/checks/{member}"
        if member not in allowed:
            who = "the GM ('gm')" if winners is Side.OPPOSITION else "the players"
            concerns.append(
                refuse(
                    RuleCode.NOT_ON_WINNING_SIDE,
                    pointer,
                    f"The {winners.value} won; the final check is made by {who} (§4.4).",
                )
            )
            continue
        player = None if member == GM else players[member]
        named[member], found = examine(conflict, member, player, check, pointer)
        concerns.extend(found)
        if check.quick10 and conflict.depletable_at_issue is not None:
            concerns.append(
                refuse(
                    RuleCode.QUICK10_WITH_DEPLETION,
                    f"{pointer}/quick10",
                    "A Quick 10 may not be used when a depletable quality is at issue (§2.5).",
                )
            )
    return concerns, named


def _at_issue(conflict: Conflict, player: PlayerSpec) -> DepletableScore | None:
    named = conflict.depletable_at_issue
    if named is None:
        return None
    return next((s for s in player.depletables if s.name.casefold() == named.casefold()), None)


def _request(
    conflict: Conflict,
    player: PlayerSpec | None,
    check: ParticipantCheck,
    qualities: tuple[Quality, ...],
    target: int,
) -> CheckRequest:
    """The maker's check as a normal check (§4.4); a PC's carries depletion at issue."""
    opposition = conflict.opposition
    depletion = None
    if player is not None and conflict.depletable_at_issue is not None:
        depletion = DepletionAtIssue(
            actor=DepletionSide(threat=player.threat, depletion_modifier=player.depletion_modifier),
            opposition=DepletionSide(
                threat=opposition.threat, depletion_modifier=opposition.depletion_modifier
            ),
            affects=(conflict.depletable_at_issue,) if len(player.depletables) > 1 else (),
        )
    return CheckRequest(
        target=target,
        qualities=qualities,
        situational=check.situational,
        depletable=player.depletables if player is not None else (),
        depletion=depletion,
        dice=conflict.dice,
        quick10=check.quick10,
        roll=check.roll,
        seed=check.seed,
        bullseye=check.bullseye,
        strict=check.strict,
    )


def _losses(conflict: Conflict, maker: str, result: CheckResult) -> tuple[OutcomeLoss, ...]:
    """§4.4 with the depletable quality at issue: who loses what.

    A PC's check settles as any check against the opposition. The GM's is a check against
    every PC involved: on success each PC loses with its own protection; on failure the
    opposition loses once, to the PC whose threat is greatest (decision).
    """
    if conflict.depletable_at_issue is None or result.spread == 0:
        return ()
    if maker != GM:
        assert result.depletion is not None
        if result.depletion.loser is Loser.ACTOR:
            return (OutcomeLoss(side=Side.PLAYERS, player=maker, amount=result.depletion.amount),)
        return (OutcomeLoss(side=Side.OPPOSITION, player=None, amount=result.depletion.amount),)
    opposition = conflict.opposition
    if result.spread > 0:
        return tuple(
            OutcomeLoss(
                side=Side.PLAYERS,
                player=player.id,
                amount=depletion_amount(
                    result.spread, opposition.threat, player.depletion_modifier
                ),
            )
            for player in conflict.players
        )
    threat = max(player.threat for player in conflict.players)
    amount = depletion_amount(result.spread, threat, opposition.depletion_modifier)
    return (OutcomeLoss(side=Side.OPPOSITION, player=None, amount=amount),)


def _players_after(
    conflict: Conflict, losses: tuple[OutcomeLoss, ...]
) -> tuple[tuple[PlayerSpec, ...], dict[str, DepletableAfter]]:
    """Every PC with the score at issue, after the losses: stored, and reported."""
    lost = {loss.player: loss.amount for loss in losses if loss.side is Side.PLAYERS}
    players: list[PlayerSpec] = []
    after: dict[str, DepletableAfter] = {}
    for player in conflict.players:
        score = _at_issue(conflict, player)
        if score is None:
            players.append(player)
            continue
        current = score.current - lost.get(player.id, 0)
        now = condition(score.maximum, current)
        after[player.id] = DepletableAfter(
            name=score.name,
            current=current,
            maximum=score.maximum,
            impairment=now.impairment,
            state=now.state,
        )
        kept = msgspec.structs.replace(score, current=current)
        scores = tuple(kept if s is score else s for s in player.depletables)
        depletable = kept if isinstance(player.depletable, DepletableScore) else scores
        players.append(msgspec.structs.replace(player, depletable=depletable))
    return tuple(players), after


def make_outcome(
    conflict: Conflict, action: OutcomeRequest, actor: str, rng: RandomSource, check_id: str
) -> Applied[Conflict]:
    """§4.4: the winners' final check, their remaining score as a bonus, and its cost."""
    require_gm(actor, "make the outcome check")
    if conflict.status is not ConflictStatus.DECIDED or conflict.winner is None:
        raise RulesError(
            RuleCode.CONFLICT_NOT_DECIDED,
            "The outcome check comes after the conflict is decided (§4.4).",
        )
    if conflict.outcome is not None:
        raise RulesError(RuleCode.OUTCOME_ALREADY_MADE, "The outcome check has been made.")
    won = conflict.winner
    concerns, named = _refusals(conflict, action, won)
    if concerns:
        raise RulesError.from_concerns(concerns)
    score = conflict.scores.players if won is Side.PLAYERS else conflict.scores.opposition
    by_id = {p.id: p for p in conflict.players}

    # The player with the highest total modifier makes it (§4.4); ties: the first listed.
    def total(member: str) -> int:
        check = action.checks[member]
        player = by_id.get(member)
        lines, _ = modifier_lines(
            named[member],
            check.situational,
            player.depletables if player is not None else (),
            strict=False,
        )
        return sum(line.applied for line in lines)

    maker = max(action.checks, key=total)
    check = action.checks[maker]
    request = _request(conflict, by_id.get(maker), check, named[maker], action.target)
    result = resolve_check(request, rng, check_id, bonus=_bonus(score))
    losses = _losses(conflict, maker, result)
    players, after = _players_after(conflict, losses)
    outcome = OutcomeCheck(
        **{field: getattr(result, field) for field in CheckResult.__struct_fields__},
        by=maker,
        losses=losses,
        players_after=after,
    )
    outcome = msgspec.structs.replace(outcome, summary=outcome_summary(outcome))
    conflict = msgspec.structs.replace(
        conflict,
        players=players,
        outcome=outcome,
        bullseyes_used=bullseyes_after(conflict, {maker: check}),
    )
    return Applied(conflict, (OutcomeMade(by=maker, outcome=result.outcome),))
