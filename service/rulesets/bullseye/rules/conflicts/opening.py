"""§4.2: who takes part in a conflict, and the scores it opens with."""

from __future__ import annotations

from service.kernel.errors import Concern, RulesError
from service.kernel.sessions import GM, Applied
from service.rulesets.bullseye.rules.checks import DepletableScore
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
    """A PC's depletable scores (one, or two under §7.6) must be possible (§3.2.3), distinct,
    include the quality at issue if one is, and leave the PC fit to take part (§3.2.4,
    §3.2.5)."""
    scores = player.depletables
    if not scores:
        return []
    pointer = f"/players/{index}/depletable"
    one = isinstance(player.depletable, DepletableScore)

    def at(position: int) -> str:
        return pointer if one else f"{pointer}/{position}"

    concerns = [
        concern
        for position, score in enumerate(scores)
        for concern in score_concerns(score.maximum, score.current, f"{at(position)}/current")
    ]
    names = [score.name.casefold() for score in scores]
    if len(set(names)) < len(names):
        concerns.append(
            refuse(
                RuleCode.DUPLICATE_DEPLETABLE,
                f"{at(1)}/name",
                f"{player.name}'s two depletable qualities must differ (§7.6).",
            )
        )
    if depletable_at_issue is not None and depletable_at_issue.casefold() not in names:
        listed = "', '".join(score.name for score in scores)
        concerns.append(
            refuse(
                RuleCode.UNKNOWN_DEPLETABLE,
                f"{at(0)}/name",
                f"The conflict puts '{depletable_at_issue}' at issue; {player.name}'s "
                f"score is for '{listed}'.",
            )
        )
    return concerns or player_fitness(player, f"{pointer}/current" if one else pointer)


def player_fitness(player: PlayerSpec, pointer: str) -> list[Concern]:
    """§3.2.4, §3.2.5: an incapacitated or retired PC takes no part (with two depletable
    scores, either one failing is enough)."""
    concerns: list[Concern] = []
    for score in player.depletables:
        concerns += fitness_concerns(player.name, score.maximum, score.current, pointer)
    return concerns


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
