"""Character sheets ("General Pool", "Drives", "Extras", "Types", "Cost", "Charges",
D10–D12), with the design's sheet: a stat at TN 4, a minor and a significant extra, a
general pool of 6, charges 6/1/1 earned."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.rulesets.quick_shot.rules.characters import (
    QuickShotCharacterReport,
    QuickShotCharacterValidation,
    validate_character,
)
from service.rulesets.quick_shot.rules.charges import (
    QuickShotChargeCount,
    account,
)


def _sheet(**changes: Any) -> dict[str, Any]:
    sheet: dict[str, Any] = {
        "name": "Ines Calder",
        "stats": [{"name": "Firearms", "target_number": 4}, {"name": "Driving"}],
        "general_pool": {"maximum": 6},
        "drives": [
            {"name": "Duty", "goal": "Keep the office running", "wp": 4},
            {"name": "Revenge", "goal": "Find the informer", "wp": 1},
        ],
        "extras": [
            {"name": "Scanner", "type": "minor", "description": "tuned to police dispatch"},
            {
                "name": "Read the room",
                "type": "significant",
                "description": "senses who in a crowd is lying or afraid",
            },
        ],
        "charges": {"minor": 6, "significant": 1, "major": 1},
    }
    sheet.update(changes)
    return sheet


def _validate(sheet: dict[str, Any]) -> QuickShotCharacterReport:
    return validate_character(msgspec.convert({"character": sheet}, QuickShotCharacterValidation))


def _codes(findings: Any) -> list[tuple[str, str]]:
    return [(finding.code.value, finding.pointer) for finding in findings]


def _count(minor: int, significant: int, major: int) -> QuickShotChargeCount:
    return QuickShotChargeCount(minor=minor, significant=significant, major=major)


def test_cost_the_designs_sheet_is_paid_for_by_6_1_1() -> None:
    """ "Cost", "General Pool": needs 1 minor, 2 significant (extra + TN 5 → 4), 1 major
    (pool 6, D11); five minors become the second significant: remaining 0/0/0."""
    report = _validate(_sheet())
    assert (report.valid, report.violations, report.warnings) == (True, (), ())
    charges = msgspec.to_builtins(report.charges)
    assert charges == {
        "earned": {"minor": 6, "significant": 1, "major": 1},
        "needed": {"minor": 1, "significant": 2, "major": 1},
        "combined": {"minor_to_significant": 1, "significant_to_major": 0},
        "remaining": {"minor": 0, "significant": 0, "major": 0},
        "missing_minor_equivalent": 0,
    }
    assert msgspec.to_builtins(report.general_pool) == {"base": 5, "bought": 1, "maximum": 6}
    # No current: the pool is full (6); the drives hold 4 + 1.
    assert msgspec.to_builtins(report.willpower) == {"general": 6, "drives": 5, "total": 11}


def test_charges_five_minors_leave_the_sheet_one_minor_short() -> None:
    """ "Cost", D10: with 5 minors the combination eats them all and the minor extra is
    unpaid; charges never split, so the shortfall is 1 minor."""
    report = _validate(_sheet(charges={"minor": 5, "significant": 1, "major": 1}))
    assert report.valid is False
    assert _codes(report.violations) == [("charges-insufficient", "/character/charges")]
    assert report.charges.missing_minor_equivalent == 1
    assert msgspec.to_builtins(report.charges.remaining) == {
        "minor": -1,
        "significant": 0,
        "major": 0,
    }
    assert "1 minor charge(s) short" in report.violations[0].detail


def test_charges_majors_short_come_from_five_significants_each_then_minors() -> None:
    """ "Cost": a major short takes 5 significants; significants short (own need + those)
    take 5 minors each; remaining is what is left after combining."""
    charges = account(_count(13, 4, 0), _count(1, 1, 1))
    assert charges.combined.significant_to_major == 1
    assert charges.combined.minor_to_significant == 2  # 1 + 5 needed, 4 held
    assert (charges.remaining.minor, charges.remaining.significant) == (2, 0)
    assert (charges.remaining.major, charges.missing_minor_equivalent) == (0, 0)


def test_charges_shortfall_counts_every_combination_in_minors() -> None:
    """D10: two majors short with nothing else earned: 2 × 5 × 5 = 50 minors short."""
    charges = account(_count(0, 0, 0), _count(0, 0, 2))
    assert charges.missing_minor_equivalent == 50
    assert charges.combined.significant_to_major == 2
    assert charges.combined.minor_to_significant == 10


def test_charges_are_never_split_downward() -> None:
    """D10: a spare major does not pay for a significant, nor a significant for a minor."""
    charges = account(_count(0, 0, 1), _count(1, 1, 0))
    assert charges.missing_minor_equivalent == 6  # 1 minor + 5 for the significant
    assert msgspec.to_builtins(charges.remaining) == {"minor": -6, "significant": 0, "major": 1}


def test_charges_surplus_is_left_uncombined() -> None:
    """D10: the validator combines only what a shortfall needs; the rest stays as earned."""
    charges = account(_count(12, 7, 3), _count(1, 2, 1))
    assert msgspec.to_builtins(charges.combined) == {
        "minor_to_significant": 0,
        "significant_to_major": 0,
    }
    assert msgspec.to_builtins(charges.remaining) == {"minor": 11, "significant": 5, "major": 2}


@pytest.mark.parametrize(("tn", "steps"), [(3, 2), (4, 1), (5, 0), (6, 1), (7, 2)])
def test_cost_each_target_number_step_takes_a_significant_either_way(tn: int, steps: int) -> None:
    """ "Cost", D12: steps are counted from 5 both ways; a TN 6 flaw still costs one."""
    report = _validate(
        _sheet(stats=[{"name": "Nerve", "target_number": tn}], extras=[], general_pool={})
    )
    assert report.charges.needed.significant == steps


def test_general_pool_each_point_above_five_takes_a_major() -> None:
    """ "General Pool", D11: one point per major charge; a pool of 8 needs 3 majors."""
    report = _validate(_sheet(stats=[], extras=[], general_pool={"maximum": 8, "current": 2}))
    assert msgspec.to_builtins(report.general_pool) == {"base": 5, "bought": 3, "maximum": 8}
    assert report.charges.needed.major == 3
    assert report.charges.combined.significant_to_major == 2  # 1 major earned
    assert report.willpower.general == 2  # current, when given


def test_types_each_extra_takes_a_charge_of_its_type() -> None:
    """ "Types", "Cost": a minor, a significant and a major extra need one of each."""
    extras = [
        {"name": "A", "type": "minor", "description": "one two three"},
        {"name": "B", "type": "significant", "description": "one two three four five six"},
        {"name": "C", "type": "major", "description": " ".join(["word"] * 10)},
    ]
    report = _validate(
        _sheet(
            stats=[],
            extras=extras,
            general_pool={},
            charges={"minor": 1, "significant": 1, "major": 1},
        )
    )
    assert msgspec.to_builtins(report.charges.needed) == {"minor": 1, "significant": 1, "major": 1}
    assert (report.valid, report.warnings) == (True, ())


def test_duplicate_name_in_stats_drives_and_extras_at_the_later_name() -> None:
    """Violation `duplicate-name`: trimmed, case-folded, each list on its own."""
    sheet = _sheet(
        stats=[{"name": "Firearms", "target_number": 4}, {"name": "  firearms "}],
        drives=[
            {"name": "Duty", "goal": "a", "wp": 4},
            {"name": "Revenge", "goal": "b", "wp": 1},
            {"name": "DUTY", "goal": "c", "wp": 0},
        ],
        extras=[
            {"name": "Scanner", "type": "minor", "description": "tuned to police dispatch"},
            {"name": "scanner", "type": "minor", "description": "tuned to fire dispatch"},
            # A name another list uses is not a duplicate.
            {"name": "Duty", "type": "minor", "description": "a badge and a desk"},
        ],
        charges={"minor": 3, "significant": 1, "major": 1},
    )
    report = _validate(sheet)
    assert _codes(report.violations) == [
        ("duplicate-name", "/character/stats/1/name"),
        ("duplicate-name", "/character/drives/2/name"),
        ("duplicate-name", "/character/extras/1/name"),
    ]
    assert "repeats drive 0" in report.violations[1].detail


@pytest.mark.parametrize(
    ("tn", "out"), [(1, True), (2, True), (3, False), (7, False), (8, True), (9, True)]
)
def test_target_number_out_of_range_outside_3_to_7(tn: int, out: bool) -> None:
    """Violation `target-number-out-of-range` at the stat's target_number."""
    report = _validate(
        _sheet(
            stats=[{"name": "Nerve"}, {"name": "Guns", "target_number": tn}],
            extras=[],
            general_pool={},
            charges={"significant": 4},
        )
    )
    expected = [("target-number-out-of-range", "/character/stats/1/target_number")] if out else []
    assert _codes(report.violations) == expected


def test_general_pool_current_over_maximum() -> None:
    """Violation `pool-over-maximum`: current above the maximum."""
    report = _validate(_sheet(general_pool={"maximum": 6, "current": 7}))
    assert _codes(report.violations) == [("pool-over-maximum", "/character/general_pool/current")]
    assert _validate(_sheet(general_pool={"maximum": 6, "current": 6})).valid


def test_general_pool_below_five_is_a_warning() -> None:
    """ "General Pool": most characters have 5; fewer is only a warning."""
    report = _validate(_sheet(general_pool={"maximum": 4}, charges={"minor": 6, "significant": 1}))
    assert report.valid is True
    assert _codes(report.warnings) == [
        ("general-pool-below-five", "/character/general_pool/maximum")
    ]
    assert report.general_pool.bought == 0


def test_drives_a_blank_goal_is_a_warning() -> None:
    """ "Drives": each pool serves a goal; a blank one warns `drive-without-goal`."""
    drives = [{"name": "Duty", "goal": "   ", "wp": 4}, {"name": "Revenge", "goal": "x", "wp": 1}]
    report = _validate(_sheet(drives=drives))
    assert report.valid is True
    assert _codes(report.warnings) == [("drive-without-goal", "/character/drives/0/goal")]


@pytest.mark.parametrize(
    ("kind", "words", "short"),
    [
        ("minor", 2, True),
        ("minor", 3, False),
        ("significant", 5, True),
        ("significant", 6, False),
        ("major", 9, True),
        ("major", 10, False),
    ],
)
def test_types_stronger_extras_want_longer_descriptions(kind: str, words: int, short: bool) -> None:
    """ "Types", "Extras": fewer words than minor 3, significant 6, major 10 warns."""
    extra = {"name": "Gift", "type": kind, "description": " ".join(["word"] * words)}
    report = _validate(
        _sheet(stats=[], extras=[extra], general_pool={}, charges={"minor": 25, "significant": 5})
    )
    expected = [("extra-description-short", "/character/extras/0/description")] if short else []
    assert _codes(report.warnings) == expected
    assert report.valid is True


def test_every_violation_and_warning_at_once() -> None:
    """A sheet breaking everything is still an answer, every finding listed."""
    sheet = _sheet(
        stats=[{"name": "Guns", "target_number": 9}, {"name": "guns"}],
        general_pool={"maximum": 3, "current": 4},
        drives=[{"name": "Duty", "goal": "", "wp": 1}],
        extras=[{"name": "Gun", "type": "major", "description": "big"}],
        charges={},
    )
    report = _validate(sheet)
    assert _codes(report.violations) == [
        ("duplicate-name", "/character/stats/1/name"),
        ("target-number-out-of-range", "/character/stats/0/target_number"),
        ("pool-over-maximum", "/character/general_pool/current"),
        ("charges-insufficient", "/character/charges"),
    ]
    assert _codes(report.warnings) == [
        ("general-pool-below-five", "/character/general_pool/maximum"),
        ("drive-without-goal", "/character/drives/0/goal"),
        ("extra-description-short", "/character/extras/0/description"),
    ]
    # 4 significants for TN 9 and 1 major: (4 + 5) × 5 minors.
    assert report.charges.missing_minor_equivalent == 45


def test_an_empty_sheet_needs_nothing() -> None:
    """Defaults: no stats, a pool of 5, no charges: valid, all zero."""
    report = _validate({"name": "Nobody"})
    assert report.valid is True
    assert msgspec.to_builtins(report.willpower) == {"general": 5, "drives": 0, "total": 5}
    assert report.charges.missing_minor_equivalent == 0
