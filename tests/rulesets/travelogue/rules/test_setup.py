"""The set-up check ("The Set Up", "Bullseyes", "Your Name", "The Blanks"; D2, D3, D4):
every violation at once, with the pointer a game's creation answers too."""

from __future__ import annotations

from typing import Any

import msgspec

from service.rulesets.travelogue.rules.setup import (
    SetupCode,
    SetupReport,
    check_setup,
    setup_cost,
    setup_error,
)
from service.rulesets.travelogue.rules.sheet import Sheet, SheetStats


def sheet(player: str, shooter: str, beef: str, **fields: Any) -> Sheet:
    body: dict[str, Any] = {
        "player": player,
        "name": player.capitalize(),
        "shooter": shooter,
        "angel": "a friend",
        "beef": beef,
        "stats": {"avoid": 3, "armor": 2, "angel": 2, "allies": 2},
        **fields,
    }
    return msgspec.convert(body, Sheet)


def table() -> list[Sheet]:
    """The design's table: Hugo–Annie by shooter, Annie–Archer by beef, Archer–Vera by
    shooter: one chain, one component."""
    return [
        sheet("hugo", "The Syndicate", "the ledger"),
        sheet("annie", "the syndicate", "a debt"),
        sheet("archer", "Interpol", "A Debt"),
        sheet("vera", "Interpol", "a witness"),
    ]


def codes(report: SetupReport) -> list[tuple[str, str]]:
    return [(finding.code.value, finding.pointer) for finding in report.violations]


def test_a_chain_of_shared_shooters_and_beefs_is_one_component() -> None:
    """D2: linked through others is connected."""
    report = check_setup(table())
    assert report.valid
    assert report.violations == ()
    assert report.components == ((0, 1, 2, 3),)


def test_two_pairs_are_not_connected() -> None:
    """D2: {A,B} share a shooter, {C,D} a beef → `not-connected` at C and D."""
    sheets = [
        sheet("a", "The Mob", "x"),
        sheet("b", "the mob", "y"),
        sheet("c", "Feds", "the map"),
        sheet("d", "Cops", "The Map"),
    ]
    report = check_setup(sheets)
    assert not report.valid
    assert codes(report) == [("not-connected", "/bullseyes/2"), ("not-connected", "/bullseyes/3")]
    assert report.components == ((0, 1), (2, 3))


def test_the_syndicate_is_the_same_shooter_as_the_syndicate_spaced() -> None:
    """D2: NFKC, casefold, trim and collapsed whitespace: "The Syndicate" ≡ " the  syndicate "."""
    sheets = [
        sheet("a", "The Syndicate", "w"),
        sheet("b", " the  syndicate ", "x"),
        sheet("c", "THE SYNDICATE", "y"),
        sheet("d", "The\u00a0Syndicate", "z"),
    ]
    assert check_setup(sheets).components == ((0, 1, 2, 3),)


def test_angels_are_never_compared() -> None:
    """D2: a shared angel links nobody."""
    sheets = [sheet(p, f"shooter {p}", f"beef {p}", angel="Same Angel") for p in "abcd"]
    assert len(check_setup(sheets).components) == 4


def test_eight_points_are_not_nine() -> None:
    """D3: the four stats share exactly 9 points."""
    sheets = table()
    sheets[1] = sheet(
        "annie", "the syndicate", "a debt", stats={"avoid": 2, "armor": 2, "angel": 2, "allies": 2}
    )
    assert codes(check_setup(sheets)) == [("points-not-nine", "/bullseyes/1/stats")]


def test_a_zero_only_warns() -> None:
    """D3: a 0 is discouraged, never refused."""
    sheets = table()
    sheets[0] = sheet(
        "hugo",
        "The Syndicate",
        "the ledger",
        stats={"avoid": 5, "armor": 0, "angel": 2, "allies": 2},
    )
    report = check_setup(sheets)
    assert report.valid
    assert [(w.code, w.pointer) for w in report.warnings] == [
        (SetupCode.STAT_ZERO, "/bullseyes/0/stats/armor")
    ]


def test_a_stat_out_of_range_is_reported_with_the_rest() -> None:
    """D3: 0…9 each, reported with every other violation (the schema bounds only −1000…1000)."""
    sheets = table()
    sheets[2] = Sheet(
        player="archer",
        name="Archer",
        shooter="Interpol",
        angel="x",
        beef="A Debt",
        stats=SheetStats(avoid=10, armor=-1, angel=0, allies=0),
    )
    assert codes(check_setup(sheets)) == [
        ("stat-range", "/bullseyes/2/stats/avoid"),
        ("stat-range", "/bullseyes/2/stats/armor"),
    ]


def test_every_violation_at_once() -> None:
    """Player count, a duplicate player, a blank, a long text and a duplicate name (D4),
    normalised, all in one report."""
    sheets = [
        sheet("hugo", "The Syndicate", "the ledger", name="Hugo"),
        sheet("hugo", "the syndicate", "a debt", name=" HUGO "),
        sheet("vera", "The Syndicate", " ", name="V" * 41, angel="a" * 121),
    ]
    assert codes(check_setup(sheets)) == [
        ("player-count", "/bullseyes"),
        ("duplicate-player", "/bullseyes/1/player"),
        ("duplicate-name", "/bullseyes/1/name"),
        ("text-too-long", "/bullseyes/2/name"),
        ("text-too-long", "/bullseyes/2/angel"),
        ("blank-text", "/bullseyes/2/beef"),
    ]


def test_the_limits_themselves_are_allowed() -> None:
    """ "Your Name": a name of 40, a shooter and an angel of 120, a beef of 200 pass."""
    sheets = table()
    sheets[3] = sheet("vera", "Interpol", "b" * 200, name="V" * 40, angel="a" * 120)
    sheets[2] = sheet("archer", "Interpol" + " " * 112, "A Debt")
    assert check_setup(sheets).valid


def test_seven_players_are_too_many() -> None:
    sheets = [sheet(f"p{i}", "The Mob", f"beef {i}") for i in range(7)]
    assert codes(check_setup(sheets)) == [("player-count", "/bullseyes")]


def test_a_games_refusal_carries_every_violation_as_its_errors() -> None:
    """A game's creation answers 422 `invalid-setup`, its errors the violations."""
    sheets = [sheet("a", "The Mob", "x"), sheet("b", "Feds", "y")]
    error = setup_error(check_setup(sheets))
    assert error.code == "travelogue/invalid-setup"
    assert [(c.code, c.pointer) for c in error.concerns] == [
        ("travelogue/player-count", "/bullseyes"),
        ("travelogue/not-connected", "/bullseyes/1"),
    ]


def test_a_set_ups_cost_counts_the_characters_of_its_non_ascii_texts() -> None:
    """What decides whether the check leaves the event loop: ASCII texts cost nothing, a text
    with one character beyond ASCII costs its whole length."""
    assert setup_cost(table()) == 0
    sheets = [*table()[:3], sheet("vera", "Interpol", "a witness", name="Véra", angel="Ω" * 100)]
    assert setup_cost(sheets) == len("Véra") + 100
