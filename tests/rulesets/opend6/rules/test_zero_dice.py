"""No roll below 1D (D3; "Rolling Dice", "Multi-Action Penalty"): the `zero-dice` refusal
points at what took the code below 1D — the multi-action penalty (`/actions/declared`), a
penalty bonus (`/bonuses/<i>`), else the base (`/base`) — in a stateless roll, its odds,
initiative and a scene's moves (where pointers are into the move's body)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.initiative import InitiativeRequest, roll_initiative
from service.rulesets.opend6.rules.roll_odds import roll_odds
from service.rulesets.opend6.rules.rolls import resolve_roll
from service.rulesets.opend6.rules.scenes.flow import NoDice
from service.rulesets.opend6.rules.scenes.model import (
    Scene,
    SceneParticipant,
    ScenePlayer,
    SceneRules,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove
from service.rulesets.opend6.rules.scenes.play import apply, new_scene
from service.rulesets.opend6.rules.spec import OddsRequest, RollRequest


def zero_dice(call: Any) -> tuple[str | None, str]:
    with pytest.raises(RulesError) as caught:
        call()
    (concern,) = caught.value.concerns
    assert concern.code == "opend6/zero-dice"
    return concern.pointer, concern.detail


def skill(code: str) -> dict[str, str]:
    return {"type": "skill", "code": code}


def hurt(dice: int) -> dict[str, Any]:
    return {"label": "hurt", "dice": dice}


@pytest.mark.parametrize(
    ("fields", "pointer"),
    [
        # "Multi-Action Penalty": 1D with 2 actions at allotment 1 is 0D.
        ({"base": skill("1D"), "actions": {"declared": 2}}, "/actions/declared"),
        # The seed's 4 actions: −3D each, 3D+2 → 0D+2.
        ({"base": skill("3D+2"), "actions": {"declared": 4}}, "/actions/declared"),
        # A bonus left 1D, the penalty took the last die.
        ({"base": skill("2D"), "bonuses": [hurt(-1)], "actions": {"declared": 2}},
         "/actions/declared"),
        # A penalty bonus took it below 1D before the multi-action penalty could.
        ({"base": skill("2D"), "bonuses": [hurt(-2)], "actions": {"declared": 2}},
         "/bonuses/0"),
        ({"base": skill("2D"), "bonuses": [hurt(-1), hurt(-1)]}, "/bonuses/1"),
        # Back above 1D, then below again: the last fall counts.
        ({"base": skill("2D"), "bonuses": [hurt(-2), hurt(1), hurt(-1)]}, "/bonuses/2"),
        # Never 1D: the base is at fault, whatever penalties follow.
        ({"base": skill("0D+2")}, "/base"),
        ({"base": skill("0D+2"), "bonuses": [hurt(-1)], "actions": {"declared": 3}}, "/base"),
        ({"base": {"type": "untrained", "attribute": "0D+1"}}, "/base"),
    ],
)  # fmt: skip
def test_rolling_dice_zero_dice_points_at_what_took_the_code_below_1d(
    fields: dict[str, Any], pointer: str
) -> None:
    """D3: every roll needs its Wild Die; the refusal says which member left none."""
    request = msgspec.convert(fields, RollRequest)
    assert zero_dice(lambda: resolve_roll(request, random.Random(0), "r"))[0] == pointer
    odds = msgspec.convert(fields, OddsRequest)
    assert zero_dice(lambda: roll_odds(odds))[0] == pointer


def test_multi_action_penalty_zero_dice_names_the_penalty() -> None:
    """ "Multi-Action Penalty": four actions at allotment 1 cost 3D each; 3D+2 → 0D+2."""
    request = msgspec.convert({"base": skill("3D+2"), "actions": {"declared": 4}}, RollRequest)
    _, detail = zero_dice(lambda: resolve_roll(request, random.Random(0), "r"))
    assert detail == (
        "The roll comes to 0D+2: the multi-action penalty (4 actions declared, allotment 1: "
        "-3D) takes it below 1D, and every roll needs at least one die, its Wild Die (D3)."
    )


def test_rolling_dice_zero_dice_names_the_bonus_or_the_base() -> None:
    request = msgspec.convert({"base": skill("1D"), "bonuses": [hurt(-1)]}, RollRequest)
    assert (
        "the bonus 'hurt' (-1D) takes it below 1D"
        in zero_dice(lambda: resolve_roll(request, random.Random(0), "r"))[1]
    )
    request = msgspec.convert({"base": skill("0D+2")}, RollRequest)
    assert (
        "the base 0D+2 is below 1D"
        in zero_dice(lambda: resolve_roll(request, random.Random(0), "r"))[1]
    )


def test_multi_action_penalty_spares_damage_so_no_zero_dice() -> None:
    """D13: a damage roll takes no multi-action penalty: 1D with 4 actions still rolls."""
    request = msgspec.convert(
        {"base": skill("1D"), "kind": "damage", "actions": {"declared": 4}}, RollRequest
    )
    assert resolve_roll(request, random.Random(0), "r").rolled_code == "1D"


def test_initiative_zero_dice_points_at_the_acumen() -> None:
    """ "Initiative": the Acumen rolls; a 0D+2 Acumen is the entrant's `acumen`."""
    request = msgspec.convert(
        {"participants": [
            {"id": "ana", "name": "Ana", "acumen": "3D", "agility": "3D"},
            {"id": "orc", "name": "Orc", "acumen": "0D+2", "agility": "2D"},
        ]},
        InitiativeRequest,
    )  # fmt: skip
    pointer, _ = zero_dice(lambda: roll_initiative(request, random.Random(0), "i"))
    assert pointer == "/participants/1/acumen"


# A scene: pointers are into the move's body ------------------------------------------


def new(method: str = "first_action") -> Scene:
    return new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert({"initiative": method, "dice_source": "client"}, SceneRules),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(
            [
                {
                    "id": "ana-pc",
                    "name": "Ana",
                    "controller": "ana",
                    "acumen": "3D",
                    "agility": "3D",
                },
                {"id": "orc", "name": "Orc", "acumen": "0D+2", "agility": "2D"},
            ],
            tuple[SceneParticipant, ...],
        ),
    ).state


def play(scene: Scene, actor: str, body: dict[str, Any]) -> Scene:
    move = msgspec.convert({"round": scene.round, **body}, SceneMove)
    return apply(scene, move, actor, NoDice(), f"r{scene.rolls_made + 1}").state


def ana_declares(actions: int) -> Scene:
    scene = play(new(), "gm", {"type": "set_order", "first": ["ana-pc"]})
    return play(scene, "ana", {"type": "declare", "participant": "ana-pc", "actions": actions})


def roll(code: str, **spec: Any) -> dict[str, Any]:
    faces = {"regular": [3] * max(0, int(code[0]) - 1), "wild": [4]}
    return {
        "type": "roll",
        "participant": "ana-pc",
        "spec": {"base": skill(code), "faces": faces, **spec},
    }


@pytest.mark.parametrize(
    ("actions", "body", "pointer"),
    [
        # Declared 2 at allotment 1: −1D takes 1D to 0D; the `declare` was the participant's.
        (2, roll("1D"), "/participant"),
        (4, roll("3D+2"), "/participant"),
        (1, roll("2D", bonuses=[hurt(-2)]), "/spec/bonuses/0"),
        (2, roll("2D", bonuses=[hurt(-2)]), "/spec/bonuses/0"),
        (1, roll("0D+2"), "/spec/base"),
    ],
)
def test_multi_action_penalty_a_scene_rolls_zero_dice_points_into_the_move(
    actions: int, body: dict[str, Any], pointer: str
) -> None:
    """D3, "Multi-Action Penalty": a scene's roll refused below 1D points at the move's
    member: the participant (whose `declare` set the penalty), a bonus, or the base."""
    scene = ana_declares(actions)
    assert zero_dice(lambda: play(scene, "ana", body))[0] == pointer


def test_initiative_a_scenes_zero_dice_acumen_points_at_the_participant() -> None:
    """ "Initiative": the orc's 0D+2 Acumen cannot be rolled: the move's roll names it."""
    scene = new("rolled_per_round")
    move = {"type": "initiative", "rolls": [
        {"participant": "ana-pc", "faces": {"regular": [3, 3], "wild": [4]}},
        {"participant": "orc", "faces": {"wild": [4]}},
    ]}  # fmt: skip
    assert zero_dice(lambda: play(scene, "gm", move))[0] == "/rolls/1/participant"
