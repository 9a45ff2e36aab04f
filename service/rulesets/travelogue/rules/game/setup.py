"""A new game from validated sheets ("The Set Up", "Bullseyes", "The Blanks"; D5)."""

from __future__ import annotations

from collections.abc import Sequence

from service.kernel.errors import Concern
from service.kernel.sessions import Applied
from service.rulesets.travelogue.rules.game.errors import refuse
from service.rulesets.travelogue.rules.game.events import GameCreated
from service.rulesets.travelogue.rules.game.model import (
    FLAG_COUNT,
    Bullseye,
    Figure,
    Flag,
    Game,
    Kind,
    Place,
    Player,
    Ring,
    RingState,
    WhoseDice,
)
from service.rulesets.travelogue.rules.setup import check_setup, setup_error, setup_warnings
from service.rulesets.travelogue.rules.sheet import Sheet

__all__ = ["check_dice", "default_kinds", "new_game", "set_up_game"]


def default_kinds() -> tuple[Kind, ...]:
    """Odd flags say Aim, even ones Ammo (D5)."""
    return tuple(Kind.AIM if n % 2 else Kind.AMMO for n in range(1, FLAG_COUNT + 1))


def _player(sheet: Sheet) -> Player:
    return Player(
        id=sheet.player,
        bullseye=Bullseye(
            name=sheet.name,
            shooter=Figure(name=sheet.shooter, aim=1, ammo=1),
            angel=Figure(name=sheet.angel, aim=0, ammo=0),
            beef=sheet.beef,
            stats=sheet.stats.checked(),
            rings={ring: RingState() for ring in Ring},
        ),
    )


def check_dice(dice_source: WhoseDice, seed: int | None) -> None:
    """D28: a seed only for the server's dice, given at creation.

    Raises:
        RulesError: `seed-not-allowed` (422) with the table's dice.
    """
    if seed is not None and dice_source is WhoseDice.TABLE:
        raise refuse(
            "seed-not-allowed",
            "A seed draws the server's dice; this game rolls the table's (D28).",
            "/seed",
        )


def new_game(
    sheets: Sequence[Sheet],
    *,
    game_id: str,
    name: str,
    dice_source: WhoseDice = WhoseDice.SERVER,
    seed: int | None = None,
    flag_kinds: Sequence[Kind] | None = None,
    warnings: Sequence[Concern] = (),
    at: str = "",
) -> Applied[Game]:
    """The game at its first batch: flags 1–6 in the middle, 7–12 in the box, every
    Shooter 1/1 and Angel 0/0, every circle empty. The sheets are valid (the caller's
    set-up check); ``seed`` only with the server's dice (D28). ``at`` stamps the
    `game.created` event, which no player's action makes (its ``actor`` is empty)."""
    kinds = tuple(flag_kinds) if flag_kinds is not None else default_kinds()
    flags = tuple(
        Flag(number=n, kind=kinds[n - 1], place=Place.MIDDLE if n <= 6 else Place.BOX)
        for n in range(1, FLAG_COUNT + 1)
    )
    game = Game(
        id=game_id,
        name=name,
        dice_source=dice_source,
        seed=seed if dice_source is WhoseDice.SERVER else None,
        warnings=tuple(warnings),
        players=tuple(_player(sheet) for sheet in sheets),
        flags=flags,
    )
    created = GameCreated(
        version=1,
        at=at,
        players=tuple(sheet.player for sheet in sheets),
        middle=tuple(range(1, 7)),
    )
    return Applied(game, (created,))


def set_up_game(
    sheets: Sequence[Sheet],
    *,
    game_id: str,
    name: str,
    dice_source: WhoseDice = WhoseDice.SERVER,
    seed: int | None = None,
    flag_kinds: Sequence[Kind] | None = None,
    at: str = "",
) -> Applied[Game]:
    """A game from the table's sheets as sent: the set-up checked first ("The Set Up",
    D2–D4: every violation at once), then the dice (D28), then the game with the set-up's
    warnings kept.

    Raises:
        RulesError: `invalid-setup` (422, every violation), `seed-not-allowed` (422).
    """
    report = check_setup(sheets)
    if not report.valid:
        raise setup_error(report)
    check_dice(dice_source, seed)
    return new_game(
        sheets,
        game_id=game_id,
        name=name,
        dice_source=dice_source,
        seed=seed,
        flag_kinds=flag_kinds,
        warnings=setup_warnings(report),
        at=at,
    )
