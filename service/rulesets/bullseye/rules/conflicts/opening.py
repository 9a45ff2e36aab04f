"""§4.2: who takes part in a conflict, and the scores it opens with."""

from __future__ import annotations

from service.kernel.errors import Concern, RulesError
from service.kernel.sessions import GM, Applied
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import fitness_concerns, score_concerns
from service.rulesets.bullseye.rules.conflicts.model import (
    Conflict,
    ConflictStatus,
    DiceSource,
    OppositionSpec,
    PlayerSpec,
    Scores,
)
from service.rulesets.bullseye.rules.dice import DiceKind

__all__ = ["new_conflict", "opening_scores", "player_fitness", "refuse"]


def opening_scores(players: tuple[PlayerSpec, ...]) -> Scores:
    """§4.2: players' score is the total magnitude of every PC's relevant qualities;
    the opposition's is that times the number of PCs."""
    total = sum(quality.magnitude for player in players for quality in player.qualities)
    return Scores(players=total, opposition=total * len(players))


def refuse(code: RuleCode, pointer: str, detail: str) -> Concern:
    return Concern(code=code, pointer=pointer, detail=detail)


def _depletable_concerns(
    player: PlayerSpec, index: int, depletable_at_issue: str | None
) -> list[Concern]:
    """A PC's depletable score must be possible (§3.2.6), name the quality at issue if one
    is, and leave the PC fit to take part (§3.2.4, §3.2.5)."""
    score = player.depletable
    if score is None:
        return []
    pointer = f"/players/{index}/depletable"
    concerns = score_concerns(score.maximum, score.current, f"{pointer}/current")
    if depletable_at_issue is not None and score.name.casefold() != depletable_at_issue.casefold():
        concerns.append(
            refuse(
                RuleCode.UNKNOWN_DEPLETABLE,
                f"{pointer}/name",
                f"The conflict puts '{depletable_at_issue}' at issue; {player.name}'s "
                f"score is for '{score.name}'.",
            )
        )
    return concerns or player_fitness(player, f"{pointer}/current")


def player_fitness(player: PlayerSpec, pointer: str) -> list[Concern]:
    """§3.2.4, §3.2.5: an incapacitated or retired PC takes no part."""
    score = player.depletable
    if score is None:
        return []
    return fitness_concerns(player.name, score.maximum, score.current, pointer)


def new_conflict(
    *,
    conflict_id: str,
    name: str,
    players: tuple[PlayerSpec, ...],
    opposition: OppositionSpec,
    dice: DiceKind,
    dice_source: DiceSource,
    depletable_at_issue: str | None,
) -> Applied[Conflict]:
    """A new conflict at round 1 with its §4.2 scores.

    Raises:
        RulesError: duplicate or reserved player ids, unfit PCs, or no score to play for.
    """
    concerns: list[Concern] = []
    seen: set[str] = set()
    for index, player in enumerate(players):
        if player.id.casefold() == GM or player.id.casefold() in seen:
            concerns.append(
                refuse(
                    RuleCode.INVALID_PLAYER_ID,
                    f"/players/{index}/id",
                    f"Player ids must be unique and not '{GM}'; '{player.id}' is taken.",
                )
            )
        seen.add(player.id.casefold())
        concerns.extend(_depletable_concerns(player, index, depletable_at_issue))
    scores = opening_scores(players)
    if scores.players <= 0:
        concerns.append(
            refuse(
                RuleCode.NO_CONFLICT_SCORE,
                "/players",
                f"The players' relevant qualities total {scores.players:+d}; a conflict needs a "
                "positive score to play for (§4.2).",
            )
        )
    if concerns:
        raise RulesError.from_concerns(concerns)
    conflict = Conflict(
        id=conflict_id,
        name=name,
        status=ConflictStatus.ACTIVE,
        round=1,
        scores=scores,
        players=players,
        opposition=opposition,
        dice=dice,
        dice_source=dice_source,
        depletable_at_issue=depletable_at_issue,
    )
    # No event yet: a Redis stream costs ~4.7 KB, and an open conflict that nobody has
    # acted on should cost its state only (the stream starts with the first submission).
    return Applied(conflict)
