"""Who the game waits for, and with what (the design's `waiting_for`): derived from the
state at every step, so the refusals and a client read the same answer."""

from __future__ import annotations

from service.kernel.values import Value
from service.rulesets.travelogue.rules.game.model import Game, Status, Step, WhoseDice
from service.rulesets.travelogue.rules.game.table import bullseye, player_ids, running

__all__ = ["DiceNeeded", "WaitingFor", "Who", "waiting_for"]


class DiceNeeded(Value, frozen=True, kw_only=True):
    """The table's dice the awaited roll needs: the attention die (`die`: 1), or the
    Shooter's and the Angel's pools."""

    die: int = 0
    shooter: int = 0
    angel: int = 0


class Who(Value, frozen=True, kw_only=True):
    player: str
    actions: tuple[str, ...]


class WaitingFor(Value, frozen=True, kw_only=True):
    step: Step
    dice_needed: DiceNeeded | None
    who: tuple[Who, ...]


def _final_roller(game: Game) -> str | None:
    """The next go-for-broke roller: the running players roll in seat order."""
    assert game.departure is not None
    return next((p for p in game.departure.voters if p not in game.departure.final), None)


def _who(game: Game) -> tuple[Who, ...]:
    step = game.step
    if step is Step.PLAY:
        return tuple(Who(player=p, actions=("take_flag",)) for p in running(game))
    if step is Step.PLAY_TAKEN:
        assert game.hand is not None
        return (Who(player=game.hand.reacher, actions=("hand_flag", "return_flag")),)
    if step is Step.PLAY_HANDED:
        assert game.hand is not None
        assert game.hand.holder is not None
        return (Who(player=game.hand.holder, actions=("accept_flag", "reject_flag")),)
    if step is Step.ATTENTION_ROLL:
        return tuple(Who(player=p, actions=("roll_attention",)) for p in player_ids(game))
    if step in (Step.ATTENTION_POOLS, Step.ATTENTION_RISK, Step.ATTENTION_SCENE):
        assert game.attention is not None
        actions = {
            Step.ATTENTION_POOLS: ("roll_pools",),
            Step.ATTENTION_RISK: ("buy_out", "let_flip"),
            Step.ATTENTION_SCENE: ("close_scene",),
        }[step]
        return (Who(player=game.attention.active, actions=actions),)
    if step is Step.DEPARTURE_VOTE:
        assert game.departure is not None
        votes = game.departure.votes
        return tuple(
            Who(player=p, actions=("vote",)) for p in game.departure.voters if p not in votes
        )
    if step is Step.DEPARTURE_FINAL:
        roller = _final_roller(game)
        return () if roller is None else (Who(player=roller, actions=("roll_final",)),)
    if step is Step.DEPARTURE_DISTRIBUTE:
        assert game.departure is not None
        return (Who(player=game.departure.bullseye, actions=("distribute",)),)
    if step in (Step.MOVES_LOWER, Step.MOVES_UPPER):
        assert game.neighbours is not None
        move = game.neighbours.lower if step is Step.MOVES_LOWER else game.neighbours.upper
        assert move.mover is not None
        return (Who(player=move.mover, actions=("move_flag", "pass")),)
    return ()


def _dice(game: Game) -> DiceNeeded | None:
    if game.dice_source is WhoseDice.SERVER:
        return None
    if game.step is Step.ATTENTION_ROLL:
        return DiceNeeded(die=1)
    if game.step is Step.ATTENTION_POOLS:
        assert game.attention is not None
        b = bullseye(game, game.attention.active)
        return DiceNeeded(shooter=b.shooter.ammo, angel=b.angel.ammo)
    if game.step is Step.DEPARTURE_FINAL and (roller := _final_roller(game)) is not None:
        b = bullseye(game, roller)
        return DiceNeeded(shooter=b.shooter.ammo, angel=b.angel.ammo)
    return None


def waiting_for(game: Game) -> WaitingFor:
    """The step, the table's dice it needs (null with the server's), and who may act how.
    `rename_angel`, open to every running bullseye's player until the end, is not listed."""
    return WaitingFor(step=game.step, dice_needed=_dice(game), who=_who(game))


def may_rename(game: Game, player_id: str) -> bool:
    return game.step is not Step.ENDED and bullseye(game, player_id).status is Status.RUNNING
