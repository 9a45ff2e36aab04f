"""The one-line summary of every OpenD6 roll (rules/summary.py), in the chapter's words:
the rolled code and its total, the Wild Die's Critical Success or Critical Failure with the
GM's option ("Wild Die", D4, D5), success or failure against the difficulty and its result
points ("Determining Success", "Result Points", D10), Wild Die Only (D14), opposed rolls
("Opposed Difficulties", D17), initiative ("Initiative", D16) and a scene's moves."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.summary import SUMMARY_PATTERN
from service.rulesets.opend6.rules.initiative import InitiativeRequest, roll_initiative
from service.rulesets.opend6.rules.opposed import OpposedRequest
from service.rulesets.opend6.rules.roll_odds import RollAnswer, roll, roll_opposed
from service.rulesets.opend6.rules.scenes.flow import NoDice
from service.rulesets.opend6.rules.scenes.model import (
    Scene,
    SceneParticipant,
    ScenePlayer,
    SceneRules,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove
from service.rulesets.opend6.rules.scenes.play import apply, new_scene
from service.rulesets.opend6.rules.spec import RollRequest
from service.rulesets.opend6.rules.summary import move_summary


def rolled(code: str, regular: list[int], wild: list[int], **more: Any) -> RollAnswer:
    body = {"base": {"type": "skill", "code": code}, "faces": {"regular": regular, "wild": wild}}
    return roll(msgspec.convert({**body, **more}, RollRequest), random.Random(0), "r")


def number(value: int) -> dict[str, Any]:
    return {"kind": "number", "value": value}


def test_determining_success_meets_the_difficulty_with_result_points() -> None:
    """ "Determining Success": meeting the difficulty succeeds (D2); "Result Points" are
    the total less the difficulty; a level alone is its range's top (D8: Moderate 15)."""
    answer = rolled("4D", [5, 4, 3], [5], difficulty={"kind": "standard", "level": "moderate"})
    assert answer.summary == "4D total 17 vs 15 (Moderate): success, 2 result points"
    assert rolled("3D", [4, 4], [6, 1], difficulty=number(8)).summary.startswith("3D total 15")


def test_a_critical_failure_names_the_gms_option() -> None:
    """ "Wild Die": an initial 1 cancels itself and the highest die (D4), or counts with a
    complication (D5); the option changes the total, and the line says which."""
    cancel = rolled("3D", [5, 3], [1], difficulty=number(8))
    assert cancel.summary == (
        "3D total 3 (Wild Die Critical Failure: it and the highest die cancelled) vs 8 "
        "(Easy): failure, -5 result points"
    )
    complication = rolled("3D", [5, 3], [1], difficulty=number(8), critical_failure="complication")
    assert complication.summary == (
        "3D total 9 (Wild Die Critical Failure: a complication) vs 8 (Easy): success, "
        "1 result point"
    )
    assert rolled("1D", [], [1]).summary == "1D total 0 (Wild Die Critical Failure: cancelled)"


def test_a_critical_success_is_rolled_again_and_an_attack_earns_its_damage_bonus() -> None:
    """ "Wild Die": a 6 is added and rolled again while it shows 6; "Character Points" add
    a die each; "Result Points": an attack adds a fifth of them, rounded up (D10)."""
    answer = rolled(
        "3D+2",
        [5, 3],
        [6, 6, 2],
        kind="attack",
        character_points={"before": 1},
        difficulty=number(8),
        faces={"regular": [5, 3], "wild": [6, 6, 2], "character_points": [[4]]},
    )
    assert answer.summary == (
        "3D+2 and 1 Character Point die total 28 (Wild Die Critical Success, rolled 3 times) "
        "vs 8 (Easy): success, 20 result points, damage bonus +4"
    )


def test_wild_die_only_reads_its_one_toss() -> None:
    """ "Special Difficulties", Wild Die Only (D14): a 6 is a Critical Success, a 1 a
    success with a complication, anything else a plain success."""
    lines = [
        rolled("3D", [], [face], difficulty={"kind": "wild_die_only"}).summary for face in (6, 1, 3)
    ]
    assert lines == [
        "Wild Die only: 6, Critical Success",
        "Wild Die only: 1, Critical Failure: success with a complication",
        "Wild Die only: 3, success",
    ]


def test_an_automatic_task_rolls_nothing() -> None:
    """ "Standard Difficulties": an automatic task succeeds without a roll."""
    answer = roll(
        msgspec.convert(
            {
                "base": {"type": "skill", "code": "3D"},
                "difficulty": {"kind": "standard", "level": "automatic"},
            },
            RollRequest,
        ),
        random.Random(0),
        "r",
    )
    assert answer.summary == "3D: automatic success, nothing rolled"


@settings(max_examples=150, deadline=None)
@given(
    dice=st.integers(1, 40),
    pips=st.integers(0, 2),
    cp=st.integers(0, 5),
    seed=st.integers(0, 2**32),
    option=st.sampled_from(["cancel_highest", "complication"]),
    difficulty=st.none() | st.integers(1, 60),
)
def test_every_roll_reads_as_one_line_with_its_total_and_outcome(
    dice: int, pips: int, cp: int, seed: int, option: str, difficulty: int | None
) -> None:
    """Whatever the code, points and option, the line fits the published pattern and
    names the total and, against a difficulty, success or failure (D2)."""
    body: dict[str, Any] = {
        "base": {"type": "skill", "code": f"{dice}D+{pips}"},
        "character_points": {"before": cp},
        "critical_failure": option,
        "seed": seed,
    }
    if difficulty is not None:
        body["difficulty"] = number(difficulty)
    answer = roll(msgspec.convert(body, RollRequest), random.Random(0), "r")
    assert re.fullmatch(SUMMARY_PATTERN, answer.summary)
    assert f" total {answer.total}" in answer.summary
    if difficulty is not None:
        assert f"vs {difficulty} (" in answer.summary
        assert f"): {answer.outcome}" in answer.summary


def test_an_opposed_roll_names_the_winner_and_the_margin() -> None:
    """ "Opposed Difficulties": the initiator wins ties (D2); each side's modifiers count
    against its own total (D17), so the line shows a side's net when it has one."""
    attack = roll_opposed(
        msgspec.convert(
            {
                "initiator": {
                    "base": {"type": "skill", "code": "4D"},
                    "kind": "attack",
                    "faces": {"regular": [5, 4, 3], "wild": [6, 2]},
                },
                "resister": {
                    "base": {"type": "attribute", "code": "3D+1"},
                    "faces": {"regular": [4, 4], "wild": [3]},
                },
            },
            OpposedRequest,
        ),
        random.Random(0),
        "o",
    )
    assert attack.summary == (
        "Opposed: 4D total 20 (Wild Die Critical Success, rolled 2 times) vs 3D+1 total 12: "
        "the initiator wins by 8, damage bonus +2"
    )
    dim = roll_opposed(
        msgspec.convert(
            {
                "initiator": {
                    "base": {"type": "skill", "code": "4D+1"},
                    "faces": {"regular": [1, 1, 1], "wild": [2]},
                },
                "resister": {
                    "base": {"type": "attribute", "code": "3D"},
                    "faces": {"regular": [4, 4], "wild": [3]},
                },
                "modifiers": {"resister": [{"label": "dim light", "value": 3}]},
            },
            OpposedRequest,
        ),
        random.Random(0),
        "o",
    )
    assert dim.summary == "Opposed: 4D+1 total 6 vs 3D total 11 (net 8): the resister wins by 2"


def test_initiative_lists_the_order_and_what_broke_a_tie() -> None:
    """ "Initiative", "Ties/No Rolls" (D16): Acumen ties too, so Agility decides."""
    order = roll_initiative(
        msgspec.convert(
            {
                "participants": [
                    {"id": "ana-pc", "name": "Ana", "acumen": "3D", "agility": "3D+1",
                     "faces": {"regular": [4, 4], "wild": [5]}},
                    {"id": "goblins", "name": "Goblins", "acumen": "3D", "agility": "2D+2",
                     "total": 13},
                ]
            },
            InitiativeRequest,
        ),
        random.Random(0),
        "i",
    )  # fmt: skip
    assert order.summary == "Initiative: ana-pc 13 (by agility), goblins 13"


def test_initiative_of_thirty_names_the_first_and_the_last() -> None:
    """ "Initiative" for the most participants a request takes: the line still fits."""
    entrants = [
        {"id": f"participant-number-{n:02d}", "name": "x", "acumen": "3D", "agility": "3D",
         "total": n}
        for n in range(30)
    ]  # fmt: skip
    order = roll_initiative(
        msgspec.convert({"participants": entrants}, InitiativeRequest), random.Random(0), "i"
    )
    assert order.summary == (
        "Initiative of 30: participant-number-29 first (29), participant-number-00 last (0)"
    )


def scene() -> Scene:
    """A `first_action` scene on the table's dice: Ana's scout, then the orc."""
    made = new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert({"initiative": "first_action", "dice_source": "client"}, SceneRules),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(
            [
                {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D",
                 "agility": "3D", "character_points": 5},
                {"id": "orc", "name": "Orc", "acumen": "2D", "agility": "2D"},
            ],
            tuple[SceneParticipant, ...],
        ),
    ).state  # fmt: skip
    return step(made, "gm", {"type": "set_order", "first": ["ana-pc", "orc"]})[0]


def step(state: Scene, actor: str, body: dict[str, Any]) -> tuple[Scene, str | None]:
    move = msgspec.convert({"round": state.round, **body}, SceneMove)
    applied = apply(state, move, actor, NoDice(), f"r{state.rolls_made + 1}")
    return applied.state, move_summary(move, applied.history[-1], applied.state)


def test_a_scenes_rolls_read_as_they_wait_are_helped_and_are_resolved() -> None:
    """D18: a roll waits for the GM; "Character Points" add dice before it resolves;
    "Opposed Difficulties": the GM's resolve judges a roll and the one opposing it. Moves
    that roll nothing have no line."""
    state, line = step(scene(), "ana", {"type": "declare", "participant": "ana-pc", "actions": 1})
    assert line is None
    attack = {"base": {"type": "skill", "code": "3D"}, "kind": "attack",
              "faces": {"regular": [6, 5], "wild": [4]}}  # fmt: skip
    state, line = step(state, "ana", {"type": "roll", "participant": "ana-pc", "spec": attack})
    assert line == "Round 1: ana-pc rolled r1, 3D total 15; waiting for the GM"
    dodge = {"base": {"type": "skill", "code": "2D"}, "kind": "free",
             "faces": {"regular": [3], "wild": [4]}}  # fmt: skip
    state, line = step(
        state, "gm", {"type": "roll", "participant": "orc", "opposes": "r1", "spec": dodge}
    )
    assert line == "Round 1: orc rolled r2, 2D total 7; waiting for the GM"
    state, line = step(state, "gm", {"type": "resolve", "roll": "r1"})
    assert line == (
        "Round 1: resolved r1 against r2: 3D total 15 vs 2D total 7: the initiator wins by 8, "
        "damage bonus +2"
    )


def test_a_scenes_initiative_move_reads_each_roll() -> None:
    """ "Initiative": each controller rolls Acumen for its own participants (D15)."""
    made = new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert({"dice_source": "client"}, SceneRules),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(
            [{"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D"}],
            tuple[SceneParticipant, ...],
        ),
    ).state
    rolls = [{"participant": "ana-pc", "faces": {"regular": [4, 4], "wild": [5]}}]
    _, line = step(made, "ana", {"type": "initiative", "rolls": rolls})
    assert line == "Round 1 initiative: ana-pc 13"
