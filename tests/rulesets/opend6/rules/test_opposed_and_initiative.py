"""Opposed rolls ("Opposed Difficulties") and initiative ("Initiative", "Ties/No Rolls",
"Optional Initiative Bonus"), as docs/opend6.md applies them."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.initiative import (
    InitiativeEntrant,
    InitiativeRequest,
    initiative_bonus_pips,
    roll_initiative,
)
from service.rulesets.opend6.rules.opposed import OpposedRequest, resolve_opposed


def side(faces: list[int], wild: int, **fields: object) -> dict:
    fields.setdefault("base", {"type": "skill", "code": f"{len(faces) + 1}D"})
    return {**fields, "faces": {"regular": faces, "wild": [wild]}}


def opposed(initiator: dict, resister: dict, **fields: object):
    body = msgspec.convert({"initiator": initiator, "resister": resister, **fields}, OpposedRequest)
    return resolve_opposed(body, random.Random(0), "opp")


def test_opposed_difficulties_a_tie_goes_to_the_initiator():
    result = opposed(side([4, 4], 4), side([3, 5], 4))
    assert (result.margin, result.winner) == (0, "initiator")


def test_opposed_difficulties_the_resister_wins_when_higher():
    result = opposed(side([1, 1], 2), side([3, 5], 4))
    assert (result.margin, result.winner, result.result_points) == (-8, "resister", -8)


def test_opposed_difficulties_untrained_and_generic_modifiers_count_against_their_side():
    """D17: A − uA − mA ≥ B − uB − mB. The untrained initiator (+5) with a +2 modifier
    against it loses: 11 − 7 against 10."""
    initiator = side([6], 5, base={"type": "untrained", "attribute": "2D"})
    result = opposed(
        initiator, side([5], 5), modifiers={"initiator": [{"label": "dark", "value": 2}]}
    )
    assert (result.initiator.handicap, result.margin, result.winner) == (7, -6, "resister")


def test_opposed_difficulties_a_winning_attack_earns_a_damage_bonus():
    result = opposed(side([6, 6], 5, kind="attack"), side([1, 1], 2))
    assert (result.margin, result.damage_bonus) == (13, 3)


def test_opposed_difficulties_refusals_point_at_their_side():
    with pytest.raises(RulesError) as caught:
        opposed(side([4], 4), side([4, 4, 4], 4, base={"type": "skill", "code": "2D"}))
    assert [c.pointer for c in caught.value.concerns] == ["/resister/faces/regular"]


# --- initiative ---------------------------------------------------------------------------


def entrant(pid: str, total: int, **fields: object) -> dict:
    fields.setdefault("acumen", "3D")
    fields.setdefault("agility", "3D")
    return {"id": pid, "name": pid.title(), "total": total, **fields}


def order(*entrants: dict, **fields: object):
    body = msgspec.convert({"participants": list(entrants), **fields}, InitiativeRequest)
    return roll_initiative(body, random.Random(0), "init")


def test_initiative_highest_total_first():
    result = order(entrant("a", 9), entrant("b", 14))
    assert [(p.participant, p.decided_by) for p in result.order] == [("b", "total"), ("a", None)]


@pytest.mark.parametrize(
    ("key", "ahead", "behind"),
    [
        ("goes_first", {"goes_first": 2}, {"goes_first": 1}),
        ("acumen", {"acumen": "3D+1"}, {"acumen": "3D"}),
        ("search", {"search": "4D"}, {}),
        ("agility", {"agility": "4D"}, {}),
        ("dodge", {"dodge": "3D+2"}, {}),
        ("edge", {"edge": 1}, {}),
        ("listing", {}, {}),
    ],
)
def test_ties_no_rolls_each_key_in_turn(key, ahead, behind):
    """ "Ties/No Rolls": equal totals are ordered by each key in turn, highest first, then
    by listing (D16); `decided_by` names the key."""
    result = order(entrant("behind", 10, **behind), entrant("ahead", 10, **ahead))
    expected = ["ahead", "behind"] if key != "listing" else ["behind", "ahead"]
    assert [p.participant for p in result.order] == expected
    assert result.order[0].decided_by == key


def test_optional_initiative_bonus_adds_search_adds_agility_and_ranks():
    """ "Optional Initiative Bonus": Acumen 3D, search 5D+1, Agility 4D → +2 pips (D16)."""
    body = msgspec.convert(
        {"id": "x", "name": "X", "acumen": "3D", "search": "5D+1", "agility": "4D"},
        InitiativeEntrant,
    )
    assert initiative_bonus_pips(body) == 2
    result = order(entrant("x", 10, search="5D+1", agility="4D"), optional_initiative_bonus=True)
    assert result.order[0].total == 12


def test_initiative_rolls_acumen_with_the_wild_die_and_no_fate_point():
    """D15: an Acumen roll with CP dice allowed; the roll is reported."""
    result = order(
        {
            "id": "a",
            "name": "A",
            "acumen": "2D",
            "agility": "2D",
            "character_points": 1,
            "faces": {"regular": [3], "wild": [4], "character_points": [[2]]},
        }
    )
    place = result.order[0]
    assert (place.total, place.roll.kind, place.roll.points.spent.character_points) == (
        9,
        "initiative",
        1,
    )


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(5, 8), min_size=2, max_size=6), st.randoms(use_true_random=False))
def test_relisting_changes_the_order_only_between_full_ties(totals, shuffler):
    """D16: the order is lexicographic on the keys, listing order last: shuffling the list
    only swaps participants whose every key is equal."""
    entrants = [entrant(f"p{i}", total, edge=i % 2) for i, total in enumerate(totals)]
    first = order(*entrants)
    shuffled = entrants[:]
    shuffler.shuffle(shuffled)
    second = order(*shuffled)
    keys = {e["id"]: (e["total"], e["edge"]) for e in entrants}
    assert [keys[p.participant] for p in first.order] == [keys[p.participant] for p in second.order]
