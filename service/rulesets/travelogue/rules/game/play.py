"""Reach Out ("Rules", "Evidence Flag"; D6–D10): a running bullseye's player takes a
middle flag, hands it to another player, and the holder accepts it onto a ring of the
reacher's target or rejects it. The accept that empties the middle opens the attention."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    HandFlag,
    RejectFlag,
    ReturnFlag,
    TakeFlag,
)
from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.events import (
    AttentionBegan,
    FlagHanded,
    FlagPlaced,
    FlagReturned,
    FlagTaken,
)
from service.rulesets.travelogue.rules.game.model import Game, Hand, Kind, Place, Ring, Step
from service.rulesets.travelogue.rules.game.table import (
    bullseye,
    flag,
    is_running,
    known,
    middle,
    put,
    with_bullseye,
)

__all__ = ["accept_flag", "hand_flag", "reject_flag", "return_flag", "take_flag"]

Result = tuple[Game, tuple[Event, ...]]


def ring_of(name: str, pointer: str) -> Ring:
    """The ring ``name``, or 422 `unknown-ring`."""
    try:
        return Ring(name)
    except ValueError:
        rings = ", ".join(r.value for r in Ring)
        raise refuse("unknown-ring", f"'{name}' is not a ring ({rings}).", pointer) from None


def _check_hand(game: Game, actor: str, to: str, on_behalf_of: str | None) -> str:
    """The beneficiary of a hand-over to ``to``: by default the reacher (D8)."""
    known(game, to, "/to")
    if to == actor:
        raise refuse("hand-to-self", "A flag is handed to another player (D6).", "/to")
    beneficiary = on_behalf_of or actor
    if on_behalf_of is not None:
        known(game, on_behalf_of, "/on_behalf_of")
    if not is_running(game, beneficiary):
        raise refuse(
            "not-running",
            f"'{beneficiary}' is out; a flag helps a running bullseye's Angel (D8).",
            "/on_behalf_of",
        )
    return beneficiary


def _handed(game: Game, hand: Hand, to: str, beneficiary: str) -> Result:
    handed = msgspec.structs.replace(hand, holder=to, on_behalf_of=beneficiary)
    game = msgspec.structs.replace(game, hand=handed, step=Step.PLAY_HANDED)
    event = FlagHanded(flag=hand.flag, reacher=hand.reacher, holder=to, on_behalf_of=beneficiary)
    return game, (event,)


def take_flag(game: Game, actor: str, action: TakeFlag) -> Result:
    if flag(game, action.flag).place is not Place.MIDDLE:
        raise refuse("flag-not-in-middle", f"Flag {action.flag} is not in the middle.", "/flag")
    beneficiary = None
    if action.to is not None:
        beneficiary = _check_hand(game, actor, action.to, action.on_behalf_of)
    elif action.on_behalf_of is not None:
        known(game, action.on_behalf_of, "/on_behalf_of")
        if not is_running(game, action.on_behalf_of):
            raise refuse("not-running", f"'{action.on_behalf_of}' is out (D8).", "/on_behalf_of")
    hand = Hand(flag=action.flag, reacher=actor, on_behalf_of=action.on_behalf_of)
    game = put(game, action.flag, Place.HAND)
    game = msgspec.structs.replace(game, hand=hand, step=Step.PLAY_TAKEN)
    taken: tuple[Event, ...] = (FlagTaken(flag=action.flag, reacher=actor),)
    if action.to is None or beneficiary is None:
        return game, taken
    game, handed = _handed(game, hand, action.to, beneficiary)
    return game, (*taken, *handed)


def hand_flag(game: Game, actor: str, action: HandFlag) -> Result:
    assert game.hand is not None
    on_behalf_of = action.on_behalf_of or game.hand.on_behalf_of
    beneficiary = _check_hand(game, actor, action.to, on_behalf_of)
    return _handed(game, game.hand, action.to, beneficiary)


def _back_to_middle(game: Game, actor: str, rejected: bool) -> Result:
    assert game.hand is not None
    number = game.hand.flag
    game = msgspec.structs.replace(put(game, number, Place.MIDDLE), hand=None, step=Step.PLAY)
    return game, (FlagReturned(flag=number, by=actor, rejected=rejected),)


def return_flag(game: Game, actor: str, _: ReturnFlag) -> Result:
    return _back_to_middle(game, actor, rejected=False)


def reject_flag(game: Game, actor: str, _: RejectFlag) -> Result:
    return _back_to_middle(game, actor, rejected=True)


def accept_flag(game: Game, actor: str, action: AcceptFlag) -> Result:
    """Onto the reacher's ring, flipped or not (D9); the beneficiary's Angel gains one in
    the flag's kind."""
    hand = game.hand
    assert hand is not None
    ring = ring_of(action.ring, "/ring")
    beneficiary = hand.on_behalf_of or hand.reacher
    kind = flag(game, hand.flag).kind
    angel = bullseye(game, beneficiary).angel
    gained = msgspec.structs.replace(
        angel,
        aim=angel.aim + (kind is Kind.AIM),
        ammo=angel.ammo + (kind is Kind.AMMO),
    )
    game = with_bullseye(game, beneficiary, angel=gained)
    game = put(game, hand.flag, Place.RING, hand.reacher, ring)
    events: list[Event] = [
        FlagPlaced(
            flag=hand.flag,
            bullseye=hand.reacher,
            ring=ring,
            holder=actor,
            angel_of=beneficiary,
            kind=kind,
        )
    ]
    step = Step.PLAY
    if not middle(game):
        step = Step.ATTENTION_ROLL
        events.append(AttentionBegan(number=game.attention_count + 1))
    return msgspec.structs.replace(game, hand=None, step=step), tuple(events)
