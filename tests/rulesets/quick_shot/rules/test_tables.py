"""The reference tables: "Effect 1: Minor" … "Effect 5: Overwhelming", "Bolstering", and
the seed's odds tables kept verbatim."""

from __future__ import annotations

from service.rulesets.quick_shot.rules.tables import TABLES


def test_the_tables_are_difficulties_bets_and_the_published_odds() -> None:
    assert list(TABLES) == ["difficulties", "bets", "published-odds"]


def test_difficulties_run_from_minor_1_to_overwhelming_5() -> None:
    rows = TABLES["difficulties"].rows
    assert [(r.value, r.name, r.label) for r in rows] == [
        (1, "minor", "Minor"),
        (2, "common", "Common"),
        (3, "hard", "Hard"),
        (4, "difficult", "Difficult"),
        (5, "overwhelming", "Overwhelming"),
    ]


def test_bolstering_one_wp_buys_a_die_and_three_buy_two() -> None:
    assert [(r.wp, r.dice) for r in TABLES["bets"].rows] == [(0, 8), (1, 9), (3, 10)]


def test_the_published_odds_keep_both_tables_as_printed() -> None:
    rows = TABLES["published-odds"].rows
    assert len(rows) == 15 + 20
    first, hard_three, multi = rows[0], rows[5], rows[15 + 3]
    assert (first.table, first.row, first.wp_bet) == ("difficulty", "(2)", 0)
    assert (hard_three.row, hard_three.wp_bet, hard_three.success) == ("(3)", 3, 76)
    assert (multi.table, multi.row) == ("multi-action", "(2,1,1,1)")
    cells = (multi.critical_failure, multi.failure, multi.success, multi.critical_success)
    assert cells == (15, 39, 60, 11)
