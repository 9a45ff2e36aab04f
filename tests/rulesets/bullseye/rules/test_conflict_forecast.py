"""The conflict forecast (§4.3, §4.4 in odds): pairings against hand-computed fractions,
the round's joint losses against every face the real round rules can see, the whole
conflict against seeded runs of ``resolve_round``.

d20 +5 against d20 +3, by hand: the spread is ``d₁ − d₂ + 2`` and ``P(d₁ − d₂ = k) =
(20 − |k|)/400``, so the player wins with ``P(d₁ − d₂ ≥ −1) = 210/400 + 19/400 = 229/400``,
ties with ``P(d₁ − d₂ = −2) = 18/400`` and loses with ``Σ_{j=1}^{17} j / 400 = 153/400``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import msgspec
import pytest

from service.kernel.chance import MAX_DIGITS
from service.rulesets.bullseye.rules.checks import DepletableScore, SuppliedRoll
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    ConflictStatus,
    DiceSource,
    OppositionSpec,
    PairingLoser,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Scores,
    Side,
    Submit,
    apply,
    new_conflict,
)
from service.rulesets.bullseye.rules.conflicts.forecast import (
    Bounds,
    ConflictForecast,
    ExactOutlook,
    SimulatedOutlook,
    SimulationReason,
    YieldBasis,
    forecast,
    simulation_seed,
)
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType

INTR, EXPR, CORE, MATR, NEG = (
    QualityType.INTRINSIC,
    QualityType.EXPERIENTIAL,
    QualityType.CORE,
    QualityType.MATERIAL,
    QualityType.NEGATIVE,
)


def q(name, magnitude, type_=INTR):
    return Quality(name=name, type=type_, magnitude=magnitude)


def conflict_of(*players, opposition=None, dice=DiceKind.D20, source=DiceSource.CLIENT):
    return new_conflict(
        conflict_id="forecast-1",
        name="Forecast",
        players=players,
        opposition=opposition or OppositionSpec(name="Duke"),
        dice=dice,
        dice_source=source,
        depletable_at_issue=None,
    ).state


def five_against_three(player_threat=0, player_dm=0, gm_threat=0, gm_dm=0):
    """One PC at +5 (score 5) against a GM at +3."""
    return conflict_of(
        PlayerSpec(
            id="ana",
            name="Ana",
            qualities=(q("Quick", 5),),
            threat=player_threat,
            depletion_modifier=player_dm,
        ),
        opposition=OppositionSpec(
            name="Duke", qualities=(q("Cunning", 3),), threat=gm_threat, depletion_modifier=gm_dm
        ),
    )


class NoDice:
    """The table supplies every face: the server's dice must not be used."""

    def randint(self, a, b):
        raise AssertionError("the server rolled although faces were supplied")


NO_DICE = NoDice()


def exact(chance):
    return Fraction(chance.exact)


def losses_of(pairing):
    return {(loss.loser, loss.amount): exact(loss) for loss in pairing.losses}


def look(conflict, viewer=GM, version=1, bounds=None) -> ConflictForecast:
    return forecast(
        conflict, version=version, viewer=viewer, **({"bounds": bounds} if bounds else {})
    )


def all_declared(conflict, participant, face):
    """The check the forecast assumes: every declared quality, the table's face."""
    if participant == GM:
        qualities = conflict.opposition.qualities
    else:
        qualities = next(p for p in conflict.players if p.id == participant).qualities
    return ParticipantCheck(
        qualities=tuple(quality.name for quality in qualities), roll=SuppliedRoll(faces=(face,))
    )


# --- one pairing (§4.3, §2.4.2) -----------------------------------------------------------


def test_section_4_3_a_pairing_d20_plus_5_against_d20_plus_3_is_hand_computed():
    """229/400 the player's side, 153/400 the GM's, 18/400 a stalemate (module docstring);
    Ana's threat 2 and the Duke's protection −1 cost the opposition spread + 1, the Duke's
    threat 3 and Ana's protection −2 cost the players |spread| + 1 (§2.4.2)."""
    conflict = five_against_three(player_threat=2, gm_dm=-1, gm_threat=3, player_dm=-2)
    (pairing,) = look(conflict).pairings
    assert pairing.player == "ana"
    assert exact(pairing.player_wins) == Fraction(229, 400)
    assert exact(pairing.gm_wins) == Fraction(153, 400)
    assert exact(pairing.stalemate) == Fraction(18, 400)
    assert pairing.player_wins.p == round(229 / 400, 12)
    losses = losses_of(pairing)
    assert losses[(PairingLoser.NONE, 0)] == Fraction(18, 400)
    # spread +1 (d₁ − d₂ = −1): the opposition loses 1 + 2 − 1 = 2
    assert losses[(PairingLoser.OPPOSITION, 2)] == Fraction(19, 400)
    # spread +21 (d₁ 20, d₂ 1): 22
    assert losses[(PairingLoser.OPPOSITION, 22)] == Fraction(1, 400)
    # spread −1 (d₁ − d₂ = −3): the players lose 1 + 3 − 2 = 2
    assert losses[(PairingLoser.PLAYERS, 2)] == Fraction(17, 400)
    assert (PairingLoser.PLAYERS, 1) not in losses
    assert sum(losses.values()) == 1


def test_section_7_1_a_pairing_3d6_against_3d6_ties_with_the_sum_of_squared_counts():
    """§7.1 3d6: the counts 1, 3, 6, 10, 15, 21, 25, 27, 27, 25, … square-sum to 4332, so a
    stalemate is 4332/216² = 361/3888, and either side wins (1 − 361/3888)/2 = 3527/7776."""
    conflict = conflict_of(
        PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", 4),)),
        opposition=OppositionSpec(name="Duke", qualities=(q("Cunning", 4),)),
        dice=DiceKind.THREE_D6,
    )
    (pairing,) = look(conflict).pairings
    assert exact(pairing.stalemate) == Fraction(361, 3888)
    assert exact(pairing.player_wins) == exact(pairing.gm_wins) == Fraction(3527, 7776)


def test_section_4_3_a_submitted_gm_check_makes_the_pairing_a_check_against_its_yield():
    """The GM has checked: 10 shown + 3 = 13. To the GM, who saw it, Ana's pairing is a
    check against 13 (§2.1): she wins on 9–20 (12/20), ties on 8 (1/20), loses on 1–7."""
    conflict = five_against_three()
    conflict = apply(
        conflict, Submit(number=1, participant=GM, check=all_declared(conflict, GM, 10)), GM, None
    ).state
    seen = look(conflict, viewer=GM)
    gm_view = seen.participants[0]
    assert (gm_view.participant, gm_view.basis, gm_view.yield_) == (GM, YieldBasis.SUBMITTED, 13)
    (pairing,) = seen.pairings
    assert (exact(pairing.player_wins), exact(pairing.stalemate), exact(pairing.gm_wins)) == (
        Fraction(12, 20),
        Fraction(1, 20),
        Fraction(7, 20),
    )
    # Ana has not seen the GM's roll: to her it is still d20 + 3 (§4.3 rolls stay hidden).
    hidden = look(conflict, viewer="ana")
    assert (hidden.participants[0].basis, hidden.participants[0].yield_) == (
        YieldBasis.HIDDEN,
        None,
    )
    assert exact(hidden.pairings[0].player_wins) == Fraction(229, 400)


def test_a_roll_is_known_only_to_whoever_submitted_it():
    """Ana's own roll is hers; the GM's check for absent Bo is the GM's, not Bo's."""
    conflict = conflict_of(
        PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", 5),)),
        PlayerSpec(id="bo", name="Bo", qualities=(q("Giant", 4),)),
    )
    conflict = apply(
        conflict,
        Submit(number=1, participant="ana", check=all_declared(conflict, "ana", 7)),
        "ana",
        None,
    ).state
    conflict = apply(
        conflict,
        Submit(number=1, participant="bo", check=all_declared(conflict, "bo", 2)),
        GM,
        None,
    ).state

    def bases(viewer):
        return {
            p.participant: (p.basis, p.yield_) for p in look(conflict, viewer=viewer).participants
        }

    declared, hidden = (YieldBasis.DECLARED, None), (YieldBasis.HIDDEN, None)
    assert bases("ana") == {GM: declared, "ana": (YieldBasis.SUBMITTED, 12), "bo": hidden}
    assert bases("bo") == {GM: declared, "ana": hidden, "bo": hidden}
    assert bases(GM) == {GM: declared, "ana": hidden, "bo": (YieldBasis.SUBMITTED, 6)}


# --- the round as a whole (§4.3) ------------------------------------------------------------


def brute_force_round(conflict):
    """Every GM face against every pair of player faces through the real round rules
    (resolve_round, §4.3): the (players' loss, opposition's loss) counts, and each pairing's
    (loser, amount) counts."""
    joint, per_player = Counter(), {p.id: Counter() for p in conflict.players}
    before = conflict.scores
    for gm_face, *faces in itertools.product(range(1, 21), repeat=1 + len(conflict.players)):
        action = ResolveRound(
            gm=all_declared(conflict, GM, gm_face),
            players={
                p.id: all_declared(conflict, p.id, f)
                for p, f in zip(conflict.players, faces, strict=True)
            },
        )
        applied = apply(conflict, action, GM, NO_DICE)
        after = applied.state.scores
        joint[(before.players - after.players, before.opposition - after.opposition)] += 1
        for pairing in applied.history[0].pairings:
            per_player[pairing.player][(pairing.loser, pairing.amount)] += 1
    return joint, per_player


def two_pc_round_conflict():
    """Ana: +4, a second intrinsic +3 at half (§6.3), experiential +2, impaired −2 at 30 of
    42 (§3.2.3): 5 in all; threat 2. Bo: core +5 and a negative −2: 3; protection −1. The
    opposition: +3, a second intrinsic +2 at half, material +2: 6; threat 1, protection −1."""
    return conflict_of(
        PlayerSpec(
            id="ana",
            name="Ana",
            qualities=(q("Quick", 4), q("Sly", 3), q("Fencer", 2, EXPR)),
            threat=2,
            depletable=DepletableScore(name="health", current=30, maximum=42),
        ),
        PlayerSpec(
            id="bo",
            name="Bo",
            qualities=(q("Brave", 5, CORE), q("Clumsy", -2, NEG)),
            depletion_modifier=-1,
        ),
        opposition=OppositionSpec(
            name="Horde",
            qualities=(q("Many", 3), q("Loud", 2), q("Pikes", 2, MATR)),
            threat=1,
            depletion_modifier=-1,
        ),
    )


def test_section_4_3_the_rounds_joint_losses_match_every_face_of_the_real_round_rules():
    """Two PCs: all 20³ faces through resolve_round give the joint distribution of both
    scores after the round, each side's loss, each pairing's, and whether it decides."""
    conflict = two_pc_round_conflict()
    assert conflict.scores == Scores(players=12, opposition=24)
    joint, per_player = brute_force_round(conflict)
    seen = look(conflict)
    modifiers = {p.participant: p.total_modifier for p in seen.participants}
    assert modifiers == {GM: 6, "ana": 5, "bo": 3}
    round_ = seen.this_round
    listed = {(s.players, s.opposition): exact(s) for s in round_.scores_after}
    assert listed == {(12 - a, 24 - b): Fraction(n, 8000) for (a, b), n in joint.items()}
    assert round_.outcomes == len(joint)
    players_loss = Counter()
    opposition_loss = Counter()
    for (a, b), n in joint.items():
        players_loss[a] += n
        opposition_loss[b] += n
    assert {x.amount: exact(x) for x in round_.players_loss} == {
        a: Fraction(n, 8000) for a, n in players_loss.items()
    }
    assert {x.amount: exact(x) for x in round_.opposition_loss} == {
        b: Fraction(n, 8000) for b, n in opposition_loss.items()
    }
    for pairing in seen.pairings:
        assert losses_of(pairing) == {
            key: Fraction(n, 8000) for key, n in per_player[pairing.player].items()
        }
    decided = {(a, b) for a, b in joint if min(12 - a, 24 - b) <= 0 and 12 - a != 24 - b}
    opposition_won = sum(joint[k] for k in decided if 12 - k[0] < 24 - k[1])
    players_won = sum(joint[k] for k in decided if 12 - k[0] > 24 - k[1])
    assert exact(round_.ends.opposition) == Fraction(opposition_won, 8000)
    assert exact(round_.ends.players) == Fraction(players_won, 8000)
    assert opposition_won > 0
    assert players_won > 0


def test_section_4_3_pairings_share_the_gm_yield_so_the_round_is_not_their_product():
    """Both pairings face one GM yield: that both PCs lose is likelier than the product of
    their chances (a high GM roll beats both at once)."""
    conflict = two_pc_round_conflict()
    seen = look(conflict)
    both = sum(
        exact(s) for s in seen.this_round.scores_after if s.opposition == 24 and s.players < 12
    )
    ana, bo = (exact(p.gm_wins) for p in seen.pairings)
    assert both > ana * bo


# --- the whole conflict (§4.3 decision, sudden death) -----------------------------------------


def test_section_4_3_one_point_each_the_first_loss_decides():
    """+1 against +0, both scores 1: any spread but 0 ends it, so the players win with
    P(spread > 0 | spread ≠ 0) = 210/381 (d₁ − d₂ ≥ 0: 210/400; = −1: 19/400), in
    400/381 rounds on average."""
    conflict = conflict_of(PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", 1),)))
    assert conflict.scores == Scores(players=1, opposition=1)
    winner = look(conflict).winner
    assert isinstance(winner, ExactOutlook)
    assert exact(winner.players) == Fraction(210, 381)
    assert exact(winner.opposition) == Fraction(171, 381)
    assert exact(winner.undecided) == 0
    assert winner.expected_rounds == round(400 / 381, 6)


def test_section_4_3_sudden_death_the_side_that_loses_less_wins():
    """Both at −3 (a tie at or below 0, played on, a decision): the next round whose losses
    differ decides it. +5 against +3, every spread costing something: 229/382, in 400/382
    rounds on average."""
    conflict = msgspec.structs.replace(
        five_against_three(player_threat=2, gm_threat=3), scores=Scores(players=-3, opposition=-3)
    )
    winner = look(conflict).winner
    assert isinstance(winner, ExactOutlook)
    assert (exact(winner.players), exact(winner.opposition)) == (
        Fraction(229, 382),
        Fraction(153, 382),
    )
    assert winner.expected_rounds == round(400 / 382, 6)
    ends = look(conflict).this_round.ends
    assert (exact(ends.players), exact(ends.opposition), exact(ends.goes_on)) == (
        Fraction(229, 400),
        Fraction(153, 400),
        Fraction(18, 400),
    )


def test_section_2_4_2_when_nobody_can_lose_the_conflict_is_never_decided():
    """Threats and protections of −20 swallow every spread of ±22 or less (§2.4.2: never
    below 0): nobody loses, ever."""
    conflict = conflict_of(
        PlayerSpec(
            id="ana", name="Ana", qualities=(q("Quick", 2),), threat=-20, depletion_modifier=-20
        ),
        opposition=OppositionSpec(name="Fog", threat=-20, depletion_modifier=-20),
    )
    seen = look(conflict)
    assert exact(seen.this_round.ends.goes_on) == 1
    assert isinstance(seen.winner, ExactOutlook)
    assert (exact(seen.winner.undecided), seen.winner.expected_rounds) == (1, None)


def test_section_4_3_a_decided_conflict_answers_its_settled_winner():
    conflict = five_against_three()
    action = ResolveRound(
        gm=all_declared(conflict, GM, 1), players={"ana": all_declared(conflict, "ana", 20)}
    )
    decided = apply(conflict, action, GM, NO_DICE).state
    assert decided.status is ConflictStatus.DECIDED
    assert decided.winner is Side.PLAYERS
    seen = look(decided, viewer="ana", version=2)
    assert (seen.this_round, seen.pairings, seen.participants) == (None, (), ())
    assert (seen.winner.players.exact, seen.winner.opposition.exact) == ("1/1", "0/1")
    assert seen.winner.expected_rounds == 0


def small_two_pc_conflict(source=DiceSource.SERVER):
    """Players 2 + 2 = 4, opposition 8 (§4.2); the GM at +3 against +2 each."""
    return conflict_of(
        PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", 2),), threat=1),
        PlayerSpec(id="bo", name="Bo", qualities=(q("Giant", 2),)),
        opposition=OppositionSpec(name="Duke", qualities=(q("Cunning", 3),)),
        source=source,
    )


@pytest.mark.heavy(2)
def test_section_4_3_the_exact_chance_matches_200_000_seeded_conflicts_of_the_real_rules():
    """200 000 conflicts played to their end by resolve_round with a seeded generator:
    the players' share and the mean number of rounds within 4σ of the exact ones."""
    conflict = small_two_pc_conflict()
    winner = look(conflict).winner
    assert isinstance(winner, ExactOutlook)
    rng = random.Random(20240424)
    action = ResolveRound(
        gm=ParticipantCheck(qualities=("Cunning",)),
        players={
            "ana": ParticipantCheck(qualities=("Quick",)),
            "bo": ParticipantCheck(qualities=("Giant",)),
        },
    )
    runs, players_won, rounds, squares = 200_000, 0, 0, 0
    for _ in range(runs):
        state, played = conflict, 0
        while state.status is ConflictStatus.ACTIVE and state.round <= MAX_ROUNDS:
            state = apply(state, action, GM, rng).state
            played += 1
        players_won += state.winner is Side.PLAYERS
        rounds += played
        squares += played * played
    p = float(exact(winner.players))
    assert abs(players_won / runs - p) <= 4 * math.sqrt(p * (1 - p) / runs)
    mean = rounds / runs
    sd = math.sqrt(squares / runs - mean * mean)
    assert abs(mean - winner.expected_rounds) <= 4 * sd / math.sqrt(runs)


@pytest.mark.parametrize(
    ("bounds", "reason"),
    [
        (Bounds(chain_terms=0), SimulationReason.TOO_MANY_STATES),
        (Bounds(joint_terms=0), SimulationReason.ROUND_TOO_LARGE),
    ],
)
def test_the_simulation_s_interval_holds_the_exact_chance(bounds, reason):
    """The same small conflict simulated, whichever bound sends it there, gives 95 %
    intervals around the exact chances."""
    conflict = small_two_pc_conflict()
    solved = look(conflict).winner
    simulated = look(conflict, bounds=bounds).winner
    assert isinstance(solved, ExactOutlook)
    assert isinstance(simulated, SimulatedOutlook)
    assert simulated.reason is reason
    for side in ("players", "opposition"):
        estimate, truth = getattr(simulated, side), float(exact(getattr(solved, side)))
        assert estimate.low <= truth <= estimate.high
        assert estimate.runs > 10_000  # the draw budget over about 1.5 rounds a run
    assert simulated.unfinished == 0
    assert simulated.seed == simulation_seed("forecast-1", 1)


def test_the_same_state_simulates_the_same_and_a_new_version_reseeds():
    conflict = small_two_pc_conflict()
    bounds = Bounds(chain_terms=0)
    first, again = (look(conflict, bounds=bounds).winner for _ in range(2))
    assert first == again
    later = look(conflict, version=2, bounds=bounds).winner
    assert later.seed != first.seed


def test_an_exact_fraction_longer_than_the_schema_allows_is_simulated_instead():
    """+40 each, one PC, with a 200-digit bound: however many states the bound allowed,
    the chances' denominator could run past it, so the chain is not solved."""
    conflict = conflict_of(
        PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", 40),)),
        opposition=OppositionSpec(name="Duke", qualities=(q("Cunning", 40),)),
    )
    winner = look(conflict, bounds=Bounds(chain_terms=10**9, digits=200)).winner
    assert isinstance(winner, SimulatedOutlook)
    assert winner.reason is SimulationReason.FRACTION_TOO_LONG
    assert winner.players.low <= 0.5 <= winner.players.high  # even sides: one half


@pytest.mark.parametrize("quick", [3, 8, 16, 30])
def test_exact_answers_stay_within_the_schema_s_digits(quick):
    conflict = conflict_of(
        PlayerSpec(id="ana", name="Ana", qualities=(q("Quick", quick),), threat=1),
        PlayerSpec(id="bo", name="Bo", qualities=(q("Giant", 2),)),
        opposition=OppositionSpec(name="Duke", qualities=(q("Cunning", 3),)),
    )
    winner = look(conflict).winner
    if isinstance(winner, ExactOutlook):
        for chance in (winner.players, winner.opposition, winner.undecided):
            assert all(len(part) <= MAX_DIGITS for part in chance.exact.split("/"))
        assert exact(winner.players) + exact(winner.opposition) + exact(winner.undecided) == 1


def test_a_round_too_large_to_list_still_has_exact_pairings_and_losses():
    """Twelve PCs: the joint losses are past the bound, so `ends` and `scores_after` are
    null and the conflict is simulated; each pairing and each side's loss stay exact."""
    players = tuple(
        PlayerSpec(id=f"pc{i}", name=f"PC {i}", qualities=(q("Quick", 8), q("Blade", 7, MATR)))
        for i in range(12)
    )
    seen = look(
        conflict_of(*players, opposition=OppositionSpec(name="Army", qualities=(q("Many", 6),)))
    )
    assert seen.this_round.ends is None
    assert (seen.this_round.scores_after, seen.this_round.outcomes) == (None, None)
    assert sum(exact(x) for x in seen.this_round.players_loss) == 1
    assert len(seen.pairings) == 12
    assert isinstance(seen.winner, SimulatedOutlook)
    assert seen.winner.reason is SimulationReason.ROUND_TOO_LARGE


def test_a_long_joint_is_counted_not_listed():
    seen = look(two_pc_round_conflict(), bounds=Bounds(scores_listed=10))
    assert seen.this_round.scores_after is None
    assert seen.this_round.outcomes > 10
    assert seen.this_round.ends is not None
