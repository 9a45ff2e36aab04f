"""The roll a game waits for, as the stateless odds take it: the active player's pools
after the Shooter's bonus, and his stats as they stand ("Rolling The Bones")."""

from __future__ import annotations

import msgspec

from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.model import Game, Step
from service.rulesets.travelogue.rules.game.table import bullseye
from service.rulesets.travelogue.rules.game.waiting import waiting_for
from service.rulesets.travelogue.rules.roll import PoolsRequest
from service.rulesets.travelogue.rules.stats import Track

__all__ = ["pending_pools"]


def pending_pools(game: Game) -> PoolsRequest:
    """The pools `roll_pools` will roll now.

    Raises:
        RulesError: `wrong-step` (409, with `waiting_for`) in any step but
            `attention.pools`.
    """
    if game.step is not Step.ATTENTION_POOLS or game.attention is None:
        raise refuse(
            "wrong-step",
            f"No roll of the pools is pending: the game is at '{game.step}'.",
            extensions={"waiting_for": msgspec.json.decode(msgspec.json.encode(waiting_for(game)))},
        )
    active = bullseye(game, game.attention.active)
    return PoolsRequest(
        shooter=Track(aim=active.shooter.aim, ammo=active.shooter.ammo),
        angel=Track(aim=active.angel.aim, ammo=active.angel.ammo),
        stats=active.stats,
    )
