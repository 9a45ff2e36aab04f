"""After the scene ("Ring Scenes", "Moving Flags"), in the order of D21: the rolled flag
becomes the hot lead (the old one and the box's next six rejoin the middle, D16, D17);
a caught or escaped bullseye departs; then the neighbour moves."""

from __future__ import annotations

from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.actions import CloseScene
from service.rulesets.travelogue.rules.game.departure import begin_departure
from service.rulesets.travelogue.rules.game.events import GameSceneClosed, HotLeadSet
from service.rulesets.travelogue.rules.game.model import Game, Place, Status
from service.rulesets.travelogue.rules.game.neighbours import begin_moves
from service.rulesets.travelogue.rules.game.table import bullseye, flag, hot_lead, put, wrap

__all__ = ["close_scene", "refill"]


def refill(game: Game, t: int) -> tuple[Game, tuple[int, ...]]:
    """Flag ``t`` becomes the hot lead; the old hot lead, and every box flag numbered
    t+1…t+6 counting past 12 by alias, go to the middle; flags on targets stay."""
    to_middle: list[int] = []
    old = hot_lead(game)
    if old is not None:
        game = put(game, old, Place.MIDDLE)
        to_middle.append(old)
    game = put(game, t, Place.HOT_LEAD)
    for n in range(t + 1, t + 7):
        number = wrap(n)
        if flag(game, number).place is Place.BOX:
            game = put(game, number, Place.MIDDLE)
            to_middle.append(number)
    return game, tuple(to_middle)


def close_scene(game: Game, actor: str, action: CloseScene) -> tuple[Game, tuple[Event, ...]]:
    attention = game.attention
    assert attention is not None
    game, to_middle = refill(game, attention.flag)
    events: list[Event] = [
        GameSceneClosed(number=attention.number, note=action.note),
        HotLeadSet(flag=attention.flag, to_middle=to_middle),
    ]
    if bullseye(game, actor).status is not Status.RUNNING:
        game, more = begin_departure(game)
    else:
        game, more = begin_moves(game)
    return game, (*events, *more)
