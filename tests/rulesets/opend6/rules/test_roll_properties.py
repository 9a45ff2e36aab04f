"""Properties of every OpenD6 roll (docs/opend6.md, "Rolls in detail"): the total is the
counted faces plus pips plus related modifiers ("Rolling Dice", "Free Actions (related
skills)"), there is one Wild Die ("Wild Die"), and there are as many CP dice as Character
Points spent ("Character Points"); an answer's `faces` replay it. Many seeded rolls, each
checked against its own dice."""

from __future__ import annotations

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.dice import seeded
from service.rulesets.opend6.rules.rolls import DieRole, Timing, resolve_roll
from service.rulesets.opend6.rules.spec import RollRequest

ROLLS = st.fixed_dictionaries(
    {
        "base": st.fixed_dictionaries(
            {
                "type": st.just("skill"),
                "code": st.builds("{}D+{}".format, st.integers(1, 12), st.integers(0, 2)),
            }
        ),
        "bonuses": st.lists(
            st.fixed_dictionaries(
                {"label": st.just("edge"), "dice": st.integers(0, 3), "pips": st.integers(0, 5)}
            ),
            max_size=2,
        ),
        "related": st.lists(
            st.fixed_dictionaries(
                {"label": st.just("search"), "result_points": st.integers(-20, 20)}
            ),
            max_size=3,
        ),
        "character_points": st.fixed_dictionaries(
            {"before": st.integers(0, 5), "after": st.integers(0, 5)}
        ),
        "critical_failure": st.sampled_from(["cancel_highest", "complication"]),
        "seed": st.integers(0, 2**53 - 1),
    }
)


@settings(max_examples=300, deadline=None)
@given(fields=ROLLS)
def test_a_rolls_total_is_its_counted_faces_pips_and_related_modifiers(
    fields: dict[str, object],
) -> None:
    request = msgspec.convert(fields, RollRequest)
    result = resolve_roll(request, seeded(0), "p")  # the request's own seed rolls
    counted = sum(die.face for die in result.dice if die.counted)
    related = sum(item.modifier for item in result.related)
    assert result.total == counted + result.pips + related
    assert [die.role for die in result.dice].count(DieRole.WILD) == 1


class NoDice:
    def randint(self, a: int, b: int, /) -> int:
        raise AssertionError("the answer's faces hold every die")


@settings(max_examples=200, deadline=None)
@given(fields=ROLLS)
def test_an_answers_faces_replay_the_roll(fields: dict[str, object]) -> None:
    request = msgspec.convert(fields, RollRequest)
    result = resolve_roll(request, seeded(0), "p")
    again = msgspec.structs.replace(request, seed=None, faces=result.faces)
    replayed = resolve_roll(again, NoDice(), "p")
    assert (replayed.dice, replayed.total) == (result.dice, result.total)


@settings(max_examples=300, deadline=None)
@given(fields=ROLLS)
def test_a_roll_has_one_cp_die_per_character_point_spent(fields: dict[str, object]) -> None:
    request = msgspec.convert(fields, RollRequest)
    result = resolve_roll(request, seeded(0), "p")
    chains = {
        (die.chain, die.timing)
        for die in result.dice
        if die.role in (DieRole.CP, DieRole.CP_EXPLOSION)
    }
    before = sum(1 for _, timing in chains if timing is Timing.BEFORE)
    after = sum(1 for _, timing in chains if timing is Timing.AFTER)
    spent = request.character_points
    assert (before, after) == (spent.before, spent.after)
    assert result.points.spent.character_points == spent.before + spent.after
    starts = [die for die in result.dice if die.role is DieRole.CP]
    assert len(starts) == spent.before + spent.after  # one first toss per CP die
