"""The end ("Getting Caught, Getting Away"; D29): nobody runs, the table went for broke,
or the 300th attention closed. Whoever still runs is at large."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.events import GameClosed, GameEnded
from service.rulesets.travelogue.rules.game.model import (
    Ending,
    EndingReason,
    Game,
    GameStatus,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.table import running, with_bullseye

__all__ = ["close", "end"]


def end(game: Game, reason: EndingReason) -> tuple[Game, tuple[Event, ...]]:
    for player_id in running(game):
        game = with_bullseye(game, player_id, status=Status.AT_LARGE)
    fates = {p.id: p.bullseye.status for p in game.players}
    game = msgspec.structs.replace(
        game,
        status=GameStatus.ENDED,
        step=Step.ENDED,
        hand=None,
        ending=Ending(reason=reason, fates=fates),
    )
    return game, (GameEnded(reason=reason, fates=fates),)


def close(game: Game, actor: str, *, version: int, at: str = "") -> GameClosed:
    """The last event of a game the table deletes: only once it has ended, so no single
    player can end the table's game; an unfinished one expires (D31).

    Raises:
        RulesError: `game-not-ended` (409) while the game is still active.
    """
    if game.status is GameStatus.ACTIVE:
        raise refuse(
            "game-not-ended",
            f"The game is at '{game.step}': it is deleted only once it has ended; an "
            "unfinished game expires (D31).",
        )
    return GameClosed(version=version, at=at, actor=actor)
