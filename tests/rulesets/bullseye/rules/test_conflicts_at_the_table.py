"""Conflicts at the table (issue #12): §4.4 when the opposition wins, §7.2 bullseyes spent
after the roll, checks bound to the declared sheet, the GM acting for an absent player,
Quick 10 (§2.5) and two depletable scores (§7.6) in a conflict — through ``apply``."""

from __future__ import annotations

import random

import msgspec
import pytest

from service.kernel.errors import FORBIDDEN, NotPermittedError, RulesError
from service.rulesets.bullseye.rules.checks import DepletableScore, SuppliedRoll
from service.rulesets.bullseye.rules.codes import STATE_CONFLICTS, RuleCode
from service.rulesets.bullseye.rules.conditions import State
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    CloseRound,
    ConflictStatus,
    DecideBullseye,
    DiceSource,
    OppositionSpec,
    OutcomeRequest,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Scores,
    Side,
    Submit,
    deciding,
    new_conflict,
    waiting_for,
)
from service.rulesets.bullseye.rules.conflicts import apply as apply_rules
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.modifiers import ModifierSource, Quality, QualityType

INTR = QualityType.INTRINSIC
EXPR = QualityType.EXPERIENTIAL


def q(name: str, type_: QualityType, magnitude: int) -> Quality:
    return Quality(name=name, type=type_, magnitude=magnitude)


def health(current: int, maximum: int = 40, name: str = "health") -> DepletableScore:
    return DepletableScore(name=name, current=current, maximum=maximum)


def pc(player_id: str, *qualities: Quality, **fields: object) -> PlayerSpec:
    qualities = qualities or (q(f"{player_id} knack", INTR, 5),)
    return PlayerSpec(id=player_id, name=player_id.title(), qualities=qualities, **fields)  # type: ignore[arg-type]


def create(*players, threat=0, protection=0, source=DiceSource.CLIENT, at_issue=None, **opp):
    opposition = OppositionSpec(
        name="Warden",
        threat=threat,
        depletion_modifier=protection,
        qualities=opp.get("qualities", (q("Walls", INTR, 6),)),
    )
    return new_conflict(
        conflict_id="c-12",
        name="The gaol break",
        players=players,
        opposition=opposition,
        dice=DiceKind.D20,
        dice_source=source,
        depletable_at_issue=at_issue,
    ).state


def face(value: int, *qualities, **fields) -> ParticipantCheck:
    return ParticipantCheck(qualities=qualities, roll=SuppliedRoll(faces=(value,)), **fields)


def act(conflict, action, actor=None, rng=None):
    actor = actor if actor is not None else getattr(action, "participant", GM)
    applied = apply_rules(conflict, action, actor, rng or random.Random(12), "check-1")
    return applied.state, applied.events, applied.history


def decided_for(conflict, winner: Side, players: int, opposition: int):
    """The conflict as a finished §4.3 leaves it: decided, with these remaining scores."""
    return msgspec.structs.replace(
        conflict,
        status=ConflictStatus.DECIDED,
        winner=winner,
        scores=Scores(players=players, opposition=opposition),
    )


# --- §4.4 when the opposition wins -------------------------------------------------------


def test_section_4_4_gm_wins_the_final_check_each_pc_loses_with_its_own_protection():
    """§4.4, "treated as normal": the GM's check beats the target by 5 with threat +5
    against a PC with depletion modifier −5: that PC loses 5 (not 10); a PC with 0 loses 10."""
    conflict = create(
        pc("ana", depletion_modifier=-5, depletable=health(30)),
        pc("bo", depletable=health(30)),
        threat=5,
        at_issue="health",
    )
    decided = decided_for(conflict, Side.OPPOSITION, players=-4, opposition=10)
    # 10 on the die + Walls 6 + remaining score 10 = 26 against 21: spread +5.
    after, events, _ = act(decided, OutcomeRequest(target=21, checks={GM: face(10, "Walls")}))
    outcome = after.outcome
    assert (outcome.yield_, outcome.spread, outcome.by) == (26, 5, GM)
    assert [(loss.side, loss.player, loss.amount) for loss in outcome.losses] == [
        (Side.PLAYERS, "ana", 5),
        (Side.PLAYERS, "bo", 10),
    ]
    assert {pid: (a.current, a.state) for pid, a in outcome.players_after.items()} == {
        "ana": (25, State.IMPAIRED),
        "bo": (20, State.IMPAIRED),
    }
    assert outcome.depletion is None  # the losses differ per PC: they are in `losses`
    assert [p.depletable.current for p in after.players] == [25, 20]  # stored, too
    assert events[0].data == {"by": GM, "outcome": "success"}


def test_section_4_4_gm_fails_the_final_check_the_opposition_loses_to_the_greatest_threat():
    """§4.4: the GM's check fails by 15; the PC with the greatest threat (+4) and the
    opposition's modifier −1 make the opposition lose 15 + 4 − 1 = 18 (not 14)."""
    conflict = create(
        pc("ana", threat=4, depletable=health(30)),
        pc("bo", threat=1, depletable=health(30)),
        protection=-1,
        at_issue="health",
    )
    decided = decided_for(conflict, Side.OPPOSITION, players=-4, opposition=10)
    # 5 + Walls 6 + 10 = 21 against 36: spread −15.
    after, _, _ = act(decided, OutcomeRequest(target=36, checks={GM: face(5, "Walls")}))
    assert after.outcome.spread == -15
    assert [(loss.side, loss.player, loss.amount) for loss in after.outcome.losses] == [
        (Side.OPPOSITION, None, 18)
    ]
    assert {pid: a.current for pid, a in after.outcome.players_after.items()} == {
        "ana": 30,
        "bo": 30,
    }


def test_section_4_4_a_pcs_final_check_reports_every_pcs_score_after():
    """§4.4: the players won; Ana's failed final check costs her |Δ| + the opposition's
    threat; Bo's score is reported unchanged beside hers."""
    conflict = create(
        pc("ana", depletable=health(31)),
        pc("bo", depletable=health(28)),
        threat=2,
        at_issue="health",
    )
    decided = decided_for(conflict, Side.PLAYERS, players=5, opposition=-3)
    # 3 + ana knack 5 + 5 = 13 against 20 (31 of 40: not impaired): spread −7, she loses
    # 7 + 2 + 0 = 9.
    after, _, _ = act(decided, OutcomeRequest(target=20, checks={"ana": face(3, "ana knack")}))
    assert after.outcome.by == "ana"
    assert [(loss.side, loss.player, loss.amount) for loss in after.outcome.losses] == [
        (Side.PLAYERS, "ana", 9)
    ]
    assert {pid: a.current for pid, a in after.outcome.players_after.items()} == {
        "ana": 22,
        "bo": 28,
    }


def test_section_4_4_a_remaining_score_at_or_below_zero_gives_no_bonus():
    """Decision on §4.4: both scores fell below 0 and the players won with −3: no bonus."""
    decided = decided_for(create(pc("ana")), Side.PLAYERS, players=-3, opposition=-9)
    after, _, _ = act(decided, OutcomeRequest(target=10, checks={"ana": face(10)}))
    lines = after.outcome.modifiers
    bonus = [line for line in lines if line.source is ModifierSource.CONFLICT_SCORE]
    assert [(line.magnitude, line.applied) for line in bonus] == [(-3, 0)]
    assert after.outcome.yield_ == 10


def test_section_2_5_no_quick_10_on_an_outcome_check_with_the_depletable_at_issue():
    """§2.5: the outcome check puts the depletable quality at issue: quick10 is refused."""
    conflict = create(pc("ana", depletable=health(30)), at_issue="health")
    decided = decided_for(conflict, Side.PLAYERS, players=5, opposition=-3)
    with pytest.raises(RulesError) as caught:
        act(decided, OutcomeRequest(target=10, checks={"ana": ParticipantCheck(quick10=True)}))
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        (RuleCode.QUICK10_WITH_DEPLETION, "/checks/ana/quick10")
    ]


# --- conflict submissions are bound to the sheet -----------------------------------------


def test_conflict_submissions_use_declared_qualities_by_name_or_as_declared():
    """docs/bullseye.md, checks bound to the sheet: a declared quality by name, or the declared
    object unchanged, applies as declared."""
    duelist = q("Duelist", EXPR, 7)
    conflict = create(pc("ana", duelist, q("Nimble", INTR, 4)))
    for ref in ("Duelist", "duelist", duelist):
        after, _, _ = act(conflict, Submit(number=1, participant="ana", check=face(9, ref)))
        assert after.pending["ana"].yield_ == 16


def test_conflict_submissions_refuse_an_undeclared_or_altered_quality_naming_it():
    """A player's token cannot add +100 qualities nobody declared, nor inflate a declared
    one: 422 undeclared-quality, with a pointer to each."""
    conflict = create(pc("ana", q("Duelist", EXPR, 7)))
    check = face(9, q("Dragon's blood", INTR, 100), q("Duelist", EXPR, 9), "Duelist")
    with pytest.raises(RulesError) as caught:
        act(conflict, Submit(number=1, participant="ana", check=check))
    assert caught.value.code == RuleCode.UNDECLARED_QUALITY
    assert [(c.code, c.pointer) for c in caught.value.concerns] == [
        (RuleCode.UNDECLARED_QUALITY, "/qualities/0"),
        (RuleCode.UNDECLARED_QUALITY, "/qualities/1"),
    ]
    assert "Dragon's blood" in caught.value.concerns[0].detail
    assert "experiential +7" in caught.value.concerns[1].detail


def test_conflict_submissions_the_gm_draws_on_the_oppositions_declared_qualities():
    """The opposition's declared qualities are the GM's to use; a PC's are not."""
    conflict = create(pc("ana", q("Duelist", EXPR, 7)))
    after, _, _ = act(conflict, Submit(number=1, participant=GM, check=face(10, "Walls")))
    assert after.pending[GM].yield_ == 16
    with pytest.raises(RulesError) as caught:
        act(conflict, Submit(number=1, participant=GM, check=face(10, "Duelist")))
    assert caught.value.code == RuleCode.UNDECLARED_QUALITY


def test_conflict_submissions_every_undeclared_quality_of_a_whole_round_at_once():
    """resolveRound refuses every undeclared quality in every check, and rolls nothing."""
    conflict = create(pc("ana"), pc("bo"))
    action = ResolveRound(
        gm=face(10, "Cannons"), players={"ana": face(3, "ana knack"), "bo": face(3, "Sword")}
    )
    with pytest.raises(RulesError) as caught:
        act(conflict, action)
    assert [c.pointer for c in caught.value.concerns] == [
        "/gm/qualities/0",
        "/players/bo/qualities/0",
    ]


# --- the GM acts for an absent player; who may do what -----------------------------------


def test_the_gm_may_submit_for_an_absent_player_recorded_as_such():
    """docs/bullseye.md, checks bound to the sheet: the GM's token submits Bo's check; the event
    says by whom, and the round lists Bo in on_behalf."""
    conflict = create(pc("ana"), pc("bo"))
    conflict, _, _ = act(conflict, Submit(number=1, participant=GM, check=face(10)))
    conflict, _, _ = act(conflict, Submit(number=1, participant="ana", check=face(12)))
    after, events, rounds = act(conflict, Submit(number=1, participant="bo", check=face(2)), GM)
    assert events[0].data == {"round": 1, "participant": "bo", "by": GM}
    assert rounds[0].on_behalf == ("bo",)
    assert after.on_behalf == ()


@pytest.mark.parametrize(
    ("action", "actor"),
    [
        (Submit(number=1, participant="bo", check=face(10)), "ana"),
        (Submit(number=1, participant=GM, check=face(10)), "ana"),
        (ResolveRound(gm=face(10), players={"ana": face(3), "bo": face(3)}), "ana"),
        (CloseRound(number=1), "bo"),
        (DecideBullseye(number=1, participant="bo", spend=True), "ana"),
    ],
)
def test_whose_move_it_is_belongs_to_the_rules(action, actor):
    """A player acts only for its own PC; the GM runs the round (403 forbidden)."""
    with pytest.raises(NotPermittedError) as caught:
        act(create(pc("ana"), pc("bo")), action, actor)
    assert caught.value.code == FORBIDDEN


def test_only_the_gm_makes_the_outcome_check():
    decided = decided_for(create(pc("ana")), Side.PLAYERS, players=5, opposition=-3)
    with pytest.raises(NotPermittedError):
        act(decided, OutcomeRequest(target=10, checks={"ana": face(10)}), "ana")


# --- §7.2 bullseyes are spent after seeing the roll --------------------------------------


def server_dice_conflict():
    return create(pc("ana", bullseyes=1), pc("bo"), source=DiceSource.SERVER)


def submitted_all(conflict):
    """The GM, Ana (holding a bullseye) and Bo submit round 1 with server dice."""
    for who in (GM, "ana", "bo"):
        conflict, _, rounds = act(
            conflict, Submit(number=1, participant=who, check=ParticipantCheck())
        )
        assert rounds == ()
    return conflict


def test_section_7_2_a_holder_sees_its_roll_and_the_round_waits_for_its_decision():
    """§7.2: with server dice, Ana's roll is made and shown to her; the round does not
    resolve while she may still spend her bullseye on it."""
    conflict = submitted_all(server_dice_conflict())
    assert waiting_for(conflict) == ()
    assert deciding(conflict) == ("ana",)
    assert conflict.bullseyes_used == {}


def test_section_7_2_spending_after_the_roll_makes_the_die_20_and_resolves_the_round():
    conflict = submitted_all(server_dice_conflict())
    seen = conflict.pending["ana"]
    after, events, rounds = act(conflict, DecideBullseye(number=1, participant="ana", spend=True))
    spent = rounds[0].players["ana"]
    assert (spent.die_result, spent.bullseye, spent.faces) == (20, True, seen.faces)
    assert spent.yield_ == 20 + seen.total_modifier
    assert after.bullseyes_used == {"ana": 1}
    assert [e.type for e in events] == ["bullseye.decided", "round.resolved"]
    assert events[0].data == {"round": 1, "participant": "ana", "spent": True, "by": "ana"}


def test_section_7_2_passing_keeps_the_roll_and_the_bullseye():
    conflict = submitted_all(server_dice_conflict())
    seen = conflict.pending["ana"]
    after, _, rounds = act(conflict, DecideBullseye(number=1, participant="ana", spend=False))
    assert rounds[0].players["ana"] == seen
    assert after.bullseyes_used == {}


def test_section_7_2_the_gm_closes_a_round_an_undecided_holder_passes():
    conflict = submitted_all(server_dice_conflict())
    after, events, rounds = act(conflict, CloseRound(number=1))
    assert len(rounds) == 1
    assert events[0].data == {"round": 1, "participant": "ana", "spent": False, "by": GM}
    assert after.round == 2
    assert after.deciding == ()


def test_section_7_2_closing_with_checks_outstanding_is_a_state_conflict():
    conflict = server_dice_conflict()
    conflict, _, _ = act(conflict, Submit(number=1, participant="ana", check=ParticipantCheck()))
    with pytest.raises(RulesError) as caught:
        act(conflict, CloseRound(number=1))
    assert caught.value.code == RuleCode.CHECKS_OUTSTANDING
    assert caught.value.code in STATE_CONFLICTS


def test_section_7_2_only_a_pending_holder_decides_and_only_once():
    conflict = submitted_all(server_dice_conflict())
    for who in ("bo", GM):
        with pytest.raises(RulesError) as caught:
            act(conflict, DecideBullseye(number=1, participant=who, spend=True), GM)
        assert caught.value.code == RuleCode.NOT_DECIDING
    # Bo submits last: the round waits on Ana only; once she passes she cannot decide again.
    conflict, _, _ = act(
        server_dice_conflict(), Submit(number=1, participant="ana", check=ParticipantCheck())
    )
    conflict, _, _ = act(conflict, DecideBullseye(number=1, participant="ana", spend=False))
    with pytest.raises(RulesError) as caught:
        act(conflict, DecideBullseye(number=1, participant="ana", spend=True))
    assert caught.value.code == RuleCode.NOT_DECIDING


def test_section_7_2_no_decision_is_offered_without_a_bullseye_left_or_with_table_dice():
    """Bo holds none; with the table's dice a player has seen the roll and says
    `bullseye` with the faces (as in a standalone check)."""
    conflict = msgspec.structs.replace(server_dice_conflict(), bullseyes_used={"ana": 1})
    for who in (GM, "ana"):
        conflict, _, _ = act(conflict, Submit(number=1, participant=who, check=ParticipantCheck()))
    assert deciding(conflict) == ()
    table = create(pc("ana", bullseyes=1))
    table, _, _ = act(table, Submit(number=1, participant="ana", check=face(3)))
    assert deciding(table) == ()


# --- Quick 10 and two depletable scores in a conflict ------------------------------------


def test_section_2_5_quick_10_in_a_round_takes_10_without_rolling():
    """§2.5 with §4.3: round checks never touch the depletable quality, so a Quick 10 is
    allowed; it rolls nothing (server dice unused) and offers no bullseye."""
    conflict = create(pc("ana", bullseyes=1), source=DiceSource.SERVER)
    after, _, _ = act(
        conflict, Submit(number=1, participant="ana", check=ParticipantCheck(quick10=True))
    )
    effort = after.pending["ana"]
    assert (effort.faces, effort.die_result, effort.yield_) == ((), 10, 10)
    assert deciding(after) == ()


def test_section_2_5_quick_10_cannot_come_with_faces_or_a_bullseye():
    conflict = create(pc("ana", bullseyes=1))
    check = ParticipantCheck(quick10=True, bullseye=True, roll=SuppliedRoll(faces=(5,)))
    with pytest.raises(RulesError) as caught:
        act(conflict, Submit(number=1, participant="ana", check=check))
    assert {c.code for c in caught.value.concerns} == {
        RuleCode.QUICK10_WITH_ROLL,
        RuleCode.QUICK10_WITH_BULLSEYE,
    }


def test_section_7_6_a_pc_with_two_depletable_scores_takes_the_greatest_impairment():
    """§7.6: health 30 of 40 (−2) and nerve 12 of 40 (−5): only −5 applies."""
    both = (health(30), health(12, name="nerve"))
    conflict = create(pc("ana", depletable=both), at_issue="health")
    after, _, _ = act(conflict, Submit(number=1, participant="ana", check=face(10)))
    impairment = [
        line
        for line in after.pending["ana"].modifiers
        if line.applied and line.source == "impairment"
    ]
    assert [(line.name, line.applied) for line in impairment] == [("nerve", -5)]


def test_section_7_6_the_outcome_depletes_only_the_score_at_issue():
    """§7.6 with §4.4: 3 + 5 + 5 = 13 against 20, Δ −7: nerve loses 7 + 2 = 9, health none."""
    both = (health(31), health(31, name="nerve"))
    conflict = create(pc("ana", depletable=both), threat=2, at_issue="nerve")
    decided = decided_for(conflict, Side.PLAYERS, players=5, opposition=-3)
    after, _, _ = act(decided, OutcomeRequest(target=20, checks={"ana": face(3, "ana knack")}))
    assert after.outcome.players_after["ana"].name == "nerve"
    assert [(s.name, s.current) for s in after.players[0].depletable] == [
        ("health", 31),
        ("nerve", 22),
    ]


def test_section_7_6_two_depletable_scores_must_differ_and_include_the_one_at_issue():
    with pytest.raises(RulesError) as caught:
        create(pc("ana", depletable=(health(30), health(20))), at_issue="nerve")
    assert {c.code for c in caught.value.concerns} == {
        RuleCode.DUPLICATE_DEPLETABLE,
        RuleCode.UNKNOWN_DEPLETABLE,
    }
