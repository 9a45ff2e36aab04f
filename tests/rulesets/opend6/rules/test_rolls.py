"""One OpenD6 roll (docs/opend6.md), each test citing the seed's heading."""

from __future__ import annotations

import random

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.rolled_code import rolled_code
from service.rulesets.opend6.rules.rolls import (
    DieRole,
    RollOutcome,
    damage_bonus,
    related_skill_modifier,
    resolve_roll,
)
from service.rulesets.opend6.rules.spec import RollRequest


class NoDice:
    """Where the table supplies every face the server must not roll."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("the server rolled although faces were supplied")


def request(**fields: object) -> RollRequest:
    """A roll request as a client sends it (decoded, so defaults and tags apply)."""
    fields.setdefault("base", {"type": "skill", "code": "3D"})
    return msgspec.convert(fields, RollRequest)


def roll(**fields: object):
    rng = fields.pop("rng", NoDice())
    return resolve_roll(request(**fields), rng, "roll-1")  # type: ignore[arg-type]


def refusal(**fields: object) -> RulesError:
    with pytest.raises(RulesError) as caught:
        roll(rng=random.Random(1), **fields)
    return caught.value


def codes(error: RulesError) -> list[str]:
    return [concern.code for concern in error.concerns]


# --- "Rolling Dice": the rolled code --------------------------------------------------


def test_rolling_dice_a_shovel_adds_a_regular_die_to_lifting():
    """ "Rolling Dice": lifting 4D with a shovel's +1D is 5D: four regular dice + Wild."""
    result = roll(
        base={"type": "skill", "code": "4D"},
        bonuses=[{"label": "shovel", "dice": 1}],
        rng=random.Random(3),
    )
    assert result.rolled_code == "5D"
    roles = [die.role for die in result.dice if die.role in (DieRole.REGULAR, DieRole.WILD)]
    assert roles.count(DieRole.REGULAR) == 4
    assert roles.count(DieRole.WILD) == 1


def test_rolling_dice_agility_3d_plus_1_with_the_tables_faces():
    """ "Rolling Dice": Agility 3D+1, regular 3 and 4, Wild Die 5 → 13."""
    result = roll(
        base={"type": "attribute", "code": "3D+1"}, faces={"regular": [3, 4], "wild": [5]}
    )
    assert (result.total, result.pips) == (13, 1)


def test_rolling_dice_one_die_is_the_wild_die_alone():
    """ "Wild Die": a 1D roll is its Wild Die."""
    result = roll(base={"type": "skill", "code": "1D"}, faces={"wild": [4]})
    assert [die.role for die in result.dice] == [DieRole.WILD]


def test_fate_points_double_the_devices_code_with_one_wild_die():
    """ "Fate Points": devices 4D+2 → 8D+4, seven regular dice + Wild + 4 (D1, D6)."""
    faces = {"regular": [1, 2, 3, 4, 5, 6, 1], "wild": [2]}
    result = roll(base={"type": "skill", "code": "4D+2"}, fate_point=True, faces=faces)
    assert result.rolled_code == "8D+4"
    assert result.total == 22 + 2 + 4
    assert sum(die.role is DieRole.WILD for die in result.dice) == 1


def test_fate_points_double_before_bonuses_and_penalties():
    """D6: 4D+2 doubled, then +1D equipment → 9D+4; then 2 actions → 8D+4 … −1D → 7D+4."""
    doubled = {"base": {"type": "skill", "code": "4D+2"}, "fate_point": True}
    with_kit = rolled_code(request(**doubled, bonuses=[{"label": "kit", "dice": 1}]))
    assert with_kit.text == "9D+4"
    two_actions = rolled_code(request(**doubled, actions={"declared": 2, "allotment": 1}))
    assert two_actions.text == "7D+4"


@pytest.mark.parametrize(
    ("declared", "allotment", "code"), [(4, 1, "1D"), (9, 8, "3D"), (1, 1, "4D")]
)
def test_multi_action_penalty_one_die_per_action_beyond_the_allotment(declared, allotment, code):
    """ "Multi-Action Penalty": 4 actions at allotment 1 → −3D; 9 at allotment 8 → −1D."""
    spec = request(
        base={"type": "skill", "code": "4D"}, actions={"declared": declared, "allotment": allotment}
    )
    assert rolled_code(spec).text == code


def test_multi_action_penalty_the_pickpockets_dodge_after_waiting():
    """ "Multi-Action Penalty": a pickpocket who waits and then dodges declared two
    actions: the dodge rolls at −1D."""
    spec = request(base={"type": "skill", "code": "3D"}, actions={"declared": 2, "allotment": 1})
    assert rolled_code(spec).text == "2D"


@pytest.mark.parametrize("kind", ["damage", "damage_resistance", "initiative"])
def test_multi_action_penalty_spares_damage_resistance_and_initiative(kind):
    """D13: the penalty never touches damage, damage resistance or initiative rolls."""
    spec = request(kind=kind, actions={"declared": 4, "allotment": 1})
    assert rolled_code(spec).text == "3D"


@pytest.mark.parametrize(
    ("taken", "dice"), [(10, "3D"), (20, "4D"), (30, "4D"), (80, "6D"), (160, "6D")]
)
def test_preparing_one_die_per_whole_doubling_at_most_three(taken, dice):
    """ "Preparing": ×2 and ×3 the normal time +1D; ×8 and ×16 +3D (D11)."""
    spec = request(time={"normal_seconds": 10, "taken_seconds": taken})
    assert rolled_code(spec).text == dice


def test_alternate_attribute_option_carries_the_skills_adds():
    """ "Alternate Attribute Option": healing 4D+1 over Intellect 3D adds 1D+1; on
    Coordination 2D+2 that is 3D+3 (D12)."""
    result = roll(
        base={
            "type": "alternate",
            "skill": "4D+1",
            "governing_attribute": "3D",
            "attribute": "2D+2",
        },
        rng=random.Random(5),
    )
    assert (result.rolled_code, result.base.adds) == ("3D+3", "1D+1")


def test_alternate_attribute_option_refuses_a_skill_below_its_attribute():
    error = refusal(
        base={"type": "alternate", "skill": "2D", "governing_attribute": "3D", "attribute": "2D"}
    )
    assert codes(error) == ["opend6/negative-adds"]


def test_rolling_dice_no_roll_below_one_die():
    """D3: a 1D skill at −1D has no Wild Die left: 422 zero-dice."""
    error = refusal(base={"type": "skill", "code": "1D"}, bonuses=[{"label": "hurt", "dice": -1}])
    assert codes(error) == ["opend6/zero-dice"]


# --- "Wild Die" ---------------------------------------------------------------------


def test_wild_die_a_6_explodes_until_another_face():
    """ "Wild Die": 6, 6, 2 → 14, a Critical Success."""
    result = roll(base={"type": "skill", "code": "1D"}, faces={"wild": [6, 6, 2]})
    assert (result.total, result.wild.explosions, result.wild.critical) == (14, 2, "success")
    assert [die.role for die in result.dice] == [
        DieRole.WILD,
        DieRole.WILD_EXPLOSION,
        DieRole.WILD_EXPLOSION,
    ]


def test_wild_die_a_later_1_is_a_plain_1():
    """ "Wild Die": 6 then 1 → 7, and no Critical Failure."""
    result = roll(base={"type": "skill", "code": "1D"}, faces={"wild": [6, 1]})
    assert (result.total, result.critical_failure) == (7, None)


def test_wild_die_critical_failure_both_options():
    """ "Wild Die": 3D with 5, 3 and Wild 1: cancel_highest → 3, complication → 9 (D4, D5)."""
    faces = {"regular": [5, 3], "wild": [1]}
    cancelled = roll(faces=faces)
    assert cancelled.total == 3
    assert cancelled.critical_failure.total_if_complication == 9
    assert [die.face for die in cancelled.dice if not die.counted] == [5, 1]
    complicated = roll(faces=faces, critical_failure="complication")
    assert (complicated.total, complicated.complication) == (9, True)
    assert complicated.critical_failure.total_if_cancel_highest == 3


def test_wild_die_critical_failure_on_1d_drops_only_the_wild_die():
    """D4: 1D+2 with Wild 1: no regular die to cancel; the pips stay → 2."""
    result = roll(base={"type": "skill", "code": "1D+2"}, faces={"wild": [1]})
    assert result.total == 2


def test_character_points_a_cp_die_counts_its_1():
    """ "Character Points": a CP die's 1 counts as 1 (only the Wild Die's first 1 is critical)."""
    result = roll(
        base={"type": "skill", "code": "1D"},
        character_points={"before": 1},
        faces={"wild": [3], "character_points": [[1]]},
    )
    assert result.total == 4
    assert [die.role for die in result.dice] == [DieRole.WILD, DieRole.CP]


def test_character_points_after_the_roll_roll_only_the_new_dice():
    """ "Character Points": spent after seeing the roll — resend the answer's faces."""
    first = roll(base={"type": "skill", "code": "2D"}, seed=7, rng=random.Random(0))
    again = roll(
        base={"type": "skill", "code": "2D"},
        character_points={"after": 2},
        faces=msgspec.to_builtins(first.faces),
        rng=random.Random(1),
    )
    before = [(die.role, die.face) for die in first.dice]
    assert [(die.role, die.face) for die in again.dice][: len(before)] == before
    assert sum(die.role is DieRole.CP for die in again.dice) == 2
    assert {die.timing for die in again.dice if die.role is DieRole.CP} == {"after"}


def test_character_points_the_gms_limit():
    """ "Character Points": on an easy game's limit of 2, 3 points → 422 (D7)."""
    error = refusal(character_points={"before": 2, "after": 1}, character_point_limit=2)
    assert codes(error) == ["opend6/cp-limit"]


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "initiative", "fate_point": True},
        {"base": {"type": "equipment", "code": "3D"}, "fate_point": True},
    ],
)
def test_fate_points_never_on_initiative_or_equipment(fields):
    assert codes(refusal(**fields)) == ["opend6/fp-not-allowed"]


def test_improving_a_roll_cp_and_fp_together_only_when_cinematic():
    """ "Improving a Roll": CP with a Fate Point → 422 cp-with-fp unless `cp_with_fp`."""
    both = {"fate_point": True, "character_points": {"before": 1}}
    assert codes(refusal(**both)) == ["opend6/cp-with-fp"]
    assert roll(**both, cp_with_fp=True, rng=random.Random(2)).points.spent.fate_points == 1


@pytest.mark.parametrize(
    ("faces", "code"),
    [
        ({"regular": [3], "wild": [4]}, "opend6/faces-missing"),
        ({"regular": [3, 4, 5], "wild": [4]}, "opend6/faces-extra"),
        ({"regular": [3, 4], "wild": [6, 3, 2]}, "opend6/wild-chain"),
        ({"regular": [3, 4], "wild": [6]}, "opend6/faces-missing"),
    ],
)
def test_faces_from_the_table_must_fit_the_roll(faces, code):
    assert codes(refusal(faces=faces)) == [code]


def test_a_seed_replays_a_roll():
    first = roll(seed=99, rng=random.Random(0))
    assert roll(seed=99, rng=random.Random(1)).dice == first.dice


# --- "Determining Success", "Result Points" --------------------------------------------


def test_determining_success_a_total_equal_to_the_difficulty_succeeds():
    """D2: meeting the difficulty succeeds; a resisting roll must beat it."""
    equal = {
        "faces": {"regular": [5, 5], "wild": [5]},
        "difficulty": {"kind": "number", "value": 15},
    }
    assert roll(**equal).outcome is RollOutcome.SUCCESS
    assert roll(**equal, roller_is_initiator=False).outcome is RollOutcome.FAILURE


@pytest.mark.parametrize(("rp", "modifier"), [(-3, -2), (-1, -1), (0, 1), (4, 2)])
def test_related_skills_half_the_result_points_at_least_one(rp, modifier):
    """ "Free Actions (related skills)": rp −3 → −2, −1 → −1, 0 → +1, 4 → +2 (D10)."""
    assert related_skill_modifier(rp) == modifier


def test_related_skills_a_search_beaten_by_4_helps_the_traps_roll_by_2():
    result = roll(
        faces={"regular": [2, 2], "wild": [2]}, related=[{"label": "search", "result_points": 4}]
    )
    assert (result.related[0].modifier, result.total) == (2, 8)


@pytest.mark.parametrize(("rp", "bonus"), [(0, 0), (5, 1), (11, 3)])
def test_result_points_damage_bonus(rp, bonus):
    """ "Result Points": a hit's damage bonus is ⌈rp/5⌉ (D10)."""
    assert damage_bonus(rp) == bonus


def test_result_points_only_a_successful_attack_earns_a_damage_bonus():
    hit = {"kind": "attack", "faces": {"regular": [6, 6], "wild": [4]}}
    assert roll(**hit, difficulty={"kind": "number", "value": 10}).damage_bonus == 2
    assert roll(**hit, difficulty={"kind": "number", "value": 20}).damage_bonus == 0


# --- difficulties on a roll --------------------------------------------------------------


def test_unskilled_attempts_raise_the_difficulty_by_the_unskilled_modifier():
    """ "Untrained Skill Use", "Unskilled Attempts": the attribute rolls; +5 by default."""
    result = roll(
        base={"type": "untrained", "attribute": "2D"},
        faces={"regular": [4], "wild": [4]},
        difficulty={"kind": "standard", "level": "easy"},
    )
    assert [(m.source, m.value) for m in result.difficulty.modifiers] == [("unskilled", 5)]
    assert (result.difficulty.value, result.outcome) == (15, RollOutcome.FAILURE)


def test_rushing_raises_the_difficulty_of_the_roll():
    """ "Rushing": an hour's task in 1800 s → +10 on the difficulty (D11)."""
    result = roll(
        faces={"regular": [6, 6], "wild": [5]},
        time={"normal_seconds": 3600, "taken_seconds": 1800},
        difficulty={"kind": "number", "value": 10},
    )
    assert (result.difficulty.value, result.result_points) == (20, -3)


def test_standard_difficulties_a_level_alone_is_its_ranges_top_and_values_stay_inside():
    """D8: Moderate alone is 15; 21 is not Moderate (422)."""
    result = roll(
        faces={"regular": [5, 5], "wild": [5]}, difficulty={"kind": "standard", "level": "moderate"}
    )
    assert (result.difficulty.value, result.difficulty.label) == (15, "Moderate")
    error = refusal(difficulty={"kind": "standard", "level": "moderate", "value": 21})
    assert codes(error) == ["opend6/value-outside-level"]


def test_special_difficulties_derived_from_the_targets_code():
    """ "Special Difficulties": an urchin's Charisma 3D → 6 (D9)."""
    result = roll(
        faces={"regular": [2, 2], "wild": [2]}, difficulty={"kind": "derived", "code": "3D"}
    )
    assert (result.difficulty.value, result.outcome) == (6, RollOutcome.SUCCESS)


def test_standard_difficulties_automatic_succeeds_without_rolling():
    result = roll(difficulty={"kind": "standard", "level": "automatic"})
    assert (result.outcome, result.dice, result.total) == (RollOutcome.SUCCESS, (), None)


@pytest.mark.parametrize(
    ("wild", "outcome", "complication"),
    [
        (6, RollOutcome.CRITICAL_SUCCESS, False),
        (1, RollOutcome.SUCCESS, True),
        (3, RollOutcome.SUCCESS, False),
    ],
)
def test_special_difficulties_wild_die_only(wild, outcome, complication):
    """ "Special Difficulties": one toss of the Wild Die, no explosion (D14): the table's
    `wild: [6]` is the whole roll, a Critical Success tossed no further."""
    result = roll(faces={"wild": [wild]}, difficulty={"kind": "wild_die_only"})
    assert (result.outcome, result.complication, len(result.dice)) == (outcome, complication, 1)
    assert (result.total, result.wild.explosions, result.faces.wild) == (wild, 0, (wild,))


def test_special_difficulties_wild_die_only_takes_no_points():
    error = refusal(difficulty={"kind": "wild_die_only"}, character_points={"before": 1})
    assert codes(error) == ["opend6/points-on-wild-die-only"]
