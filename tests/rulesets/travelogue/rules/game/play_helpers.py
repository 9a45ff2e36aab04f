"""Playing the pure engine in tests: a game, actions applied in turn."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import msgspec

from service.kernel.errors import RulesError
from service.rulesets.travelogue.rules.game.actions import Action
from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.model import Game, WhoseDice
from service.rulesets.travelogue.rules.game.setup import new_game
from service.rulesets.travelogue.rules.game.view import game_state
from service.rulesets.travelogue.rules.sheet import Sheet
from tests.rulesets.travelogue.rules.game.full_game import SHEETS, STEPS

__all__ = ["as_action", "full_game_until", "play", "refusal", "table_game", "view_of"]

STRONG = random.Random(0)


def table_game(sheets: tuple[Sheet, ...] = SHEETS) -> Game:
    return new_game(sheets, game_id="g", name="A table", dice_source=WhoseDice.TABLE).state


def play(game: Game, steps: Iterable[tuple[str, Action]]) -> Game:
    for actor, action in steps:
        game = apply(game, actor, action, STRONG).state
    return game


def full_game_until(index: int) -> Game:
    """The full game with its first ``index`` actions applied."""
    return play(table_game(), STEPS[:index])


def refusal(game: Game, actor: str, action: Action) -> RulesError:
    try:
        apply(game, actor, action, STRONG)
    except RulesError as error:
        return error
    raise AssertionError(f"{action} by {actor} was applied")


def view_of(game: Game) -> dict[str, Any]:
    """The game as a client reads it (the view as JSON builtins)."""
    built: dict[str, Any] = msgspec.to_builtins(game_state(game, version=game.actions + 1))
    return built


def as_action(body: dict[str, Any]) -> Action:
    action: Action = msgspec.convert(body, Action)
    return action
