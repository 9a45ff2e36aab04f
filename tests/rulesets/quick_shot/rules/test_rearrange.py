"""Rearranging WP ("Rearranging WP", D13), with the design's drives: Duty 4, Revenge 1."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.quick_shot.rules.rearrange import (
    QuickShotRearrangeReport,
    QuickShotRearrangeRequest,
    rearrange,
)

DRIVES = [{"name": "Duty", "wp": 4}, {"name": "Revenge", "wp": 1}]


def _rearrange(
    moves: list[dict[str, Any]], days: int = 7, drives: Any = None
) -> QuickShotRearrangeReport:
    body = {"drives": drives or DRIVES, "moves": moves, "vacation_days": days}
    return rearrange(msgspec.convert(body, QuickShotRearrangeRequest))


def _refusal(moves: list[dict[str, Any]], days: int = 7, drives: Any = None) -> RulesError:
    with pytest.raises(RulesError) as caught:
        _rearrange(moves, days, drives)
    return caught.value


def _concerns(error: RulesError) -> list[tuple[str, str | None]]:
    return [(concern.code, concern.pointer) for concern in error.concerns]


def _move(source: str, target: str, removed: int) -> dict[str, Any]:
    return {"from": source, "to": target, "removed": removed}


def test_rearranging_wp_four_from_duty_add_two_to_revenge() -> None:
    """ "Rearranging WP": 4 removed from Duty over 7 days → Duty 0, Revenge 3, 2 lost."""
    report = _rearrange([_move("Duty", "Revenge", 4)])
    assert msgspec.json.decode(msgspec.json.encode(report)) == {
        "drives": [
            {"name": "Duty", "wp_before": 4, "wp_after": 0},
            {"name": "Revenge", "wp_before": 1, "wp_after": 3},
        ],
        "removed": 4,
        "added": 2,
        "lost": 2,
        "warnings": [],
    }


def test_rearranging_wp_an_odd_removal_is_refused() -> None:
    """D13: 3 removed cannot add a whole point → 422 `rearrange-odd` at the move's removed."""
    error = _refusal([_move("Duty", "Revenge", 3)])
    assert error.code == "quick-shot/rearrange-odd"
    assert _concerns(error) == [("quick-shot/rearrange-odd", "/moves/0/removed")]


def test_rearranging_wp_moves_apply_in_order() -> None:
    """Moves apply in order: Revenge spends the 2 WP the first move gave it."""
    drives = [*DRIVES, {"name": "Family", "wp": 0}]
    report = _rearrange(
        [_move("Duty", "Revenge", 4), _move("Revenge", "Family", 2)], days=14, drives=drives
    )
    assert [(d.name, d.wp_after) for d in report.drives] == [
        ("Duty", 0),
        ("Revenge", 1),
        ("Family", 1),
    ]
    assert (report.removed, report.added, report.lost) == (6, 3, 3)
    # Reversed, Revenge holds only 1 when asked for 2.
    error = _refusal(
        [_move("Revenge", "Family", 2), _move("Duty", "Revenge", 4)], days=14, drives=drives
    )
    assert _concerns(error) == [("quick-shot/wp-insufficient", "/moves/0/removed")]


def test_rearranging_wp_more_than_the_drive_then_holds() -> None:
    """`wp-insufficient`: Revenge holds 1, 2 cannot be removed; the first overdraft only."""
    error = _refusal([_move("Duty", "Revenge", 2), _move("Duty", "Revenge", 4)])
    assert error.code == "quick-shot/wp-insufficient"
    assert _concerns(error) == [("quick-shot/wp-insufficient", "/moves/1/removed")]
    assert "which then holds 2" in error.concerns[0].detail


def test_rearranging_wp_names_must_name_a_drive() -> None:
    """`unknown-drive` at from or to; names compare trimmed, ignoring case; the general
    pool is not a drive."""
    error = _refusal([_move("General pool", "Duty", 2), _move("duty ", "Grudge", 2)])
    assert _concerns(error) == [
        ("quick-shot/unknown-drive", "/moves/0/from"),
        ("quick-shot/unknown-drive", "/moves/1/to"),
    ]
    report = _rearrange([_move(" duty", "REVENGE", 2)])
    assert [d.wp_after for d in report.drives] == [2, 2]


def test_rearranging_wp_a_name_held_by_two_drives_names_none() -> None:
    """A repeated drive name leaves a move ambiguous: `unknown-drive`."""
    drives = [*DRIVES, {"name": "duty", "wp": 3}]
    error = _refusal([_move("Duty", "Revenge", 2)], drives=drives)
    assert _concerns(error) == [("quick-shot/unknown-drive", "/moves/0/from")]
    assert "2 drives" in error.concerns[0].detail


def test_rearranging_wp_from_one_drive_to_another() -> None:
    """`same-drive`: WP moves between two drives, never back into its own."""
    error = _refusal([_move("Duty", " DUTY", 2)])
    assert _concerns(error) == [("quick-shot/same-drive", "/moves/0/to")]


@pytest.mark.parametrize(("days", "refused"), [(1, True), (6, True), (7, False), (3650, False)])
def test_rearranging_wp_takes_a_vacation_of_a_week(days: int, refused: bool) -> None:
    """ "Rearranging WP": an extended vacation lasts at least a week."""
    if refused:
        error = _refusal([_move("Duty", "Revenge", 2)], days=days)
        assert _concerns(error) == [("quick-shot/vacation-too-short", "/vacation_days")]
    else:
        assert _rearrange([_move("Duty", "Revenge", 2)], days=days).added == 1


def test_rearranging_wp_every_refusal_at_once() -> None:
    """Every move's odd removal, unknown or same drive, and the vacation, together."""
    error = _refusal(
        [_move("Duty", "Revenge", 3), _move("Revenge", "Revenge", 2), _move("Pride", "Duty", 1)],
        days=3,
    )
    assert _concerns(error) == [
        ("quick-shot/rearrange-odd", "/moves/0/removed"),
        ("quick-shot/same-drive", "/moves/1/to"),
        ("quick-shot/rearrange-odd", "/moves/2/removed"),
        ("quick-shot/unknown-drive", "/moves/2/from"),
        ("quick-shot/vacation-too-short", "/vacation_days"),
    ]
    assert error.code == "quick-shot/rearrange-odd"
    # An overdraft is reported with a short vacation too.
    error = _refusal([_move("Revenge", "Duty", 2)], days=6)
    assert _concerns(error) == [
        ("quick-shot/wp-insufficient", "/moves/0/removed"),
        ("quick-shot/vacation-too-short", "/vacation_days"),
    ]


@pytest.mark.parametrize(("removed", "warned"), [(4, False), (6, True)])
def test_rearranging_wp_large_changes_warn(removed: int, warned: bool) -> None:
    """D13: 6 WP or more removed may need a longer vacation or a reason: a warning."""
    drives = [{"name": "Duty", "wp": 10}, {"name": "Revenge", "wp": 1}]
    report = _rearrange([_move("Duty", "Revenge", removed)], drives=drives)
    assert [w.code.value for w in report.warnings] == (["large-rearrangement"] if warned else [])
