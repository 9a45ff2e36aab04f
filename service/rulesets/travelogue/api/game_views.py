"""What a game's answers show besides the game itself: the action as the history keeps it,
the dice it rolled, the tokens, the pages of history. Each request shape an answer repeats
(an action) is its own answer schema, every field always sent, so a generated client sees
them required (a request may leave them out)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.summary import MaybeSummary
from service.kernel.values import Value
from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    Action,
    Allocation,
    BuyOut,
    CloseScene,
    Distribute,
    HandFlag,
    LetFlip,
    MoveFlag,
    Pass,
    RejectFlag,
    RenameAngel,
    ReturnFlag,
    RollAttention,
    RollFinal,
    RollPools,
    TakeFlag,
    Vote,
)
from service.rulesets.travelogue.rules.game.engine import HistoryEntry
from service.rulesets.travelogue.rules.game.events import GameEvent
from service.rulesets.travelogue.rules.game.view import GameState, GameView
from service.sessions.receipts import SessionReceipt

__all__ = [
    "ActionTaken",
    "ActionView",
    "CreatedGame",
    "GameTokens",
    "HistoryItem",
    "HistoryPage",
    "history_item",
]


class GameTokens(Value, frozen=True, kw_only=True):
    """Each player's token, by player id: shown only in the creation's answer."""

    players: dict[str, str]


class CreatedGame(GameView, frozen=True, kw_only=True):
    """The new game, at version 1, and its players' tokens (shown only here)."""

    tokens: GameTokens


class ActionTaken(Value, frozen=True, kw_only=True):
    """The game after the action, the events it put on the stream, in order, and the roll
    it made in one line (null when it rolled nothing)."""

    game: GameState
    events: tuple[GameEvent, ...]
    summary: MaybeSummary
    receipt: SessionReceipt = None


# The actions as the history shows them: every field sent (null where the action left it
# out), never the request's shape with its optional fields.
class TakeFlagView(TakeFlag, frozen=True, kw_only=True, omit_defaults=False, tag="take_flag"):
    """A reach: the middle flag taken; `to` when handed at once."""


class HandFlagView(HandFlag, frozen=True, kw_only=True, omit_defaults=False, tag="hand_flag"):
    """The flag in hand handed over."""


class ReturnFlagView(ReturnFlag, frozen=True, kw_only=True, omit_defaults=False, tag="return_flag"):
    """An unhanded flag put back."""


class AcceptFlagView(AcceptFlag, frozen=True, kw_only=True, omit_defaults=False, tag="accept_flag"):
    """The holder's accept, and the ring."""


class RejectFlagView(RejectFlag, frozen=True, kw_only=True, omit_defaults=False, tag="reject_flag"):
    """The holder's reject."""


class RollAttentionView(
    RollAttention, frozen=True, kw_only=True, omit_defaults=False, tag="roll_attention"
):
    """The attention die; `faces` as the table sent it (null: the server rolled)."""


class PoolFacesView(PoolFaces, frozen=True, kw_only=True):
    """The table's faces as sent: the Shooter's dice, then the Angel's."""


class RollPoolsView(RollPools, frozen=True, kw_only=True, omit_defaults=False, tag="roll_pools"):
    """The active player's pools; `faces` as sent (null: the server rolled)."""

    faces: PoolFacesView | None = None


class BuyOutView(BuyOut, frozen=True, kw_only=True, omit_defaults=False, tag="buy_out"):
    """The buy-out, and the tie order sent (null: the default, D14)."""


class LetFlipView(LetFlip, frozen=True, kw_only=True, omit_defaults=False, tag="let_flip"):
    """The focus let flip."""


class CloseSceneView(CloseScene, frozen=True, kw_only=True, omit_defaults=False, tag="close_scene"):
    """The ring scene closed, with the table's note."""


class VoteView(Vote, frozen=True, kw_only=True, omit_defaults=False, tag="vote"):
    """A vote on going for broke."""


class RollFinalView(RollFinal, frozen=True, kw_only=True, omit_defaults=False, tag="roll_final"):
    """A go-for-broke roll; `faces` as sent (null: the server rolled)."""

    faces: PoolFacesView | None = None


class AllocationView(Allocation, frozen=True, kw_only=True):
    """Points of a pool given to a running bullseye."""


class DistributeView(Distribute, frozen=True, kw_only=True, omit_defaults=False, tag="distribute"):
    """The leaver's split of his pools."""

    allocations: tuple[AllocationView, ...] = ()


class MoveFlagView(MoveFlag, frozen=True, kw_only=True, omit_defaults=False, tag="move_flag"):
    """A neighbour move."""


class PassView(Pass, frozen=True, kw_only=True, omit_defaults=False, tag="pass"):
    """A neighbour move let go by."""


class RenameAngelView(
    RenameAngel, frozen=True, kw_only=True, omit_defaults=False, tag="rename_angel"
):
    """The Angel's new name, as sent."""


ActionView = Annotated[
    TakeFlagView
    | HandFlagView
    | ReturnFlagView
    | AcceptFlagView
    | RejectFlagView
    | RollAttentionView
    | RollPoolsView
    | BuyOutView
    | LetFlipView
    | CloseSceneView
    | VoteView
    | RollFinalView
    | DistributeView
    | MoveFlagView
    | PassView
    | RenameAngelView,
    Meta(description="The action as it was sent, by `type`."),
]


class RolledView(Value, frozen=True, kw_only=True):
    """The dice a rolling action used, the table's or the server's: the attention `die`
    (null for the pools), or the Shooter's and the Angel's faces (empty for the die)."""

    die: int | None
    shooter: tuple[int, ...]
    angel: tuple[int, ...]


class HistoryItem(Value, frozen=True, kw_only=True):
    """One applied action: the version it made, who took it, what was sent (notes in it),
    and for a rolling action its dice."""

    version: int
    actor: str
    action: ActionView
    result: RolledView | None


class HistoryPage(Value, frozen=True, kw_only=True):
    """Applied actions in order, after the version asked for; `next_after` continues."""

    items: tuple[HistoryItem, ...]
    next_after: Annotated[
        int | None,
        Meta(description="Send as `after` for the next page; null: this page is the last."),
    ]


_ACTION_VIEW = msgspec.json.Decoder(ActionView)


def _action_view(action: Action) -> ActionView:
    view: ActionView = _ACTION_VIEW.decode(msgspec.json.encode(action))
    return view


def history_item(entry: HistoryEntry, version: int) -> HistoryItem:
    """The ``version``'s history entry as answers show it."""
    result = entry.result
    return HistoryItem(
        version=version,
        actor=entry.actor,
        action=_action_view(entry.body),
        result=None
        if result is None
        else RolledView(die=result.die, shooter=result.shooter, angel=result.angel),
    )
