"""Where a roll's faces come from (D28): the table's, exactly as many as needed, or the
server's, the i-th rolling action of a seeded game drawing from a source seeded from
``(seed, i)`` — so a game replays, and no roll can be picked by retrying."""

from __future__ import annotations

import hashlib

from service.kernel.dice import RandomSource, seeded
from service.kernel.errors import RulesError
from service.rulesets.travelogue.rules.faces import FACES, PoolFaces, check_die, check_pools
from service.rulesets.travelogue.rules.game.model import Game, WhoseDice
from service.rulesets.travelogue.rules.roll import SIDES, draw_pools

__all__ = ["attention_die", "pool_faces", "roll_seed"]


def roll_seed(seed: int, i: int) -> int:
    """The seed of the i-th rolling action (1, 2, …) of a game seeded with ``seed``."""
    digest = hashlib.sha256(f"travelogue:{seed}:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _source(game: Game, strong: RandomSource) -> RandomSource:
    if game.seed is None:
        return strong
    return seeded(roll_seed(game.seed, game.rolls + 1))


def _no_faces(game: Game, given: bool) -> None:
    if given and game.dice_source is WhoseDice.SERVER:
        raise RulesError.from_concerns(
            [
                FACES.faces_not_allowed(
                    "/faces", "This game rolls the server's dice (D28); send no faces."
                )
            ]
        )


def attention_die(game: Game, face: int | None, strong: RandomSource) -> int:
    """The attention die: the table's face, or the server's."""
    _no_faces(game, face is not None)
    if game.dice_source is WhoseDice.TABLE:
        return check_die(face, "/faces")
    return _source(game, strong).randint(1, SIDES)


def pool_faces(
    game: Game, faces: PoolFaces | None, shooter: int, angel: int, strong: RandomSource
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Shooter's then the Angel's dice: the table's faces, or the server's."""
    _no_faces(game, faces is not None)
    if game.dice_source is WhoseDice.TABLE:
        given = check_pools(faces, shooter, angel, "/faces")
        return tuple(given.shooter), tuple(given.angel)
    drawn = draw_pools(_source(game, strong), shooter, angel)
    return drawn.shooter, drawn.angel
