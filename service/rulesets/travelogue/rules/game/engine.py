"""``apply(game, actor, action, strong)``: the game after one player's action, its events
and its history entry — what the shared session engine stores (``Applied``).

Refusals come in the design's order: 409 `game-ended`, `wrong-step` (nobody may do this
now), `action-limit-reached` → 403 `not-your-move` (with `waiting_for`) → the action's 422s,
then the dice's. (An ended game answers `game-ended` first: there nobody may do anything,
and the more telling code wins.)
"""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.events import Event
from service.kernel.sessions import Applied
from service.kernel.values import Value
from service.rulesets.travelogue.rules.game import after_scene, attention, departure, play
from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    Action,
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
    action_type,
)
from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.events import (
    AngelRenamed,
    AttentionRolled,
    FinalRolled,
    GameEventBase,
    PoolsRolled,
)
from service.rulesets.travelogue.rules.game.model import MAX_ACTIONS, Game, GameStatus
from service.rulesets.travelogue.rules.game.neighbours import move_flag, pass_move
from service.rulesets.travelogue.rules.game.table import bullseye, with_bullseye
from service.rulesets.travelogue.rules.game.waiting import may_rename, waiting_for

__all__ = ["MAX_ANGEL_NAME", "HistoryEntry", "Rolled", "apply"]

MAX_ANGEL_NAME = 120

Result = tuple[Game, tuple[Event, ...]]


class Rolled(Value, frozen=True, kw_only=True, omit_defaults=True):
    """The faces a rolling action used (the table's or the server's)."""

    die: int | None = None
    shooter: tuple[int, ...] = ()
    angel: tuple[int, ...] = ()


class HistoryEntry(Value, frozen=True, kw_only=True, omit_defaults=True):
    """One applied action as the history keeps it, small (the history counts against
    the session's size): who, what was sent (a note is in it), for a rolling action the
    dice (`result`), and the version it made; the events are in the stream."""

    actor: str
    body: Action
    result: Rolled | None = None
    # 0 in an entry stored by an earlier release, when every write of a game was an action:
    # the n-th entry made version n + 1. Since, a client seed added makes a version too.
    version: int = 0

    def version_made(self, position: int) -> int:
        """The version this entry made, it being the ``position``-th (from 1)."""
        return self.version or position + 1


def _rolled(events: tuple[Event, ...]) -> Rolled | None:
    for event in events:
        match event:
            case AttentionRolled():
                return Rolled(die=event.die)
            case PoolsRolled() | FinalRolled():
                return Rolled(shooter=event.shooter, angel=event.angel)
    return None


def _rename(game: Game, actor: str, action: RenameAngel) -> Result:
    """D27: the Angel takes a new name; no number changes."""
    name = action.name.strip()
    if not name:
        raise refuse("blank-text", "The Angel's name is not blank.", "/name")
    if len(name) > MAX_ANGEL_NAME:
        raise refuse(
            "text-too-long", f"An Angel's name has at most {MAX_ANGEL_NAME} characters.", "/name"
        )
    angel = msgspec.structs.replace(bullseye(game, actor).angel, name=name)
    return with_bullseye(game, actor, angel=angel), (AngelRenamed(bullseye=actor, name=name),)


def _admit(game: Game, actor: str, action: Action) -> None:
    """The 409s and the 403, in the design's order."""
    if game.status is not GameStatus.ACTIVE:
        raise refuse("game-ended", "The game has ended.")
    kind = action_type(action)
    waiting = waiting_for(game)
    if not isinstance(action, RenameAngel) and not any(kind in w.actions for w in waiting.who):
        raise refuse(
            "wrong-step",
            f"Nobody may {kind} now: the game is at '{game.step}'.",
            extensions={"waiting_for": _json(waiting)},
        )
    if game.actions >= MAX_ACTIONS:
        raise refuse("action-limit-reached", f"A game takes at most {MAX_ACTIONS} actions (D29).")
    if isinstance(action, RenameAngel):
        allowed = may_rename(game, actor) if actor in (p.id for p in game.players) else False
    else:
        allowed = any(w.player == actor and kind in w.actions for w in waiting.who)
    if not allowed:
        raise refuse(
            "not-your-move",
            f"It is not your move: {kind} is awaited from others, or not at all from you.",
            extensions={"waiting_for": _json(waiting)},
        )


def _dispatch(game: Game, actor: str, action: Action, strong: RandomSource) -> Result:
    match action:
        case TakeFlag():
            return play.take_flag(game, actor, action)
        case HandFlag():
            return play.hand_flag(game, actor, action)
        case ReturnFlag():
            return play.return_flag(game, actor, action)
        case AcceptFlag():
            return play.accept_flag(game, actor, action)
        case RejectFlag():
            return play.reject_flag(game, actor, action)
        case RollAttention():
            return attention.roll_attention(game, actor, action, strong)
        case RollPools():
            return attention.roll_pools(game, actor, action, strong)
        case BuyOut():
            return attention.buy_out(game, actor, action)
        case LetFlip():
            return attention.let_flip(game, actor, action)
        case CloseScene():
            return after_scene.close_scene(game, actor, action)
        case Vote():
            return departure.vote(game, actor, action)
        case RollFinal():
            return departure.roll_final(game, actor, action, strong)
        case Distribute():
            return departure.distribute(game, actor, action)
        case MoveFlag():
            return move_flag(game, actor, action)
        case Pass():
            return pass_move(game, actor, action)
        case RenameAngel():
            return _rename(game, actor, action)


def apply(
    game: Game,
    actor: str,
    action: Action,
    strong: RandomSource,
    *,
    at: str = "",
    version: int | None = None,
) -> Applied[Game]:
    """The game after ``actor`` (a player id) takes ``action``.

    ``strong``: where an unseeded server-dice game draws its dice (``random.SystemRandom()``);
    a seeded game draws the i-th rolling action's dice from ``(seed, i)`` instead (D28).
    ``at``: the time stamped on the events (RFC 3339). ``version``: the version the action
    makes, as the session engine numbers it — each client seed added makes one too —;
    by default 1 + the actions applied, as in a game where every write is an action. The
    events carry it and the actor; the history entry carries it.

    Raises:
        RulesError: a refusal ``travelogue/<code>`` (``GAME_PROBLEMS`` has its status).
    """
    _admit(game, actor, action)
    game, events = _dispatch(game, actor, action, strong)
    actions = game.actions + 1
    made = actions + 1 if version is None else version
    game = msgspec.structs.replace(game, actions=actions)
    stamped = tuple(
        msgspec.structs.replace(e, version=made, at=at, actor=actor)
        if isinstance(e, GameEventBase)
        else e
        for e in events
    )
    entry = HistoryEntry(actor=actor, body=action, result=_rolled(stamped), version=made)
    return Applied(game, stamped, (entry,))


def _json(value: Value) -> object:
    """``value`` as plain JSON values (lists, not tuples), for a problem's extension."""
    return msgspec.json.decode(msgspec.json.encode(value))
