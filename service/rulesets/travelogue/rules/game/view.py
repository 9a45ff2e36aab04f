"""The game as everyone at the table sees it (the design's "Game state"): the stored
state with what follows from it — the middle, the hot lead, each ring's flags and next
cost, each flag's alias, `waiting_for` — and without the seed (only `seeded`)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta

from service.kernel.bounds import Timestamp
from service.kernel.errors import Concern
from service.kernel.fairness import FairnessView
from service.kernel.receipts import ReceiptsAsked
from service.kernel.values import Value
from service.rulesets.travelogue.rules.game.model import (
    FLAG_COUNT,
    Attention,
    Bullseye,
    Departure,
    Ending,
    Figure,
    Game,
    GameStatus,
    Hand,
    Kind,
    Neighbours,
    Place,
    Ring,
    Status,
    Step,
    WhoseDice,
)
from service.rulesets.travelogue.rules.game.table import hot_lead, middle
from service.rulesets.travelogue.rules.game.waiting import WaitingFor, waiting_for
from service.rulesets.travelogue.rules.stats import Stats

__all__ = ["GameState", "GameView", "game_state", "game_view"]


class RingView(Value, frozen=True, kw_only=True):
    label: str
    flags: tuple[int, ...]
    circle: int
    flipped: bool
    next_cost: int | None  # a flipped ring's attention falls on the centre (D1)


class CentreView(Value, frozen=True, kw_only=True):
    circle: int
    next_cost: int


class TargetView(Value, frozen=True, kw_only=True):
    rings: dict[Ring, RingView]
    centre: CentreView


class BullseyeView(Value, frozen=True, kw_only=True):
    name: str
    shooter: Figure
    angel: Figure
    beef: str
    stats: Stats
    status: Status
    target: TargetView


class SeatView(Value, frozen=True, kw_only=True):
    id: str
    bullseye: BullseyeView


class FlagView(Value, frozen=True, kw_only=True):
    number: int
    alias: int | None  # 13–18 for flags 1–6 (D5)
    kind: Kind
    place: Place
    bullseye: str | None
    ring: Ring | None


class GameState(Value, frozen=True, kw_only=True):
    """The game at a version, as an action's answer shows it."""

    id: str
    name: str
    status: GameStatus
    version: int
    dice_source: WhoseDice
    seeded: bool
    step: Step
    batch: int
    attention_count: int
    actions: int
    middle: tuple[int, ...]
    hot_lead: int | None
    retired_points: int
    warnings: tuple[Concern, ...]
    players: tuple[SeatView, ...]
    flags: tuple[FlagView, ...]
    hand: Hand | None
    attention: Attention | None
    neighbours: Neighbours | None
    departure: Departure | None
    ending: Ending | None
    waiting_for: WaitingFor
    fairness: Annotated[
        FairnessView | None,
        Meta(
            description="An unseeded game with the server's dice: the committed seed's "
            "`commitment`, the client seeds the players added since "
            "(`travelogueGameClientSeed`) and `rolls`; `server_seed` once the game has "
            "ended (and in `game.ended`, `game.closed`). Null with the table's dice and "
            "for a seeded game, whose dice are public by design (D28)."
        ),
    ]
    receipts: ReceiptsAsked


class GameView(GameState, frozen=True, kw_only=True):
    """The game as a read shows it: its state, and when it expires unless changed."""

    expires_at: Timestamp


def _target(b: Bullseye, on_rings: dict[tuple[str, Ring], list[int]], player_id: str) -> TargetView:
    rings = {
        ring: RingView(
            label=ring.label,
            flags=tuple(on_rings.get((player_id, ring), ())),
            circle=state.circle,
            flipped=state.flipped,
            next_cost=None if state.flipped else state.circle + 1,
        )
        for ring, state in b.rings.items()
    }
    return TargetView(rings=rings, centre=CentreView(circle=b.centre, next_cost=b.centre + 1))


def game_view(game: Game, *, version: int, expires_at: datetime) -> GameView:
    """What `GET …/games/{id}` answers, the same for every player."""
    state = game_state(game, version=version)
    return GameView(
        **{field: getattr(state, field) for field in GameState.__struct_fields__},
        expires_at=expires_at,
    )


def game_state(game: Game, *, version: int) -> GameState:
    """The game at ``version`` with all that follows from it, the same for every player."""
    on_rings: dict[tuple[str, Ring], list[int]] = {}
    for f in game.flags:  # in number order, so each ring's list is too
        if f.place is Place.RING and f.bullseye is not None and f.ring is not None:
            on_rings.setdefault((f.bullseye, f.ring), []).append(f.number)
    players = tuple(
        SeatView(
            id=p.id,
            bullseye=BullseyeView(
                name=p.bullseye.name,
                shooter=p.bullseye.shooter,
                angel=p.bullseye.angel,
                beef=p.bullseye.beef,
                stats=p.bullseye.stats,
                status=p.bullseye.status,
                target=_target(p.bullseye, on_rings, p.id),
            ),
        )
        for p in game.players
    )
    flags = tuple(
        FlagView(
            number=f.number,
            alias=f.number + FLAG_COUNT if f.number <= 6 else None,
            kind=f.kind,
            place=f.place,
            bullseye=f.bullseye,
            ring=f.ring,
        )
        for f in game.flags
    )
    return GameState(
        id=game.id,
        name=game.name,
        status=game.status,
        version=version,
        dice_source=game.dice_source,
        seeded=game.seed is not None,
        step=game.step,
        batch=game.batch,
        attention_count=game.attention_count,
        actions=game.actions,
        middle=middle(game),
        hot_lead=hot_lead(game),
        retired_points=game.retired_points,
        warnings=game.warnings,
        players=players,
        flags=flags,
        hand=game.hand,
        attention=game.attention,
        neighbours=game.neighbours,
        departure=game.departure,
        ending=game.ending,
        waiting_for=waiting_for(game),
        fairness=None if game.fairness is None else game.fairness.view(),
        receipts=game.receipts,
    )
