"""The Wild-Die-Only difficulty ("Special Difficulties", D14): one toss of the Wild Die,
never tossed again — a 6 is a Critical Success, a 1 a success with a minor complication,
anything else a plain success. A stateless roll (the table's faces, a seed, the server's
dice), its odds and a scene's `resolve` with `wild_die_only` read the same one toss."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.roll_odds import roll_odds
from service.rulesets.opend6.rules.rolls import DieRole, RollOutcome, resolve_roll
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

WILD_DIE_ONLY = {"kind": "wild_die_only"}
SKILL = {"type": "skill", "code": "4D"}
READING = {
    6: (RollOutcome.CRITICAL_SUCCESS, False),
    1: (RollOutcome.SUCCESS, True),
    2: (RollOutcome.SUCCESS, False),
    3: (RollOutcome.SUCCESS, False),
    4: (RollOutcome.SUCCESS, False),
    5: (RollOutcome.SUCCESS, False),
}


def stateless(rng: Any = None, **fields: object) -> Any:
    body = {"base": SKILL, "difficulty": WILD_DIE_ONLY, **fields}
    return resolve_roll(msgspec.convert(body, RollRequest), rng or NoDice(), "r")


def refused(**fields: object) -> list[tuple[str, str | None]]:
    with pytest.raises(RulesError) as caught:
        stateless(random.Random(0), **fields)
    return [(concern.code, concern.pointer) for concern in caught.value.concerns]


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_special_difficulties_wild_die_only_is_one_toss_of_the_tables_wild_die(
    face: int,
) -> None:
    """ "Special Difficulties": `wild: [6]` is the whole roll — a Critical Success with no
    further toss (D14); a 1 succeeds with a complication; nothing else is rolled."""
    result = stateless(faces={"wild": [face]})
    assert (result.outcome, result.complication) == READING[face]
    assert [(die.role, die.face) for die in result.dice] == [(DieRole.WILD, face)]
    assert (result.total, result.wild.explosions, result.result_points) == (face, 0, None)


@pytest.mark.parametrize(
    ("faces", "problems"),
    [
        ({"wild": [6, 2]}, [("opend6/faces-extra", "/faces/wild")]),
        ({"wild": [6, 6, 6]}, [("opend6/faces-extra", "/faces/wild")]),
        ({"regular": [3, 4, 5], "wild": [4]}, [("opend6/faces-extra", "/faces/regular")]),
        (
            {"regular": [3], "wild": [6, 1]},
            [("opend6/faces-extra", "/faces/wild"), ("opend6/faces-extra", "/faces/regular")],
        ),
        ({"regular": [3]}, [("opend6/faces-missing", "/faces/wild"),
                            ("opend6/faces-extra", "/faces/regular")]),
        ({"wild": [2], "character_points": [[3]]},
         [("opend6/faces-extra", "/faces/character_points")]),
    ],
)  # fmt: skip
def test_special_difficulties_wild_die_only_refuses_any_face_but_one_wild_toss(
    faces: dict[str, Any], problems: list[tuple[str, str]]
) -> None:
    """ "Special Difficulties": the roll is one toss (D14); regular faces, a second Wild
    Die toss (a 6 is never tossed again) or a CP die are 422 `faces-extra`."""
    assert refused(faces=faces) == problems


def test_special_difficulties_wild_die_only_says_why_a_face_is_too_many() -> None:
    with pytest.raises(RulesError) as caught:
        stateless(faces={"wild": [6, 6, 2]})
    assert caught.value.concerns[0].detail == (
        "A Wild-Die-Only roll is one toss of the Wild Die, never tossed again (D14): "
        "2 toss(es) too many."
    )


def test_special_difficulties_wild_die_only_the_servers_dice_toss_once() -> None:
    """ "Special Difficulties": the server tosses the Wild Die once, a 6 too (D14); a seed
    and the answer's `faces` replay the roll."""
    outcomes = set()
    for seed in range(60):
        result = stateless(seed=seed)
        (die,) = result.dice
        assert (die.role, result.total, result.wild.explosions) == (DieRole.WILD, die.face, 0)
        assert (result.outcome, result.complication) == READING[die.face]
        replayed = stateless(faces=msgspec.to_builtins(result.faces))
        assert (replayed.total, replayed.outcome) == (result.total, result.outcome)
        assert stateless(seed=seed).dice == result.dice
        outcomes.add(result.outcome)
    assert outcomes == {RollOutcome.CRITICAL_SUCCESS, RollOutcome.SUCCESS}


def test_special_difficulties_wild_die_only_odds_agree_with_the_one_toss() -> None:
    """ "Special Difficulties": the odds twin counts the same six faces (D14): one 6 a
    Critical Success, four plain successes, one 1 with a complication."""
    answer = roll_odds(msgspec.convert({"base": SKILL, "difficulty": WILD_DIE_ONLY}, OddsRequest))
    assert answer.odds is None
    assert answer.wild_die_only is not None
    readings = list(READING.values())
    assert (
        (
            Fraction(answer.wild_die_only.critical_success.exact),
            Fraction(answer.wild_die_only.success.exact),
            Fraction(answer.wild_die_only.complication.exact),
        )
        == (
            Fraction(readings.count((RollOutcome.CRITICAL_SUCCESS, False)), 6),
            Fraction(readings.count((RollOutcome.SUCCESS, False)), 6),
            Fraction(readings.count((RollOutcome.SUCCESS, True)), 6),
        )
        == (Fraction(1, 6), Fraction(2, 3), Fraction(1, 6))
    )
    assert answer.wild_die_only.success.p == round(2 / 3, 12)


def _scene(dice_source: str) -> Scene:
    scene = new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert(
            {"initiative": "first_action", "dice_source": dice_source}, SceneRules
        ),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(
            [{"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D"}],
            tuple[SceneParticipant, ...],
        ),
    ).state
    scene = _play(scene, "gm", {"type": "set_order", "first": ["ana-pc"]}, NoDice())
    return _play(scene, "ana", {"type": "declare", "participant": "ana-pc", "actions": 1}, NoDice())


def _play(scene: Scene, actor: str, body: dict[str, Any], rng: Any) -> Scene:
    move = msgspec.convert({"round": scene.round, **body}, SceneMove)
    return apply(scene, move, actor, rng, f"r{scene.rolls_made + 1}").state


def _resolved(scene: Scene, spec: dict[str, Any], rng: Any) -> tuple[Any, Any]:
    """The pending roll made with ``spec``, and its resolution as Wild Die Only."""
    scene = _play(scene, "ana", {"type": "roll", "participant": "ana-pc", "spec": spec}, rng)
    made = scene.pending[0].roll
    move = msgspec.convert(
        {"round": scene.round, "type": "resolve", "roll": "r1", "difficulty": WILD_DIE_ONLY},
        SceneMove,
    )
    (entry,) = apply(scene, move, "gm", NoDice(), "unused").history
    return made, entry.result


@pytest.mark.parametrize(
    ("regular", "wild"),
    [([4, 4, 4], [6, 3]), ([4, 4, 4], [6, 6, 1]), ([1, 2, 3], [1]), ([6, 6, 6], [5])],
)
def test_special_difficulties_a_scene_reads_the_same_one_toss(
    regular: list[int], wild: list[int]
) -> None:
    """ "Special Difficulties": the GM's `wild_die_only` reads the pending roll's first
    Wild Die toss alone — the stateless roll of that one toss answers the same (D14)."""
    scene = _scene("client")
    spec = {"base": SKILL, "faces": {"regular": regular, "wild": wild}}
    _, result = _resolved(scene, spec, NoDice())
    alone = stateless(faces={"wild": wild[:1]})
    assert (result.outcome, result.complication, result.total) == (
        alone.outcome,
        alone.complication,
        alone.total,
    )
    assert [(die.role, die.face) for die in result.dice] == [(DieRole.WILD, wild[0])]
    assert result.wild.explosions == 0


def test_special_difficulties_a_scene_with_the_servers_dice_reads_one_toss() -> None:
    """ "Special Difficulties": with the server's dice, too, the GM reads the first Wild
    Die toss, whatever followed it (D14)."""
    seen = set()
    for seed in range(40):
        made, result = _resolved(_scene("server"), {"base": SKILL}, random.Random(seed))
        first = made.faces.wild[0]
        alone = stateless(faces={"wild": [first]})
        assert (result.outcome, result.complication, result.total) == (
            alone.outcome,
            alone.complication,
            first,
        )
        seen.add(len(made.faces.wild) > 1)
    assert seen == {True, False}  # some pending rolls exploded; the reading did not
