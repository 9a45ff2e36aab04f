"""Building game states for rule-core tests: flags where a test wants them, an attention
at the step it starts from."""

from __future__ import annotations

import msgspec

from service.rulesets.travelogue.rules.game.model import (
    Attention,
    Focus,
    Game,
    Place,
    Ring,
    Step,
)
from service.rulesets.travelogue.rules.game.table import bullseye, flag, put, with_bullseye

__all__ = ["arranged", "attention_on"]


def arranged(
    game: Game,
    rings: dict[int, tuple[str, Ring]],
    *,
    hot_lead: int | None = None,
    middle: tuple[int, ...] = (),
    flipped: tuple[tuple[str, Ring], ...] = (),
) -> Game:
    """Flags on the given rings, the hot lead and middle as given, every other in the box."""
    for number in range(1, 13):
        if number in rings:
            game = put(game, number, Place.RING, *rings[number])
        elif number == hot_lead:
            game = put(game, number, Place.HOT_LEAD)
        elif number in middle:
            game = put(game, number, Place.MIDDLE)
        else:
            game = put(game, number, Place.BOX)
    for player_id, ring in flipped:
        states = dict(bullseye(game, player_id).rings)
        states[ring] = msgspec.structs.replace(states[ring], flipped=True)
        game = with_bullseye(game, player_id, rings=states)
    return game


def attention_on(game: Game, number: int, die: int, h: int, step: Step) -> Game:
    """An attention whose roll found flag ``number`` (die ``die``, hot lead ``h``)."""
    f = flag(game, number)
    assert f.bullseye is not None
    assert f.ring is not None
    focus = Focus.CENTRE if bullseye(game, f.bullseye).rings[f.ring].flipped else Focus.RING
    attention = Attention(
        number=game.attention_count + 1,
        die=die,
        hot_lead_used=h,
        total=number,
        flag=number,
        kind=f.kind,
        active=f.bullseye,
        ring=f.ring,
        focus=focus,
        shooter_bonus=f.kind,
    )
    return msgspec.structs.replace(
        game, attention=attention, attention_count=attention.number, step=step
    )
