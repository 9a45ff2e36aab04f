"""Travelogue games over HTTP, as the API tests play them: create one, act with a player's
token, read it back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.rulesets.travelogue.rules.game.actions import Action
from tests.rulesets.travelogue.rules.game.full_game import SHEETS

GAMES = "/v1/travelogue/games"


def sheets_json() -> list[dict[str, Any]]:
    """The design's full-game table (Hugo, Annie, Archer, Vera) as a request sends it."""
    return [msgspec.to_builtins(sheet) for sheet in SHEETS]


def body_of(action: Action) -> dict[str, Any]:
    """An action as its request body."""
    body: dict[str, Any] = msgspec.to_builtins(action)
    return body


@dataclass(frozen=True)
class Game:
    """A game just created: its path and each player's token."""

    client: TestClient
    id: str
    tokens: dict[str, str]
    created: dict[str, Any]

    @property
    def path(self) -> str:
        return f"{GAMES}/{self.id}"

    def auth(self, player: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[player]}"}

    def act(self, player: str, action: Action | dict[str, Any], **headers: str) -> Any:
        body = action if isinstance(action, dict) else body_of(action)
        return self.client.post(
            f"{self.path}/actions", json=body, headers={**self.auth(player), **headers}
        )

    def read(self, player: str = "hugo", **headers: str) -> Any:
        return self.client.get(self.path, headers={**self.auth(player), **headers})


def create_game(client: TestClient, **fields: Any) -> Game:
    """A game of the full-game table (table dice unless ``fields`` says otherwise)."""
    body = {"name": "Night train", "bullseyes": sheets_json(), "dice_source": "table", **fields}
    answer = client.post(GAMES, json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return Game(client, created["id"], created["tokens"]["players"], created)
