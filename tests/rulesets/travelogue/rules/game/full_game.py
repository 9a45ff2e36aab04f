"""The design's full table-dice game (Hugo, Annie, Archer, Vera) as data: the set-up,
the 51 actions in order, and the refusals tried on the way. The pure-engine test plays it
here; the HTTP tests replay the same steps over the API."""

from __future__ import annotations

from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    Action,
    Allocation,
    BuyOut,
    CloseScene,
    Distribute,
    MoveFlag,
    Pass,
    RejectFlag,
    RollAttention,
    RollFinal,
    RollPools,
    TakeFlag,
    Vote,
)
from service.rulesets.travelogue.rules.sheet import Sheet, SheetStats

__all__ = ["REFUSALS", "SHEETS", "STEPS"]


def _sheet(
    player: str, name: str, stats: tuple[int, int, int, int], shooter: str, beef: str
) -> Sheet:
    avoid, armor, angel, allies = stats
    return Sheet(
        player=player,
        name=name,
        shooter=shooter,
        angel=f"{name}'s way out",
        beef=beef,
        stats=SheetStats(avoid=avoid, armor=armor, angel=angel, allies=allies),
    )


SHEETS = (
    _sheet("hugo", "Hugo", (4, 1, 2, 2), "The Syndicate", "the ledger"),
    _sheet("annie", "Annie", (3, 2, 2, 2), "the syndicate", "a debt"),
    _sheet("archer", "Archer", (2, 3, 2, 2), "Interpol", "A Debt"),
    _sheet("vera", "Vera", (2, 2, 3, 2), "Interpol", "a witness"),
)

Step = tuple[str, Action]


def _reach(
    reacher: str, flag: int, holder: str, ring: str, for_: str | None = None
) -> tuple[Step, Step]:
    """ "X n→Y: ring": Y accepts X's flag n onto X's ring."""
    return (
        (reacher, TakeFlag(flag=flag, to=holder, on_behalf_of=for_)),
        (holder, AcceptFlag(ring=ring)),
    )


def _pools(shooter: tuple[int, ...], angel: tuple[int, ...]) -> PoolFaces:
    return PoolFaces(shooter=shooter, angel=angel)


STEPS: tuple[Step, ...] = (
    # Batch 1
    *_reach("hugo", 4, "annie", "loved_ones", "annie"),
    *_reach("annie", 1, "archer", "friends"),
    *_reach("archer", 2, "vera", "possessions"),
    *_reach("vera", 3, "hugo", "reputation"),
    ("archer", TakeFlag(flag=5, to="annie")),
    ("annie", RejectFlag()),
    *_reach("archer", 5, "annie", "loved_ones"),
    *_reach("vera", 6, "archer", "friends"),
    # Attention 1: die 4 → Hugo's loved_ones
    ("annie", RollAttention(faces=4)),
    ("hugo", RollPools(faces=_pools((5, 6), ()))),
    ("hugo", BuyOut()),
    ("hugo", CloseScene(note="The ledger's first page turns up.")),
    ("vera", MoveFlag(flag=5, to_bullseye="hugo", to_ring="friends")),  # index 18
    ("hugo", MoveFlag(flag=1, to_bullseye="archer", to_ring="friends")),  # index 19
    # Batch 2
    *_reach("hugo", 7, "annie", "reputation"),
    *_reach("hugo", 8, "archer", "possessions"),
    *_reach("annie", 9, "hugo", "friends"),
    *_reach("archer", 10, "vera", "loved_ones", "vera"),
    # Attention 2: die 3 + 4 → flag 7, Hugo caught
    ("vera", RollAttention(faces=3)),
    ("hugo", RollPools(faces=_pools((2, 1), (6,)))),
    ("hugo", CloseScene()),
    ("annie", Vote(go_for_broke=False)),
    (
        "hugo",
        Distribute(
            allocations=(
                Allocation(pool="shooter_aim", to="annie", points=2),
                Allocation(pool="shooter_ammo", to="annie", points=2),
            )
        ),
    ),  # index 32
    ("vera", Pass()),
    # Batch 3
    *_reach("annie", 4, "archer", "reputation"),
    *_reach("annie", 5, "vera", "loved_ones"),
    *_reach("archer", 8, "hugo", "reputation"),
    *_reach("vera", 11, "annie", "possessions"),
    *_reach("vera", 12, "hugo", "loved_ones"),
    # Attention 3: die 2 + 7 → flag 9, Annie caught; the others go for broke
    ("hugo", RollAttention(faces=2)),
    ("annie", RollPools(faces=_pools((1, 2, 4), (5, 6)))),
    ("annie", CloseScene()),
    ("archer", Vote(go_for_broke=True)),
    ("vera", Vote(go_for_broke=True)),
    ("archer", RollFinal(faces=_pools((2,), (1, 4)))),
    ("vera", RollFinal(faces=_pools((1,), (2, 5, 6)))),
)

# Tried before the step of that index: (actor, action, the refusal's code).
REFUSALS: dict[int, tuple[str, Action, str]] = {
    19: (
        "hugo",
        MoveFlag(flag=5, to_bullseye="annie", to_ring="friends"),
        "travelogue/cannot-undo",
    ),
    32: (
        "hugo",
        Distribute(
            allocations=(
                Allocation(pool="shooter_aim", to="archer", points=2),
                Allocation(pool="shooter_ammo", to="annie", points=2),
            )
        ),
        "travelogue/not-eligible",
    ),
}
