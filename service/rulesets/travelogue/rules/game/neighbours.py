"""Neighbour moves after the scene ("Moving Flags"; D18–D20), then the next batch.

The neighbours are the die face ± 1 (1 − 1 is 6, 6 + 1 is 1) plus the hot lead the roll
used. Each move's mover is whoever's running target holds its flag when the move comes;
nobody's → skipped. The mover moves another running bullseye's flag to a different ring of
a running bullseye, neither his own, or passes; the upper may not move the lower's flag.
"""

from __future__ import annotations

import msgspec

from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.actions import MoveFlag, Pass
from service.rulesets.travelogue.rules.game.ending import end
from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.events import (
    BatchOpened,
    FlagMoved,
    MovePassed,
    MoveSkipped,
)
from service.rulesets.travelogue.rules.game.model import (
    MAX_ATTENTIONS,
    EndingReason,
    Game,
    Move,
    Moved,
    MoveResult,
    Neighbours,
    Place,
    Step,
)
from service.rulesets.travelogue.rules.game.play import ring_of
from service.rulesets.travelogue.rules.game.table import (
    flag,
    is_running,
    known,
    middle,
    owner,
    put,
    wrap,
)

__all__ = ["begin_moves", "move_flag", "neighbour_flags", "pass_move"]

Result = tuple[Game, tuple[Event, ...]]


def neighbour_flags(die: int, h: int) -> tuple[int, int]:
    """The lower and upper neighbours of a roll of ``die`` with hot lead ``h`` (D18)."""
    lower = die - 1 if die > 1 else 6
    upper = die + 1 if die < 6 else 1
    return wrap(lower + h), wrap(upper + h)


def open_batch(game: Game) -> Result:
    """Play resumes with the refilled middle; after the 300th attention, the end (D29)."""
    if game.attention_count >= MAX_ATTENTIONS:
        return end(game, EndingReason.LIMIT)
    game = msgspec.structs.replace(
        game,
        step=Step.PLAY,
        batch=game.batch + 1,
        attention=None,
        neighbours=None,
        departure=None,
    )
    return game, (BatchOpened(batch=game.batch, middle=middle(game)),)


def _next(game: Game) -> Result:
    """The next pending move gets its mover now, or is skipped; none left: the batch."""
    n = game.neighbours
    assert n is not None
    events: list[Event] = []
    for which in ("lower", "upper"):
        move: Move = getattr(n, which)
        if move.result is not MoveResult.PENDING:
            continue
        mover = owner(game, move.flag)
        if mover is None:
            n = msgspec.structs.replace(
                n, **{which: msgspec.structs.replace(move, result=MoveResult.SKIPPED)}
            )
            events.append(MoveSkipped(neighbour=which, flag=move.flag))
            continue
        n = msgspec.structs.replace(n, **{which: msgspec.structs.replace(move, mover=mover)})
        step = Step.MOVES_LOWER if which == "lower" else Step.MOVES_UPPER
        return msgspec.structs.replace(game, neighbours=n, step=step), tuple(events)
    game, opened = open_batch(msgspec.structs.replace(game, neighbours=n))
    return game, (*events, *opened)


def begin_moves(game: Game) -> Result:
    attention = game.attention
    assert attention is not None
    lower, upper = neighbour_flags(attention.die, attention.hot_lead_used)
    neighbours = Neighbours(lower=Move(flag=lower), upper=Move(flag=upper))
    return _next(msgspec.structs.replace(game, neighbours=neighbours))


def _current(game: Game) -> tuple[str, Move]:
    assert game.neighbours is not None
    which = "lower" if game.step is Step.MOVES_LOWER else "upper"
    move: Move = getattr(game.neighbours, which)
    return which, move


def _done(game: Game, which: str, move: Move) -> Game:
    assert game.neighbours is not None
    return msgspec.structs.replace(
        game, neighbours=msgspec.structs.replace(game.neighbours, **{which: move})
    )


def move_flag(game: Game, actor: str, action: MoveFlag) -> Result:
    which, move = _current(game)
    known(game, action.to_bullseye, "/to_bullseye")
    if not is_running(game, action.to_bullseye):
        raise refuse(
            "not-running",
            f"'{action.to_bullseye}' is out; flags move between running targets.",
            "/to_bullseye",
        )
    ring = ring_of(action.to_ring, "/to_ring")
    moving = flag(game, action.flag)
    source = moving.bullseye
    if moving.place is not Place.RING or source is None or not is_running(game, source):
        raise refuse(
            "flag-not-on-target",
            f"Flag {action.flag} is not on a running bullseye's ring.",
            "/flag",
        )
    assert moving.ring is not None
    assert game.neighbours is not None
    lower_moved = game.neighbours.lower.moved
    if which == "upper" and lower_moved is not None and lower_moved.flag == action.flag:
        raise refuse(
            "cannot-undo", f"Flag {action.flag} was the lower move's; it stays (D20).", "/flag"
        )
    if source == actor:
        raise refuse("own-target", f"Flag {action.flag} is on your own target.", "/flag")
    if action.to_bullseye == actor:
        raise refuse("own-target", "A mover moves no flag onto his own target.", "/to_bullseye")
    if (action.to_bullseye, ring) == (source, moving.ring):
        raise refuse("same-ring", f"Flag {action.flag} is on that ring already.", "/to_ring")
    moved = Moved(
        flag=action.flag,
        from_bullseye=source,
        from_ring=moving.ring,
        to_bullseye=action.to_bullseye,
        to_ring=ring,
    )
    game = put(game, action.flag, Place.RING, action.to_bullseye, ring)
    game = _done(game, which, msgspec.structs.replace(move, result=MoveResult.MOVED, moved=moved))
    game, more = _next(game)
    return game, (FlagMoved(neighbour=which, mover=actor, moved=moved), *more)


def pass_move(game: Game, actor: str, _: Pass) -> Result:
    which, move = _current(game)
    game = _done(game, which, msgspec.structs.replace(move, result=MoveResult.PASSED))
    game, more = _next(game)
    return game, (MovePassed(neighbour=which, mover=actor, flag=move.flag), *more)
