"""Hypothesis properties of a talent check (docs/self-conflict.md, "How a check is resolved"),
from "Task resolution and other rules" (TR) and its karma paragraph."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.self_conflict.rules.checks import (
    SelfConflictComparison,
    SelfConflictDieRole,
    TalentCheckRequest,
    outcome_of,
    resolve_check,
)


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    """Check bodies inside the schema, with or without karma, faces or a seed."""
    body: dict[str, Any] = {"talent": {"level": draw(st.integers(0, 6))}}
    modifiers = draw(st.lists(st.integers(-6, 6), max_size=4))
    if modifiers:
        body["conflict_modifiers"] = [{"label": "GM", "value": v} for v in modifiers]
    if draw(st.booleans()):
        body["karma"] = {
            "balance": draw(st.integers(0, 12)),
            "modifier": draw(st.integers(-10, 10)),
        }
    source = draw(st.sampled_from(["rng", "seed", "faces"]))
    if source == "seed":
        body["seed"] = draw(st.integers(0, 2**53 - 1))
    elif source == "faces":
        body["faces"] = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    return body


@settings(max_examples=400, deadline=None)
@given(body=bodies(), seed=st.integers(0, 2**32))
def test_tr_property_every_check_keeps_the_rules(body: dict[str, Any], seed: int) -> None:
    """TR, Karma: total is null iff a critical; the outcome is the total's band; a
    critical has 2 dice; a re-roll follows exactly each main die that compared equal; the
    Self modifier is k alone; after = balance − |k| + gained ≥ 0. Any body either
    resolves or is refused with a self-conflict code."""
    request = msgspec.convert(body, TalentCheckRequest)
    try:
        result = resolve_check(request, random.Random(seed), "p")
    except RulesError as error:
        refused = error
    else:
        refused = None
    if refused is not None:
        assert refused.code.startswith("self-conflict/")
        assert refused.concerns
        return
    assert (result.total is None) == (result.critical is not None)
    if result.total is not None:
        assert result.outcome is outcome_of(result.total)
        assert 0 <= result.total <= 12
    else:
        assert len(result.dice) == 2
    self_die, conflict_die, *rerolls = result.dice
    equal = [
        role
        for die, role in (
            (self_die, SelfConflictDieRole.SELF_REROLL),
            (conflict_die, SelfConflictDieRole.CONFLICT_REROLL),
        )
        if die.comparison is SelfConflictComparison.EQUAL
    ]
    assert [die.role for die in rerolls] == ([] if result.critical else equal)
    assert all(die.modifier == 0 and die.points == die.face for die in rerolls)
    karma = body.get("karma")
    k = karma["modifier"] if karma else 0
    assert self_die.modifier == k
    assert conflict_die.modifier == sum(m["value"] for m in body.get("conflict_modifiers", []))
    assert result.karma.gained == (1 if result.critical else 0)
    if karma:
        after = karma["balance"] - abs(k) + result.karma.gained
        assert result.karma.balance_after == after >= 0
    if "faces" in body:
        assert list(result.faces) == body["faces"]
    assert [d.face for d in result.dice] == list(result.faces)
