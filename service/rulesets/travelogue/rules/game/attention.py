"""The attention phase ("When All The Flags Are Gone", "Rolling The Bones", "Caught Or
Escape", "Flipped Rings"; D11–D15): the die finds a flag on a running bullseye's ring,
his Shooter gains, the pools are rolled, and a focus at risk is bought out or flips."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.events import Event
from service.rulesets.travelogue.rules.game.actions import BuyOut, LetFlip, RollAttention, RollPools
from service.rulesets.travelogue.rules.game.dice import attention_die, pool_faces
from service.rulesets.travelogue.rules.game.events import (
    AttentionRolled,
    BullseyeCaught,
    BullseyeEscaped,
    PoolsRolled,
    RiskResolved,
)
from service.rulesets.travelogue.rules.game.model import (
    Attention,
    Focus,
    Game,
    Kind,
    Place,
    Resolution,
    Risk,
    Status,
    Step,
)
from service.rulesets.travelogue.rules.game.table import (
    bullseye,
    flag,
    hot_lead,
    is_running,
    with_bullseye,
    wrap,
)
from service.rulesets.travelogue.rules.pools import PoolOutcome, resolve_pools
from service.rulesets.travelogue.rules.stats import STAT_ORDER, Stat, Stats, Track

__all__ = ["buy_out", "cost_of", "let_flip", "pay", "roll_attention", "roll_pools"]

Result = tuple[Game, tuple[Event, ...]]


def roll_attention(game: Game, actor: str, action: RollAttention, strong: RandomSource) -> Result:
    """Step 0 and the book's step 1: t = wrap(die + hot lead) names the flag; it lies on a
    running bullseye's ring (the refill keeps it so, D17, D26); his Shooter gains one in
    its kind. A flipped ring puts the focus on the centre (D1)."""
    die = attention_die(game, action.faces, strong)
    h = hot_lead(game) or 0
    total = wrap(die + h)
    found = flag(game, total)
    if found.place is not Place.RING or found.bullseye is None or found.ring is None:
        raise AssertionError(f"flag {total} is not on a target ({found.place})")
    active = found.bullseye
    if not is_running(game, active):
        raise AssertionError(f"flag {total} lies on the departed '{active}'")
    b = bullseye(game, active)
    focus = Focus.CENTRE if b.rings[found.ring].flipped else Focus.RING
    shooter = msgspec.structs.replace(
        b.shooter,
        aim=b.shooter.aim + (found.kind is Kind.AIM),
        ammo=b.shooter.ammo + (found.kind is Kind.AMMO),
    )
    number = game.attention_count + 1
    attention = Attention(
        number=number,
        die=die,
        hot_lead_used=h,
        total=total,
        flag=total,
        kind=found.kind,
        active=active,
        ring=found.ring,
        focus=focus,
        shooter_bonus=found.kind,
    )
    game = with_bullseye(game, active, shooter=shooter)
    game = msgspec.structs.replace(
        game,
        attention=attention,
        attention_count=number,
        rolls=game.rolls + 1,
        step=Step.ATTENTION_POOLS,
    )
    rolled = AttentionRolled(
        number=number,
        die=die,
        hot_lead_used=h,
        total=total,
        flag=total,
        active=active,
        ring=found.ring,
        focus=focus,
        shooter_bonus=found.kind,
    )
    return game, (rolled,)


def cost_of(game: Game, player_id: str, focus: Focus, ring: object) -> int:
    """The focus's circle + 1: 1, 2, 3… per ring and for the centre (D15)."""
    b = bullseye(game, player_id)
    if focus is Focus.CENTRE:
        return b.centre + 1
    return b.rings[ring].circle + 1  # type: ignore[index]


def pay(
    stats: Stats, cost: int, tie_break: tuple[Stat, ...] | None
) -> tuple[Stats, dict[Stat, int]]:
    """``cost`` points, one at a time from the stat highest at that moment, ties in
    ``tie_break``'s order then the default one (D14). The caller checks it is affordable."""
    order = tuple(dict.fromkeys((*(tie_break or ()), *STAT_ORDER)))
    values = {stat: stats.of(stat) for stat in STAT_ORDER}
    paid: dict[Stat, int] = {}
    for _ in range(cost):
        top = max(values.values())
        stat = next(s for s in order if values[s] == top)
        values[stat] -= 1
        paid[stat] = paid.get(stat, 0) + 1
    new = Stats(**{stat.value: value for stat, value in values.items()})
    return new, {stat: paid[stat] for stat in STAT_ORDER if stat in paid}


def _settle(game: Game, resolution: Resolution, paid: dict[Stat, int], actor: str) -> Result:
    """Record the risk's resolution and move on to the scene."""
    attention = game.attention
    assert attention is not None
    assert attention.risk is not None
    risk = msgspec.structs.replace(attention.risk, resolution=resolution, paid=paid)
    game = msgspec.structs.replace(
        game,
        attention=msgspec.structs.replace(attention, risk=risk),
        step=Step.ATTENTION_SCENE,
    )
    events: list[Event] = [
        RiskResolved(
            bullseye=attention.active,
            focus=risk.focus,
            ring=attention.ring if risk.focus is Focus.RING else None,
            cost=risk.cost,
            resolution=resolution,
            paid=paid,
        )
    ]
    if resolution is Resolution.CAUGHT:
        events.append(BullseyeCaught(bullseye=attention.active))
    return game, tuple(events)


def _flip(game: Game, actor: str) -> Result:
    """A ring gets its permanent X; the centre flipping means caught (D15)."""
    attention = game.attention
    assert attention is not None
    assert attention.risk is not None
    b = bullseye(game, attention.active)
    if attention.risk.focus is Focus.CENTRE:
        game = with_bullseye(game, attention.active, status=Status.CAUGHT)
        return _settle(game, Resolution.CAUGHT, {}, actor)
    rings = dict(b.rings)
    rings[attention.ring] = msgspec.structs.replace(rings[attention.ring], flipped=True)
    game = with_bullseye(game, attention.active, rings=rings)
    return _settle(game, Resolution.FLIPPED, {}, actor)


def roll_pools(game: Game, actor: str, action: RollPools, strong: RandomSource) -> Result:
    """Steps 2–7. Caught or escaped settles him, and no ring is at risk (D13); a running
    bullseye at risk buys out or lets it flip, and one who cannot pay flips (D14)."""
    attention = game.attention
    assert attention is not None
    b = bullseye(game, actor)
    shooter_faces, angel_faces = pool_faces(
        game, action.faces, b.shooter.ammo, b.angel.ammo, strong
    )
    pools = resolve_pools(
        Track(aim=b.shooter.aim, ammo=b.shooter.ammo),
        Track(aim=b.angel.aim, ammo=b.angel.ammo),
        b.stats,
        shooter_faces,
        angel_faces,
    )
    attention = msgspec.structs.replace(attention, pools=pools)
    game = msgspec.structs.replace(
        game, attention=attention, rolls=game.rolls + 1, step=Step.ATTENTION_SCENE
    )
    events: list[Event] = [
        PoolsRolled(
            active=actor,
            shooter=shooter_faces,
            angel=angel_faces,
            shooter_number=pools.shooter_number,
            angel_number=pools.angel_number,
            outcome=pools.outcome,
            at_risk=pools.at_risk,
        )
    ]
    if pools.outcome is PoolOutcome.CAUGHT:
        game = with_bullseye(game, actor, status=Status.CAUGHT)
        events.append(BullseyeCaught(bullseye=actor))
    elif pools.outcome is PoolOutcome.ESCAPED:
        game = with_bullseye(game, actor, status=Status.ESCAPED)
        events.append(BullseyeEscaped(bullseye=actor))
    elif pools.at_risk:
        cost = cost_of(game, actor, attention.focus, attention.ring)
        affordable = b.stats.total >= cost
        risk = Risk(focus=attention.focus, cost=cost, affordable=affordable)
        attention = msgspec.structs.replace(attention, risk=risk)
        game = msgspec.structs.replace(game, attention=attention, step=Step.ATTENTION_RISK)
        if not affordable:
            game, flipped = _flip(game, actor)
            events.extend(flipped)
    return game, tuple(events)


def buy_out(game: Game, actor: str, action: BuyOut) -> Result:
    """Pay the cost from the stats; the focus's circle takes the cost (D14, D15)."""
    attention = game.attention
    assert attention is not None
    assert attention.risk is not None
    b = bullseye(game, actor)
    stats, paid = pay(b.stats, attention.risk.cost, action.tie_break)
    if attention.risk.focus is Focus.CENTRE:
        game = with_bullseye(game, actor, stats=stats, centre=attention.risk.cost)
    else:
        rings = dict(b.rings)
        rings[attention.ring] = msgspec.structs.replace(
            rings[attention.ring], circle=attention.risk.cost
        )
        game = with_bullseye(game, actor, stats=stats, rings=rings)
    return _settle(game, Resolution.BOUGHT_OUT, paid, actor)


def let_flip(game: Game, actor: str, _: LetFlip) -> Result:
    return _flip(game, actor)
