"""Reach Out (Part 3) and the refusals' order (the design's "Errors"; D6–D10, D28, D29)."""

from __future__ import annotations

import random

import msgspec

from service.rulesets.travelogue.rules.faces import PoolFaces
from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    HandFlag,
    RejectFlag,
    RenameAngel,
    ReturnFlag,
    RollAttention,
    RollPools,
    TakeFlag,
)
from service.rulesets.travelogue.rules.game.engine import apply
from service.rulesets.travelogue.rules.game.errors import GAME_PROBLEM_STATUS
from service.rulesets.travelogue.rules.game.model import (
    MAX_ACTIONS,
    GameStatus,
    Kind,
    Place,
    Ring,
    Status,
    Step,
    WhoseDice,
)
from service.rulesets.travelogue.rules.game.setup import new_game
from service.rulesets.travelogue.rules.game.table import bullseye, flag, middle, with_bullseye
from tests.rulesets.travelogue.rules.game.full_game import SHEETS
from tests.rulesets.travelogue.rules.game.play_helpers import (
    full_game_until,
    play,
    refusal,
    table_game,
)


def test_reach_out_a_second_take_with_a_flag_in_hand_is_409() -> None:
    """Reach Out (D10): one flag in hand; a second take → 409 `wrong-step`."""
    game = play(table_game(), [("hugo", TakeFlag(flag=1))])
    error = refusal(game, "hugo", TakeFlag(flag=2))
    assert error.code == "travelogue/wrong-step"
    assert GAME_PROBLEM_STATUS["wrong-step"] == 409


def test_reach_out_an_unhanded_flag_may_go_back() -> None:
    """Reach Out (D10): the reacher puts back an unhanded flag; once handed, he may not."""
    game = play(table_game(), [("hugo", TakeFlag(flag=1)), ("hugo", ReturnFlag())])
    assert (flag(game, 1).place, game.hand, game.step) == (Place.MIDDLE, None, Step.PLAY)
    handed = play(game, [("hugo", TakeFlag(flag=1, to="annie"))])
    assert refusal(handed, "hugo", ReturnFlag()).code == "travelogue/wrong-step"


def test_reach_out_a_rejected_flag_is_back_in_the_middle() -> None:
    """Reach Out (D7): the holder's "no" sends the flag back to the middle."""
    game = play(table_game(), [("hugo", TakeFlag(flag=3)), ("hugo", HandFlag(to="vera"))])
    game = play(game, [("vera", RejectFlag())])
    assert middle(game) == (1, 2, 3, 4, 5, 6)
    assert bullseye(game, "hugo").angel.aim == 0


def test_reach_out_on_behalf_lands_on_the_reachers_target_and_helps_the_beneficiary() -> None:
    """Reach Out (D8, D9): Hugo's flag 2 for Annie, accepted by Vera onto Hugo's flipped
    possessions: Annie's Angel gains one Ammo, Hugo's none."""
    game = table_game()
    rings = dict(bullseye(game, "hugo").rings)
    rings[Ring.POSSESSIONS] = msgspec.structs.replace(rings[Ring.POSSESSIONS], flipped=True)
    game = with_bullseye(game, "hugo", rings=rings)
    game = play(
        game,
        [
            ("hugo", TakeFlag(flag=2, to="vera", on_behalf_of="annie")),
            ("vera", AcceptFlag(ring="possessions")),
        ],
    )
    assert (flag(game, 2).bullseye, flag(game, 2).ring) == ("hugo", Ring.POSSESSIONS)
    assert (bullseye(game, "annie").angel.aim, bullseye(game, "annie").angel.ammo) == (0, 1)
    assert bullseye(game, "hugo").angel.ammo == 0


def test_reach_out_flag_kinds_may_be_set_at_creation() -> None:
    """D5: `flag_kinds` overrides odd = Aim."""
    kinds = (Kind.AMMO,) * 12
    game = new_game(
        SHEETS, game_id="g", name="n", dice_source=WhoseDice.TABLE, flag_kinds=kinds
    ).state
    game = play(
        game, [("hugo", TakeFlag(flag=1, to="annie")), ("annie", AcceptFlag(ring="friends"))]
    )
    assert (bullseye(game, "hugo").angel.aim, bullseye(game, "hugo").angel.ammo) == (0, 1)


def test_reach_out_the_last_accept_opens_the_attention_and_the_pools_are_the_active_players() -> (
    None
):
    """Reach Out: emptying the middle opens `attention.roll` (anyone rolls, D11);
    `roll_pools` by another than the active player → 403 `not-your-move` with `waiting_for`."""
    game = full_game_until(14)
    assert game.step is Step.ATTENTION_ROLL
    game = play(game, [("archer", RollAttention(faces=4))])
    error = refusal(game, "annie", RollPools(faces=PoolFaces(shooter=(5, 6))))
    assert error.code == "travelogue/not-your-move"
    assert GAME_PROBLEM_STATUS["not-your-move"] == 403
    assert error.extensions["waiting_for"] == {
        "step": "attention.pools",
        "dice_needed": {"die": 0, "shooter": 2, "angel": 0},
        "who": [{"player": "hugo", "actions": ["roll_pools"]}],
    }


def test_reach_out_refusals_of_a_hand_over() -> None:
    """Reach Out: the middle's flags only; a known other player (D6); a running
    beneficiary (D8); a ring of the four (D1)."""
    game = table_game()
    assert refusal(game, "hugo", TakeFlag(flag=7)).code == "travelogue/flag-not-in-middle"
    assert refusal(game, "hugo", TakeFlag(flag=1, to="zoe")).code == "travelogue/unknown-player"
    assert refusal(game, "hugo", TakeFlag(flag=1, to="hugo")).code == "travelogue/hand-to-self"
    out = with_bullseye(game, "vera", status=Status.CAUGHT)
    taken = TakeFlag(flag=1, to="annie", on_behalf_of="vera")
    assert refusal(out, "hugo", taken).code == "travelogue/not-running"
    assert refusal(out, "vera", TakeFlag(flag=1)).code == "travelogue/not-your-move"
    handed = play(game, [("hugo", TakeFlag(flag=1, to="annie"))])
    assert refusal(handed, "annie", AcceptFlag(ring="centre")).code == "travelogue/unknown-ring"


def test_errors_come_in_order_409_then_403_then_422() -> None:
    """Errors: `wrong-step` beats `not-your-move`, which beats the 422s."""
    game = table_game()
    assert refusal(game, "hugo", RollAttention(faces=9)).code == "travelogue/wrong-step"
    handed = play(game, [("hugo", TakeFlag(flag=1, to="annie"))])
    assert refusal(handed, "vera", AcceptFlag(ring="nowhere")).code == "travelogue/not-your-move"


def test_errors_an_ended_game_and_the_action_limit() -> None:
    """Errors (D29): an ended game → 409 `game-ended`; after 10 000 actions → 409
    `action-limit-reached`."""
    ended = full_game_until(51)
    assert ended.status is GameStatus.ENDED
    assert refusal(ended, "vera", RenameAngel(name="Luck")).code == "travelogue/game-ended"
    spent = msgspec.structs.replace(table_game(), actions=MAX_ACTIONS)
    assert refusal(spent, "hugo", TakeFlag(flag=1)).code == "travelogue/action-limit-reached"


def test_dice_table_faces_must_be_exact_and_server_games_take_none() -> None:
    """Dice (D28): the table's dice exactly as `dice_needed` says; faces with the server's
    dice → 422 `faces-not-allowed`."""
    game = full_game_until(14)
    assert refusal(game, "hugo", RollAttention()).code == "travelogue/faces-missing"
    assert refusal(game, "hugo", RollAttention(faces=7)).code == "travelogue/face-out-of-range"
    game = play(game, [("hugo", RollAttention(faces=4))])
    extra = RollPools(faces=PoolFaces(shooter=(1, 2, 3)))
    assert refusal(game, "hugo", extra).code == "travelogue/faces-extra"
    server = msgspec.structs.replace(game, dice_source=WhoseDice.SERVER)
    assert refusal(server, "hugo", extra).code == "travelogue/faces-not-allowed"


def test_dice_a_seeded_game_rolls_the_same_dice_whatever_the_strong_source() -> None:
    """Dice (D28): the i-th rolling action draws from (seed, i), never from the caller."""
    game = full_game_until(14)
    seeded = msgspec.structs.replace(game, dice_source=WhoseDice.SERVER, seed=7)
    one = apply(seeded, "hugo", RollAttention(), random.Random(1)).state
    two = apply(seeded, "hugo", RollAttention(), random.Random(2)).state
    assert one.attention == two.attention
    dice = set()
    for seed in range(1, 25):  # and the seed does choose them
        game_of_seed = msgspec.structs.replace(seeded, seed=seed)
        attention = apply(game_of_seed, "hugo", RollAttention(), random.Random(1)).state.attention
        assert attention is not None
        dice.add(attention.die)
    assert len(dice) > 1


def test_rename_angel_changes_no_number_and_is_for_running_bullseyes() -> None:
    """D27: a running bullseye's Angel takes a new name at any step; not a departed one's."""
    game = play(full_game_until(14), [("vera", RenameAngel(name="  Her sister  "))])
    assert bullseye(game, "vera").angel.name == "Her sister"
    assert bullseye(game, "vera").angel.aim == 1
    assert game.step is Step.ATTENTION_ROLL
    assert refusal(game, "vera", RenameAngel(name="  ")).code == "travelogue/blank-text"
    caught = full_game_until(33)
    assert refusal(caught, "hugo", RenameAngel(name="Luck")).code == "travelogue/not-your-move"


def test_the_created_event_is_stamped_with_the_creation_time_and_no_actor() -> None:
    """Part 2, "Events": every event's data carries `version`, `at` and `actor`; nobody's
    action creates a game, so `game.created` has the time and an empty actor."""
    applied = new_game(SHEETS, game_id="g", name="A table", at="2026-11-25T23:58:16.410Z")
    (created,) = applied.events
    assert (created.type, created.version, created.at, created.actor) == (
        "game.created",
        1,
        "2026-11-25T23:58:16.410Z",
        "",
    )
