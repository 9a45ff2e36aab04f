"""Expanded conflicts (§4.2–§4.4, §3.2.3–§3.2.5, §7.2) through new_conflict and apply.

Dice are supplied by the "table" (dice_source client) so every yield is exact; the few
server-rolled cases use a seeded ``random.Random``.
"""

from __future__ import annotations

import copy
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.errors import RulesError
from service.rulesets.bullseye.rules.checks import DepletableScore, SuppliedRoll
from service.rulesets.bullseye.rules.codes import STATE_CONFLICTS, RuleCode
from service.rulesets.bullseye.rules.conditions import State
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    ConflictStatus,
    DiceSource,
    OppositionSpec,
    OutcomeRequest,
    PairingLoser,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Scores,
    Side,
    Submit,
    new_conflict,
    opening_scores,
)
from service.rulesets.bullseye.rules.conflicts import (
    apply as apply_rules,
)
from service.rulesets.bullseye.rules.dice import DICE, DiceKind
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS
from service.rulesets.bullseye.rules.modifiers import (
    ModifierSource,
    Quality,
    QualityType,
    Situational,
)
from service.rulesets.bullseye.rules.narration import Outcome

CORE = QualityType.CORE
INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL
MATR = QualityType.MATERIAL


class NoDice:
    """The service's generator where the table supplies every face: it must not be used."""

    def randint(self, a, b):
        raise AssertionError("the server rolled although faces were supplied")


RNG = NoDice()


def q(name, type_, magnitude):
    return Quality(name=name, type=type_, magnitude=magnitude)


def health(current, maximum=42):
    return DepletableScore(name="health", current=current, maximum=maximum)


def ann(**fields):
    """The issue's first PC: relevant qualities +7 and +4 (§4.2)."""
    fields.setdefault("threat", 2)
    return PlayerSpec(
        id="ann", name="Ann", qualities=(q("Quick", INTR, 7), q("Fencer", EXPR, 4)), **fields
    )


def bo(**fields):
    """The issue's second PC: relevant qualities +8 and +3 (§4.2)."""
    fields.setdefault("depletion_modifier", -2)
    return PlayerSpec(
        id="bo", name="Bo", qualities=(q("Brave", CORE, 8), q("Shield", MATR, 3)), **fields
    )


def pc(player_id, *magnitudes, **fields):
    qualities = tuple(q(f"Q{i}", INTR, m) for i, m in enumerate(magnitudes))
    return PlayerSpec(id=player_id, name=player_id.title(), qualities=qualities, **fields)


def foe(threat=3, depletion_modifier=-1):
    return OppositionSpec(name="Duke", threat=threat, depletion_modifier=depletion_modifier)


def create(*players, opposition=None, source=DiceSource.CLIENT, at_issue=None, dice=DiceKind.D20):
    applied = new_conflict(
        conflict_id="c-1",
        name="Duel at dawn",
        players=players,
        opposition=opposition or foe(),
        dice=dice,
        dice_source=source,
        depletable_at_issue=at_issue,
    )
    return applied.state, list(applied.events)


def conflict_of(*players, **fields):
    return create(*players, **fields)[0]


def rolled(face, modifier=0, **fields):
    """A participant check showing ``face`` with a situational modifier (if any): no
    quality, so any checker may make it (conflict checks use declared qualities only)."""
    situational = (Situational(label="Edge", magnitude=modifier),) if modifier else ()
    return ParticipantCheck(situational=situational, roll=SuppliedRoll(faces=(face,)), **fields)


def apply(conflict, action, rng=RNG, check_id="", actor=None):
    """The rules' answer: the next conflict, its events, and the rounds it resolved (the
    history the session engine appends apart from the state). The actor is the one whose
    move it is unless given: the submitter, else the GM."""
    if actor is None:
        actor = getattr(action, "participant", GM)
    applied = apply_rules(conflict, action, actor, rng, check_id)
    return applied.state, list(applied.events), applied.history


def resolve(conflict, gm, rng=RNG, **players):
    return apply(conflict, ResolveRound(gm=gm, players=players), rng)


def refusal(conflict, action, rng=RNG, actor=None):
    before = copy.deepcopy(conflict)
    with pytest.raises(RulesError) as caught:
        apply(conflict, action, rng, actor=actor)
    assert conflict == before
    return caught.value


def creation_refusal(*players, **fields):
    with pytest.raises(RulesError) as caught:
        create(*players, **fields)
    return caught.value


def codes_and_pointers(error):
    return [(concern.code, concern.pointer) for concern in error.concerns]


def pairings(round_):
    return [
        (p.player, p.gm_yield, p.player_yield, p.spread, p.loser, p.amount) for p in round_.pairings
    ]


def two_pc_conflict(**fields):
    return conflict_of(ann(), bo(), **fields)


def players_win(conflict):
    """One round the players win outright: the GM shows 1, every PC 20 with +60."""
    gm = rolled(1)
    decided, _, _ = resolve(conflict, gm, **{p.id: rolled(20, 60) for p in conflict.players})
    assert decided.winner is Side.PLAYERS
    return decided


def opposition_wins(conflict):
    """One round the opposition wins outright: the GM shows 20 with +60, every PC 1."""
    decided, _, _ = resolve(conflict, rolled(20, 60), **{p.id: rolled(1) for p in conflict.players})
    assert decided.winner is Side.OPPOSITION
    return decided


# --- §4.2 conflict scores ----------------------------------------------------------------


def test_section_4_2_issue_example_two_pcs_7_4_and_8_3_give_22_and_44():
    """§4.2: players' score = 7 + 4 + 8 + 3 = 22; opposition's = 22 × 2 PCs = 44."""
    assert opening_scores((ann(), bo())) == Scores(players=22, opposition=44)
    conflict, events = create(ann(), bo())
    assert conflict.scores == Scores(players=22, opposition=44)
    assert conflict.status is ConflictStatus.ACTIVE
    assert (conflict.round, conflict.winner, conflict.outcome) == (1, None, None)
    assert (conflict.legacy_rounds, conflict.pending, conflict.bullseyes_used) == ((), {}, {})
    assert events == []  # nothing to stream until someone acts
    assert events == []  # the event stream starts with the first submission


def test_section_4_2_one_pc_opposition_equals_players():
    """§4.2: with a single PC the multiplier is 1, so both sides start equal."""
    assert conflict_of(ann()).scores == Scores(players=11, opposition=11)


def test_section_4_2_three_pcs_multiply_by_three():
    """§4.2: 11 + 11 + 5 = 27 for the players, 27 × 3 = 81 for the opposition."""
    conflict = conflict_of(ann(), bo(), pc("cy", 2, 3))
    assert conflict.scores == Scores(players=27, opposition=81)


@pytest.mark.parametrize(
    "players",
    [
        (pc("ann"),),
        (pc("ann", 0),),
        (pc("ann"), pc("bo")),
    ],
)
def test_section_4_2_no_positive_score_is_refused(players):
    """§4.2: no relevant quality means no score to play for: no-conflict-score."""
    error = creation_refusal(*players)
    assert error.code is RuleCode.NO_CONFLICT_SCORE
    assert codes_and_pointers(error) == [(RuleCode.NO_CONFLICT_SCORE, "/players")]


@pytest.mark.parametrize(
    ("players", "pointer"),
    [
        ((pc("ann", 3), pc("ann", 4)), "/players/1/id"),
        ((pc("gm", 3),), "/players/0/id"),
        ((pc("ann", 3), pc("GM", 4)), "/players/1/id"),
    ],
)
def test_section_4_2_duplicate_or_gm_player_id_is_refused(players, pointer):
    """Players are told apart by id; 'gm' names the opposition's side: invalid-player-id."""
    error = creation_refusal(*players)
    assert codes_and_pointers(error) == [(RuleCode.INVALID_PLAYER_ID, pointer)]


def test_section_4_2_every_creation_problem_is_reported_at_once():
    """A reserved id, a duplicate id and an incapacitated PC are listed together."""
    error = creation_refusal(pc("gm", 3), pc("ann", 2), pc("ann", 1, depletable=health(5)))
    assert codes_and_pointers(error) == [
        (RuleCode.INVALID_PLAYER_ID, "/players/0/id"),
        (RuleCode.INVALID_PLAYER_ID, "/players/2/id"),
        (RuleCode.CHARACTER_INCAPACITATED, "/players/2/depletable/current"),
    ]


@pytest.mark.parametrize(
    ("current", "code"),
    [
        (10, RuleCode.CHARACTER_INCAPACITATED),  # 10 ≤ floor(42/4): §3.2.4
        (1, RuleCode.CHARACTER_INCAPACITATED),
        (0, RuleCode.CHARACTER_RETIRED),  # ≤ 0: §3.2.5
        (-3, RuleCode.CHARACTER_RETIRED),
    ],
)
def test_section_3_2_4_unfit_pc_is_refused_at_creation(current, code):
    """§3.2.4/§3.2.5: an incapacitated or retired PC cannot take part in a conflict."""
    error = creation_refusal(ann(), bo(depletable=health(current)))
    assert codes_and_pointers(error) == [(code, "/players/1/depletable/current")]


def test_section_3_2_6_depletable_current_above_maximum_is_refused_at_creation():
    """§3.2.6: a depletable score never exceeds its maximum; a single check refuses 50 of 42
    (current-above-maximum), so a conflict must too."""
    error = creation_refusal(ann(depletable=health(50)))
    assert codes_and_pointers(error) == [
        (RuleCode.CURRENT_ABOVE_MAXIMUM, "/players/0/depletable/current")
    ]


def test_a_pcs_depletable_score_must_be_the_quality_at_issue():
    """§3.2.1: the conflict names the depletable quality at issue; a PC's score for another
    one is refused (unknown-depletable), a score for the same one (any case) accepted."""
    sanity = DepletableScore(name="sanity", current=30, maximum=42)
    error = creation_refusal(ann(depletable=sanity), at_issue="health")
    assert codes_and_pointers(error) == [
        (RuleCode.UNKNOWN_DEPLETABLE, "/players/0/depletable/name")
    ]
    conflict, _ = create(ann(depletable=health(30)), at_issue="Health")
    assert conflict.depletable_at_issue == "Health"


def test_section_3_2_4_pc_just_above_a_quarter_may_take_part():
    """§3.2.4: 11 of 42 is above floor(42/4) = 10, so the PC is merely impaired."""
    conflict = conflict_of(ann(depletable=health(11)))
    assert conflict.players[0].depletable == health(11)


# --- §4.3 a round ------------------------------------------------------------------------


def test_section_4_3_issue_example_gm_beats_one_player_and_loses_to_the_other():
    """§4.3, the issue's worked round (scores 22 / 44; opposition threat +3, protection −1).

    GM: 12 + 5 = 17. Ann: 9 + 7 + 4 = 20 beats the GM by 3 → the opposition loses
    3 + Ann's threat 2 + its protection −1 = 4. Bo: 4 + 8 = 12 loses by 5 → the players
    lose 5 + the opposition's threat 3 + Bo's protection −2 = 6. Scores 16 / 40.
    """
    conflict = two_pc_conflict()
    ann_check = ParticipantCheck(
        qualities=(q("Quick", INTR, 7), q("Fencer", EXPR, 4)), roll=SuppliedRoll(faces=(9,))
    )
    bo_check = ParticipantCheck(qualities=(q("Brave", CORE, 8),), roll=SuppliedRoll(faces=(4,)))
    after, events, after_rounds = resolve(conflict, rolled(12, 5), ann=ann_check, bo=bo_check)

    (round_,) = after_rounds
    assert round_.number == 1
    assert pairings(round_) == [
        ("ann", 17, 20, 3, Side.OPPOSITION, 4),
        ("bo", 17, 12, -5, Side.PLAYERS, 6),
    ]
    assert round_.scores_before == Scores(players=22, opposition=44)
    assert round_.scores_after == Scores(players=16, opposition=40)
    assert (round_.decided, round_.winner) == (False, None)
    assert after.scores == Scores(players=16, opposition=40)
    assert (after.status, after.round, after.winner) == (ConflictStatus.ACTIVE, 2, None)
    assert [(e.type, e.data) for e in events] == [
        ("round.resolved", {"round": 1, "scores": {"players": 16, "opposition": 40}})
    ]


def test_section_4_3_equal_yields_cost_nobody_anything():
    """§4.3: only a higher yield subtracts; a tie leaves both scores as they were."""
    conflict = two_pc_conflict()
    after, _, after_rounds = resolve(conflict, rolled(10, 3), ann=rolled(6, 7), bo=rolled(5, 8))
    assert [(p.spread, p.loser, p.amount) for p in after_rounds[0].pairings] == [
        (0, PairingLoser.NONE, 0),
        (0, PairingLoser.NONE, 0),
    ]
    assert after.scores == Scores(players=22, opposition=44)
    assert after.round == 2


def test_section_4_3_spread_is_signed_from_the_players_side_as_a_checks():
    """§2.4/§4.3: a pairing is the player's check against the GM's yield as its target, so
    its spread is player yield − GM yield; the loser pays |spread| (+ threat + protection)."""
    conflict = conflict_of(pc("ann", 5), opposition=foe(threat=0, depletion_modifier=0))
    _gm_higher, _, gm_higher_rounds = resolve(conflict, rolled(15), ann=rolled(8))
    _player_higher, _, player_higher_rounds = resolve(conflict, rolled(8), ann=rolled(15))
    assert [(p.spread, p.loser, p.amount) for p in gm_higher_rounds[0].pairings] == [
        (-7, Side.PLAYERS, 7)
    ]
    assert [(p.spread, p.loser, p.amount) for p in player_higher_rounds[0].pairings] == [
        (7, Side.OPPOSITION, 7)
    ]


def test_section_4_3_depletion_modifiers_never_make_a_loss_negative():
    """§3.2.2 via §4.3: the loss is max(0, spread + threat + protection); 2 − 1 − 5 → 0."""
    conflict = conflict_of(
        pc("ann", 5, depletion_modifier=-5), opposition=foe(threat=-1, depletion_modifier=-10)
    )
    after, _, after_rounds = resolve(conflict, rolled(12), ann=rolled(10))
    assert [(p.spread, p.loser, p.amount) for p in after_rounds[0].pairings] == [
        (-2, Side.PLAYERS, 0)
    ]
    assert after.scores == Scores(players=5, opposition=5)


def test_section_4_3_threat_and_protection_of_the_right_sides_apply():
    """§4.3: the winner's threat and the loser's depletion modifier adjust the spread.

    GM loses to Ann by 4: 4 + Ann's threat 6 + opposition protection −3 = 7.
    GM beats Bo by 4: 4 + opposition threat 5 + Bo's protection −1 = 8.
    """
    conflict = conflict_of(
        pc("ann", 5, threat=6, depletion_modifier=-9),
        pc("bo", 5, threat=-7, depletion_modifier=-1),
        opposition=foe(threat=5, depletion_modifier=-3),
    )
    after, _, after_rounds = resolve(conflict, rolled(10), ann=rolled(14), bo=rolled(6))
    assert [(p.loser, p.amount) for p in after_rounds[0].pairings] == [
        (Side.OPPOSITION, 7),
        (Side.PLAYERS, 8),
    ]
    assert after.scores == Scores(players=10 - 8, opposition=20 - 7)


def test_section_4_3_pairings_are_simultaneous_both_sides_pay_in_the_decisive_round():
    """§4.3: checks resolve simultaneously: Ann's pairing drives the opposition to −5, yet
    Bo's loss still counts against the scores from before the round (players 5 − 9 = −4).
    Both ≤ 0; the higher (players, −4 > −5) wins."""
    conflict = conflict_of(pc("ann", 3), pc("bo", 2), opposition=foe(0, 0))
    assert conflict.scores == Scores(players=5, opposition=10)
    after, events, after_rounds = resolve(conflict, rolled(10), ann=rolled(20, 5), bo=rolled(1))
    (round_,) = after_rounds
    assert [(p.loser, p.amount) for p in round_.pairings] == [
        (Side.OPPOSITION, 15),
        (Side.PLAYERS, 9),
    ]
    assert round_.scores_after == Scores(players=-4, opposition=-5)
    assert (round_.decided, round_.winner) == (True, Side.PLAYERS)
    assert (after.status, after.winner) == (ConflictStatus.DECIDED, Side.PLAYERS)
    assert [e.type for e in events] == ["round.resolved", "conflict.decided"]


def test_section_4_3_losses_from_several_pairings_add_up():
    """§4.3: the GM (15) beats both PCs: Ann (12) 3 + threat 3 + her protection 0 = 6,
    Bo (9) 6 + 3 + his protection −2 = 7 → players 22 − 13 = 9."""
    conflict = two_pc_conflict()
    after, _, after_rounds = resolve(conflict, rolled(15), ann=rolled(12), bo=rolled(9))
    assert [(p.player, p.loser, p.amount) for p in after_rounds[0].pairings] == [
        ("ann", Side.PLAYERS, 6),
        ("bo", Side.PLAYERS, 7),
    ]
    assert after.scores == Scores(players=9, opposition=44)


def test_section_4_3_conflict_checks_never_touch_the_depletable_quality():
    """§4.3: even with the depletable quality at issue, round checks leave it as it is:
    Ann loses two rounds (the players' score 22 → 14 → 6), her health stays 40."""
    conflict = conflict_of(ann(depletable=health(40)), bo(), at_issue="health")
    after, _, _ = resolve(conflict, rolled(12), ann=rolled(10), bo=rolled(10))
    after, _, _ = resolve(after, rolled(12), ann=rolled(10), bo=rolled(10))
    assert after.scores == Scores(players=6, opposition=44)
    assert after.status is ConflictStatus.ACTIVE
    assert after.players[0].depletable == health(40)
    assert after.players == conflict.players


def test_section_3_2_3_impairment_applies_to_a_pc_s_conflict_checks():
    """§3.2.3: 30 of 42 ≤ floor(3·42/4) = 31 → −2 on Ann's effort: 9 + 7 − 2 = 14."""
    conflict = conflict_of(ann(depletable=health(30)), bo())
    after, _, after_rounds = resolve(conflict, rolled(10), ann=rolled(9, 7), bo=rolled(10))
    effort = after_rounds[0].players["ann"]
    impairment = [line for line in effort.modifiers if line.source is ModifierSource.IMPAIRMENT]
    assert [(line.name, line.applied) for line in impairment] == [("health", -2)]
    assert (effort.total_modifier, effort.yield_) == (5, 14)
    assert after.players[0].depletable == health(30)


def test_section_3_2_4_unfit_pc_cannot_check_in_a_round():
    """§3.2.4: an incapacitated PC's check is refused (a stored conflict could hold one)."""
    conflict = two_pc_conflict()
    unfit = msgspec.structs.replace(conflict, players=(ann(depletable=health(8)), bo()))
    error = refusal(unfit, ResolveRound(gm=rolled(10), players={"ann": rolled(5), "bo": rolled(5)}))
    assert error.code is RuleCode.CHARACTER_INCAPACITATED
    error = refusal(unfit, Submit(number=1, participant="ann", check=rolled(5)))
    assert error.code is RuleCode.CHARACTER_INCAPACITATED


# --- decision and sudden death -----------------------------------------------------------


def test_section_4_3_opposition_at_zero_decides_for_the_players():
    """§4.3: a score reduced to exactly 0 ends the conflict; the other side wins."""
    conflict = conflict_of(pc("ann", 5), opposition=foe(0, 0))
    after, events, after_rounds = resolve(conflict, rolled(5), ann=rolled(10))
    assert after.scores == Scores(players=5, opposition=0)
    assert (after.status, after.winner) == (ConflictStatus.DECIDED, Side.PLAYERS)
    assert after_rounds[-1].decided is True
    assert [(e.type, e.data) for e in events] == [
        ("round.resolved", {"round": 1, "scores": {"players": 5, "opposition": 0}}),
        ("conflict.decided", {"winner": "players"}),
    ]


def test_section_4_3_players_below_zero_decides_for_the_opposition():
    """§4.3: 11 − (19 + 3 − 0) = −11 → the opposition wins with 11 left."""
    conflict = conflict_of(ann())
    after, events, _ = resolve(conflict, rolled(20), ann=rolled(1))
    assert after.scores == Scores(players=-11, opposition=11)
    assert (after.status, after.winner) == (ConflictStatus.DECIDED, Side.OPPOSITION)
    assert events[-1].data == {"winner": "opposition"}


def test_section_4_3_sudden_death_when_both_reach_the_same_score_at_or_below_zero():
    """Decision on §4.3: both ≤ 0 and equal → no winner, another round with scores as they
    stand. Then the GM beats Ann by 1 and ties Bo: −1 vs 0 → the opposition wins."""
    conflict = conflict_of(pc("ann", 3), pc("bo", 2), opposition=foe(0, 0))
    tied, events, tied_rounds = resolve(conflict, rolled(10), ann=rolled(20), bo=rolled(5))
    assert tied.scores == Scores(players=0, opposition=0)
    assert (tied.status, tied.winner, tied.round) == (ConflictStatus.ACTIVE, None, 2)
    assert (tied_rounds[0].decided, tied_rounds[0].winner) == (False, None)
    assert [e.type for e in events] == ["round.resolved"]

    after, events, after_rounds = resolve(tied, rolled(10), ann=rolled(9), bo=rolled(10))
    assert after_rounds[-1].number == 2
    assert after_rounds[-1].scores_before == Scores(players=0, opposition=0)
    assert after.scores == Scores(players=-1, opposition=0)
    assert (after.status, after.winner) == (ConflictStatus.DECIDED, Side.OPPOSITION)
    assert [e.type for e in events] == ["round.resolved", "conflict.decided"]


@pytest.mark.parametrize(
    "action",
    [
        ResolveRound(gm=rolled(10), players={"ann": rolled(10), "bo": rolled(10)}),
        Submit(number=1, participant=GM, check=rolled(10)),
        Submit(number=2, participant=GM, check=rolled(10)),
        Submit(number=1, participant="ann", check=rolled(10)),
    ],
)
def test_section_4_3_decided_conflict_accepts_no_more_rounds(action):
    """§4.3: once a side is at 0 or less the conflict is over: conflict-not-active (409)."""
    decided = players_win(two_pc_conflict())
    error = refusal(decided, action)
    assert error.code is RuleCode.CONFLICT_NOT_ACTIVE
    assert error.code in STATE_CONFLICTS


def test_round_limit_a_conflict_plays_its_hundredth_round_and_no_more():
    """Service limit, not the book's (it sets none): §4.3's sudden death can tie for ever,
    and a conflict's history grows with every round. Tied rounds up to the 100th play; the
    101st is refused (round-limit-reached, 409), whole or one check at a time."""
    conflict, conflict_rounds = conflict_of(pc("ann", 3), opposition=foe(0, 0)), ()
    for _ in range(MAX_ROUNDS):
        conflict, _events, resolved = resolve(conflict, rolled(10), ann=rolled(10))
        conflict_rounds += resolved
    assert (conflict.status, len(conflict_rounds), conflict.round) == (
        ConflictStatus.ACTIVE,
        MAX_ROUNDS,
        MAX_ROUNDS + 1,
    )
    for action in (
        ResolveRound(gm=rolled(10), players={"ann": rolled(10)}),
        Submit(number=MAX_ROUNDS + 1, participant="ann", check=rolled(10)),
    ):
        error = refusal(conflict, action)
        assert error.code is RuleCode.ROUND_LIMIT_REACHED
        assert error.code in STATE_CONFLICTS


# --- submitting one check at a time ------------------------------------------------------


def test_section_4_3_submissions_collect_until_the_last_resolves_the_round():
    """§4.3: the GM and every player check; the last submission resolves the round, with
    the same numbers as the issue's worked round (16 / 40)."""
    conflict = two_pc_conflict()
    ann_check = ParticipantCheck(
        qualities=(q("Quick", INTR, 7), q("Fencer", EXPR, 4)), roll=SuppliedRoll(faces=(9,))
    )
    bo_check = ParticipantCheck(qualities=(q("Brave", CORE, 8),), roll=SuppliedRoll(faces=(4,)))

    first, events, first_rounds = apply(
        conflict, Submit(number=1, participant="ann", check=ann_check), RNG
    )
    assert [(e.type, e.data) for e in events] == [
        ("submission.received", {"round": 1, "participant": "ann", "by": "ann"})
    ]
    assert (set(first.pending), first.round, first_rounds) == ({"ann"}, 1, ())
    assert first.pending["ann"].yield_ == 20
    assert first.scores == conflict.scores

    second, events, _ = apply(first, Submit(number=1, participant=GM, check=rolled(12, 5)), RNG)
    assert [e.type for e in events] == ["submission.received"]
    assert set(second.pending) == {"ann", GM}

    third, events, third_rounds = apply(
        second, Submit(number=1, participant="bo", check=bo_check), RNG
    )
    assert [(e.type, e.data) for e in events] == [
        ("submission.received", {"round": 1, "participant": "bo", "by": "bo"}),
        ("round.resolved", {"round": 1, "scores": {"players": 16, "opposition": 40}}),
    ]
    assert (third.pending, third.round, third.status) == ({}, 2, ConflictStatus.ACTIVE)
    assert third.scores == Scores(players=16, opposition=40)
    _whole, _, whole_rounds = resolve(conflict, rolled(12, 5), ann=ann_check, bo=bo_check)
    assert third_rounds == whole_rounds


def test_section_4_3_last_submission_can_decide_the_conflict():
    """§4.3: a round completed by submissions decides just as a whole round does."""
    conflict = conflict_of(ann())
    waiting, _, _ = apply(conflict, Submit(number=1, participant=GM, check=rolled(20)), RNG)
    after, events, _ = apply(waiting, Submit(number=1, participant="ann", check=rolled(1)), RNG)
    assert (after.status, after.winner, after.pending) == (
        ConflictStatus.DECIDED,
        Side.OPPOSITION,
        {},
    )
    assert [e.type for e in events] == [
        "submission.received",
        "round.resolved",
        "conflict.decided",
    ]


@pytest.mark.parametrize("number", [0, 2, 7])
def test_submission_for_another_round_is_refused(number):
    """A submission names its round; any other than the current one is wrong-round (409)."""
    error = refusal(two_pc_conflict(), Submit(number=number, participant="ann", check=rolled(5)))
    assert error.code is RuleCode.WRONG_ROUND
    assert error.code in STATE_CONFLICTS


def test_submission_for_a_past_round_is_refused():
    """After round 1 resolves, a late check for round 1 is wrong-round."""
    conflict = two_pc_conflict()
    after, _, _ = resolve(conflict, rolled(10), ann=rolled(10), bo=rolled(10))
    error = refusal(after, Submit(number=1, participant="bo", check=rolled(5)))
    assert error.code is RuleCode.WRONG_ROUND


@pytest.mark.parametrize("participant", ["ann", GM])
def test_same_participant_cannot_submit_twice_in_a_round(participant):
    """One check per participant per round (§4.3): already-submitted (409)."""
    conflict = two_pc_conflict()
    once, _, _ = apply(conflict, Submit(number=1, participant=participant, check=rolled(5)), RNG)
    error = refusal(once, Submit(number=1, participant=participant, check=rolled(6)))
    assert error.code is RuleCode.ALREADY_SUBMITTED
    assert error.code in STATE_CONFLICTS


def test_submission_from_an_unknown_player_is_refused():
    """Only the conflict's players and the GM check: unknown-player."""
    error = refusal(two_pc_conflict(), Submit(number=1, participant="zed", check=rolled(5)))
    assert codes_and_pointers(error) == [(RuleCode.UNKNOWN_PLAYER, "/participant")]
    assert error.code not in STATE_CONFLICTS


def test_whole_round_refused_while_submissions_are_pending():
    """A round being filled one check at a time cannot also be resolved whole."""
    conflict = two_pc_conflict()
    waiting, _, _ = apply(conflict, Submit(number=1, participant="bo", check=rolled(5)), RNG)
    error = refusal(
        waiting, ResolveRound(gm=rolled(10), players={"ann": rolled(5), "bo": rolled(5)})
    )
    assert error.code is RuleCode.ROUND_IN_PROGRESS
    assert error.code in STATE_CONFLICTS


def test_section_4_3_whole_round_needs_every_player_s_check():
    """§4.3: each player whose PC is involved checks: player-check-missing."""
    error = refusal(two_pc_conflict(), ResolveRound(gm=rolled(10), players={"ann": rolled(5)}))
    assert codes_and_pointers(error) == [(RuleCode.PLAYER_CHECK_MISSING, "/players")]


def test_whole_round_with_a_stranger_is_refused():
    """A check for someone not in the conflict is unknown-player."""
    error = refusal(
        conflict_of(ann()),
        ResolveRound(gm=rolled(10), players={"ann": rolled(5), "zed": rolled(5)}),
    )
    assert codes_and_pointers(error) == [(RuleCode.UNKNOWN_PLAYER, "/players/zed")]


# --- dice source -------------------------------------------------------------------------


def test_server_dice_refuse_supplied_faces():
    """dice_source server: the server rolls, so faces are faces-not-allowed."""
    conflict = conflict_of(ann(), source=DiceSource.SERVER)
    error = refusal(conflict, ResolveRound(gm=rolled(10), players={"ann": rolled(5)}))
    found = codes_and_pointers(error)
    assert found[0] == (RuleCode.FACES_NOT_ALLOWED, "/gm/roll")
    assert set(found) <= {
        (RuleCode.FACES_NOT_ALLOWED, "/gm/roll"),
        (RuleCode.FACES_NOT_ALLOWED, "/players/ann/roll"),
    }
    error = refusal(conflict, Submit(number=1, participant="ann", check=rolled(5)))
    assert codes_and_pointers(error) == [(RuleCode.FACES_NOT_ALLOWED, "/roll")]


def test_server_dice_refuse_client_seeds():
    """dice_source server: a seed would let the client choose the roll: seed-not-allowed."""
    conflict = conflict_of(ann(), source=DiceSource.SERVER)
    action = ResolveRound(gm=ParticipantCheck(), players={"ann": ParticipantCheck(seed=4)})
    error = refusal(conflict, action, random.Random(1))
    assert codes_and_pointers(error) == [(RuleCode.SEED_NOT_ALLOWED, "/players/ann/seed")]
    error = refusal(conflict, Submit(number=1, participant=GM, check=ParticipantCheck(seed=4)))
    assert codes_and_pointers(error) == [(RuleCode.SEED_NOT_ALLOWED, "/seed")]


def test_server_dice_roll_with_the_given_generator_in_order():
    """dice_source server: the GM's die, then each player's in order, from the service rng."""
    conflict = conflict_of(ann(), bo(), source=DiceSource.SERVER)
    action = ResolveRound(
        gm=ParticipantCheck(), players={"bo": ParticipantCheck(), "ann": ParticipantCheck()}
    )
    after, _, after_rounds = apply(conflict, action, random.Random(5))
    expected = random.Random(5)
    gm_face, ann_face, bo_face = (expected.randint(1, 20) for _ in range(3))
    round_ = after_rounds[0]
    assert round_.gm.faces == (gm_face,)
    assert round_.players["ann"].faces == (ann_face,)
    assert round_.players["bo"].faces == (bo_face,)
    again, _, _ = apply(conflict, action, random.Random(5))
    assert again == after


def test_client_dice_take_the_supplied_faces():
    """dice_source client: the faces shown at the table are the roll (§2.1.2)."""
    _after, _, after_rounds = resolve(conflict_of(ann()), rolled(17, 2), ann=rolled(3, 11))
    assert after_rounds[0].gm.faces == (17,)
    assert (after_rounds[0].gm.die_result, after_rounds[0].gm.yield_) == (17, 19)
    assert (after_rounds[0].players["ann"].die_result, after_rounds[0].players["ann"].yield_) == (
        3,
        14,
    )


def test_client_dice_may_still_use_a_seed_instead_of_faces():
    """dice_source client: a seed (without faces) rolls reproducibly."""
    conflict = conflict_of(ann())
    _after, _, after_rounds = resolve(conflict, ParticipantCheck(seed=9), ann=rolled(3))
    assert after_rounds[0].gm.faces == (random.Random(9).randint(1, 20),)


@pytest.mark.parametrize(
    ("dice", "shown", "code", "pointer"),
    [
        (DiceKind.D20, (0,), RuleCode.FACE_OUT_OF_RANGE, "/gm/roll/faces/0"),
        (DiceKind.D20, (21,), RuleCode.FACE_OUT_OF_RANGE, "/gm/roll/faces/0"),
        (DiceKind.D20, (3, 4), RuleCode.FACES_EXTRA, "/gm/roll/faces"),
        (DiceKind.THREE_D6, (1, 7, 2), RuleCode.FACE_OUT_OF_RANGE, "/gm/roll/faces/1"),
        (DiceKind.TWO_D10, (10,), RuleCode.FACES_MISSING, "/gm/roll/faces"),
    ],
)
def test_section_7_1_client_faces_must_be_legal_for_the_dice(dice, shown, code, pointer):
    """§7.1: supplied faces must be ones the conflict's dice could show, one a die: the
    kernel's face-out-of-range, faces-extra or faces-missing (issue 38: was illegal-faces).
    A whole round names many checks, so no `missing` or `extra` member."""
    conflict = conflict_of(ann(), dice=dice)
    gm = ParticipantCheck(roll=SuppliedRoll(faces=shown))
    legal = ParticipantCheck(roll=SuppliedRoll(faces=(1,) * DICE[dice].count))
    error = refusal(conflict, ResolveRound(gm=gm, players={"ann": legal}))
    assert codes_and_pointers(error) == [(code, pointer)]
    assert error.extensions == {}


@pytest.mark.parametrize(
    ("shown", "code"),
    [
        ((4,), RuleCode.FACES_MISSING),
        ((4, 5, 6), RuleCode.FACES_EXTRA),
        ((4, 11), RuleCode.FACE_OUT_OF_RANGE),
    ],
)
def test_section_7_1_one_submitted_check_is_refused_as_a_check_is(shown, code):
    """§7.1 with 2d10: a check submitted alone is refused with the kernel's codes, as a
    standalone check is (issue 38: was illegal-faces)."""
    conflict = conflict_of(ann(), dice=DiceKind.TWO_D10)
    check = ParticipantCheck(roll=SuppliedRoll(faces=shown))
    error = refusal(conflict, Submit(number=1, participant="ann", check=check))
    pointer = "/roll/faces/1" if code is RuleCode.FACE_OUT_OF_RANGE else "/roll/faces"
    assert codes_and_pointers(error) == [(code, pointer)]


def test_every_refused_check_of_a_round_is_reported_and_nothing_is_rolled():
    """A whole round with two illegal submissions names both, before any die is rolled."""
    conflict = conflict_of(ann(), bo())
    bad = ParticipantCheck(roll=SuppliedRoll(faces=(21,)))
    error = refusal(conflict, ResolveRound(gm=bad, players={"ann": rolled(5), "bo": bad}))
    assert codes_and_pointers(error) == [
        (RuleCode.FACE_OUT_OF_RANGE, "/gm/roll/faces/0"),
        (RuleCode.FACE_OUT_OF_RANGE, "/players/bo/roll/faces/0"),
    ]


def test_client_faces_and_seed_cannot_be_combined():
    """§7.1 dice source, dice_source client: faces and a seed together are faces-and-seed
    (issue 38: was roll-with-seed)."""
    conflict = conflict_of(ann())
    error = refusal(conflict, ResolveRound(gm=rolled(10, seed=3), players={"ann": rolled(5)}))
    assert codes_and_pointers(error) == [(RuleCode.FACES_AND_SEED, "/gm/seed")]


# --- §7.2 bullseyes ----------------------------------------------------------------------


def test_section_7_2_a_player_spends_a_bullseye_die_result_20_faces_kept():
    """§7.2: after the roll the result becomes 20; the faces stay for the record."""
    conflict = conflict_of(ann(bullseyes=1), bo())
    after, _, after_rounds = resolve(
        conflict, rolled(15), ann=rolled(3, 2, bullseye=True), bo=rolled(15)
    )
    effort = after_rounds[0].players["ann"]
    assert (effort.faces, effort.die_result, effort.bullseye, effort.yield_) == (
        (3,),
        20,
        True,
        22,
    )
    assert after.bullseyes_used == {"ann": 1}
    assert after_rounds[0].pairings[0].loser is PairingLoser.OPPOSITION


def test_section_7_2_a_spent_bullseye_is_gone():
    """§7.2: one bullseye, one use; the second is no-bullseye-left."""
    conflict = conflict_of(ann(bullseyes=1), bo())
    after, _, _ = resolve(conflict, rolled(10), ann=rolled(3, bullseye=True), bo=rolled(10))
    error = refusal(
        after,
        ResolveRound(gm=rolled(10), players={"ann": rolled(3, bullseye=True), "bo": rolled(10)}),
    )
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/players/ann/bullseye")]
    error = refusal(after, Submit(number=2, participant="ann", check=rolled(3, bullseye=True)))
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/bullseye")]


def test_section_7_2_two_bullseyes_two_uses_via_submissions():
    """§7.2: bullseyes are counted per player across rounds, however the check arrives.

    Scores 11 / 11. Round 1: 20 vs the GM's 15 → 5 + 2 − 1 = 6 (opposition 5); round 2:
    20 vs 18 → 2 + 2 − 1 = 3 (opposition 2); round 3: none left."""
    state, state_rounds = conflict_of(ann(bullseyes=2)), ()
    for number, gm_face in ((1, 15), (2, 18)):
        state, _, _ = apply(
            state, Submit(number=number, participant=GM, check=rolled(gm_face)), RNG
        )
        state, _, resolved = apply(
            state, Submit(number=number, participant="ann", check=rolled(1, bullseye=True)), RNG
        )
        state_rounds += resolved
    assert state.scores == Scores(players=11, opposition=2)
    assert [r.players["ann"].die_result for r in state_rounds] == [20, 20]
    assert state.bullseyes_used == {"ann": 2}
    error = refusal(state, Submit(number=3, participant="ann", check=rolled(1, bullseye=True)))
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/bullseye")]


def test_section_7_2_a_player_without_bullseyes_cannot_spend_one():
    """§7.2: bullseyes are earned (1 per 10 conflicts); none held → no-bullseye-left."""
    error = refusal(
        two_pc_conflict(),
        ResolveRound(gm=rolled(10), players={"ann": rolled(5), "bo": rolled(5, bullseye=True)}),
    )
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/players/bo/bullseye")]


def test_section_7_2_the_gm_never_has_a_bullseye():
    """§7.2: "each player gets a bullseye" — the GM does not."""
    conflict = conflict_of(ann(bullseyes=5))
    error = refusal(conflict, ResolveRound(gm=rolled(3, bullseye=True), players={"ann": rolled(5)}))
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/gm/bullseye")]
    error = refusal(conflict, Submit(number=1, participant=GM, check=rolled(3, bullseye=True)))
    assert codes_and_pointers(error) == [(RuleCode.NO_BULLSEYE_LEFT, "/bullseye")]


# --- §4.4 outcome ------------------------------------------------------------------------


def test_section_4_4_no_outcome_before_the_conflict_is_decided():
    """§4.4: the final check follows the conflict: conflict-not-decided (409)."""
    action = OutcomeRequest(target=15, checks={"ann": rolled(10)})
    error = refusal(two_pc_conflict(), action)
    assert error.code is RuleCode.CONFLICT_NOT_DECIDED
    assert error.code in STATE_CONFLICTS


def test_section_4_4_remaining_score_is_a_conflict_score_bonus():
    """§4.4: the players won with 22 left: Ann's 10 + 7 + 22 = 39 against 30 → +9."""
    decided = players_win(two_pc_conflict())
    assert decided.scores.players == 22
    quick = ParticipantCheck(qualities=("Quick",), roll=SuppliedRoll(faces=(10,)))
    action = OutcomeRequest(target=30, checks={"ann": quick})
    after, events, _ = apply(decided, action, RNG, check_id="out-1")
    result = after.outcome
    bonus = [line for line in result.modifiers if line.source is ModifierSource.CONFLICT_SCORE]
    assert [(line.magnitude, line.applied) for line in bonus] == [(22, 22)]
    assert (result.id, result.total_modifier, result.yield_, result.spread) == ("out-1", 29, 39, 9)
    assert result.outcome is Outcome.SUCCESS
    assert result.depletion is None
    assert result.warnings == ()  # +22 is no situational modifier (outside §6.3's −5…+5)
    assert [(e.type, e.data) for e in events] == [
        ("outcome.made", {"by": "ann", "outcome": "success"})
    ]
    assert (after.status, after.winner) == (ConflictStatus.DECIDED, Side.PLAYERS)


def test_section_4_4_opposition_wins_the_gm_makes_the_final_check():
    """§4.4: the opposition won with 44 left: the GM's 5 + 44 = 49 against 60 → −11."""
    decided = opposition_wins(two_pc_conflict())
    assert decided.scores.opposition == 44
    after, events, _ = apply(decided, OutcomeRequest(target=60, checks={GM: rolled(5)}), RNG)
    assert (after.outcome.yield_, after.outcome.spread) == (49, -11)
    assert after.outcome.outcome is Outcome.FAILURE
    assert events[0].data == {"by": GM, "outcome": "failure"}


def test_section_4_4_outcome_is_made_once():
    """§4.4: one final check: outcome-already-made (409) on a second."""
    decided = players_win(two_pc_conflict())
    after, _, _ = apply(decided, OutcomeRequest(target=15, checks={"ann": rolled(10)}), RNG)
    error = refusal(after, OutcomeRequest(target=15, checks={"bo": rolled(10)}))
    assert error.code is RuleCode.OUTCOME_ALREADY_MADE
    assert error.code in STATE_CONFLICTS


def test_section_4_4_only_the_winning_side_makes_the_final_check():
    """§4.4: "the winning side makes a final check": others are not-on-winning-side."""
    won_by_players = players_win(two_pc_conflict())
    error = refusal(won_by_players, OutcomeRequest(target=15, checks={GM: rolled(10)}))
    assert codes_and_pointers(error) == [(RuleCode.NOT_ON_WINNING_SIDE, "/checks/gm")]
    won_by_opposition = opposition_wins(two_pc_conflict())
    error = refusal(
        won_by_opposition, OutcomeRequest(target=15, checks={"ann": rolled(10), GM: rolled(9)})
    )
    assert codes_and_pointers(error) == [(RuleCode.NOT_ON_WINNING_SIDE, "/checks/ann")]


def test_section_4_4_player_with_the_highest_total_modifier_makes_it():
    """§4.4: Ann +5, Bo +7 → Bo makes the check: 4 + 7 + 22 = 33."""
    decided = players_win(two_pc_conflict())
    action = OutcomeRequest(target=30, checks={"ann": rolled(19, 5), "bo": rolled(4, 7)})
    after, events, _ = apply(decided, action, RNG)
    assert events[0].data == {"by": "bo", "outcome": "success"}
    assert (after.outcome.faces, after.outcome.yield_) == ((4,), 33)


def test_section_4_4_impairment_counts_in_the_total_modifier():
    """§4.4 with §3.2.3: Ann's +8 less −2 impairment (30 of 42) is 6 < Bo's 7 → Bo."""
    conflict = conflict_of(ann(depletable=health(30)), bo())
    decided = players_win(conflict)
    action = OutcomeRequest(target=30, checks={"ann": rolled(10, 8), "bo": rolled(10, 7)})
    _, events, _ = apply(decided, action, RNG)
    assert events[0].data["by"] == "bo"


def test_section_4_4_equal_totals_the_first_listed_makes_it():
    """Decision on §4.4: with equal total modifiers, the first candidate listed checks."""
    decided = players_win(two_pc_conflict())
    _, events, _ = apply(
        decided, OutcomeRequest(target=30, checks={"bo": rolled(2, 6), "ann": rolled(19, 6)}), RNG
    )
    assert events[0].data["by"] == "bo"
    _, events, _ = apply(
        decided, OutcomeRequest(target=30, checks={"ann": rolled(19, 6), "bo": rolled(2, 6)}), RNG
    )
    assert events[0].data["by"] == "ann"


def test_section_4_4_depletable_at_issue_the_opposition_is_depleted_on_success():
    """§4.4: "treated as normal": 1 + 22 = 23 vs 20, Δ +3 → the opposition loses
    3 + Ann's threat 2 + its protection −1 = 4."""
    conflict = conflict_of(ann(depletable=health(40)), bo(), at_issue="health")
    decided = players_win(conflict)
    after, _, _ = apply(decided, OutcomeRequest(target=20, checks={"ann": rolled(1)}), RNG)
    depletion = after.outcome.depletion
    assert after.outcome.spread == 3
    assert (depletion.loser.value, depletion.amount) == ("opposition", 4)
    assert [(a.name, a.current) for a in depletion.after] == [("health", 40)]


def test_section_4_4_depletable_at_issue_the_winner_is_depleted_on_failure():
    """§4.4 with §3.2.2: 1 + 22 = 23 vs 40, Δ −17 → Ann loses 17 + the opposition's threat
    3 + her protection 0 = 20: 40 → 20 of 42, at or below half: −5 (§3.2.3)."""
    conflict = conflict_of(ann(depletable=health(40)), bo(), at_issue="health")
    decided = players_win(conflict)
    after, _, _ = apply(decided, OutcomeRequest(target=40, checks={"ann": rolled(1)}), RNG)
    depletion = after.outcome.depletion
    assert (depletion.loser.value, depletion.amount) == ("actor", 20)
    assert [(a.current, a.impairment, a.state) for a in depletion.after] == [
        (20, -5, State.IMPAIRED)
    ]


def test_section_7_2_a_bullseye_may_be_spent_on_the_outcome_check():
    """§7.2 on the §4.4 check: the die result is 20 and the bullseye is used up."""
    decided = players_win(conflict_of(ann(bullseyes=1), bo()))
    after, _, _ = apply(
        decided, OutcomeRequest(target=30, checks={"ann": rolled(2, bullseye=True)}), RNG
    )
    assert (after.outcome.die_result, after.outcome.faces) == (20, (2,))
    assert after.bullseyes_used == {"ann": 1}


# --- properties --------------------------------------------------------------------------


@st.composite
def conflicts_and_rounds(draw):
    count = draw(st.integers(min_value=1, max_value=3))
    players = tuple(
        pc(
            f"p{i}",
            *draw(st.lists(st.integers(1, 10), min_size=1, max_size=3)),
            threat=draw(st.integers(-20, 20)),
            depletion_modifier=draw(st.integers(-20, 20)),
        )
        for i in range(count)
    )
    opposition = foe(
        threat=draw(st.integers(-20, 20)), depletion_modifier=draw(st.integers(-20, 20))
    )
    checks = st.builds(rolled, st.integers(1, 20), st.integers(-10, 10))
    rounds = draw(
        st.lists(
            st.tuples(checks, st.lists(checks, min_size=count, max_size=count)),
            min_size=1,
            max_size=8,
        )
    )
    return conflict_of(*players, opposition=opposition), rounds


@settings(max_examples=120, deadline=None)
@given(case=conflicts_and_rounds())
def test_section_4_3_property_scores_never_rise_and_decided_conflicts_take_no_round(case):
    """§4.3: each pairing costs one side max(0, …) ≥ 0 or nothing; no score ever rises;
    the loss per side is the sum of its pairings; a decided conflict takes no more rounds;
    the conflict passed in is never changed."""
    conflict, rounds = case
    for gm, player_checks in rounds:
        action = ResolveRound(
            gm=gm,
            players={p.id: check for p, check in zip(conflict.players, player_checks, strict=True)},
        )
        if conflict.status is ConflictStatus.DECIDED:
            break
        before = copy.deepcopy(conflict)
        after, events, after_rounds = apply(conflict, action, RNG)
        assert conflict == before
        round_ = after_rounds[-1]
        assert round_.scores_before == conflict.scores
        assert after.scores.players <= conflict.scores.players
        assert after.scores.opposition <= conflict.scores.opposition
        lost = {Side.PLAYERS: 0, Side.OPPOSITION: 0}
        for pairing in round_.pairings:
            assert pairing.amount >= 0
            assert pairing.spread == pairing.player_yield - pairing.gm_yield
            if pairing.gm_yield > pairing.player_yield:
                assert pairing.loser is PairingLoser.PLAYERS
            elif pairing.gm_yield < pairing.player_yield:
                assert pairing.loser is PairingLoser.OPPOSITION
            else:
                assert (pairing.loser, pairing.amount) == (PairingLoser.NONE, 0)
            if pairing.loser is not PairingLoser.NONE:
                lost[Side(pairing.loser.value)] += pairing.amount
        assert after.scores == Scores(
            players=conflict.scores.players - lost[Side.PLAYERS],
            opposition=conflict.scores.opposition - lost[Side.OPPOSITION],
        )
        low = min(after.scores.players, after.scores.opposition)
        should_decide = low <= 0 and after.scores.players != after.scores.opposition
        assert round_.decided is should_decide
        if should_decide:
            higher = (
                Side.PLAYERS if after.scores.players > after.scores.opposition else Side.OPPOSITION
            )
            assert (after.status, after.winner) == (ConflictStatus.DECIDED, higher)
            assert events[-1].type == "conflict.decided"
        else:
            assert (after.status, after.winner) == (ConflictStatus.ACTIVE, None)
            assert after.round == conflict.round + 1
        assert after.players == conflict.players
        conflict = after
    if conflict.status is ConflictStatus.DECIDED:
        for action in (
            ResolveRound(gm=rolled(10), players={p.id: rolled(10) for p in conflict.players}),
            Submit(number=conflict.round, participant=GM, check=rolled(10)),
            Submit(number=conflict.round + 1, participant=GM, check=rolled(10)),
        ):
            assert refusal(conflict, action).code is RuleCode.CONFLICT_NOT_ACTIVE


@settings(max_examples=60, deadline=None)
@given(case=conflicts_and_rounds())
def test_section_4_3_property_submissions_match_a_whole_round(case):
    """§4.3: a round made of single submissions (players first, GM last) resolves exactly
    as the same checks sent as one whole round; the input is never changed."""
    conflict, rounds = case
    gm, player_checks = rounds[0]
    checks = dict(zip((p.id for p in conflict.players), player_checks, strict=True))
    whole, _, whole_rounds = resolve(conflict, gm, **checks)
    state, state_rounds = conflict, ()
    for participant, check in [*checks.items(), (GM, gm)]:
        before = copy.deepcopy(state)
        after, _, resolved = apply(
            state, Submit(number=1, participant=participant, check=check), RNG
        )
        assert state == before
        state, state_rounds = after, (*state_rounds, *resolved)
    assert state_rounds == whole_rounds
    assert state.scores == whole.scores
    assert state.pending == {}


@settings(max_examples=60, deadline=None)
@given(case=conflicts_and_rounds(), seed=st.integers(0, 2**32))
def test_section_4_3_property_server_rolled_rounds_are_reproducible(case, seed):
    """Server dice (dice_source server) from the same seeded generator give the same round;
    the conflict passed in is unchanged."""
    client_conflict, _ = case
    conflict = conflict_of(
        *client_conflict.players, opposition=client_conflict.opposition, source=DiceSource.SERVER
    )
    action = ResolveRound(
        gm=ParticipantCheck(), players={p.id: ParticipantCheck() for p in conflict.players}
    )
    before = copy.deepcopy(conflict)
    first, _, first_rounds = apply(conflict, action, random.Random(seed))
    second, _, _ = apply(conflict, action, random.Random(seed))
    assert conflict == before
    assert first == second
    efforts = [first_rounds[0].gm, *first_rounds[0].players.values()]
    assert all(len(e.faces) == 1 and 1 <= e.faces[0] <= 20 for e in efforts)
    assert first.scores.players <= conflict.scores.players
    assert first.scores.opposition <= conflict.scores.opposition
