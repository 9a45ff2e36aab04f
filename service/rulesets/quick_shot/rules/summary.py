"""The one-line ``summary`` of a gamble, in the text's words ("Step 4: Resolution",
"Multiple Effects: Multi-Actions", "Criticals", "Bolstering"): the dice and the TN, each
action's difficulty ("Effect 1: Minor" … "Effect 5: Overwhelming") with its result, effect
and consequence (D7), the outcome — Success, Failure, Critical success, Critical failure
or Declined — and the WP that changed hands (D8). Built from the result alone
(service.kernel.summary)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.summary import fitting, signed
from service.rulesets.quick_shot.rules.difficulties import LABELS

if TYPE_CHECKING:
    from service.rulesets.quick_shot.rules.gambles import (
        QuickShotActionResult,
        QuickShotGambleResult,
    )

__all__ = ["gamble_summary"]


def _action(action: QuickShotActionResult) -> str:
    """``Common success (effect 2)``, ``Minor injury failure (injury-worsens)``."""
    kind = "" if action.kind == "primary" else f" {action.kind}"
    text = f"{LABELS[action.difficulty]}{kind} " + action.result
    if action.effect:
        text += f" (effect {action.effect})"
    if action.consequence is not None:
        text += f" ({action.consequence})"
    return text


def gamble_summary(result: QuickShotGambleResult) -> str:
    """``8 dice at TN 5: Common success (effect 2): Success``; one line per gamble, its
    actions in list order (D3), the WP change when there is one."""
    wp = result.wp
    change = f"; WP {signed(wp.change)}" if wp.change else ""
    if result.outcome == "declined":  # "Step 3: Going for It": nothing rolled (D9)
        return fitting(f"Declined, nothing rolled{change}")
    bet = f" ({wp.bet} WP bet)" if wp.bet else ""
    actions = [_action(action) for action in result.actions]
    head = f"{result.dice_count} dice at TN {result.target_number}{bet}"
    won = sum(action.result == "success" for action in result.actions)
    return fitting(
        f"{head}: {', '.join(actions)}: {result.outcome_label}{change}",
        f"{head}: {won} of {len(actions)} actions succeed: {result.outcome_label}{change}",
    )
