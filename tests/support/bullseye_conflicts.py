"""Bullseye conflicts as the HTTP tests create and play them (§4.2's worked example)."""

from __future__ import annotations

from litestar.testing import TestClient

DUELIST = {"name": "Duelist", "type": "experiential", "magnitude": 7}

NIMBLE = {"name": "Nimble", "type": "intrinsic", "magnitude": 4}

GIANT = {"name": "Giant", "type": "intrinsic", "magnitude": 8}

AXE = {"name": "War axe", "type": "material", "magnitude": 3}


def conflict_body(**overrides: object) -> dict:
    """§4.2's worked example: PCs with 7 + 4 and 8 + 3 → players 22, opposition 44."""
    body = {
        "name": "Bridge of Knives",
        "players": [
            {"id": "ana", "name": "Ana", "qualities": [DUELIST, NIMBLE], "threat": 5},
            {"id": "bo", "name": "Bo", "qualities": [GIANT, AXE], "depletion_modifier": -2},
        ],
        "opposition": {"name": "Bandits", "threat": 3},
        "dice_source": "client",
    }
    body.update(overrides)
    return body


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **overrides: object) -> dict:
    response = client.post("/v1/conflicts", json=conflict_body(**overrides))
    assert response.status_code == 201, response.text
    return response.json()


def faces(n: int) -> dict:
    return {"roll": {"faces": [n]}}
