"""A check's exact odds before the roll (§2.1–§2.5, §3.2, §7.1, §7.2): the check as asked,
each dice kind rolled and with a held bullseye, a bullseye spent outright and a Quick 10.

Everything is counted from the die result's distribution (:mod:`.yield_odds`): the yield
and the spread are that distribution shifted by the total modifier and the target, the
outcomes and the §2.4.1 bands are sums over the spread, and a loss or a restoration is
the check's own rule (``settle``, ``restored_current``) applied at every spread, gathered.
No simulation: every probability is an exact fraction over the dice's ``sidesⁿ``.

A held bullseye (§7.2) is spent after the roll is seen, so the odds with one held are
those of the player who spends it exactly when the roll would not succeed (a failure or
a stalemate): a 20 is never worse than what it replaces, and a successful roll is kept.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import msgspec

from service.kernel.chance import chance, fraction_of
from service.kernel.errors import RulesError
from service.kernel.exact import Pmf, point
from service.rulesets.bullseye.rules.check_odds_answer import (
    CheckBandOdds,
    CheckConditionOdds,
    CheckDepletionOdds,
    CheckDiceOdds,
    CheckLabelledOdds,
    CheckLossOdds,
    CheckOdds,
    CheckOutcomeOdds,
    CheckPointsOdds,
    CheckRestorationOdds,
    CheckScoreOdds,
    CheckValueOdds,
)
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    CheckShape,
    DepletableScore,
    DepletionAtIssue,
    affected_scores,
    check_refusals,
    modifier_lines,
    restored_current,
    restored_score,
)
from service.rulesets.bullseye.rules.conditions import State, condition
from service.rulesets.bullseye.rules.depletion import Loser
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.tables import TABLES, TableName, band
from service.rulesets.bullseye.rules.yield_odds import (
    die_result_pmf,
    held_bullseye,
    loss_weights,
    spread_pmf,
    yield_pmf,
)

__all__ = ["CheckOddsRequest", "check_odds", "check_odds_request"]

_TARGET_TABLE = TABLES[TableName.TARGET]
_SPREAD_TABLE = TABLES[TableName.SPREAD]
_LOSER_ORDER = {Loser.ACTOR: 0, Loser.NONE: 1, Loser.OPPOSITION: 2}
_STATE_ORDER = {state: index for index, state in enumerate(State)}


class CheckOddsRequest(CheckShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A check before its roll (§2.1): the `resolveCheck` body less `roll`, `seed` and
    `with_odds` — odds have no dice to supply or seed."""


def check_odds(request: CheckShape) -> CheckOdds:
    """The exact odds of ``request`` before the roll (a :class:`CheckRequest` too: its
    ``roll``, ``seed`` and ``with_odds`` are not looked at).

    Raises:
        RulesError: the rules refuse the check (the same reasons, codes and pointers as
            :func:`resolve_check`, those of supplied faces and seeds aside).
    """
    if refusals := check_refusals(request):
        raise RulesError.from_concerns(refusals)
    lines, warnings = modifier_lines(
        request.qualities, request.situational, request.depletable, strict=request.strict
    )
    total_modifier = sum(line.applied for line in lines)
    stakes = _Stakes(
        total_modifier=total_modifier,
        target=request.target,
        depletion=request.depletion,
        affected=affected_scores(request),
        restored=restored_score(request),
    )
    as_asked = die_result_pmf(request.dice, quick10=request.quick10, bullseye=request.bullseye)
    return CheckOdds(
        dice=request.dice,
        modifiers=lines,
        total_modifier=total_modifier,
        target=request.target,
        target_label=_TARGET_TABLE.label_for(request.target),
        as_asked=_outcome_odds(as_asked, stakes),
        dice_kinds=tuple(_dice_odds(kind, stakes) for kind in DiceKind),
        with_spent_bullseye=_outcome_odds(die_result_pmf(request.dice, bullseye=True), stakes),
        with_quick10=None
        if request.depletion is not None
        else _outcome_odds(die_result_pmf(request.dice, quick10=True), stakes),
        warnings=tuple(warnings),
    )


def check_odds_request(request: CheckRequest) -> CheckOddsRequest | None:
    """What ``checkOdds`` is asked for a check that asks ``with_odds``: its body less
    ``roll``, ``seed``, ``receipt`` and ``with_odds``; None when it does not ask."""
    if not request.with_odds:
        return None
    return CheckOddsRequest(
        **{name: getattr(request, name) for name in CheckOddsRequest.__struct_fields__}
    )


class _Stakes(msgspec.Struct, frozen=True, kw_only=True):
    """What a die result is measured against: hashable, so one way of making a check is
    counted once however often it is asked."""

    total_modifier: int
    target: int
    depletion: DepletionAtIssue | None
    affected: tuple[DepletableScore, ...]
    restored: DepletableScore | None


def _dice_odds(kind: DiceKind, stakes: _Stakes) -> CheckDiceOdds:
    rolled = die_result_pmf(kind)
    # The roll does not succeed while die result + M ≤ T: below T − M + 1.
    spend_below = stakes.target - stakes.total_modifier + 1
    return CheckDiceOdds(
        dice=kind,
        rolled=_outcome_odds(rolled, stakes),
        with_held_bullseye=_outcome_odds(held_bullseye(rolled, spend_below), stakes),
        held_bullseye_spent=chance(rolled.probability_below(spend_below)),
    )


@lru_cache(maxsize=4096)
def _row(weight: int, denominator: int) -> tuple[float, str]:
    """``weight/denominator`` as ``(p, exact)``: a few dozen distinct fractions serve
    every check of a dice kind."""
    return fraction_of(Fraction(weight, denominator))


def _values(pmf: Pmf) -> tuple[CheckValueOdds, ...]:
    rows = []
    for index, weight in enumerate(pmf.weights):
        if weight:
            p, exact = _row(weight, pmf.denominator)
            rows.append(CheckValueOdds(value=pmf.low + index, p=p, exact=exact))
    return tuple(rows)


@lru_cache(maxsize=2048)
def _band_of(table_name: TableName, value: int) -> tuple[int, str]:
    """The start and label of the row ``value`` falls in: a check's values repeat."""
    row = band(TABLES[table_name], value)
    return row.value, row.label


@lru_cache(maxsize=4096)
def _condition_at(maximum: int, current: int) -> tuple[State, int]:
    now = condition(maximum, current)
    return now.state, now.impairment


def _labelled(pmf: Pmf, table_name: TableName) -> tuple[CheckLabelledOdds, ...]:
    rows = []
    for index, weight in enumerate(pmf.weights):
        if weight:
            p, exact = _row(weight, pmf.denominator)
            value = pmf.low + index
            label = _band_of(table_name, value)[1]
            rows.append(CheckLabelledOdds(value=value, label=label, p=p, exact=exact))
    return tuple(rows)


def _bands(spread: Pmf) -> tuple[CheckBandOdds, ...]:
    """Every §2.4.1 row, with the probability of the spreads that take its label."""
    by_start: dict[int, int] = {}
    for index, weight in enumerate(spread.weights):
        if weight:
            start = _band_of(TableName.SPREAD, spread.low + index)[0]
            by_start[start] = by_start.get(start, 0) + weight
    rows = _SPREAD_TABLE.rows
    bands = []
    for index, row in enumerate(rows):
        p, exact = _row(by_start.get(row.value, 0), spread.denominator)
        bands.append(
            CheckBandOdds(
                label=row.label,
                low=row.value if index else None,
                high=rows[index + 1].value - 1 if index + 1 < len(rows) else None,
                p=p,
                exact=exact,
            )
        )
    return tuple(bands)


def _conditions(
    score: DepletableScore, currents: dict[int, int], denominator: int
) -> CheckScoreOdds:
    """The conditions ``score`` may be left in, from the weights of its possible values."""
    by_condition: dict[tuple[State, int], int] = {}
    for current, weight in currents.items():
        key = _condition_at(score.maximum, current)
        by_condition[key] = by_condition.get(key, 0) + weight
    ordered = sorted(by_condition.items(), key=lambda item: (_STATE_ORDER[item[0][0]], -item[0][1]))
    conditions = []
    for (state, impairment), weight in ordered:
        p, exact = _row(weight, denominator)
        conditions.append(CheckConditionOdds(state=state, impairment=impairment, p=p, exact=exact))
    return CheckScoreOdds(name=score.name, maximum=score.maximum, conditions=tuple(conditions))


def _depletion(spread: Pmf, stakes: _Stakes) -> CheckDepletionOdds | None:
    at_issue = stakes.depletion
    if at_issue is None:
        return None
    weights = loss_weights(spread, at_issue.actor, at_issue.opposition)
    ordered = sorted(weights.items(), key=lambda item: (_LOSER_ORDER[item[0][0]], item[0][1]))
    losses = []
    for (loser, amount), weight in ordered:
        p, exact = _row(weight, spread.denominator)
        losses.append(CheckLossOdds(loser=loser, amount=amount, p=p, exact=exact))
    after = []
    for score in stakes.affected:
        currents: dict[int, int] = {}
        for (loser, amount), weight in weights.items():
            current = score.current - (amount if loser is Loser.ACTOR else 0)
            currents[current] = currents.get(current, 0) + weight
        after.append(_conditions(score, currents, spread.denominator))
    return CheckDepletionOdds(losses=tuple(losses), after=tuple(after))


def _restoration(spread: Pmf, stakes: _Stakes) -> CheckRestorationOdds | None:
    score = stakes.restored
    if score is None:
        return None
    currents: dict[int, int] = {}
    for index, weight in enumerate(spread.weights):
        if weight:
            current = restored_current(score, spread.low + index)
            currents[current] = currents.get(current, 0) + weight
    restored = []
    for current in sorted(currents):
        p, exact = _row(currents[current], spread.denominator)
        restored.append(CheckPointsOdds(points=current - score.current, p=p, exact=exact))
    return CheckRestorationOdds(
        name=score.name,
        restored=tuple(restored),
        after=_conditions(score, currents, spread.denominator),
    )


@lru_cache(maxsize=256)
def _outcome_odds(die_result: Pmf, stakes: _Stakes) -> CheckOutcomeOdds:
    """One way of making the check, counted from its die result's distribution."""
    yield_ = yield_pmf(die_result, stakes.total_modifier)
    spread = spread_pmf(yield_, point(stakes.target))
    return CheckOutcomeOdds(
        die_result=_values(die_result),
        yield_=_labelled(yield_, TableName.YIELD),
        spread=_labelled(spread, TableName.SPREAD),
        success=chance(1 - spread.probability_below(1)),
        stalemate=chance(spread.probability(0)),
        failure=chance(spread.probability_below(0)),
        spread_bands=_bands(spread),
        depletion=_depletion(spread, stakes),
        restoration=_restoration(spread, stakes),
    )
