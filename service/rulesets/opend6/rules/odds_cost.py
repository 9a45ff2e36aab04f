"""What the exact odds of a roll or an opposed pair cost to compute, estimated from the
request before anything is computed (µs, cold, on the reference machine: 2 cores), so
the service can choose where to compute them or refuse them (service.http.odds_gate).

Provisional: fitted by least squares to 180 cold timings of
:mod:`service.rulesets.opend6.rules.odds` as it computes today (every regular die count
0…119 and 0…20 Character Point dice, opposed pairs with totals apart by up to 2000), then
raised by half: 89 % of the rolls' timings and 95 % of the pairs' stay under it (their
medians at 0.7 and 0.5 of it, the largest at 1.7 and 1.5 times). The work is a listing
of every total up to where the remaining chance falls under 10⁻¹², each a sum over the
dice, so it grows with the square of that reach; an opposed roll also lists the
initiator's totals up to the resister's reach plus the difference of their fixed parts,
which grows faster still.
"""

from __future__ import annotations

from math import sqrt

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.opposed import handicap
from service.rulesets.opend6.rules.roll_odds import OpposedOddsRequest
from service.rulesets.opend6.rules.rolled_code import rolled_code
from service.rulesets.opend6.rules.rolls import points_concerns, related_skill_modifier
from service.rulesets.opend6.rules.spec import OddsRequest, RollShape, WildDieOnlyDifficulty

__all__ = ["REFUSED_US", "opposed_odds_cost", "roll_odds_cost"]

REFUSED_US = 100  # a request the rules refuse, or one with no dice to list (D14)
_MARGIN = 1.5  # the timings' spread above the fit


def roll_odds_cost(request: OddsRequest) -> int:
    """µs to answer ``openD6RollOdds`` with ``request``."""
    side = _side(request)
    if side is None or isinstance(request.difficulty, WildDieOnlyDifficulty):
        return REFUSED_US
    regular, cp_dice, _ = side
    return round(_listing_us(regular, cp_dice))


def opposed_odds_cost(request: OpposedOddsRequest) -> int:
    """µs to answer ``openD6OpposedOdds`` with ``request``."""
    initiator, resister = _side(request.initiator), _side(request.resister)
    if initiator is None or resister is None:
        return REFUSED_US
    shift = handicap(request.initiator.base, request.modifiers.initiator) - handicap(
        request.resister.base, request.modifiers.resister
    )
    need = shift + resister[2] - initiator[2]  # as service.rulesets.opend6.rules.odds has it
    through = max(0, _reach(resister[0], resister[1]) + need)
    prefix = 8e-7 * (initiator[0] + 20) * (initiator[1] + 8) * through**2 * sqrt(through)
    return round(_listing_us(initiator[0], initiator[1]) + _listing_us(*resister[:2]) + prefix)


def _side(shape: RollShape) -> tuple[int, int, int] | None:
    """(regular dice, Character Point dice, pips) as the odds see the roll, or None when
    the rules refuse it (the refusal costs nothing)."""
    if points_concerns(shape):
        return None
    try:
        code = rolled_code(shape)
    except RulesError:
        return None
    related = sum(related_skill_modifier(item.result_points) for item in shape.related)
    cp_dice = shape.character_points.before + shape.character_points.after
    return code.dice - 1, cp_dice, code.pips + related


def _reach(regular: int, cp_dice: int) -> float:
    """About the highest total listed: 6 a regular die, 5 an exploding die's last toss, and
    6 an explosion, as many as it takes (16 for one die, 32 for 21) to leave 10⁻¹²."""
    return 6 * regular + 5 * (cp_dice + 1) + 6 * (15 + 0.8 * cp_dice)


def _listing_us(regular: int, cp_dice: int) -> float:
    reach = _reach(regular, cp_dice)
    work = (
        210
        + 0.31 * (cp_dice + 1) * reach
        + 0.16 * (regular + 6) * reach
        + 1.63e-5 * (regular + 6) * (cp_dice + 3) * reach**2
    )
    if cp_dice:  # the Critical Failure's cancelled branch explodes too
        work += 0.84 * (regular + 1) ** 2
    return _MARGIN * work
