"""The one-line summary of every Bullseye roll (rules/summary.py), in the book's words: the
die result (§2.1.2, §7.1; a Quick 10, §2.5; a bullseye, §7.2), the yield and the target
with their labels (§2.1.3, §2.3.1), success, failure or stalemate (§2.1) with the spread
and its label (§2.4.1), and what the check cost (§2.4.2, §3.2.6); a round of an expanded
conflict (§4.3) and its final check (§4.4)."""

from __future__ import annotations

import random
import re

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.summary import SUMMARY_PATTERN
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    CheckResult,
    DepletableScore,
    DepletionAtIssue,
    Restoration,
    SuppliedRoll,
    resolve_check,
)
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    DiceSource,
    OppositionSpec,
    OutcomeRequest,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    apply,
    new_conflict,
)
from service.rulesets.bullseye.rules.depletion import DepletionSide
from service.rulesets.bullseye.rules.dice import DICE, DiceKind
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType, Situational
from service.rulesets.bullseye.rules.summary import (
    check_summary,
    round_summary,
    submission_summary,
)


def check(*shown: int, **fields: object) -> CheckResult:
    fields.setdefault("target", 15)
    if shown:
        fields["roll"] = SuppliedRoll(faces=shown)
    return resolve_check(msgspec.convert(fields, CheckRequest), random.Random(0), "chk")


def test_a_tie_is_a_stalemate_and_reads_so() -> None:
    """§2.1: a tie is a stalemate; §2.4.1 labels a spread of 0 Mere Success."""
    result = check(
        11,
        qualities=[{"name": "Fencer", "type": "experiential", "magnitude": 4}],
        situational=[{"label": "Deck", "magnitude": 0}],
    )
    assert result.summary == (
        "d20 11 +4 = yield 15 (Above Average) vs target 15 (Hard): stalemate, spread +0 "
        "(Mere Success)"
    )


def test_alternate_dice_show_every_face_and_4d6_minus_4_its_offset() -> None:
    """§7.1: 3d6 sums three faces; 4d6-4 sums four less 4."""
    assert check(6, 5, 4, dice="3d6", target=12).summary.startswith(
        "3d6 6+5+4=15 +0 = yield 15 (Above Average) vs target 12 (Average): success, spread +3"
    )
    assert check(6, 5, 4, 3, dice="4d6-4", target=12).summary.startswith(
        "4d6-4 6+5+4+3-4=14 +0 = yield 14"
    )


def test_a_quick_10_rolls_nothing_and_a_bullseye_makes_the_die_20() -> None:
    """§2.5: a Quick 10 takes 10; §7.2: a bullseye's die result is 20, the faces kept."""
    assert check(quick10=True, target=12).summary.startswith(
        "Quick 10 +0 = yield 10 (Average) vs target 12 (Average): failure, spread -2 (Narrow Miss)"
    )
    assert check(3, bullseye=True, target=12).summary.startswith("d20 3, bullseye 20 +0 = yield 20")


def test_depletion_names_the_loser_and_the_amount() -> None:
    """§2.4.2, §3.2.2: the loser suffers |spread| + the winner's threat + its own depletion
    modifier; a stalemate depletes nobody."""
    at_issue = DepletionAtIssue(
        actor=DepletionSide(threat=0, depletion_modifier=-2),
        opposition=DepletionSide(threat=10, depletion_modifier=0),
    )
    lost = check(5, target=12, depletion=msgspec.to_builtins(at_issue))
    assert lost.summary.endswith("failure, spread -7 (Notable Failure); the actor loses 15")
    tied = check(12, target=12, depletion=msgspec.to_builtins(at_issue))
    assert tied.summary.endswith("; nobody loses")


def test_restoration_says_how_much_a_success_restores() -> None:
    """§3.2.6: a success restores as many points as its spread."""
    score = DepletableScore(name="health", current=35, maximum=42)  # unimpaired (§3.2.3)
    result = check(
        17,
        target=12,
        depletable=[msgspec.to_builtins(score)],
        restoration=msgspec.to_builtins(Restoration(depletable="health")),
    )
    assert result.summary.endswith("success, spread +5 (Solid Success); restores 5")


@settings(max_examples=150, deadline=None)
@given(
    dice=st.sampled_from(list(DiceKind)),
    seed=st.integers(0, 2**32),
    target=st.integers(-100, 200),
    magnitudes=st.lists(st.integers(-6, 9), max_size=6),
    quick10=st.booleans(),
    bullseye=st.booleans(),
)
def test_every_check_reads_as_one_line_with_its_yield_target_and_outcome(
    dice: DiceKind,
    seed: int,
    target: int,
    magnitudes: list[int],
    quick10: bool,
    bullseye: bool,
) -> None:
    """§2.1: whatever the check, its line names the yield, the target and the outcome in
    the book's words, fits the published pattern, and is the same line for the same
    answer (read off a decoded copy)."""
    qualities = [
        {"name": f"Q{i}", "type": "negative" if m < 0 else "intrinsic", "magnitude": m or 1}
        for i, m in enumerate(magnitudes)
    ]
    result = check(
        dice=dice,
        seed=seed,
        target=target,
        qualities=qualities,
        quick10=quick10,
        bullseye=bullseye and not quick10,
    )
    line = result.summary
    assert re.fullmatch(SUMMARY_PATTERN, line)
    assert f"= yield {result.yield_} (" in line
    assert f"vs target {target} (" in line
    assert f"): {result.outcome}, spread " in line
    lowest, highest = DICE[dice].lowest, DICE[dice].highest
    assert quick10 or bullseye or lowest <= result.die_result <= highest
    decoded = msgspec.json.decode(msgspec.json.encode(result), type=CheckResult)
    assert check_summary(msgspec.structs.replace(decoded, summary="")) == line


def quality(name: str, magnitude: int) -> Quality:
    return Quality(name=name, type=QualityType.INTRINSIC, magnitude=magnitude)


def roll(face: int, modifier: int = 0) -> ParticipantCheck:
    situational = (Situational(label="Edge", magnitude=modifier),) if modifier else ()
    return ParticipantCheck(situational=situational, roll=SuppliedRoll(faces=(face,)))


def conflict(*player_ids: str, **fields: object):
    players = tuple(
        PlayerSpec(id=p, name=p.title(), qualities=(quality("Grit", 5),)) for p in player_ids
    )
    return new_conflict(
        conflict_id="c",
        name="Duel",
        players=players,
        opposition=OppositionSpec(name="Duke", threat=3),
        dice=DiceKind.D20,
        dice_source=DiceSource.CLIENT,
        depletable_at_issue=None,
        **fields,
    ).state


def test_a_round_reads_each_pairing_and_the_scores_after() -> None:
    """§4.3: the GM's yield against each player's; the higher yield's spread, with the
    winner's threat, comes off the loser's score; a tie costs nobody."""
    state = conflict("ann", "bo")
    action = ResolveRound(gm=roll(10), players={"ann": roll(14), "bo": roll(10)})
    (resolved,) = apply(state, action, GM, random.Random(0), "").history
    assert round_summary(resolved) == (
        "Round 1: GM yield 10; ann 14 (opposition loses 4), bo 10 (stalemate); "
        "scores players 10, opposition 16"
    )


def test_a_round_of_twelve_players_sums_the_losses_to_fit_one_line() -> None:
    """§4.3 with twelve PCs (the most a conflict takes): the line sums each side's losses
    and still says who won (the side whose score is left above 0)."""
    ids = [f"player-{n:02d}" for n in range(12)]
    state = conflict(*ids)
    action = ResolveRound(gm=roll(20, 5), players={p: roll(1) for p in ids})
    (resolved,) = apply(state, action, GM, random.Random(0), "").history
    line = round_summary(resolved)
    assert len(line) <= 200
    # Each PC's 1 against the GM's 25: 24 + the Duke's threat 3 = 27, twelve times.
    assert line == (
        "Round 1: GM yield 25 against 12 players: players lose 324, opposition loses 0; "
        "scores players -264, opposition 720; the opposition wins"
    )


def test_a_check_waiting_for_its_round_says_its_yield_and_whom_the_round_awaits() -> None:
    """§4.3: checks are resolved together; §7.2: a holder may still spend a bullseye."""
    state = conflict("ann", "bo")
    effort = apply(state, ResolveRound(gm=roll(9), players={"ann": roll(12), "bo": roll(3)}),
                   GM, random.Random(0), "").history[0].players["ann"]  # fmt: skip
    assert (
        submission_summary(
            2, "ann", effort, DiceKind.D20, may_spend_bullseye=True, waiting_for=("gm", "bo")
        )
        == "Round 2: ann d20 12 +0 = yield 12 (Average); may spend a bullseye; waiting for gm, bo"
    )


def test_the_final_check_names_who_made_it() -> None:
    """§4.4: after the conflict is decided, the winning side checks with its remaining
    score as a bonus; the player with the highest total modifier makes it."""
    state = conflict("ann")
    state = apply(state, ResolveRound(gm=roll(1), players={"ann": roll(20, 9)}), GM,
                  random.Random(0), "").state  # fmt: skip
    done = apply(
        state, OutcomeRequest(target=10, checks={"ann": roll(8)}), GM, random.Random(0), "o"
    ).state
    assert done.outcome is not None
    # The players' remaining score, 5, is her bonus (§4.4).
    assert done.outcome.summary == (
        "Final check by ann: d20 8 +5 = yield 13 (Average) vs target 10 (Average): success, "
        "spread +3 (Mere Success)"
    )
