"""The GM's Character Point limit on one roll ("Character Points", D7): easy 2, cinematic
5, universe-shaking "unlimited" — a null `character_point_limit` — which is 20 a roll,
before and after together, wherever points are spent: a roll, its odds, opposed rolls
and their odds, initiative, and a scene's rolls and `spend_character_points`."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.difficulties import Challenge, character_point_limit
from service.rulesets.opend6.rules.initiative import InitiativeRequest, roll_initiative
from service.rulesets.opend6.rules.opposed import OpposedRequest, resolve_opposed
from service.rulesets.opend6.rules.roll_odds import (
    OpposedOddsRequest,
    opposed_roll_odds,
    roll_odds,
)
from service.rulesets.opend6.rules.rolls import resolve_roll
from service.rulesets.opend6.rules.scenes.flow import NoDice
from service.rulesets.opend6.rules.scenes.model import (
    SceneParticipant,
    ScenePlayer,
    SceneRules,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove
from service.rulesets.opend6.rules.scenes.play import apply, new_scene
from service.rulesets.opend6.rules.spec import (
    MAX_POINTS,
    OddsRequest,
    RollRequest,
    cp_limit,
)

SKILL = {"type": "skill", "code": "3D"}


def refusal(call: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        call()
    return caught.value


def found(error: RulesError) -> list[tuple[str, str | None]]:
    return [(concern.code, concern.pointer) for concern in error.concerns]


def test_character_points_unlimited_is_20_a_roll() -> None:
    """ "Character Points": null ("unlimited") means 20, the universe-shaking row (D7)."""
    assert cp_limit(None) == MAX_POINTS == 20
    assert character_point_limit(Challenge.UNIVERSE_SHAKING) == cp_limit(None)
    assert (cp_limit(2), cp_limit(5), cp_limit(0)) == (2, 5, 0)


@pytest.mark.parametrize(("before", "after"), [(20, 20), (20, 1), (1, 20), (11, 10)])
def test_character_points_unlimited_refuses_more_than_20_on_a_roll(before: int, after: int) -> None:
    """ "Character Points": with no limit set, 40 (or 21) points before and after is
    more than "unlimited" allows (D7): 422 `cp-limit`, naming the limit."""
    request = msgspec.convert(
        {"base": SKILL, "character_points": {"before": before, "after": after}}, RollRequest
    )
    error = refusal(lambda: resolve_roll(request, random.Random(1), "r"))
    assert found(error) == [("opend6/cp-limit", "/character_points")]
    assert f"{before + after} Character Points" in error.concerns[0].detail
    assert '20 ("unlimited" is 20 a roll, D7)' in error.concerns[0].detail


def test_character_points_unlimited_takes_20_on_a_roll() -> None:
    """ "Character Points": 20 in all (12 before, 8 after) is within "unlimited" (D7)."""
    request = msgspec.convert(
        {"base": SKILL, "character_points": {"before": 12, "after": 8}}, RollRequest
    )
    result = resolve_roll(request, random.Random(2), "r")
    assert result.points.spent.character_points == 20
    assert sum(die.role == "cp" for die in result.dice) == 20


def test_character_points_the_gms_limit_is_named() -> None:
    """ "Character Points": an easy adventure's 2; 3 points name the GM's limit."""
    request = msgspec.convert(
        {"base": SKILL, "character_points": {"before": 2, "after": 1}, "character_point_limit": 2},
        RollRequest,
    )
    error = refusal(lambda: resolve_roll(request, random.Random(1), "r"))
    assert "the limit is 2 (the GM's `character_point_limit`)" in error.concerns[0].detail


def test_character_points_the_odds_refuse_more_than_unlimited() -> None:
    """ "Character Points": the odds of 40 CP dice are refused as the roll is (D7)."""
    request = msgspec.convert(
        {"base": SKILL, "character_points": {"before": 20, "after": 20}}, OddsRequest
    )
    assert found(refusal(lambda: roll_odds(request))) == [("opend6/cp-limit", "/character_points")]
    within = msgspec.convert(
        {"base": SKILL, "character_points": {"before": 10, "after": 10}}, OddsRequest
    )
    assert roll_odds(within).cp_dice == 20


def test_character_points_an_opposed_side_takes_at_most_20() -> None:
    """ "Character Points", "Opposed Difficulties": each side is a roll, within 20 (D7)."""
    too_many = {"base": SKILL, "character_points": {"before": 20, "after": 20}}
    body = {"initiator": {"base": SKILL}, "resister": too_many}
    request = msgspec.convert(body, OpposedRequest)
    error = refusal(lambda: resolve_opposed(request, random.Random(1), "o"))
    assert found(error) == [("opend6/cp-limit", "/resister/character_points")]
    odds = msgspec.convert(body, OpposedOddsRequest)
    error = refusal(lambda: opposed_roll_odds(odds))
    assert found(error) == [("opend6/cp-limit", "/resister/character_points")]


def test_character_points_initiative_takes_at_most_20() -> None:
    """ "Initiative": CP dice may raise an initiative roll, 20 at most (D7): the field's
    bound and the roll's limit are the same number."""
    entrant = {"id": "ana", "name": "Ana", "acumen": "3D", "agility": "3D"}
    request = msgspec.convert(
        {"participants": [{**entrant, "character_points": 20}]}, InitiativeRequest
    )
    (place,) = roll_initiative(request, random.Random(3), "i").order
    assert place.roll is not None
    assert place.roll.points.spent.character_points == 20
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"participants": [{**entrant, "character_points": 21}]}, InitiativeRequest)


def _scene(limit: int | None) -> Any:
    scene = new_scene(
        scene_id="s",
        name="Bridge",
        rules=msgspec.convert(
            {"initiative": "first_action", "character_point_limit": limit}, SceneRules
        ),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(
            [
                {
                    "id": "ana-pc",
                    "name": "Ana",
                    "controller": "ana",
                    "acumen": "3D",
                    "agility": "3D",
                    "character_points": 100,
                }
            ],
            tuple[SceneParticipant, ...],
        ),
    ).state
    scene = _play(scene, "gm", {"type": "set_order", "first": ["ana-pc"]}, NoDice()).state
    return _play(
        scene, "ana", {"type": "declare", "participant": "ana-pc", "actions": 1}, NoDice()
    ).state


def _play(scene: Any, actor: str, body: dict[str, Any], rng: Any) -> Any:
    move = msgspec.convert({"round": scene.round, **body}, SceneMove)
    return apply(scene, move, actor, rng, f"r{scene.rolls_made + 1}")


@pytest.mark.parametrize(("limit", "named"), [(None, '20 ("unlimited"'), (5, "5 (the GM's")])
def test_character_points_a_scene_roll_and_its_later_points_share_the_limit(
    limit: int | None, named: str
) -> None:
    """ "Character Points": in a scene, before and after share one limit, "unlimited"
    being 20 (D7); the refusal points at the move's `count` and names the limit."""
    scene = _scene(limit)
    before = cp_limit(limit) - 1
    spec = {"base": SKILL, "character_points": before}
    roll = {"type": "roll", "participant": "ana-pc", "spec": spec}
    scene = _play(scene, "ana", roll, random.Random(4)).state
    spend = {"type": "spend_character_points", "roll": "r1", "count": 1}
    at_limit = _play(scene, "ana", spend, random.Random(5)).state
    assert at_limit.pending[0].roll.points.spent.character_points == cp_limit(limit)
    with pytest.raises(RulesError) as caught:
        _play(at_limit, "ana", spend, random.Random(6))
    assert found(caught.value) == [("opend6/cp-limit", "/count")]
    assert named in caught.value.concerns[0].detail
