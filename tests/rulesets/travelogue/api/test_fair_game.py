"""A provably fair game (docs/verifiable-rolls.md, "Provably fair sessions"; D28): an
unseeded game with the server's dice, created (the commitment published), every player's
client seed added with its own token — two before the first action, two during the first
batch, before any roll —, played to its end by Part 3's fixed policy, then every roll of its
history re-derived from the revealed seed and all four client seeds by the test's own
implementation of ``hmac-sha256-v1``."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.rulesets.travelogue.api.games import GAMES as GAME_KIND
from tests.support.fair_dice import Stream, seed_matches, stream_events
from tests.support.problems import assert_problem
from tests.support.travelogue_bot import FixedPolicy
from tests.support.travelogue_games import GAMES, sheets_json

# In the order added; the first two before any action, the others after SEEDS_AFTER actions.
CLIENT_SEEDS = {"vera": "vera-9", "hugo": "HUGO_1", "archer": "arch-3", "annie": "annie_b"}
SEEDS_AFTER = 3


def _history(client: TestClient, path: str, token: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(
            f"{path}/history", params={"after": after}, headers={"X-Game-Token": token}
        )
        assert page.status_code == 200, page.text
        items.extend(page.json()["items"])
        after = page.json()["next_after"]
    return items


def test_a_fair_game_reveals_a_seed_that_reproduces_every_roll(
    client: TestClient, redis_url: str
) -> None:
    body = {"name": "Fair train", "bullseyes": sheets_json(), "dice_source": "server"}
    created = client.post(GAMES, json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    path, tokens = f"{GAMES}/{game['id']}", game["tokens"]["players"]
    commitment = game["fairness"]["commitment"]
    assert game["fairness"]["client_seeds"] == []  # committed before any seed
    assert game["fairness"]["server_seed"] is None

    def add_seed(player: str) -> None:
        answer = client.post(
            f"{path}/client-seeds",
            json={"seed": CLIENT_SEEDS[player]},
            headers={"X-Game-Token": tokens[player]},
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["seeds_closed"] is False
        seen.append(answer.text)

    policy, view, seen, last_events = FixedPolicy(), game, [created.text], []
    for player in list(CLIENT_SEEDS)[:2]:
        add_seed(player)
    while view["status"] == "active":
        assert len(seen) < 5000
        if view["actions"] == SEEDS_AFTER and len(view["fairness"]["client_seeds"]) < 4:
            for player in list(CLIENT_SEEDS)[2:]:
                add_seed(player)
            view = client.get(path, headers={"X-Game-Token": tokens["vera"]}).json()
        actor, action = policy.next(view)
        answer = client.post(
            f"{path}/actions", json=action, headers={"X-Game-Token": tokens[actor]}
        )
        assert answer.status_code == 200, answer.text
        seen.append(answer.text)
        view = answer.json()["game"]
        last_events = answer.json()["events"]
    seed = view["fairness"]["server_seed"]
    assert seed_matches(seed, commitment)
    assert not seed_matches(seed.replace(seed[0], "0" if seed[0] != "0" else "1", 1), commitment)
    assert all(seed not in text for text in seen[:-1])  # the ending answer is the first
    ending = next(e for e in last_events if e["type"] == "game.ended")
    assert ending["server_seed"] == seed

    # Roll n is the n-th rolling action of the history: the attention die, or the
    # Shooter's dice then the Angel's; every client seed joins it, in the order added.
    seeds = [c["seed"] for c in view["fairness"]["client_seeds"]]
    assert seeds == list(CLIENT_SEEDS.values())
    rolled = [item["result"] for item in _history(client, path, tokens["vera"]) if item["result"]]
    assert len(rolled) == view["fairness"]["rolls"] > 0
    for n, dice in enumerate(rolled, start=1):
        stream = Stream(seed, seeds, n)
        if dice["die"] is not None:
            assert dice["die"] == stream.randint(1, 6)
        else:
            shooter = [stream.randint(1, 6) for _ in dice["shooter"]]
            angel = [stream.randint(1, 6) for _ in dice["angel"]]
            assert (dice["shooter"], dice["angel"]) == (shooter, angel)

    assert client.delete(path, headers={"X-Game-Token": tokens["hugo"]}).status_code == 204
    kind, data = stream_events(redis_url, GAME_KIND.kind.events(game["id"]))[-1]
    assert (kind, data["server_seed"]) == ("game.closed", seed)


def test_seeded_and_table_games_have_no_fairness(client: TestClient) -> None:
    # A seeded game's dice follow from its public seed (D28): nothing to commit to.
    for fields in ({"dice_source": "server", "seed": 7}, {"dice_source": "table"}):
        body = {"name": "Open", "bullseyes": sheets_json(), **fields}
        created = client.post(GAMES, json=body)
        assert created.status_code == 201, created.text
        assert created.json()["fairness"] is None
        refused = client.post(GAMES, json={**body, "client_seeds": {"vera": "v"}})
        problem = assert_problem(refused, 422, "client-seeds-without-server-dice")
        assert problem["errors"][0]["pointer"] == "/client_seeds"
    early = {"name": "X", "bullseyes": sheets_json(), "client_seeds": {"vera": "v"}}
    problem = assert_problem(client.post(GAMES, json=early), 422, "client-seeds-at-creation")
    assert problem["errors"][0]["pointer"] == "/client_seeds"
