"""Rolling the pools: the book's steps 3–7 of an attention ("When All The Flags Are Gone",
"Rolling The Bones", "Caught Or Escape"), and the go-for-broke comparison (D23).

Pure: the faces come in (the table's, or drawn by the caller from its dice).
"""

from __future__ import annotations

from enum import StrEnum

from service.kernel.values import Value
from service.rulesets.travelogue.rules.stats import Stats, Track

__all__ = [
    "FinalOutcome",
    "PoolDie",
    "PoolOutcome",
    "Pools",
    "counts",
    "final_outcome",
    "pool_number",
    "pool_outcome",
    "resolve_pools",
]


class PoolOutcome(StrEnum):
    """Step 5: the Shooter catches up, the Angel springs him, or he keeps running."""

    CAUGHT = "caught"
    ESCAPED = "escaped"
    RUNNING = "running"


class FinalOutcome(StrEnum):
    """Going for broke: the higher number wins; a tie leaves him at large (D23)."""

    CAUGHT = "caught"
    ESCAPED = "escaped"
    AT_LARGE = "at_large"


class PoolDie(Value, frozen=True, kw_only=True):
    """One die of a pool and whether it counts (its face at most the pool's Aim)."""

    face: int
    counted: bool


class Pools(Value, frozen=True, kw_only=True):
    """Steps 3–7 for one roll of the Shooter's and the Angel's dice."""

    shooter_dice: tuple[PoolDie, ...]
    angel_dice: tuple[PoolDie, ...]
    shooter_number: int
    angel_number: int
    difference: int  # shooter_number − angel_number
    smallest_stat: int
    largest_stat: int
    outcome: PoolOutcome
    shooter_sum: int
    avoid_x_allies: int
    cracking: bool
    angel_sum: int
    armor_x_angel: int
    exposure: bool
    at_risk: bool


def counts(face: int, aim: int) -> bool:
    """Steps 3 and 4: a die counts when its face is at most its pool's Aim."""
    return face <= aim


def pool_number(faces: tuple[int, ...], aim: int) -> int:
    """A pool's number: how many of its dice count (S for the Shooter, A for the Angel)."""
    return sum(counts(face, aim) for face in faces)


def _counted(faces: tuple[int, ...], aim: int) -> tuple[PoolDie, ...]:
    return tuple(PoolDie(face=face, counted=counts(face, aim)) for face in faces)


def resolve_pools(
    shooter: Track,
    angel: Track,
    stats: Stats,
    shooter_faces: tuple[int, ...],
    angel_faces: tuple[int, ...],
) -> Pools:
    """Steps 3–7 on the given faces (as many as each track's Ammo; the caller checks).

    3. S = the Shooter's dice at most his Aim; 4. A = the Angel's at most hers.
    5. S − A above the smallest stat: caught; A − S above the largest: escaped; else
    running. 6. Cracking: the Shooter's dice sum above Avoid × Allies. 7. Exposure: the
    Angel's sum above Armor × Angel. Either puts the focus at risk, once (D12).
    """
    shooter_dice = _counted(shooter_faces, shooter.aim)
    angel_dice = _counted(angel_faces, angel.aim)
    s = sum(die.counted for die in shooter_dice)
    a = sum(die.counted for die in angel_dice)
    outcome = pool_outcome(s, a, stats)
    shooter_sum, angel_sum = sum(shooter_faces), sum(angel_faces)
    avoid_x_allies = stats.avoid * stats.allies
    armor_x_angel = stats.armor * stats.angel
    cracking = shooter_sum > avoid_x_allies
    exposure = angel_sum > armor_x_angel
    return Pools(
        shooter_dice=shooter_dice,
        angel_dice=angel_dice,
        shooter_number=s,
        angel_number=a,
        difference=s - a,
        smallest_stat=stats.smallest,
        largest_stat=stats.largest,
        outcome=outcome,
        shooter_sum=shooter_sum,
        avoid_x_allies=avoid_x_allies,
        cracking=cracking,
        angel_sum=angel_sum,
        armor_x_angel=armor_x_angel,
        exposure=exposure,
        at_risk=cracking or exposure,
    )


def pool_outcome(shooter_number: int, angel_number: int, stats: Stats) -> PoolOutcome:
    """Step 5: S − A above the smallest stat is caught, A − S above the largest escaped."""
    if shooter_number - angel_number > stats.smallest:
        return PoolOutcome.CAUGHT
    if angel_number - shooter_number > stats.largest:
        return PoolOutcome.ESCAPED
    return PoolOutcome.RUNNING


def final_outcome(shooter_number: int, angel_number: int) -> FinalOutcome:
    """Going for broke ("Getting Caught, Getting Away"): numbers compared, a tie at large."""
    if shooter_number > angel_number:
        return FinalOutcome.CAUGHT
    if angel_number > shooter_number:
        return FinalOutcome.ESCAPED
    return FinalOutcome.AT_LARGE
