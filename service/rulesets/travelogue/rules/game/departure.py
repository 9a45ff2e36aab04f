"""A bullseye caught or escaped ("Getting Caught, Getting Away"; D22–D26).

If nobody else runs, the game ends. Otherwise the other running players vote: all for
going for broke, and each rolls his pools once more (D23) and the game ends; the first
against, and the leaver splits his Shooter and Angel among those he shares a shooter or a
beef with (D24, D25). His tracks go to 0/0 and his target's flags to the middle (D26).
"""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.actions import Distribute, RollFinal, Vote
from service.rulesets.travelogue.rules.game.dice import pool_faces
from service.rulesets.travelogue.rules.game.ending import end
from service.rulesets.travelogue.rules.game.events import (
    BrokeAgreed,
    BrokeDeclined,
    BullseyeCaught,
    BullseyeEscaped,
    FinalRolled,
    PointsDistributed,
    VoteCast,
)
from service.rulesets.travelogue.rules.game.model import (
    Allocated,
    Departure,
    EndingReason,
    Figure,
    FinalRoll,
    Game,
    Place,
    Pool,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.neighbours import begin_moves
from service.rulesets.travelogue.rules.game.table import (
    bullseye,
    player_ids,
    put,
    running,
    with_bullseye,
)
from service.rulesets.travelogue.rules.pools import final_outcome, pool_number
from service.rulesets.travelogue.rules.sheet import normalised

__all__ = ["begin_departure", "distribute", "pools_of", "roll_final", "vote"]

Result = tuple[Game, tuple[Event, ...]]

# The 422 codes of a distribution, in the design's order of checking.
_ORDER = ("unknown-player", "not-running", "not-eligible", "allocation-mismatch", "unknown-pool")


def begin_departure(game: Game) -> Result:
    """After the hot lead is set: the end if nobody else runs, else the vote."""
    attention = game.attention
    assert attention is not None
    leaver = attention.active
    result = bullseye(game, leaver).status
    voters = running(game)
    departure = Departure(bullseye=leaver, result=result, voters=voters)
    game = msgspec.structs.replace(game, departure=departure)
    if not voters:
        game, settled = _settle(game, (), None)
        game, ended = end(game, EndingReason.NONE_RUNNING)
        return game, (*settled, *ended)
    return msgspec.structs.replace(game, step=Step.DEPARTURE_VOTE), ()


def pools_of(game: Game, leaver: str, result: Status) -> tuple[Pool, ...]:
    """What the leaver hands on and to whom: caught, each point keeps its kind and track;
    escaped, all become Shooter points, for those sharing his shooter or beef (D24)."""
    b = bullseye(game, leaver)
    shooter, beef = normalised(b.shooter.name), normalised(b.beef)
    others = [bullseye(game, p) for p in running(game)]
    ids = running(game)
    by_shooter = tuple(
        i for i, o in zip(ids, others, strict=True) if normalised(o.shooter.name) == shooter
    )
    by_beef = tuple(i for i, o in zip(ids, others, strict=True) if normalised(o.beef) == beef)
    if result is Status.CAUGHT:
        return (
            Pool(pool="shooter_aim", points=b.shooter.aim, as_="shooter_aim", eligible=by_shooter),
            Pool(
                pool="shooter_ammo", points=b.shooter.ammo, as_="shooter_ammo", eligible=by_shooter
            ),
            Pool(pool="angel_aim", points=b.angel.aim, as_="angel_aim", eligible=by_beef),
            Pool(pool="angel_ammo", points=b.angel.ammo, as_="angel_ammo", eligible=by_beef),
        )
    either = tuple(i for i in ids if i in by_shooter or i in by_beef)
    return (
        Pool(pool="aim", points=b.shooter.aim + b.angel.aim, as_="shooter_aim", eligible=either),
        Pool(
            pool="ammo", points=b.shooter.ammo + b.angel.ammo, as_="shooter_ammo", eligible=either
        ),
    )


def _settle(game: Game, allocations: tuple[Allocated, ...], note: str | None) -> Result:
    """Hand the points on, retire what nobody may take (D25), put the leaver at 0/0 and his
    target's flags in the middle (D26)."""
    departure = game.departure
    assert departure is not None
    leaver = departure.bullseye
    pools = departure.pools or pools_of(game, leaver, departure.result)
    as_of = {pool.pool: pool.as_ for pool in pools}
    for allocation in allocations:
        track, field = as_of[allocation.pool].split("_")
        side: Figure = getattr(bullseye(game, allocation.to), track)
        grown = msgspec.structs.replace(side, **{field: getattr(side, field) + allocation.points})
        game = with_bullseye(game, allocation.to, **{track: grown})
    retired = sum(pool.points for pool in pools if not pool.eligible)
    b = bullseye(game, leaver)
    game = with_bullseye(
        game,
        leaver,
        shooter=msgspec.structs.replace(b.shooter, aim=0, ammo=0),
        angel=msgspec.structs.replace(b.angel, aim=0, ammo=0),
    )
    freed = tuple(f.number for f in game.flags if f.place is Place.RING and f.bullseye == leaver)
    for number in freed:
        game = put(game, number, Place.MIDDLE)
    departure = msgspec.structs.replace(departure, pools=pools, allocations=allocations)
    game = msgspec.structs.replace(
        game, departure=departure, retired_points=game.retired_points + retired
    )
    event = PointsDistributed(
        bullseye=leaver, allocations=allocations, retired=retired, to_middle=freed, note=note
    )
    return game, (event,)


def _to_distribute(game: Game) -> Result:
    """The leaver's split; skipped when no pool has points someone may take."""
    departure = game.departure
    assert departure is not None
    pools = pools_of(game, departure.bullseye, departure.result)
    departure = msgspec.structs.replace(departure, pools=pools)
    game = msgspec.structs.replace(game, departure=departure, step=Step.DEPARTURE_DISTRIBUTE)
    if any(pool.points and pool.eligible for pool in pools):
        return game, ()
    game, settled = _settle(game, (), None)
    game, moves = begin_moves(game)
    return game, (*settled, *moves)


def vote(game: Game, actor: str, action: Vote) -> Result:
    """Unanimous or not at all: the first "no" closes the vote (D22)."""
    departure = game.departure
    assert departure is not None
    votes = {**departure.votes, actor: action.go_for_broke}
    game = msgspec.structs.replace(game, departure=msgspec.structs.replace(departure, votes=votes))
    cast = VoteCast(voter=actor, go_for_broke=action.go_for_broke)
    if not action.go_for_broke:
        game, more = _to_distribute(game)
        return game, (cast, BrokeDeclined(by=actor), *more)
    if len(votes) < len(departure.voters):
        return game, (cast,)
    game = msgspec.structs.replace(game, step=Step.DEPARTURE_FINAL)
    return game, (cast, BrokeAgreed(rollers=departure.voters))


def roll_final(game: Game, actor: str, action: RollFinal, strong: RandomSource) -> Result:
    """Both pools once more, no Shooter bonus: the higher number wins, a tie is at large
    (D23). After the last roll the game ends, with no redistribution."""
    departure = game.departure
    assert departure is not None
    b = bullseye(game, actor)
    shooter, angel = pool_faces(game, action.faces, b.shooter.ammo, b.angel.ammo, strong)
    s, a = pool_number(shooter, b.shooter.aim), pool_number(angel, b.angel.aim)
    result = Status(final_outcome(s, a).value)
    final = {
        **departure.final,
        actor: FinalRoll(shooter=shooter, angel=angel, S=s, A=a, result=result),
    }
    game = with_bullseye(game, actor, status=result)
    game = msgspec.structs.replace(
        game, departure=msgspec.structs.replace(departure, final=final), rolls=game.rolls + 1
    )
    events: list[Event] = [
        FinalRolled(bullseye=actor, shooter=shooter, angel=angel, S=s, A=a, result=result)
    ]
    if result is Status.CAUGHT:
        events.append(BullseyeCaught(bullseye=actor))
    elif result is Status.ESCAPED:
        events.append(BullseyeEscaped(bullseye=actor))
    if len(final) == len(departure.voters):
        game, ended = end(game, EndingReason.WENT_FOR_BROKE)
        events.extend(ended)
    return game, tuple(events)


def _concerns(game: Game, pools: tuple[Pool, ...], action: Distribute) -> list[Concern]:
    by_name = {pool.pool: pool for pool in pools}
    found: list[Concern] = []

    def concern(code: str, pointer: str, detail: str) -> None:
        found.append(Concern(code=f"travelogue/{code}", pointer=pointer, detail=detail))

    given: dict[str, int] = {}
    for i, allocation in enumerate(action.allocations):
        at = f"/allocations/{i}"
        pool = by_name.get(allocation.pool)
        if pool is None:
            concern(
                "unknown-pool",
                f"{at}/pool",
                f"No pool '{allocation.pool}' here ({', '.join(by_name)}).",
            )
            continue
        given[pool.pool] = given.get(pool.pool, 0) + allocation.points
        if allocation.to not in player_ids(game):
            concern("unknown-player", f"{at}/to", f"No player '{allocation.to}' at this table.")
        elif allocation.to not in running(game):
            if allocation.points:
                concern("not-running", f"{at}/to", f"'{allocation.to}' is out (D25).")
        elif allocation.to not in pool.eligible and allocation.points:
            concern(
                "not-eligible",
                f"{at}/to",
                f"'{allocation.to}' may not take '{pool.pool}' (only {list(pool.eligible)}).",
            )
    for pool in pools:
        owed = pool.points if pool.eligible else 0
        if given.get(pool.pool, 0) != owed:
            concern(
                "allocation-mismatch",
                "/allocations",
                f"'{pool.pool}' gives {owed} points, not {given.get(pool.pool, 0)} (D24).",
            )
    found.sort(key=lambda c: _ORDER.index(c.code.removeprefix("travelogue/")))
    return found


def distribute(game: Game, actor: str, action: Distribute) -> Result:
    """Each pool someone may take, split among them exactly; the rest retired (D24, D25);
    then the neighbour moves."""
    departure = game.departure
    assert departure is not None
    concerns = _concerns(game, departure.pools, action)
    if concerns:
        raise RulesError.from_concerns(concerns)
    allocations = tuple(
        Allocated(pool=a.pool, to=a.to, points=a.points) for a in action.allocations if a.points
    )
    game, settled = _settle(game, allocations, action.note)
    game, moves = begin_moves(game)
    return game, (*settled, *moves)
