"""Object validation (docs/self-conflict.md), citing the seed's
"Creating Objects" steps: "Concept", "Story", "Talents", "The Scale", "Signs", "Status",
"Goals and objectives"."""

from __future__ import annotations

import copy
import re
from typing import Any

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.rulesets.self_conflict.rules.objects import (
    _SENTENCE_END,
    SelfConflictObjectReport,
    SelfConflictObjectValidation,
    sentences,
    validate_object,
)
from service.rulesets.self_conflict.rules.scale import (
    HUMANOID_BASIC_TALENTS,
    base_name,
    leading_label,
    written_talent,
)

HUMANOID = [talent.name for talent in HUMANOID_BASIC_TALENTS]

PC: dict[str, Any] = {
    "name": "Vessa Roon",
    "concept": "A smuggler pilot who owes the wrong people",
    "type": "humanoid",
    "sentient": True,
    "story": "Vessa grew up on the ore barges of the outer belt. She learned to fly before "
    "she could read. A bad cargo run left her in debt to the Hask syndicate! Tonight she "
    "takes one last job to clear it…",
    "talents": [
        {"name": "Agile", "level": 4, "kind": "basic"},
        {"name": "dangerous", "level": 4, "kind": "basic"},
        {"name": "Disciplined", "level": 2, "kind": "basic"},
        {"name": "Handy", "level": 3, "kind": "basic"},
        {"name": "Influential", "level": 3, "kind": "basic"},
        {"name": "Witty", "level": 5, "kind": "basic"},
        {"name": "Tough", "level": 3, "kind": "basic"},
        {"name": "flies anything with an engine", "level": 5, "kind": "gained"},
        {"name": "knows every fence on the belt", "level": 4, "kind": "gained"},
    ],
    "signs": ["burn scar across the left hand"],
    "goal": "Own her ship outright and answer to no one.",
    "objectives": ["Finish the Hask job", "Find a buyer for the stolen nav core"],
}

SHIP: dict[str, Any] = {
    "name": "Grey Heron",
    "concept": "An old courier ship, fast and patched",
    "type": "ship",
    "sentient": False,
    "story": "The Heron carried mail between the colonies for forty years. Her hull is more "
    "patch than plate. Captain Ilse Marr bought her at auction.",
    "talents": [
        {"name": "fast", "level": 5, "kind": "basic"},
        {
            "name": "Captain Ilse Marr, a cautious veteran of the long run",
            "level": 4,
            "kind": "gained",
        },
    ],
    "signs": ["eaten by time"],
}


def validate(
    sheet: dict[str, Any], basic_talents: list[str] | None = None
) -> SelfConflictObjectReport:
    body: dict[str, Any] = {"object": sheet}
    if basic_talents is not None:
        body["basic_talents"] = basic_talents
    return validate_object(msgspec.convert(body, SelfConflictObjectValidation))


def changed(sheet: dict[str, Any], **fields: Any) -> dict[str, Any]:
    updated = copy.deepcopy(sheet)
    updated.update(fields)
    return updated


def findings(report: SelfConflictObjectReport, kind: str = "violations") -> list[tuple[str, str]]:
    return [(f.code.value, f.pointer) for f in getattr(report, kind)]


def test_creating_objects_a_humanoid_pc_is_valid_without_warnings() -> None:
    """ "Creating Objects", "Talents": the 7 humanoid BTs, GTs as phrases, a sign, a
    4-sentence story, a goal and 2 objectives; dangerous at 4 is `Fairly dangerous(4)`."""
    report = validate(PC, HUMANOID)
    assert (report.valid, report.violations, report.warnings) == (True, (), ())
    assert report.talents[1].written == "Fairly dangerous(4)"
    assert (report.talents[1].pointer, report.talents[1].label) == ("/object/talents/1", "Fairly")
    assert (report.status.level, report.status.label) == (6, "Good")


def test_goals_and_objectives_required_of_a_sentient_object_only() -> None:
    """ "Goals and objectives", D11: without them → 2 violations; not sentient → valid."""
    sheet = changed(PC, goal=None, objectives=[])
    report = validate(sheet)
    assert findings(report) == [
        ("goal-missing", "/object/goal"),
        ("objectives-missing", "/object/objectives"),
    ]
    assert validate(changed(sheet, sentient=False)).valid


def test_goals_on_a_non_sentient_object_warn() -> None:
    """ "Goals and objectives", D11: they belong to the controller; a warning, no more."""
    report = validate(changed(PC, sentient=False))
    assert report.valid
    assert findings(report, "warnings") == [
        ("goal-on-non-sentient", "/object/goal"),
        ("goal-on-non-sentient", "/object/objectives"),
    ]


def test_story_two_sentences_are_too_few() -> None:
    """ "Story", D9: the seed's minimum of a few sentences, read as three."""
    report = validate(changed(PC, story="She flies. She owes."))
    assert findings(report) == [("story-too-short", "/object/story")]
    assert "2 sentence(s)" in report.violations[0].detail


@pytest.mark.parametrize(
    ("story", "count"),
    [
        ("", 0),
        ("One. Two! Three?", 3),
        ("Wait... what?! 1984. Yes…", 3),  # a run of marks ends one; "1984." holds no letter
        ("No end mark at all", 1),
        ("e.g.the dots", 1),  # an end mark counts only before whitespace or the end
    ],
)
def test_story_sentences_are_counted_as_the_design_defines_them(story: str, count: int) -> None:
    """ "Story", D9: a sentence holds a letter and ends at a run of .!?… and whitespace."""
    assert sentences(story) == count


# The pattern sentences were counted with before the regex denial of service finding (a
# run of dots not followed by whitespace was rescanned from each dot: quadratic). Kept here
# only as the reference the linear one must agree with.
_QUADRATIC_SENTENCE_END = re.compile(r"[.!?…]+(?:\s+|$)")


def _reference_sentences(text: str) -> int:
    return sum(1 for part in _QUADRATIC_SENTENCE_END.split(text) if any(c.isalpha() for c in part))


# End marks, ASCII and Unicode whitespace (str.isspace, as regex \s), look-alikes that are
# not whitespace (zero-width space, BOM), letters of several kinds, decimal and other digits.
_STORY_ALPHABET = (
    ".!?…"
    " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2009\u2028\u2029\u202f\u3000"
    "\u200b\ufeff"
    "aZéßΩǅªא"
    "09٣²½"
    ",;:'`$-_"
)
_RUNS = st.lists(st.tuples(st.sampled_from(_STORY_ALPHABET), st.integers(1, 6)), max_size=12).map(
    lambda runs: "".join(char * count for char, count in runs)
)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(st.text(alphabet=_STORY_ALPHABET, max_size=40), _RUNS))
@example("." * 40 + "x")
@example("a. \n")
@example("a.\n")
@example("a.\u3000b!\u200bc?")
def test_sentences_count_exactly_as_the_old_pattern_did(story: str) -> None:
    """The linear pattern splits, and so counts, every story as the quadratic one did."""
    assert _SENTENCE_END.split(story) == _QUADRATIC_SENTENCE_END.split(story)
    assert sentences(story) == _reference_sentences(story)


def test_the_scale_levels_seven_and_minus_one_are_both_listed_with_the_rest() -> None:
    """ "The Scale": 0–6; every break is reported at once, with the others."""
    talents = copy.deepcopy(PC["talents"])
    talents[0]["level"] = 7
    talents[2]["level"] = -1
    report = validate(changed(PC, talents=talents, signs=[], concept=" "))
    assert findings(report) == [
        ("concept-missing", "/object/concept"),
        ("talent-level-out-of-scale", "/object/talents/0/level"),
        ("talent-level-out-of-scale", "/object/talents/2/level"),
        ("signs-missing", "/object/signs"),
    ]
    assert report.talents[0].written == "Agile(7)"
    assert report.talents[0].label is None


def test_talents_a_ship_with_its_captain_as_a_gained_talent_and_no_goal_is_valid() -> None:
    """ "Talents" (the ship example), "Goals and objectives": the pilot is the ship's GT;
    not sentient, so no goal."""
    report = validate(SHIP)
    assert (report.valid, report.warnings) == (True, ())
    assert (
        report.talents[1].written
        == "Fairly Captain Ilse Marr, a cautious veteran of the long run(4)"
    )


def test_talents_three_sixes_warn_many_level_six() -> None:
    """ "Talents" (many 6s mean the concept is too strong), D12: three 6s warn."""
    talents = copy.deepcopy(PC["talents"])
    for index in (0, 1, 5):
        talents[index]["level"] = 6
    report = validate(changed(PC, talents=talents))
    assert report.valid
    assert ("many-level-six", "/object/talents") in findings(report, "warnings")


def test_talents_rare_levels_warn_past_a_quarter_with_two_or_more() -> None:
    """ "Talents" (1 and 6 are rare), D12: ≥ 2 at 1 or 6 and > ¼ of those rated 1–6."""
    talents = [
        {"name": "Agile", "level": 1},
        {"name": "Witty", "level": 6},
        {"name": "Tough", "level": 3},
        {"name": "Handy", "level": 3},
        {"name": "Influential", "level": 0},  # not rated 1–6: not counted
    ]
    report = validate(changed(PC, talents=talents))
    assert findings(report, "warnings") == [("rare-levels-common", "/object/talents")]
    talents += [{"name": "Disciplined", "level": 3}, {"name": "Dangerous", "level": 4}]
    talents += [
        {"name": "swims like an otter in cold water", "level": 2},
        {"name": "reads old star charts", "level": 3},
    ]
    assert validate(changed(PC, talents=talents)).warnings == ()  # 2 of 8 is a quarter


def test_status_below_good_without_a_cause_warns() -> None:
    """ "Status", D8: Injured with no note → status-unexplained; with its cause → none."""
    report = validate(changed(PC, status={"level": 4}))
    assert findings(report, "warnings") == [("status-unexplained", "/object/status/notes")]
    assert report.status.label == "Injured"
    noted = validate(changed(PC, status={"level": 4, "notes": ["dock brawl: two cracked ribs"]}))
    assert noted.warnings == ()


def test_status_off_the_ladder_is_a_violation() -> None:
    """ "Status": 0 Fate under GM control … 6 Good."""
    report = validate(changed(PC, status={"level": 9}))
    assert findings(report) == [("status-out-of-scale", "/object/status/level")]
    assert report.status.label is None


def test_talents_a_name_repeated_in_another_case_is_a_duplicate() -> None:
    """ "Talents": "agile" then "Agile" → duplicate-talent-name at the later one."""
    talents = [{"name": "agile", "level": 3}, {"name": " Agile ", "level": 4}]
    report = validate(changed(PC, talents=talents))
    assert findings(report) == [("duplicate-talent-name", "/object/talents/1/name")]


def test_talents_the_humanoid_set_without_witty_misses_a_basic_talent() -> None:
    """ "Talents" (the humanoid BTs), D13: a listed BT no basic talent carries."""
    talents = [t for t in PC["talents"] if t["name"] != "Witty"]
    report = validate(changed(PC, talents=talents), HUMANOID)
    assert findings(report) == [("basic-talent-missing", "/object/talents")]
    assert "'Witty'" in report.violations[0].detail
    assert validate(changed(PC, talents=talents)).valid  # D13: checked only when sent


def test_talents_a_basic_talent_may_be_written_with_its_label_or_unmarked() -> None:
    """ "Talents", D13: `Somewhat agile` carries Agile; an unmarked (null kind) talent
    counts; a gained one does not."""
    talents = copy.deepcopy(PC["talents"])
    talents[0] = {"name": "Somewhat agile", "level": 2, "kind": None}
    assert validate(changed(PC, talents=talents), HUMANOID).valid
    talents[0]["kind"] = "gained"
    report = validate(changed(PC, talents=talents), HUMANOID)
    assert ("basic-talent-missing", "/object/talents") in findings(report)


def test_talents_a_basic_talent_outside_the_set_warns() -> None:
    """ "Talents", D13: marked basic but not one of the type's BTs."""
    talents = [*PC["talents"], {"name": "Lucky", "level": 3, "kind": "basic"}]
    report = validate(changed(PC, talents=talents), HUMANOID)
    assert findings(report, "warnings") == [("basic-talent-unlisted", "/object/talents/9/name")]


def test_talents_a_one_word_gained_talent_is_terse() -> None:
    """ "Talents" (GTs as descriptive sentences): a one-word GT warns."""
    talents = [*PC["talents"], {"name": "Archery", "level": 3, "kind": "gained"}]
    report = validate(changed(PC, talents=talents))
    assert findings(report, "warnings") == [("gained-talent-terse", "/object/talents/9/name")]


def test_the_scale_a_name_starting_with_another_label_warns() -> None:
    """ "The Scale", D14: `very good with horses` at 3 → talent-label-mismatch; written as is."""
    talents = [*PC["talents"], {"name": "very good with horses", "level": 3, "kind": "gained"}]
    report = validate(changed(PC, talents=talents))
    assert findings(report, "warnings") == [("talent-label-mismatch", "/object/talents/9/name")]
    assert report.talents[9].written == "very good with horses(3)"


def test_blank_names_and_missing_steps_are_violations() -> None:
    """ "Creating Objects", D10: steps 1–5 are required; names are not blank."""
    sheet = {"name": "  ", "sentient": False, "talents": [{"name": " ", "level": 2}]}
    assert findings(validate(sheet)) == [
        ("blank-name", "/object/name"),
        ("concept-missing", "/object/concept"),
        ("story-too-short", "/object/story"),
        ("blank-name", "/object/talents/0/name"),
        ("signs-missing", "/object/signs"),
    ]
    assert ("talents-missing", "/object/talents") in findings(validate(changed(sheet, talents=[])))


# --- "The Scale", D14: how a talent is written ---------------------------------------


@pytest.mark.parametrize(
    ("name", "level", "written"),
    [
        ("dangerous", 4, "Fairly dangerous(4)"),
        ("Agile", 2, "Somewhat Agile(2)"),  # the seed's own example; names keep their case
        ("very good with horses", 5, "very good with horses(5)"),
        ("NOT AT ALL musical", 0, "NOT AT ALL musical(0)"),
        ("swims", 1, "Not very swims(1)"),
        ("Very", 5, "Very Very(5)"),  # a label alone is a name, not a prefix
    ],
)
def test_the_scale_written_form(name: str, level: int, written: str) -> None:
    """ "Talents" ("Fairly dangerous(4)", "Somewhat Agile(2)"), D14."""
    assert written_talent(name, level) == written


def test_the_scale_the_longest_label_wins() -> None:
    """D14: "not very good" is Not very (1), never Very (5)."""
    assert leading_label("not very good") == 1
    assert leading_label("Very good") == 5
    assert leading_label("Verygood") is None
    assert base_name(" Not very Tough ") == "tough"
