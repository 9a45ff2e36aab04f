"""What a player may send: one tagged union on ``type`` (the design's "Actions").

Rings, pools and players arrive as text so that an unknown one is the rules' 422
(`unknown-ring`, `unknown-pool`, `unknown-player`), not a schema error.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.travelogue.rules.faces import Face, PoolFaces
from service.rulesets.travelogue.rules.stats import Stat

__all__ = [
    "MAX_NOTE",
    "AcceptFlag",
    "Action",
    "Allocation",
    "BuyOut",
    "CloseScene",
    "Distribute",
    "HandFlag",
    "LetFlip",
    "MoveFlag",
    "Pass",
    "RejectFlag",
    "RenameAngel",
    "ReturnFlag",
    "RollAttention",
    "RollFinal",
    "RollPools",
    "TakeFlag",
    "Vote",
]

MAX_NOTE = 200  # a note is the table's, stored only (D30); short, so history stays bounded

FlagNumber = Annotated[int, Meta(ge=1, le=12, description="A flag, 1…12.")]
PlayerRef = Annotated[str, Meta(min_length=1, max_length=32, description="A player id.")]
RingName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=40,
        description="`loved_ones`, `friends`, `possessions` or `reputation`.",
    ),
]
Note = Annotated[str, Meta(max_length=MAX_NOTE, description="The table's note, stored only.")]
AngelName = Annotated[
    str, Meta(max_length=1000, description="The Angel's new name (≤ 120, not blank; D27).")
]


class _Action(
    Value,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    omit_defaults=True,
    tag_field="type",
):
    pass


class TakeFlag(_Action, frozen=True, kw_only=True, tag="take_flag"):
    """Reach Out: take a middle flag (one in hand at most, D10); with `to`, hand it at once."""

    flag: FlagNumber
    to: PlayerRef | None = None
    on_behalf_of: PlayerRef | None = None


class HandFlag(_Action, frozen=True, kw_only=True, tag="hand_flag"):
    """Hand the flag to another player (D6), for yourself or a running bullseye (D8)."""

    to: PlayerRef
    on_behalf_of: PlayerRef | None = None


class ReturnFlag(_Action, frozen=True, kw_only=True, tag="return_flag"):
    """Put an unhanded flag back in the middle (D10)."""


class AcceptFlag(_Action, frozen=True, kw_only=True, tag="accept_flag"):
    """The holder accepts: the flag goes on that ring of the reacher's target (D7, D9)."""

    ring: RingName


class RejectFlag(_Action, frozen=True, kw_only=True, tag="reject_flag"):
    """The holder rejects: the flag goes back to the middle."""


class RollAttention(_Action, frozen=True, kw_only=True, tag="roll_attention"):
    """The attention die (anyone, D11); `faces` only with the table's dice."""

    faces: Face | None = None


class RollPools(_Action, frozen=True, kw_only=True, tag="roll_pools"):
    """The active player's Shooter and Angel dice ("Rolling The Bones")."""

    faces: PoolFaces | None = None


class BuyOut(_Action, frozen=True, kw_only=True, tag="buy_out"):
    """Pay the focus's cost, a point at a time from the highest stat; ties in
    `tie_break`'s order, then avoid, armor, angel, allies (D14)."""

    tie_break: Annotated[tuple[Stat, ...], Meta(max_length=4)] | None = None


class LetFlip(_Action, frozen=True, kw_only=True, tag="let_flip"):
    """Let the focus flip: a ring gets its X, the centre means caught (D15)."""


class CloseScene(_Action, frozen=True, kw_only=True, tag="close_scene"):
    """The ring scene is over ("Ring Scenes")."""

    note: Note | None = None


class Vote(_Action, frozen=True, kw_only=True, tag="vote"):
    """Go for broke? Unanimous or not at all (D22)."""

    go_for_broke: bool


class RollFinal(_Action, frozen=True, kw_only=True, tag="roll_final"):
    """A go-for-broke roll: both pools, no Shooter bonus (D23)."""

    faces: PoolFaces | None = None


class Allocation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pool: Annotated[str, Meta(min_length=1, max_length=40)]
    to: PlayerRef
    points: Annotated[int, Meta(ge=0, le=1_000_000)]


class Distribute(_Action, frozen=True, kw_only=True, tag="distribute"):
    """The leaver splits each pool among those eligible, exactly (D24, D25)."""

    allocations: Annotated[tuple[Allocation, ...], Meta(max_length=24)] = ()
    note: Note | None = None


class MoveFlag(_Action, frozen=True, kw_only=True, tag="move_flag"):
    """A neighbour move (D18–D20): another's flag to a different ring, neither your own."""

    flag: FlagNumber
    to_bullseye: PlayerRef
    to_ring: RingName


class Pass(_Action, frozen=True, kw_only=True, tag="pass"):
    """Let a neighbour move go by (D19)."""


class RenameAngel(_Action, frozen=True, kw_only=True, tag="rename_angel"):
    """A running bullseye's Angel takes a new name (D27); no number changes."""

    name: AngelName


Action = (
    TakeFlag
    | HandFlag
    | ReturnFlag
    | AcceptFlag
    | RejectFlag
    | RollAttention
    | RollPools
    | BuyOut
    | LetFlip
    | CloseScene
    | Vote
    | RollFinal
    | Distribute
    | MoveFlag
    | Pass
    | RenameAngel
)


def action_type(action: Action) -> str:
    """The action's `type` tag."""
    return str(action.__struct_config__.tag)
