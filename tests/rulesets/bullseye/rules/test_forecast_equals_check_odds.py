"""The forecast's pairing odds (§4.3) are the check odds (§2.1, §2.4.2) of the player's
check against the GM's yield as its target: with the GM's check submitted the equality is
one check's; unsubmitted, the pairing is the check odds mixed over the GM's yield."""

from __future__ import annotations

from fractions import Fraction

from service.rulesets.bullseye.rules.check_odds import check_odds
from service.rulesets.bullseye.rules.checks import (
    CheckShape,
    DepletableScore,
    DepletionAtIssue,
    SuppliedRoll,
)
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    DiceSource,
    OppositionSpec,
    PairingLoser,
    ParticipantCheck,
    PlayerSpec,
    Submit,
    apply,
    new_conflict,
)
from service.rulesets.bullseye.rules.conflicts.forecast import forecast
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType

_SIDE = {Loser.ACTOR: PairingLoser.PLAYERS, Loser.OPPOSITION: PairingLoser.OPPOSITION}
_SIDE[Loser.NONE] = PairingLoser.NONE

ANA = PlayerSpec(
    id="ana",
    name="Ana",
    qualities=(
        Quality(name="Quick", type=QualityType.INTRINSIC, magnitude=5),
        Quality(name="Fencer", type=QualityType.EXPERIENTIAL, magnitude=3),
    ),
    threat=2,
    depletion_modifier=-1,
    depletable=DepletableScore(name="Health", current=14, maximum=20),  # −2 (§3.2.3)
)
DUKE = OppositionSpec(
    name="Duke",
    qualities=(Quality(name="Cunning", type=QualityType.INTRINSIC, magnitude=4),),
    threat=3,
    depletion_modifier=-2,
)


def _conflict(dice: DiceKind):  # type: ignore[no-untyped-def]
    return new_conflict(
        conflict_id="cross-1",
        name="Cross",
        players=(ANA,),
        opposition=DUKE,
        dice=dice,
        dice_source=DiceSource.CLIENT,
        depletable_at_issue=None,
    ).state


def _ana_against(target: int) -> CheckShape:
    assert isinstance(ANA.depletable, DepletableScore)
    return CheckShape(
        target=target,
        qualities=ANA.qualities,
        depletable=(ANA.depletable,),
        depletion=DepletionAtIssue(
            actor=DepletionSide(threat=ANA.threat, depletion_modifier=ANA.depletion_modifier),
            opposition=DepletionSide(
                threat=DUKE.threat, depletion_modifier=DUKE.depletion_modifier
            ),
        ),
        dice=DiceKind.D20,
    )


def _pairing_figures(pairing):  # type: ignore[no-untyped-def]
    outcome = {
        "success": Fraction(pairing.player_wins.exact),
        "stalemate": Fraction(pairing.stalemate.exact),
        "failure": Fraction(pairing.gm_wins.exact),
    }
    losses = {(loss.loser, loss.amount): Fraction(loss.exact) for loss in pairing.losses}
    return outcome, losses


def _check_figures(
    target: int,
) -> tuple[dict[str, Fraction], dict[tuple[PairingLoser, int], Fraction]]:
    asked = check_odds(_ana_against(target)).as_asked
    outcome = {
        "success": Fraction(asked.success.exact),
        "stalemate": Fraction(asked.stalemate.exact),
        "failure": Fraction(asked.failure.exact),
    }
    assert asked.depletion is not None
    losses = {
        (_SIDE[loss.loser], loss.amount): Fraction(loss.exact) for loss in asked.depletion.losses
    }
    return outcome, losses


def test_section_4_3_a_submitted_gm_yield_makes_the_pairing_the_check_odds_against_it() -> None:
    """The Duke rolled 9 (+4: yield 13); the GM's forecast of Ana's pairing is Ana's check
    odds against a target of 13, her threat and protection against the Duke's."""
    conflict = _conflict(DiceKind.D20)
    gm_check = ParticipantCheck(qualities=("Cunning",), roll=SuppliedRoll(faces=(9,)))
    conflict = apply(conflict, Submit(number=1, participant=GM, check=gm_check), GM, None).state
    (pairing,) = forecast(conflict, version=2, viewer=GM).pairings
    assert _pairing_figures(pairing) == _check_figures(13)


def test_section_4_3_an_unmade_gm_check_mixes_the_check_odds_over_its_yields() -> None:
    """Unsubmitted, the Duke's yield is 1…20 + 4, each 1/20: the pairing is the mean of Ana's
    check odds over those 20 targets, outcome by outcome and loss by loss."""
    (pairing,) = forecast(_conflict(DiceKind.D20), version=1, viewer=GM).pairings
    outcome: dict[str, Fraction] = {}
    losses: dict[tuple[PairingLoser, int], Fraction] = {}
    for face in range(1, 21):
        one_outcome, one_losses = _check_figures(face + 4)
        for key, value in one_outcome.items():
            outcome[key] = outcome.get(key, Fraction(0)) + value / 20
        for key, value in one_losses.items():
            losses[key] = losses.get(key, Fraction(0)) + value / 20
    assert _pairing_figures(pairing) == (outcome, losses)
