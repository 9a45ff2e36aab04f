"""Every kind of session the service keeps, as the shared-engine tests play them over HTTP:
how to start one and one move that puts an event on its stream."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from tests.support.bullseye_conflicts import bearer, conflict_body, faces

# A small OpenD6 scene the table rolls for ("Initiative", rolled each round).
SCENE: dict[str, Any] = {
    "name": "Ambush at the ford",
    "rules": {"initiative": "rolled_per_round", "dice_source": "client"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {"id": "ana-pc", "name": "Ana the scout", "controller": "ana", "acumen": "3D",
         "agility": "3D+1"},
        {"id": "goblins", "name": "Goblin band", "controller": "gm", "members": 3,
         "acumen": "2D", "agility": "2D+2"},
    ],
}  # fmt: skip


def scene_initiative(participant: str, regular: list[int], wild: int) -> dict[str, Any]:
    """An initiative move of round 1 with the table's dice."""
    return {
        "type": "initiative",
        "round": 1,
        "rolls": [{"participant": participant, "faces": {"regular": regular, "wild": [wild]}}],
    }


@dataclass(frozen=True)
class Session:
    """One session just created: where it is and its GM's and player's tokens (a kind
    with no GM, the travelogue's game, gives another player's token as ``gm``)."""

    path: str
    gm: dict[str, str]
    player: dict[str, str]


@dataclass(frozen=True)
class Kind:
    """A kind of session: ``ruleset`` and ``kind`` as GET /v1/rulesets names them, how to
    create one, the player's move and the event it puts on the stream."""

    ruleset: str
    kind: str
    collection: str
    body: Callable[[], dict[str, Any]]
    player_move: Callable[[httpx.Client, Session], httpx.Response]
    event: str

    def create(self, client: httpx.Client) -> Session:
        answer = client.post(self.collection, json=self.body())
        assert answer.status_code == 201, answer.text
        created = answer.json()
        tokens = created["tokens"]
        players = list(tokens["players"].values())
        return Session(
            path=f"{self.collection}/{created['id']}",
            gm=bearer(tokens.get("gm") or players[-1]),
            player=bearer(players[0]),
        )


def _conflict_check(client: httpx.Client, session: Session) -> httpx.Response:
    body = {"participant": "ana", **faces(9)}
    return client.post(f"{session.path}/rounds/1/checks", json=body, headers=session.player)


# The design's four bullseyes (D2: one group), at the table's dice.
GAME: dict[str, Any] = {
    "name": "Night train",
    "dice_source": "table",
    "bullseyes": [
        {"player": p, "name": p.capitalize(), "shooter": shooter, "angel": "A way out",
         "beef": beef, "stats": {"avoid": 3, "armor": 2, "angel": 2, "allies": 2}}
        for p, shooter, beef in (
            ("hugo", "The Syndicate", "the ledger"),
            ("annie", "the syndicate", "a debt"),
            ("archer", "Interpol", "A Debt"),
            ("vera", "Interpol", "a witness"),
        )
    ],
}  # fmt: skip


def _game_reach(client: httpx.Client, session: Session) -> httpx.Response:
    """The first player (Hugo) reaches with flag 1 ("Rules")."""
    body = {"type": "take_flag", "flag": 1}
    return client.post(f"{session.path}/actions", json=body, headers=session.player)


def _scene_initiative(client: httpx.Client, session: Session) -> httpx.Response:
    body = scene_initiative("ana-pc", [4, 4], 5)
    return client.post(f"{session.path}/moves", json=body, headers=session.player)


KINDS = (
    Kind(
        ruleset="bullseye",
        kind="conflict",
        collection="/v1/conflicts",
        body=conflict_body,
        player_move=_conflict_check,
        event="submission.received",
    ),
    Kind(
        ruleset="opend6",
        kind="scene",
        collection="/v1/opend6/scenes",
        body=lambda: SCENE,
        player_move=_scene_initiative,
        event="initiative.rolled",
    ),
    # A game's stream starts with its creation's event.
    Kind(
        ruleset="travelogue",
        kind="game",
        collection="/v1/travelogue/games",
        body=lambda: GAME,
        player_move=_game_reach,
        event="game.created",
    ),
)
