"""The one-line ``summary`` of every travelogue answer that reports a roll, in the book's
words: the attention die and where it lands ("When All The Flags Are Gone"), the Shooter's
and the Angel's pools with S and A, caught, escaped or running ("Rolling The Bones",
"Caught Or Escape"), cracking, exposure and the risk they make (D12), and going for broke
("Getting Caught, Getting Away", D23). Built from the result or the action's events alone
(service.kernel.summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.summary import fitting
from service.rulesets.travelogue.rules.game.events import (
    AttentionRolled,
    FinalRolled,
    GameEventBase,
    PoolsRolled,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from service.rulesets.travelogue.rules.pools import Pools

__all__ = ["action_summary", "pools_summary"]

# Going for broke's three ends (D23), as the line says them of the bullseye.
_FINAL = {"caught": "is caught", "escaped": "escapes", "at_large": "stays at large"}


def _pool(name: str, faces: Iterable[int], number: int, letter: str) -> tuple[str, str]:
    """``Shooter 2+6+5, S 1`` and, for a long pool, ``Shooter 3 dice, S 1``."""
    shown = list(faces)
    if not shown:
        return f"{name} no dice, {letter} 0", f"{name} no dice, {letter} 0"
    return (
        f"{name} {'+'.join(map(str, shown))}, {letter} {number}",
        f"{name} {len(shown)} {'die' if len(shown) == 1 else 'dice'}, {letter} {number}",
    )


def _pools(
    shooter: Iterable[int], s: int, angel: Iterable[int], a: int, verdict: str, head: str = ""
) -> str:
    shooter_full, shooter_short = _pool("Shooter", shooter, s, "S")
    angel_full, angel_short = _pool("Angel", angel, a, "A")
    return fitting(
        f"{head}{shooter_full}; {angel_full}: {verdict}",
        f"{head}{shooter_short}; {angel_short}: {verdict}",
    )


def pools_summary(pools: Pools) -> str:
    """Steps 3–7: ``Shooter 2+6+5, S 1; Angel 1+3, A 2: running; cracking and exposure,
    at risk``."""
    risks = [
        word for word, on in (("cracking", pools.cracking), ("exposure", pools.exposure)) if on
    ]
    verdict = pools.outcome + (f"; {' and '.join(risks)}, at risk" if risks else "")
    return _pools(
        (die.face for die in pools.shooter_dice),
        pools.shooter_number,
        (die.face for die in pools.angel_dice),
        pools.angel_number,
        verdict,
    )


def action_summary(events: Iterable[GameEventBase]) -> str | None:
    """A game action that rolls, from the events it made: the attention die, a bullseye's
    pools, or his final roll going for broke; None for an action that rolls nothing."""
    for event in events:
        match event:
            case AttentionRolled():
                lead = f" + hot lead {event.hot_lead_used}" if event.hot_lead_used else ""
                centre = " (flipped: his centre)" if event.focus == "centre" else ""
                return fitting(
                    f"Attention {event.number}: die {event.die}{lead}: flag {event.flag} on "
                    f"{event.active}'s {event.ring.label}{centre}; "
                    f"his Shooter gains 1 {event.shooter_bonus.capitalize()}"
                )
            case PoolsRolled():
                verdict = event.outcome + ("; at risk" if event.at_risk else "")
                return _pools(
                    event.shooter,
                    event.shooter_number,
                    event.angel,
                    event.angel_number,
                    verdict,
                    f"{event.active} rolls the pools: ",
                )
            case FinalRolled():
                return _pools(
                    event.shooter,
                    event.S,
                    event.angel,
                    event.A,
                    f"{event.bullseye} {_FINAL[event.result]}",
                    f"{event.bullseye} goes for broke: ",
                )
    return None
