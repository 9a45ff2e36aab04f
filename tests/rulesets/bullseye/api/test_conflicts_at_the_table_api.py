"""Conflicts at the table over HTTP (issue #12): §7.2 bullseyes after the roll, checks
bound to the declared sheet, the GM for an absent player, the §4.4 outcome's losses."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.support.bullseye_conflicts import DUELIST, bearer, conflict_body, create, faces
from tests.support.problems import assert_problem


def server_dice(client: TestClient) -> tuple[str, dict]:
    """§4.2's worked example with server dice; Ana holds one bullseye."""
    players = conflict_body()["players"]
    players[0]["bullseyes"] = 1
    created = create(client, dice_source="server", players=players)
    return f"/v1/conflicts/{created['id']}", created["tokens"]


def test_section_7_2_a_holder_sees_its_roll_then_spends_a_bullseye_on_it(
    client: TestClient,
) -> None:
    path, tokens = server_dice(client)
    gm, ana, bo = tokens["gm"], tokens["players"]["ana"], tokens["players"]["bo"]
    assert (
        client.post(
            f"{path}/rounds/1/checks", json={"participant": "gm"}, headers=bearer(gm)
        ).status_code
        == 202
    )
    seen = client.post(
        f"{path}/rounds/1/checks",
        json={"participant": "ana", "qualities": ["Duelist"]},
        headers=bearer(ana),
    )
    assert seen.status_code == 202
    answer = seen.json()
    assert answer["may_spend_bullseye"] is True
    roll = answer["check"]
    assert roll["bullseye"] is False
    # Bo completes the checks, but the round waits for Ana's decision.
    last = client.post(f"{path}/rounds/1/checks", json={"participant": "bo"}, headers=bearer(bo))
    assert last.status_code == 202
    assert (last.json()["waiting_for"], last.json()["deciding"]) == ([], ["ana"])
    view = client.get(path, headers=bearer(gm)).json()
    assert (view["round"], view["deciding"], view["bullseyes_left"]["ana"]) == (1, ["ana"], 1)
    spent = client.post(
        f"{path}/rounds/1/bullseyes",
        json={"participant": "ana", "spend": True},
        headers=bearer(ana),
    )
    assert spent.status_code == 200, spent.text
    round_ = spent.json()
    mine = round_["players"]["ana"]
    assert (mine["die_result"], mine["faces"], mine["bullseye"]) == (20, roll["faces"], True)
    assert mine["yield"] == 20 + 7
    view = client.get(path, headers=bearer(gm)).json()
    assert (view["round"], view["deciding"], view["bullseyes_left"]["ana"]) == (2, [], 0)


def test_section_7_2_the_gm_closes_a_round_whose_holder_does_not_decide(client: TestClient) -> None:
    path, tokens = server_dice(client)
    gm = tokens["gm"]
    for who, token in (("gm", gm), ("ana", tokens["players"]["ana"])):
        client.post(f"{path}/rounds/1/checks", json={"participant": who}, headers=bearer(token))
    assert_problem(
        client.post(f"{path}/rounds/1/close", headers=bearer(gm)), 409, "checks-outstanding"
    )
    # Bo is absent: the GM submits for him, then closes the round.
    for_bo = client.post(f"{path}/rounds/1/checks", json={"participant": "bo"}, headers=bearer(gm))
    assert for_bo.status_code == 202
    assert_problem(
        client.post(f"{path}/rounds/1/close", headers=bearer(tokens["players"]["ana"])),
        403,
        "forbidden",
    )
    closed = client.post(f"{path}/rounds/1/close", headers=bearer(gm))
    assert closed.status_code == 200, closed.text
    assert closed.json()["on_behalf"] == ["bo"]
    assert closed.json()["players"]["ana"]["bullseye"] is False
    assert_problem(
        client.post(
            f"{path}/rounds/1/bullseyes",
            json={"participant": "ana", "spend": True},
            headers=bearer(tokens["players"]["ana"]),
        ),
        409,
        "wrong-round",
    )


def test_conflict_submissions_undeclared_quality_is_422_naming_it(client: TestClient) -> None:
    """docs/bullseye.md, checks bound to the sheet: +100 nobody declared, or Duelist at +9, is
    refused; the declared object itself (today's clients) and its name both work."""
    created = create(client)
    path, ana = f"/v1/conflicts/{created['id']}", created["tokens"]["players"]["ana"]
    cheat = {"name": "Dragon's blood", "type": "intrinsic", "magnitude": 100}
    inflated = {**DUELIST, "magnitude": 9}
    problem = assert_problem(
        client.post(
            f"{path}/rounds/1/checks",
            json={"participant": "ana", **faces(3), "qualities": [cheat, inflated]},
            headers=bearer(ana),
        ),
        422,
        "undeclared-quality",
    )
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("undeclared-quality", "/qualities/0"),
        ("undeclared-quality", "/qualities/1"),
    ]
    assert "Dragon's blood" in problem["errors"][0]["detail"]
    assert client.get(path, headers=bearer(ana)).json()["submitted"] == []  # nothing stored
    accepted = client.post(
        f"{path}/rounds/1/checks",
        json={"participant": "ana", **faces(3), "qualities": [DUELIST, "Nimble"]},
        headers=bearer(ana),
    )
    assert accepted.status_code == 202
    assert accepted.json()["check"]["total_modifier"] == 11


def test_the_gm_submits_for_an_absent_player_and_the_event_says_so(client: TestClient) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    answer = client.post(
        f"{path}/rounds/1/checks", json={"participant": "bo", **faces(4)}, headers=bearer(gm)
    )
    assert answer.status_code == 202
    assert answer.json()["participant"] == "bo"
    view = client.get(path, headers=bearer(gm)).json()
    assert view["submitted"] == ["bo"]


def test_section_4_4_the_outcome_reports_every_pcs_score_after(client: TestClient) -> None:
    """§4.4 with the opposition winning: the GM's success costs each PC its own loss."""
    players = [
        {"id": "ana", "name": "Ana", "qualities": [DUELIST], "depletion_modifier": -5,
         "depletable": {"name": "health", "current": 30, "maximum": 40}},
        {"id": "bo", "name": "Bo", "qualities": [DUELIST],
         "depletable": {"name": "health", "current": 30, "maximum": 40}},
    ]  # fmt: skip
    created = create(
        client,
        players=players,
        opposition={"name": "Bandits", "threat": 5},
        depletable_at_issue="health",
    )
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    # Round 1: the GM 20 against 1s; each pairing costs the players 19 + 5 + protection.
    body = {"gm": faces(20), "players": {"ana": faces(1), "bo": faces(1)}}
    decided = client.post(f"{path}/rounds", json=body, headers=bearer(gm)).json()
    assert decided["winner"] == "opposition"
    left = decided["scores_after"]["opposition"]
    outcome = client.post(
        f"{path}/outcome",
        json={"target": 10 + left - 5, "checks": {"gm": faces(10)}},
        headers=bearer(gm),
    ).json()
    assert (outcome["spread"], outcome["by"]) == (5, "gm")
    assert outcome["losses"] == [
        {"side": "players", "player": "ana", "amount": 5},
        {"side": "players", "player": "bo", "amount": 10},
    ]
    assert {p: a["current"] for p, a in outcome["players_after"].items()} == {"ana": 25, "bo": 20}
    stored = client.get(path, headers=bearer(gm)).json()["players"]
    assert [p["depletable"]["current"] for p in stored] == [25, 20]
