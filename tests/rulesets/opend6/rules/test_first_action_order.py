"""A `first_action` scene's order ("Initiative", Method 1; "Ties/No Rolls"; D15, D16):
the GM names who goes first, or nobody — then the die codes alone order everyone, as
"Ties/No Rolls" allows when the GM chooses not to roll."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.scenes.flow import NoDice
from service.rulesets.opend6.rules.scenes.model import (
    Scene,
    SceneParticipant,
    ScenePlayer,
    SceneRules,
)
from service.rulesets.opend6.rules.scenes.moves import SceneMove
from service.rulesets.opend6.rules.scenes.play import apply, new_scene

# Listed so that listing order would be wrong at every place: the order is (1) the orc's
# ability to go first, (2) Acumen ties, (3) Bo's search, (4) the wolf's Agility.
PARTICIPANTS = (
    {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D"},
    {"id": "wolf", "name": "Wolf", "acumen": "3D", "agility": "3D+1"},
    {"id": "bo-pc", "name": "Bo", "controller": "ana", "acumen": "3D", "search": "4D",
     "agility": "2D"},
    {"id": "orc", "name": "Orc", "acumen": "2D", "agility": "2D", "goes_first": 1},
)  # fmt: skip
BY_DIE_CODES = [
    ("orc", "goes_first"),
    ("bo-pc", "search"),
    ("wolf", "agility"),
    ("ana-pc", None),
]


def new(method: str = "first_action") -> Scene:
    return new_scene(
        scene_id="s",
        name="Ambush",
        rules=msgspec.convert({"initiative": method}, SceneRules),
        players=msgspec.convert([{"id": "ana", "name": "Ana"}], tuple[ScenePlayer, ...]),
        participants=msgspec.convert(PARTICIPANTS, tuple[SceneParticipant, ...]),
    ).state


def play(scene: Scene, actor: str, body: dict[str, Any]) -> Scene:
    move = msgspec.convert({"round": scene.round, **body}, SceneMove)
    return apply(scene, move, actor, NoDice(), "r").state


def order(scene: Scene) -> list[tuple[str, str | None]]:
    return [(place.participant, place.decided_by) for place in scene.order]


@pytest.mark.parametrize("first", [{}, {"first": []}])
def test_ties_no_rolls_the_gm_orders_a_first_action_scene_by_die_codes_alone(
    first: dict[str, Any],
) -> None:
    """ "Ties/No Rolls", "Initiative" Method 1: with nobody named first (`first` absent or
    empty), the whole order is the tie chain — ability to go first, Acumen, search,
    Agility, dodge, edge (D16) — and turns begin."""
    scene = play(new(), "gm", {"type": "set_order", **first})
    assert order(scene) == BY_DIE_CODES
    assert (scene.phase, scene.current) == ("turns", "orc")


def test_initiative_method_1_the_order_by_die_codes_stays_for_the_scene() -> None:
    """ "Initiative", Method 1: the characters keep the same order until the scene ends."""
    scene = play(new(), "gm", {"type": "set_order"})
    scene = play(scene, "gm", {"type": "next_round"})
    assert (scene.round, scene.phase, scene.current) == (2, "turns", "orc")
    assert order(scene) == BY_DIE_CODES


def test_initiative_method_1_the_gm_named_first_still_go_first() -> None:
    """ "Initiative", Method 1: whoever makes the first significant action goes first; the
    rest by "Ties/No Rolls" (the behaviour with a list is unchanged)."""
    scene = play(new(), "gm", {"type": "set_order", "first": ["ana-pc"]})
    assert order(scene) == [
        ("ana-pc", "gm"),
        ("orc", "goes_first"),
        ("bo-pc", "search"),
        ("wolf", None),
    ]


def test_initiative_method_1_set_order_stays_the_gms_and_method_1s() -> None:
    """Only the GM orders the scene, and only a `first_action` one (D15)."""
    with pytest.raises(RulesError) as caught:
        play(new(), "ana", {"type": "set_order"})
    assert caught.value.code == "opend6/gm-only"
    with pytest.raises(RulesError) as caught:
        play(new("rolled_per_scene"), "gm", {"type": "set_order"})
    assert caught.value.code == "opend6/wrong-phase"
