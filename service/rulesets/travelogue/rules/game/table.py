"""Reading and rewriting a game value: who sits where, where each flag is."""

from __future__ import annotations

from typing import Any

import msgspec

from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.model import (
    FLAG_COUNT,
    Bullseye,
    Flag,
    Game,
    Place,
    Player,
    Ring,
    Status,
)

__all__ = [
    "flag",
    "flags_at",
    "hot_lead",
    "middle",
    "owner",
    "player",
    "player_ids",
    "put",
    "running",
    "seat",
    "with_bullseye",
    "wrap",
]


def wrap(n: int) -> int:
    """A number past 12 names the flag it aliases: 13–18 are 1–6 (D5)."""
    return n - FLAG_COUNT if n > FLAG_COUNT else n


def player_ids(game: Game) -> tuple[str, ...]:
    return tuple(p.id for p in game.players)


def seat(game: Game, player_id: str) -> int:
    return player_ids(game).index(player_id)


def player(game: Game, player_id: str) -> Player:
    return game.players[seat(game, player_id)]


def known(game: Game, player_id: str, pointer: str) -> Player:
    """The player ``player_id``, or 422 `unknown-player`."""
    for p in game.players:
        if p.id == player_id:
            return p
    raise refuse("unknown-player", f"No player '{player_id}' at this table.", pointer)


def running(game: Game) -> tuple[str, ...]:
    """The players whose bullseyes run, in seat order."""
    return tuple(p.id for p in game.players if p.bullseye.status is Status.RUNNING)


def is_running(game: Game, player_id: str) -> bool:
    return player(game, player_id).bullseye.status is Status.RUNNING


def flag(game: Game, number: int) -> Flag:
    return game.flags[number - 1]


def flags_at(game: Game, place: Place) -> tuple[int, ...]:
    return tuple(f.number for f in game.flags if f.place is place)


def middle(game: Game) -> tuple[int, ...]:
    return flags_at(game, Place.MIDDLE)


def hot_lead(game: Game) -> int | None:
    lead = flags_at(game, Place.HOT_LEAD)
    return lead[0] if lead else None


def owner(game: Game, number: int) -> str | None:
    """Whose *running* target holds flag ``number`` (None: not on a running target)."""
    f = flag(game, number)
    if f.place is Place.RING and f.bullseye is not None and is_running(game, f.bullseye):
        return f.bullseye
    return None


def put(
    game: Game, number: int, place: Place, bullseye: str | None = None, ring: Ring | None = None
) -> Game:
    """``game`` with flag ``number`` moved to ``place`` (a ring: ``bullseye``'s ``ring``)."""
    moved = msgspec.structs.replace(flag(game, number), place=place, bullseye=bullseye, ring=ring)
    flags = tuple(moved if f.number == number else f for f in game.flags)
    return msgspec.structs.replace(game, flags=flags)


def with_bullseye(game: Game, player_id: str, **changes: Any) -> Game:
    """``game`` with ``player_id``'s bullseye changed."""
    players = tuple(
        msgspec.structs.replace(p, bullseye=msgspec.structs.replace(p.bullseye, **changes))
        if p.id == player_id
        else p
        for p in game.players
    )
    return msgspec.structs.replace(game, players=players)


def bullseye(game: Game, player_id: str) -> Bullseye:
    return player(game, player_id).bullseye
