"""The one-line ``summary`` of every OpenD6 answer that reports a roll, in the chapter's
words: the rolled code and its total, the Wild Die's Critical Success or Critical Failure
("Wild Die") with the GM's option, the outcome against the difficulty and its result
points ("Determining Success", "Result Points"), opposed rolls ("Opposed Difficulties")
and initiative ("Initiative"). Built from the result alone (service.kernel.summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.summary import fitting, signed

if TYPE_CHECKING:
    from service.rulesets.opend6.rules.initiative import InitiativePlace
    from service.rulesets.opend6.rules.opposed import OpposedResult
    from service.rulesets.opend6.rules.rolls import RollResult
    from service.rulesets.opend6.rules.scenes.events import SceneLogEntry
    from service.rulesets.opend6.rules.scenes.model import Scene
    from service.rulesets.opend6.rules.scenes.moves import SceneMove

__all__ = ["initiative_summary", "move_summary", "opposed_summary", "roll_summary"]


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _wild(result: RollResult) -> str | None:
    """The Wild Die's first toss when it matters: a 6 is a Critical Success and is rolled
    again; a 1 is a Critical Failure, the GM's option saying what it does (D4, D5)."""
    wild = result.wild
    if wild is None or wild.critical is None:
        return None
    if wild.critical == "success":
        return f"Wild Die Critical Success, rolled {_count(wild.explosions + 1, 'time', 'times')}"
    failure = result.critical_failure
    if failure is None:  # a Wild-Die-only toss (D14) says so itself
        return None
    if failure.option == "complication":
        return "Wild Die Critical Failure: a complication"
    cancelled = "it and the highest die cancelled" if len(failure.cancelled) > 1 else "cancelled"
    return f"Wild Die Critical Failure: {cancelled}"


def _rolled(result: RollResult, net: int | None = None) -> str:
    """``5D total 17``, its Character Point dice, and in brackets its net total (an
    opposed side's, D17) and the Wild Die's part."""
    cp = sum(1 for die in result.dice if die.role == "cp")
    dice = f" and {_count(cp, 'Character Point die', 'Character Point dice')}" if cp else ""
    notes = [note for note in (None if net is None else f"net {net}", _wild(result)) if note]
    bracket = f" ({'; '.join(notes)})" if notes else ""
    return f"{result.rolled_code}{dice} total {result.total}{bracket}"


def _judged(result: RollResult) -> str:
    """Against the difficulty: success or failure, result points, an attack's damage bonus."""
    difficulty = result.difficulty
    if difficulty is None or result.outcome is None:
        return ""
    text = f" vs {difficulty.value} ({difficulty.label}): " + result.outcome
    if result.result_points is not None:
        text += f", {_count(result.result_points, 'result point', 'result points')}"
    if result.damage_bonus:
        text += f", damage bonus {signed(result.damage_bonus)}"
    return text


def _wild_die_only(result: RollResult) -> str:
    """D14: one toss; a 6 a Critical Success, a 1 a success with a complication."""
    assert result.wild is not None
    toss = result.wild.initial
    if result.outcome == "critical_success":
        return f"Wild Die only: {toss}, Critical Success"
    if result.complication:
        return f"Wild Die only: {toss}, Critical Failure: success with a complication"
    return f"Wild Die only: {toss}, success"


def _roll_text(result: RollResult) -> str:
    if result.total is None:  # an automatic difficulty: nothing is rolled
        return f"{result.rolled_code}: automatic success, nothing rolled"
    if result.difficulty is not None and result.difficulty.kind == "wild_die_only":
        return _wild_die_only(result)
    return _rolled(result) + _judged(result)


def roll_summary(result: RollResult) -> str:
    """``5D total 17 vs 15 (Moderate): success, 2 result points``."""
    return fitting(_roll_text(result))


def _side(result: OpposedResult, name: str) -> str:
    side = result.initiator if name == "initiator" else result.resister
    return _rolled(side.roll, side.net if side.handicap else None)


def opposed_summary(result: OpposedResult, prefix: str = "Opposed") -> str:
    """ "Opposed Difficulties": both totals (net of their handicaps, D17) and who wins by
    how much (ties to the initiator, D2)."""
    verdict = f"the {result.winner} wins by {abs(result.margin)}"
    if result.damage_bonus:
        verdict += f", damage bonus {signed(result.damage_bonus)}"
    bare = f"{prefix}: {result.initiator.net} vs {result.resister.net}: {verdict}"
    return fitting(
        f"{prefix}: {_side(result, 'initiator')} vs {_side(result, 'resister')}: {verdict}",
        bare,
    )


def initiative_summary(order: tuple[InitiativePlace, ...]) -> str:
    """ "Initiative": the order, each total, and what broke a tie (D16). (A scene orders
    what is left of its table with the same rules, sometimes nobody.)"""
    if not order:
        return "Initiative: nobody to order"
    places = [
        f"{place.participant} {place.total}"
        + (f" (by {place.decided_by})" if place.decided_by not in (None, "total") else "")
        for place in order
    ]
    first, last = order[0], order[-1]
    return fitting(
        f"Initiative: {', '.join(places)}",
        f"Initiative of {len(places)}: {first.participant} first ({first.total}), "
        f"{last.participant} last ({last.total})",
    )


def move_summary(move: SceneMove, entry: SceneLogEntry, scene: Scene) -> str | None:
    """A scene move that rolls or resolves a roll, from the move, its log entry and the
    scene after it; None for a move that rolls nothing."""
    head = f"Round {entry.round}"
    if entry.opposed is not None:  # a roll resolved now, or the GM's resolve
        opposed = entry.opposed
        return opposed_summary(
            opposed,
            f"{head}: resolved {opposed.initiator.roll.id} against {opposed.resister.roll.id}",
        )
    if entry.result is not None:
        return fitting(
            f"{head}: resolved {entry.roll_id} of {entry.participant}, " + _roll_text(entry.result)
        )
    if entry.initiative:
        rolled = [
            f"{item.participant} {roll.total}"
            for item, roll in zip(getattr(move, "rolls", ()), entry.initiative, strict=False)
        ]
        return fitting(f"{head} initiative: {', '.join(rolled)}", f"{head} initiative rolled")
    # A roll waiting for the GM (D18), or Character Point dice added to one.
    roll_id = entry.roll_id if entry.move == "roll" else getattr(move, "roll", None)
    pending = next((item for item in scene.pending if item.id == roll_id), None)
    if pending is None or entry.move not in ("roll", "spend_character_points"):
        return None
    if entry.move == "roll":
        return fitting(
            f"{head}: {pending.participant} rolled {pending.id}, "
            f"{_roll_text(pending.roll)}; waiting for the GM"
        )
    return fitting(f"{head}: {pending.id} of {pending.participant} now {_roll_text(pending.roll)}")
