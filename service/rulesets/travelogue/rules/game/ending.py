"""The end ("Getting Caught, Getting Away"; D29): nobody runs, the table went for broke,
or the 300th attention closed. Whoever still runs is at large."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.events import GameEnded
from service.rulesets.travelogue.rules.game.model import (
    Ending,
    EndingReason,
    Game,
    GameStatus,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.table import running, with_bullseye

__all__ = ["end"]


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
