"""The one-line ``summary`` of every Bullseye answer that reports a roll, in the book's
words: the die result (§2.1.2, §7.1; a Quick 10, §2.5; a bullseye, §7.2), the yield and
target with their labels (§2.1.3, §2.3.1), the outcome — success, failure or stalemate
(§2.1) — with the spread and its label (§2.4.1), and what it cost (§2.4.2, §3.2.6, §4.3,
§4.4). Built from the result alone (service.kernel.summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.summary import MAX_SUMMARY, SIGNED, fitting
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.narration import Outcome

if TYPE_CHECKING:
    from collections.abc import Iterable

    from service.rulesets.bullseye.rules.checks import CheckResult, Effort
    from service.rulesets.bullseye.rules.conflicts.model import OutcomeCheck, Round

__all__ = ["check_summary", "outcome_summary", "round_summary", "submission_summary"]

# Keyed by the enums' values (StrEnum members hash as their text): checks.py, which calls
# this module, defines them.
_LOSER = {"actor": "the actor", "opposition": "the opposition"}
_PAIRING_LOSER = {"players": "players lose", "opposition": "opposition loses"}
_WINNER = {"players": "the players win", "opposition": "the opposition wins"}
# An enum member's plain text, for f-strings: a member itself is formatted through its
# __format__ (a lookup and a call, ~1 kIr), its text is taken as it is.
_TEXT: dict[str, str] = {member: member.value for member in (*DiceKind, *Outcome)}


def _die(
    dice: DiceKind, faces: tuple[int, ...], die_result: int, *, quick10: bool, bullseye: bool
) -> str:
    """``d20 11``, ``3d6 6+5+4=15``; ``Quick 10`` (§2.5); a bullseye's 20 after the faces
    it replaced (§7.2). Enum members are joined with ``+``, not formatted: a str subclass
    concatenates in C, while ``format`` looks up and calls its ``__format__`` (a hot path)."""
    if quick10:
        return "Quick 10"
    if len(faces) == 1:
        rolled = dice + " " + str(faces[0])
    elif faces:
        rolled = dice + " " + "+".join(map(str, faces))
        if not bullseye:
            offset = die_result - sum(faces)  # 4d6-4's −4
            rolled += (str(offset) if offset else "") + "=" + str(die_result)
    else:
        rolled = dice + ""
    return rolled + ", bullseye 20" if bullseye else rolled


def _yield(dice: DiceKind, effort: Effort | CheckResult, *, quick10: bool) -> str:
    die = _die(dice, effort.faces, effort.die_result, quick10=quick10, bullseye=effort.bullseye)
    return f"{die} {SIGNED[effort.total_modifier]} = yield {effort.yield_} ({effort.yield_label})"


def _judged(result: CheckResult) -> str:
    """The check against its target: yield, target, outcome and spread.

    One f-string (a hot path: every check answer has it): no helper call, enums as their
    plain text (:data:`_TEXT`: formatting a member calls its ``__format__``), signs from
    :data:`SIGNED`; the die through :func:`_die` only when it is not one plain face."""
    faces = result.faces
    if len(faces) != 1 or result.quick10 or result.bullseye:
        die = _die(
            result.dice, faces, result.die_result, quick10=result.quick10, bullseye=result.bullseye
        )
    else:
        die = f"{_TEXT[result.dice]} {faces[0]}"
    return (
        f"{die} {SIGNED[result.total_modifier]} = yield {result.yield_} ({result.yield_label}) "
        f"vs target {result.target} ({result.target_label}): {_TEXT[result.outcome]}, "
        f"spread {SIGNED[result.spread]} ({result.spread_label})"
    )


def _cost(result: CheckResult) -> str:
    """§2.4.2 and §3.2.2: who loses how much; §3.2.6: what a success restores."""
    if result.depletion is not None:
        loser = _LOSER.get(result.depletion.loser)
        return "; nobody loses" if loser is None else f"; {loser} loses {result.depletion.amount}"
    if result.restoration is not None:
        return f"; restores {result.restoration.restored}"
    return ""


def check_summary(result: CheckResult) -> str:
    """``d20 11 +4 = yield 15 (Above Average) vs target 15 (Hard): stalemate, spread +0
    (Mere Success); nobody loses``.

    Only the service's words and numbers, never an id: printable ASCII as built, so a line
    that fits is the answer as it is (``fitting`` would scan it for what only ids bring)."""
    line = _judged(result)
    if result.depletion is not None or result.restoration is not None:
        line += _cost(result)
    return line if len(line) <= MAX_SUMMARY else fitting(line)


def submission_summary(
    round_number: int,
    participant: str,
    effort: Effort,
    dice: DiceKind,
    *,
    may_spend_bullseye: bool,
    waiting_for: tuple[str, ...],
) -> str:
    """A conflict check before its round resolves (§4.3): its yield, nothing judged yet,
    whether a bullseye may still be spent on it (§7.2), and whom the round waits for."""
    head = f"Round {round_number}: {participant} {_yield(dice, effort, quick10=not effort.faces)}"
    if may_spend_bullseye:
        head += "; may spend a bullseye"
    if not waiting_for:
        return fitting(head)
    return fitting(
        f"{head}; waiting for {', '.join(waiting_for)}",
        f"{head}; waiting for {len(waiting_for)}",
    )


def _scores(resolved: Round) -> str:
    after = resolved.scores_after
    text = f"scores players {after.players}, opposition {after.opposition}"
    if resolved.winner is not None:
        text += f"; {_WINNER[resolved.winner]}"
    return text


def round_summary(resolved: Round) -> str:
    """§4.3: the GM's yield against each player's and who lost what, then the scores;
    past 200 characters, the losses summed by side.

    A hot path (every round's answer): the summed wording is made only when the full one
    is too long, and the players' ids are the only text checked for printable ASCII (the
    rest is the service's own words and numbers)."""
    pairings = []
    ids_plain = True
    for pairing in resolved.pairings:
        player = pairing.player
        if ids_plain and not (player.isascii() and player.isprintable()):
            ids_plain = False
        if pairing.loser == "none":
            pairings.append(f"{player} {pairing.player_yield} (stalemate)")
        else:
            pairings.append(
                f"{player} {pairing.player_yield} "
                f"({_PAIRING_LOSER[pairing.loser]} {pairing.amount})"
            )
    head = f"Round {resolved.number}: GM yield {resolved.gm.yield_}"
    scores = _scores(resolved)
    line = f"{head}; {', '.join(pairings)}; {scores}"
    if ids_plain and len(line) <= MAX_SUMMARY:
        return line
    lost = {"players": 0, "opposition": 0}
    for pairing in resolved.pairings:
        if pairing.loser != "none":
            lost[pairing.loser] += pairing.amount
    summed = f"players lose {lost['players']}, opposition loses {lost['opposition']}"
    return fitting(line, f"{head} against {len(resolved.pairings)} players: {summed}; {scores}")


def _losses(outcome: OutcomeCheck) -> Iterable[str]:
    for loss in outcome.losses:
        who = "the opposition" if loss.player is None else loss.player
        yield f"{who} loses {loss.amount}"


def outcome_summary(outcome: OutcomeCheck) -> str:
    """§4.4: the winners' final check, who made it and what it cost."""
    head = f"Final check by {outcome.by}: {_judged(outcome)}"
    losses = list(_losses(outcome))
    if not losses:
        return fitting(head + _cost(outcome) if outcome.depletion is not None else head)
    total = sum(loss.amount for loss in outcome.losses)
    return fitting(f"{head}; {', '.join(losses)}", f"{head}; {len(losses)} lose {total}", head)
