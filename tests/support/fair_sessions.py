"""Every kind of session with provably fair dice, as the client-seed tests play them over
HTTP: a creation body on the server's dice, its participants (whose tokens add the
seeds), the moves before its first roll that roll nothing, and that first roll."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from litestar.testing import TestClient

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.rulesets.opend6.api.scenes import SCENES
from service.rulesets.travelogue.api.games import GAMES as GAME_KIND
from service.rulesets.travelogue.rules.game.actions import RollAttention
from service.sessions.host import SessionSpec
from tests.rulesets.travelogue.rules.game.full_game import STEPS
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.travelogue_games import GAMES, body_of, sheets_json

__all__ = ["FAIR_KINDS", "FairKind", "FairSession"]


@dataclass
class FairSession:
    """A fair session just created: its path, each participant's token, its creation's
    answer."""

    client: TestClient | httpx.Client
    id: str
    path: str
    tokens: dict[str, str]
    created: dict[str, Any]

    def auth(self, participant: str, **headers: str) -> dict[str, str]:
        return {**bearer(self.tokens[participant]), **headers}

    def add_seed(self, participant: str, seed: str, **headers: str) -> httpx.Response:
        """``participant``'s seed, sent with its own token."""
        return self.client.post(
            f"{self.path}/client-seeds",
            json={"seed": seed},
            headers=self.auth(participant, **headers),
        )

    def read(self, participant: str | None = None) -> httpx.Response:
        return self.client.get(self.path, headers=self.auth(participant or next(iter(self.tokens))))


@dataclass(frozen=True)
class FairKind:
    """A kind of session on the server's dice: ``participants`` in the order its tests
    add their seeds; ``before_roll`` plays the moves before the first roll (none draws
    dice) and ``roll`` makes the first action that draws them."""

    name: str
    spec: SessionSpec[Any]
    collection: str
    body: Callable[[], dict[str, Any]]
    participants: tuple[str, ...]
    before_roll: Callable[[FairSession], None]
    roll: Callable[[FairSession], httpx.Response]

    def create(self, client: TestClient | httpx.Client, **fields: Any) -> FairSession:
        answer = client.post(self.collection, json={**self.body(), **fields})
        assert answer.status_code == 201, answer.text
        created = answer.json()
        tokens = created["tokens"]
        by_participant = {**({"gm": tokens["gm"]} if tokens.get("gm") else {}), **tokens["players"]}
        return FairSession(
            client, created["id"], f"{self.collection}/{created['id']}", by_participant, created
        )


def _ok(answer: httpx.Response) -> None:
    assert answer.status_code in (200, 202), answer.text


# Bullseye (§4.3): each check is a rolling action of its own; nothing comes before.
def _conflict_roll(session: FairSession) -> httpx.Response:
    return session.client.post(
        f"{session.path}/rounds/1/checks", json={"participant": "gm"}, headers=session.auth("gm")
    )


# OpenD6 ("Initiative" Method 1, "Performing Actions in Rounds"): the GM's order and Ana's
# declaration roll nothing; her skill roll is the first roll.
SCENE: dict[str, Any] = {
    "name": "Fair fight at the ford",
    "rules": {"initiative": "first_action", "dice_source": "server"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {
            "id": "ana-pc",
            "name": "Ana the scout",
            "controller": "ana",
            "acumen": "3D",
            "agility": "3D+1",
            "character_points": 5,
        },
        {"id": "orc", "name": "Orc", "controller": "gm", "acumen": "2D", "agility": "2D"},
    ],
}


def _scene_move(session: FairSession, who: str, move: dict[str, Any]) -> httpx.Response:
    return session.client.post(
        f"{session.path}/moves", json={"round": 1, **move}, headers=session.auth(who)
    )


def _scene_before_roll(session: FairSession) -> None:
    _ok(_scene_move(session, "gm", {"type": "set_order", "first": ["ana-pc"]}))
    _ok(_scene_move(session, "ana", {"type": "declare", "participant": "ana-pc", "actions": 1}))


def _scene_roll(session: FairSession) -> httpx.Response:
    skill = {"base": {"type": "skill", "code": "3D"}}
    return _scene_move(session, "ana", {"type": "roll", "participant": "ana-pc", "spec": skill})


# The travelogue (D11, D28): batch 1 rolls nothing; the attention die is the first roll.
def _game_before_roll(session: FairSession) -> None:
    for actor, action in STEPS[:14]:
        _ok(
            session.client.post(
                f"{session.path}/actions", json=body_of(action), headers=session.auth(actor)
            )
        )


def _game_roll(session: FairSession) -> httpx.Response:
    return session.client.post(
        f"{session.path}/actions", json=body_of(RollAttention()), headers=session.auth("annie")
    )


FAIR_KINDS = (
    FairKind(
        name="conflict",
        spec=CONFLICTS,
        collection="/v1/conflicts",
        body=lambda: conflict_body(dice_source="server"),
        participants=("gm", "ana", "bo"),
        before_roll=lambda session: None,
        roll=_conflict_roll,
    ),
    FairKind(
        name="scene",
        spec=SCENES,
        collection="/v1/opend6/scenes",
        body=lambda: SCENE,
        participants=("gm", "ana"),
        before_roll=_scene_before_roll,
        roll=_scene_roll,
    ),
    FairKind(
        name="game",
        spec=GAME_KIND,
        collection=GAMES,
        body=lambda: {"name": "Fair train", "bullseyes": sheets_json(), "dice_source": "server"},
        participants=("hugo", "annie", "archer", "vera"),
        before_roll=_game_before_roll,
        roll=_game_roll,
    ),
)
