"""A scene's moves beyond the plain turn (docs/opend6.md, "Scenes in detail"), played on the
rules directly with the table's dice: climactic Fate Points ("Fate Points", D19), moving
up ("Performing Actions in Rounds"), who is able to act, related rolls ("Free Actions
(related skills)"), opposed rolls ("Opposed Difficulties", D17), the GM's `resolve_now`
(D18) and groups (D19)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.kernel.sessions import Applied
from service.rulesets.opend6.rules.scenes.flow import NoDice, acting, waiting_for
from service.rulesets.opend6.rules.scenes.model import (
    Scene,
    SceneParticipant,
    ScenePlayer,
    SceneRules,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove
from service.rulesets.opend6.rules.scenes.play import apply, new_scene

GM = "gm"
PLAYERS = ({"id": "ana", "name": "Ana"}, {"id": "bo", "name": "Bo"})
PARTICIPANTS: tuple[dict[str, Any], ...] = (
    {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D",
     "fate_points": 2, "character_points": 5},
    {"id": "bo-pc", "name": "Bo", "controller": "bo", "acumen": "2D", "agility": "2D"},
    {"id": "orc", "name": "Orc", "acumen": "2D", "agility": "2D"},
)  # fmt: skip


def new(rules: dict[str, Any] | None = None, **changes: dict[str, Any]) -> Scene:
    """A `first_action` scene with the table's dice, in the order Ana, Bo, the orc."""
    participants = [{**p, **changes.get(p["id"].replace("-", "_"), {})} for p in PARTICIPANTS]
    scene = new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert(
            {"initiative": "first_action", "dice_source": "client", **(rules or {})}, SceneRules
        ),
        players=msgspec.convert(PLAYERS, tuple[ScenePlayer, ...]),
        participants=msgspec.convert(participants, tuple[SceneParticipant, ...]),
    ).state
    return play(scene, GM, {"type": "set_order", "first": ["ana-pc", "bo-pc", "orc"]}).state


def rolling_initiative() -> Scene:
    """The same table, rolling initiative each round (with the table's dice)."""
    return new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert({"dice_source": "client"}, SceneRules),
        players=msgspec.convert(PLAYERS, tuple[ScenePlayer, ...]),
        participants=msgspec.convert(PARTICIPANTS, tuple[SceneParticipant, ...]),
    ).state


def play(scene: Scene, actor: str, body: dict[str, Any]) -> Applied[Scene]:
    move = msgspec.convert({"round": scene.round, **body}, SceneMove)
    return apply(scene, move, actor, NoDice(), f"r{scene.rolls_made + 1}")


def refused(scene: Scene, actor: str, body: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        play(scene, actor, body)
    return caught.value


def declare(scene: Scene, actor: str, who: str, actions: int = 1) -> Scene:
    return play(scene, actor, {"type": "declare", "participant": who, "actions": actions}).state


def roll_body(who: str, code: str, regular: list[int], wild: list[int], **more: Any) -> Any:
    """A `roll` move for ``who``: a skill of ``code`` on the table's faces."""
    spec = {"base": {"type": "skill", "code": code}, "faces": {"regular": regular, "wild": wild}}
    spec.update(more.pop("spec", {}))
    return {"type": "roll", "participant": who, "spec": spec, **more}


def roll(
    scene: Scene, actor: str, who: str, code: str, regular: list[int], wild: list[int], **more: Any
) -> Applied[Scene]:
    return play(scene, actor, roll_body(who, code, regular, wild, **more))


def resolve(scene: Scene, roll_id: str, **more: Any) -> Applied[Scene]:
    return play(scene, GM, {"type": "resolve", "roll": roll_id, **more})


def state(scene: Scene, who: str) -> Any:
    return scene.rounds[who]


# "Fate Points", spent climactically (D19) ------------------------------------------------


def test_fate_points_a_climactic_one_doubles_every_roll_of_the_round() -> None:
    scene = play(new(), "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}).state
    assert (state(scene, "ana-pc").points.fate_points, state(scene, "ana-pc").climactic) == (
        1,
        True,
    )
    scene = declare(scene, "ana", "ana-pc", 1)
    made = roll(scene, "ana", "ana-pc", "2D+1", [3, 3, 3], [2]).state
    pending = made.pending[0]
    assert pending.roll.rolled_code == "4D+2"  # 2D+1 doubled: three regular + Wild + 2
    assert pending.roll.total == 3 + 3 + 3 + 2 + 2
    assert pending.roll.points.spent.fate_points == 0  # paid once, when spent
    assert pending.roll.points.available_after.fate_points == 1  # type: ignore[union-attr]
    assert state(made, "ana-pc").points.fate_points == 1


def test_fate_points_a_climactic_one_spares_equipment() -> None:
    scene = play(new(), "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}).state
    damage = roll(
        scene, "ana", "ana-pc", "3D", [2, 2], [2],
        spec={"base": {"type": "equipment", "code": "3D"}, "kind": "damage"},
    ).state  # fmt: skip
    assert damage.pending[0].roll.rolled_code == "3D"


def test_fate_points_climactic_once_a_scene_unless_the_climax() -> None:
    scene = play(new(), "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}).state
    again = refused(scene, "ana", {"type": "climactic_fate_point", "participant": "ana-pc"})
    assert again.code == "opend6/climactic-used"  # twice in a round, even at the climax
    scene = play(scene, GM, {"type": "next_round"}).state
    later = refused(scene, "ana", {"type": "climactic_fate_point", "participant": "ana-pc"})
    assert later.code == "opend6/climactic-used"
    carried = new(ana_pc={"climactic_used": True})
    spent_before = refused(
        carried, "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}
    )
    assert spent_before.code == "opend6/climactic-used"

    climax = play(
        new({"climax": True}), "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}
    )
    climax_scene = play(climax.state, GM, {"type": "next_round"}).state
    second = play(climax_scene, "ana", {"type": "climactic_fate_point", "participant": "ana-pc"})
    assert state(second.state, "ana-pc").points.fate_points == 0


def test_fate_points_climactic_before_the_first_roll_and_with_a_point_left() -> None:
    scene = declare(new(), "ana", "ana-pc", 2)
    scene = roll(scene, "ana", "ana-pc", "2D", [], [3]).state  # 2D − 1D ("Multi-Action Penalty")
    late = refused(scene, "ana", {"type": "climactic_fate_point", "participant": "ana-pc"})
    assert late.code == "opend6/already-rolled"
    broke = refused(new(), "bo", {"type": "climactic_fate_point", "participant": "bo-pc"})
    assert broke.code == "opend6/not-enough-points"


def test_fate_points_no_second_fate_point_on_a_climactic_roll() -> None:
    scene = play(new(), "ana", {"type": "climactic_fate_point", "participant": "ana-pc"}).state
    scene = declare(scene, "ana", "ana-pc")
    twice = roll_body("ana-pc", "2D", [3, 3, 3], [3], spec={"fate_point": True})
    error = refused(scene, "ana", twice)
    assert (error.code, error.concerns[0].pointer) == ("opend6/fp-not-allowed", "/spec/fate_point")


# "Performing Actions in Rounds": moving up ------------------------------------------------


def test_moving_up_the_gm_lets_bo_react_now_and_it_takes_his_action() -> None:
    scene = declare(new(), "ana", "ana-pc")
    scene = roll(scene, "ana", "ana-pc", "3D", [4, 4], [4]).state  # a throw, pending
    assert (
        refused(scene, "bo", {"type": "move_up", "participant": "bo-pc"}).code == "opend6/gm-only"
    )
    up = play(scene, GM, {"type": "move_up", "participant": "bo-pc"})
    assert [event.__struct_config__.tag for event in up.events] == ["interrupt.started"]
    scene = up.state
    assert (scene.interrupting, acting(scene)) == ("bo-pc", ("bo-pc",))
    scene = declare(scene, "bo", "bo-pc", 2)
    scene = roll(scene, "bo", "bo-pc", "2D", [], [5]).state  # the catch, 2D − 1D
    assert state(scene, "bo-pc").actions_left == 1
    scene = resolve(scene, "r2").state
    scene = play(scene, "bo", {"type": "end_turn", "participant": "bo-pc"}).state
    assert (scene.interrupting, scene.current) == (None, "ana-pc")
    assert state(scene, "bo-pc").turn_done is False  # his own turn still comes


def test_moving_up_one_at_a_time_not_the_current_one_and_with_an_action_left() -> None:
    scene = play(new(), GM, {"type": "move_up", "participant": "bo-pc"}).state
    assert (
        refused(scene, GM, {"type": "move_up", "participant": "orc"}).code == "opend6/interrupting"
    )
    assert (
        refused(new(), GM, {"type": "move_up", "participant": "ana-pc"}).code
        == "opend6/not-waiting"
    )
    scene = declare(new(), "ana", "ana-pc")
    scene = play(scene, "ana", {"type": "wait", "participant": "ana-pc"}).state
    spent = refused(scene, GM, {"type": "move_up", "participant": "ana-pc"})
    assert spent.code == "opend6/no-actions-left"


# Able to act: "an unable participant loses its untaken turn" --------------------------------


def test_an_unable_participant_loses_its_untaken_turn() -> None:
    scene = play(new(), GM, {"type": "set_able", "participant": "ana-pc", "able": False}).state
    assert scene.current == "bo-pc"
    scene = play(scene, GM, {"type": "set_able", "participant": "ana-pc", "able": True}).state
    scene = declare(scene, "bo", "bo-pc")
    scene = play(scene, "bo", {"type": "end_turn", "participant": "bo-pc"}).state
    assert scene.current == "orc"  # Ana's lost turn does not come back this round
    scene = play(scene, GM, {"type": "end_turn", "participant": "orc"}).state
    assert (scene.round, scene.current) == (2, "ana-pc")  # next round she acts again
    assert refused(
        scene, "ana", {"type": "set_able", "participant": "orc", "able": False}
    ).code == ("opend6/gm-only")


def test_an_unable_participant_rolls_no_initiative_and_goes_last() -> None:
    scene = rolling_initiative()
    scene = play(scene, GM, {"type": "set_able", "participant": "bo-pc", "able": False}).state
    rolls = (("ana-pc", "ana", [1, 1], [2]), ("orc", GM, [1], [6, 1]))  # Acumen: 4 and 8
    for who, actor, regular, wild in rolls:
        scene = play(scene, actor, {"type": "initiative", "rolls": [
            {"participant": who, "faces": {"regular": regular, "wild": wild}}]}).state  # fmt: skip
    assert [p.participant for p in scene.order] == ["orc", "ana-pc", "bo-pc"]
    assert [(p.participant, p.decided_by) for p in scene.order][-1] == ("bo-pc", "unable")
    assert scene.current == "orc"


def test_an_unable_waiter_cannot_interrupt() -> None:
    scene = declare(new(), "ana", "ana-pc", 2)
    scene = play(scene, "ana", {"type": "wait", "participant": "ana-pc"}).state
    scene = declare(scene, "bo", "bo-pc")
    scene = roll(scene, "bo", "bo-pc", "2D", [2], [2]).state
    assert "ana-pc" in acting(scene)
    scene = play(scene, GM, {"type": "set_able", "participant": "ana-pc", "able": False}).state
    assert "ana-pc" not in acting(scene)


# "Free Actions (related skills)" --------------------------------------------------------


def searched(rp: int = 4) -> Scene:
    """Ana's search beats Moderate (15) by ``rp`` (the seed's example: by 4)."""
    scene = declare(new(), "ana", "ana-pc", 2)
    scene = roll(scene, "ana", "ana-pc", "4D", [6, 6], [6, rp - 3]).state  # 4D − 1D: 15 + rp
    return resolve(scene, "r1", difficulty={"kind": "number", "value": 15}).state


def test_related_skills_a_search_beaten_by_4_helps_the_traps_roll_by_2_once() -> None:
    scene = searched(4)
    assert scene.resolved[0].result_points == 4
    traps = roll(scene, "ana", "ana-pc", "3D", [1], [3], related_rolls=["r1"]).state
    made = traps.pending[0].roll
    assert [(r.label, r.result_points, r.modifier) for r in made.related] == [("r1", 4, 2)]
    assert made.total == 1 + 3 + 2  # 3D − 1D, and +2 for the search
    free = {"kind": "free"}
    again = refused(
        traps, "ana", roll_body("ana-pc", "3D", [1], [3], related_rolls=["r1"], spec=free)
    )
    assert (again.code, again.concerns[0].pointer) == ("opend6/related-used", "/related_rolls/0")


def test_related_skills_this_round_or_the_last_only() -> None:
    scene = searched(4)
    scene = play(scene, "ana", {"type": "end_turn", "participant": "ana-pc"}).state
    scene = play(scene, GM, {"type": "next_round"}).state
    free = {"kind": "free"}
    last_round = roll(scene, "ana", "ana-pc", "3D", [1, 1], [3], related_rolls=["r1"], spec=free)
    assert last_round.state.pending[0].roll.total == 1 + 1 + 3 + 2
    scene = play(scene, GM, {"type": "next_round"}).state
    late = refused(
        scene,
        "ana",
        roll_body("ana-pc", "3D", [1, 1], [3], related_rolls=["r1"], spec={"kind": "free"}),
    )
    assert late.code == "opend6/related-unknown"


# "Opposed Difficulties" (D17), and the GM's resolve_now (D18) ------------------------------


def attacked() -> Scene:
    """Ana attacks the orc: 3D, faces 4, 4, wild 4 = 12, pending."""
    scene = declare(new(), "ana", "ana-pc")
    return roll(scene, "ana", "ana-pc", "3D", [4, 4], [4], spec={"kind": "attack"}).state


def test_opposed_difficulties_a_tie_goes_to_the_attacker() -> None:
    scene = attacked()
    dodge = roll_body("orc", "2D", [6], [6, 1], opposes="r1", spec={"kind": "free"})  # 13
    assert refused(scene, "ana", {**dodge, "participant": "ana-pc"}).code == "opend6/gm-only"
    scene = play(scene, GM, dodge).state
    assert scene.pending[1].opposes == "r1"
    with_difficulty = refused(
        scene, GM, {"type": "resolve", "roll": "r1", "difficulty": {"kind": "number", "value": 5}}
    )
    assert with_difficulty.code == "opend6/opposed-difficulty"
    judged = resolve(scene, "r1", modifiers=[{"label": "footing", "value": -1}])
    opposed = judged.history[0].opposed  # type: ignore[attr-defined]
    assert (opposed.initiator.net, opposed.resister.net) == (13, 13)  # 12 + 1 against 13
    assert (opposed.winner, opposed.damage_bonus) == ("initiator", 0)  # a tie: the initiator
    assert judged.state.pending == ()
    assert [(r.id, r.result_points) for r in judged.state.resolved] == [("r2", 0), ("r1", 0)]


def test_opposed_difficulties_resolving_the_resister_judges_both() -> None:
    scene = attacked()
    scene = roll(scene, GM, "orc", "2D", [6], [6, 6, 2], opposes="r1", spec={"kind": "free"}).state
    opposed = resolve(scene, "r2").history[0].opposed  # type: ignore[attr-defined]
    assert (opposed.margin, opposed.winner, opposed.damage_bonus) == (-8, "resister", 0)


def test_opposed_difficulties_one_resister_another_participants_roll() -> None:
    scene = attacked()
    own = roll_body("ana-pc", "3D", [1, 1], [2], opposes="r1", spec={"kind": "damage"})
    assert refused(scene, "ana", own).code == "opend6/cannot-oppose"
    resist = roll_body("orc", "2D", [1], [2], opposes="r1", spec={"kind": "free"})
    scene = play(scene, GM, resist).state
    assert refused(scene, GM, resist).code == "opend6/cannot-oppose"
    missing = refused(scene, GM, {**resist, "opposes": "r9"})
    assert (missing.code, missing.concerns[0].pointer) == ("opend6/not-pending", "/opposes")


def test_resolve_now_waits_for_the_interrupt_window() -> None:
    scene = declare(new(), "ana", "ana-pc", 2)
    scene = play(scene, "ana", {"type": "wait", "participant": "ana-pc"}).state
    scene = declare(scene, "bo", "bo-pc")
    scene = play(scene, "bo", {"type": "end_turn", "participant": "bo-pc"}).state
    scene = declare(scene, GM, "orc")
    now = {"resolve_now": True, "difficulty": {"kind": "standard", "level": "easy"}}
    window = refused(scene, GM, roll_body("orc", "2D", [5], [5], **now))
    assert (window.code, window.concerns[0].pointer) == ("opend6/interrupt-window", "/resolve_now")


def test_resolve_now_resolves_at_once_when_nobody_may_interrupt() -> None:
    scene = declare(new(), "ana", "ana-pc")
    body = {"resolve_now": True, "difficulty": {"kind": "standard", "level": "easy"}}
    player = refused(scene, "ana", roll_body("ana-pc", "3D", [5, 5], [5], **body))
    assert player.code == "opend6/gm-only"
    made = roll(scene, GM, "ana-pc", "3D", [5, 5], [5], **body)
    assert made.state.pending == ()
    entry = made.history[0]
    assert (entry.result.outcome, entry.result.total) == ("success", 15)  # type: ignore[attr-defined]
    tags = [event.__struct_config__.tag for event in made.events]
    assert tags == ["roll.made", "roll.resolved"]


def test_a_difficulty_set_with_the_roll_is_the_gms() -> None:
    scene = declare(new(), "ana", "ana-pc")
    body = {"difficulty": {"kind": "number", "value": 9}}
    player = refused(scene, "ana", roll_body("ana-pc", "3D", [1, 1], [5], **body))
    assert (player.code, player.concerns[0].pointer) == ("opend6/gm-only", "/difficulty")
    scene = roll(scene, GM, "ana-pc", "3D", [1, 1], [5], **body).state
    outcome = resolve(scene, "r1").history[0].result.outcome  # type: ignore[attr-defined]
    assert outcome == "failure"  # 7 against the GM's 9


# "Groups" (D19) ------------------------------------------------------------------------


def test_groups_act_as_one_one_initiative_one_roll() -> None:
    scene = new_scene(
        scene_id="s",
        name="Ford",
        rules=msgspec.convert({"dice_source": "client"}, SceneRules),
        players=(),
        participants=msgspec.convert(
            [{"id": "wolves", "name": "Wolves", "members": 6, "acumen": "2D", "agility": "3D"}],
            tuple[SceneParticipant, ...],
        ),
    ).state
    once = {"type": "initiative", "rolls": [
        {"participant": "wolves", "faces": {"regular": [3], "wild": [3]}}]}  # fmt: skip
    scene = play(scene, GM, once).state
    assert [p.participant for p in scene.order] == ["wolves"]
    scene = declare(scene, GM, "wolves")
    scene = roll(scene, GM, "wolves", "3D", [2, 2], [2], spec={"kind": "attack"}).state
    assert [len(pending.roll.dice) for pending in scene.pending] == [3]


def test_nobody_able_leaves_the_round_to_the_gm() -> None:
    scene = new()
    for who in ("ana-pc", "bo-pc", "orc"):
        scene = play(scene, GM, {"type": "set_able", "participant": who, "able": False}).state
    assert (scene.round, scene.phase, scene.current) == (1, "round_end", None)
    scene = play(scene, GM, {"type": "next_round"}).state
    assert (scene.round, scene.phase) == (2, "round_end")
    scene = play(scene, GM, {"type": "set_able", "participant": "bo-pc", "able": True}).state
    assert (scene.phase, scene.current) == ("turns", "bo-pc")


def test_nobody_able_at_initiative_sets_no_order() -> None:
    scene = rolling_initiative()
    for who in ("ana-pc", "bo-pc", "orc"):
        scene = play(scene, GM, {"type": "set_able", "participant": who, "able": False}).state
    assert (scene.phase, scene.order) == ("initiative", ())


@pytest.mark.parametrize(
    ("wild", "outcome", "complication"),
    [([6, 3], "critical_success", False), ([1], "success", True), ([4], "success", False)],
)
def test_special_difficulties_the_gm_reads_a_pending_rolls_first_wild_toss(
    wild: list[int], outcome: str, complication: bool
) -> None:
    scene = declare(new(), "ana", "ana-pc")
    scene = roll(scene, "ana", "ana-pc", "3D", [4, 4], wild).state
    made = resolve(scene, "r1", difficulty={"kind": "wild_die_only"}).history[0].result  # type: ignore[attr-defined]
    assert (made.outcome, made.complication, made.total) == (outcome, complication, wild[0])


def test_special_difficulties_no_wild_die_only_after_character_points() -> None:
    faces = {"regular": [4, 4], "wild": [4], "character_points": [[3]]}
    with_cp = {"character_points": 1, "faces": faces}
    scene = declare(new(), "ana", "ana-pc")
    scene = roll(scene, "ana", "ana-pc", "3D", [4, 4], [4], spec=with_cp).state
    error = refused(
        scene, GM, {"type": "resolve", "roll": "r1", "difficulty": {"kind": "wild_die_only"}}
    )
    assert error.code == "opend6/points-on-wild-die-only"


def test_multi_action_penalty_a_pending_roll_keeps_the_penalty_it_was_rolled_with() -> None:
    scene = roll(new(), "ana", "ana-pc", "3D", [3, 3], [4], spec={"kind": "free"}).state
    scene = declare(scene, "ana", "ana-pc", 3)  # −2D from now on, not on the roll made
    made = resolve(scene, "r1", difficulty={"kind": "number", "value": 10}).history[0]
    assert (made.result.rolled_code, made.result.total) == ("3D", 10)  # type: ignore[attr-defined]


def test_character_points_unlimited_is_20_a_roll_after_the_roll_too() -> None:
    scene = declare(new(ana_pc={"character_points": 100}), "ana", "ana-pc")
    faces = {"regular": [3, 3], "wild": [4], "character_points": [[2]] * 20}
    more = {"character_points": 20, "faces": faces}
    scene = roll(scene, "ana", "ana-pc", "3D", [3, 3], [4], spec=more).state
    error = refused(scene, "ana", {"type": "spend_character_points", "roll": "r1", "count": 1})
    assert (error.code, error.concerns[0].pointer) == ("opend6/cp-limit", "/count")


def test_opposed_difficulties_the_resister_uses_up_an_action() -> None:
    scene = attacked()
    out_of_turn = roll_body("bo-pc", "2D", [2], [2], opposes="r1")
    assert refused(scene, "bo", out_of_turn).code == "opend6/not-your-turn"
    resistance = {"kind": "damage_resistance"}
    no_action = roll_body("bo-pc", "2D", [2], [2], opposes="r1", spec=resistance)
    error = refused(scene, "bo", no_action)
    assert (error.code, error.concerns[0].pointer) == ("opend6/cannot-oppose", "/opposes")


def test_opposed_difficulties_damage_resistance_resists_damage() -> None:
    scene = declare(new(), "ana", "ana-pc")
    damage = {"base": {"type": "equipment", "code": "3D"}, "kind": "damage"}
    scene = roll(scene, "ana", "ana-pc", "3D", [4, 4], [4], spec=damage).state  # 12
    resistance = {"kind": "damage_resistance"}
    resist = roll_body("bo-pc", "2D", [5], [5], opposes="r1", spec=resistance)
    scene = play(scene, "bo", resist).state  # 10, at any time, no action
    opposed = resolve(scene, "r1").history[0].opposed  # type: ignore[attr-defined]
    assert (opposed.margin, opposed.winner) == (2, "initiator")


def test_opposed_difficulties_not_against_the_gms_difficulty() -> None:
    scene = declare(new(), "ana", "ana-pc")
    set_by_gm = {"difficulty": {"kind": "number", "value": 30}}
    scene = roll(scene, GM, "ana-pc", "3D", [4, 4], [4], **set_by_gm).state
    resist = roll_body("orc", "2D", [1], [2], opposes="r1", spec={"kind": "free"})
    assert refused(scene, GM, resist).code == "opend6/cannot-oppose"


def test_generic_modifiers_need_a_difficulty_to_raise() -> None:
    scene = declare(new(), "ana", "ana-pc")
    scene = roll(scene, "ana", "ana-pc", "3D", [4, 4], [4]).state
    body = {"type": "resolve", "roll": "r1", "modifiers": [{"label": "mud", "value": 5}]}
    error = refused(scene, GM, body)
    assert error.code == "opend6/modifiers-without-difficulty"
    assert error.concerns[0].pointer == "/modifiers"


def test_an_unable_participant_loses_the_turn_that_comes_while_unable() -> None:
    scene = play(new(), GM, {"type": "set_able", "participant": "bo-pc", "able": False}).state
    scene = play(scene, "ana", {"type": "end_turn", "participant": "ana-pc"}).state
    assert scene.current == "orc"  # Bo's turn came and went
    scene = play(scene, GM, {"type": "set_able", "participant": "bo-pc", "able": True}).state
    scene = play(scene, GM, {"type": "end_turn", "participant": "orc"}).state
    assert (scene.round, scene.current) == (2, "ana-pc")  # no turn out of order for Bo


def test_able_again_before_its_turn_comes_it_acts_in_its_place() -> None:
    scene = play(new(), GM, {"type": "set_able", "participant": "bo-pc", "able": False}).state
    scene = play(scene, GM, {"type": "set_able", "participant": "bo-pc", "able": True}).state
    scene = play(scene, "ana", {"type": "end_turn", "participant": "ana-pc"}).state
    assert scene.current == "bo-pc"
    fresh = rolling_initiative()
    fresh = play(fresh, GM, {"type": "set_able", "participant": "bo-pc", "able": False}).state
    fresh = play(fresh, GM, {"type": "set_able", "participant": "bo-pc", "able": True}).state
    assert fresh.rounds["bo-pc"].turn_done is False


def test_initiative_method_1_waits_for_the_gm_alone_and_the_rolled_methods_for_the_rollers() -> (
    None
):
    players = msgspec.convert(PLAYERS, tuple[ScenePlayer, ...])
    participants = msgspec.convert(PARTICIPANTS, tuple[SceneParticipant, ...])
    first_action = msgspec.convert({"initiative": "first_action"}, SceneRules)
    named = new_scene(
        scene_id="s", name="Ford", rules=first_action, players=players, participants=participants
    ).state
    assert waiting_for(named) == (GM,)
    assert waiting_for(rolling_initiative()) == ("ana", "bo", GM)
