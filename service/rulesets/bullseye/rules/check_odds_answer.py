"""The shape of a check's odds (``POST /v1/checks/odds``, and ``odds`` of a check asked
``with_odds``): every probability a :class:`service.kernel.chance.Chance` ``{p, exact}``,
or a row carrying those two fields beside the value it is the probability of.

Apart from :mod:`service.rulesets.bullseye.rules.check_odds` (which computes it) so that a
check's answer can carry it without an import cycle.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.chance import Chance, Exact, Probability
from service.kernel.errors import Concern
from service.kernel.values import Value
from service.rulesets.bullseye.rules.conditions import State
from service.rulesets.bullseye.rules.depletion import Loser
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.modifiers import ModifierLine

__all__ = [
    "CheckBandOdds",
    "CheckConditionOdds",
    "CheckDepletionOdds",
    "CheckDiceOdds",
    "CheckLabelledOdds",
    "CheckLossOdds",
    "CheckOdds",
    "CheckOutcomeOdds",
    "CheckPointsOdds",
    "CheckRestorationOdds",
    "CheckScoreOdds",
    "CheckValueOdds",
]


class CheckValueOdds(Value, frozen=True, kw_only=True):
    """One die result and its probability."""

    value: int
    p: Probability
    exact: Exact


class CheckLabelledOdds(Value, frozen=True, kw_only=True):
    """One yield (§2.1.3 label) or spread (§2.4.1 label) and its probability."""

    value: int
    label: str
    p: Probability
    exact: Exact


class CheckBandOdds(Value, frozen=True, kw_only=True):
    """One row of the §2.4.1 spread table: the spreads that take its label, ``low`` to
    ``high`` (null: unbounded — the bottom row takes every spread below it, the top row
    every spread above), and the probability of a spread among them."""

    label: str
    low: int | None
    high: int | None
    p: Probability
    exact: Exact


class CheckLossOdds(Value, frozen=True, kw_only=True):
    """Who loses how much (§2.4.2, §3.2.2), and its probability."""

    loser: Loser
    amount: int
    p: Probability
    exact: Exact


class CheckConditionOdds(Value, frozen=True, kw_only=True):
    """A condition a score may be left in (§3.2.3–§3.2.5), and its probability."""

    state: State
    impairment: int
    p: Probability
    exact: Exact


class CheckScoreOdds(Value, frozen=True, kw_only=True):
    """One of the actor's depletable scores after the check: each condition it may be in."""

    name: str
    maximum: int
    conditions: tuple[CheckConditionOdds, ...]


class CheckDepletionOdds(Value, frozen=True, kw_only=True):
    """With the depletable quality at issue: every (loser, amount) of positive probability
    (a stalemate is `none`, 0), actor's losses first, then `none`, then the opposition's,
    each by amount; and each affected score's condition after (empty without scores)."""

    losses: tuple[CheckLossOdds, ...]
    after: tuple[CheckScoreOdds, ...]


class CheckPointsOdds(Value, frozen=True, kw_only=True):
    """Points restored (§3.2.6), and their probability."""

    points: int
    p: Probability
    exact: Exact


class CheckRestorationOdds(Value, frozen=True, kw_only=True):
    """A restoring check (§3.2.6): the points it may restore and the score's condition after."""

    name: str
    restored: tuple[CheckPointsOdds, ...]
    after: CheckScoreOdds


class CheckOutcomeOdds(Value, frozen=True, kw_only=True):
    """One way of making the check: the exact distributions of its die result, yield and
    spread (values of probability 0 left out), each outcome's probability, every §2.4.1
    spread band (all nine, 0/1 included), and what the spread does to depletable scores."""

    die_result: tuple[CheckValueOdds, ...]
    yield_: tuple[CheckLabelledOdds, ...] = msgspec.field(name="yield")
    spread: tuple[CheckLabelledOdds, ...]
    success: Chance
    stalemate: Chance
    failure: Chance
    spread_bands: tuple[CheckBandOdds, ...]
    depletion: Annotated[
        CheckDepletionOdds | None, Meta(description="Null unless the request has `depletion`.")
    ]
    restoration: Annotated[
        CheckRestorationOdds | None, Meta(description="Null unless the request has `restoration`.")
    ]


class CheckDiceOdds(Value, frozen=True, kw_only=True):
    """One dice kind of §7.1: rolled, and rolled with a bullseye held (§7.2) and spent on
    every roll that would not succeed."""

    dice: DiceKind
    rolled: CheckOutcomeOdds
    with_held_bullseye: CheckOutcomeOdds
    held_bullseye_spent: Annotated[
        Chance,
        Meta(description="How often the held bullseye is spent: the roll would not succeed."),
    ]


class CheckOdds(Value, frozen=True, kw_only=True):
    """A check's exact odds before the roll, as asked and for every alternative of §2.5,
    §7.1 and §7.2, with the modifiers the check applies."""

    dice: DiceKind
    modifiers: tuple[ModifierLine, ...]
    total_modifier: int
    target: int
    target_label: str
    as_asked: Annotated[
        CheckOutcomeOdds,
        Meta(
            description="The check as the body asks it: its `dice` rolled, or 10 with "
            "`quick10` (§2.5), or 20 with `bullseye` (§7.2)."
        ),
    ]
    dice_kinds: Annotated[
        tuple[CheckDiceOdds, ...],
        Meta(description="Each dice kind of §7.1, in the order d20, 2d10, 3d6, 4d6-4."),
    ]
    with_spent_bullseye: Annotated[
        CheckOutcomeOdds,
        Meta(description="A bullseye spent whatever the roll: the die result is 20 (§7.2)."),
    ]
    with_quick10: Annotated[
        CheckOutcomeOdds | None,
        Meta(
            description="A Quick 10 (§2.5): the die result is 10. Null when the depletable "
            "quality is at issue (a Quick 10 is then refused)."
        ),
    ]
    warnings: tuple[Concern, ...]
