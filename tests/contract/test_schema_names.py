"""Schema names carry their ruleset's prefix, so a generated client keeps the games apart
(one namespace of models: OpenD6's `RollRequest` must not read as the service's one roll)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.hosted import RULESETS
from service.http.contract.openapi_names import prefix_schema_names, schema_owners

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi/openapi.json").read_text()
)
PREFIXES = {operation: r.schema_prefix for r in RULESETS for operation, _, _ in r.operations()}


def test_every_ruleset_but_bullseye_has_its_own_prefix() -> None:
    """Bullseye keeps the names it was first published with; every later game has one."""
    prefixes = {r.id: r.schema_prefix for r in RULESETS}
    assert prefixes.pop("bullseye") == ""
    assert all(p.isidentifier() and p[0].isupper() for p in prefixes.values()), prefixes
    assert len(set(prefixes.values())) == len(prefixes)


def test_every_schema_only_one_ruleset_uses_carries_its_prefix() -> None:
    owners = schema_owners(DOCUMENT, PREFIXES)
    unprefixed = {
        name: prefix
        for name, found in owners.items()
        if len(found) == 1 and (prefix := next(iter(found))) and not name.startswith(prefix)
    }
    assert unprefixed == {}
    # and the published names really are the games': OpenD6's roll, Self/Conflict's check
    assert {"OpenD6RollRequest", "OpenD6RollResult", "OpenD6SceneView"} <= set(owners)
    assert "SelfConflictTalentCheckResult" in owners


def test_shared_schemas_keep_their_names() -> None:
    owners = schema_owners(DOCUMENT, PREFIXES)
    assert len(owners["Problem"]) > 1
    assert "CheckRequest" in owners  # Bullseye's published names are unchanged


def test_a_rename_follows_refs_discriminator_mappings_and_titles() -> None:
    ref = "#/components/schemas/"
    document = {
        "paths": {
            "/v1/game/rolls": {
                "post": {
                    "operationId": "gameRoll",
                    "requestBody": {"content": {"j": {"schema": {"$ref": ref + "Roll"}}}},
                    "responses": {"200": {"content": {"j": {"schema": {"$ref": ref + "Shared"}}}}},
                }
            },
            "/v1/other": {
                "get": {
                    "operationId": "otherRead",
                    "responses": {"200": {"content": {"j": {"schema": {"$ref": ref + "Shared"}}}}},
                }
            },
        },
        "components": {
            "schemas": {
                "Roll": {
                    "title": "Roll",
                    "oneOf": [{"$ref": ref + "Die"}],
                    "discriminator": {"propertyName": "kind", "mapping": {"die": ref + "Die"}},
                },
                "Die": {"title": "Die", "type": "object"},
                "Shared": {"title": "Shared", "type": "object"},
            }
        },
    }
    renamed = prefix_schema_names(document, {"gameRoll": "Game", "otherRead": ""})
    schemas = renamed["components"]["schemas"]
    assert sorted(schemas) == ["GameDie", "GameRoll", "Shared"]
    assert schemas["GameRoll"]["title"] == "GameRoll"
    assert schemas["GameRoll"]["oneOf"] == [{"$ref": ref + "GameDie"}]
    assert schemas["GameRoll"]["discriminator"]["mapping"] == {"die": ref + "GameDie"}
    body = renamed["paths"]["/v1/game/rolls"]["post"]["requestBody"]["content"]["j"]
    assert body["schema"] == {"$ref": ref + "GameRoll"}


def test_every_operation_id_of_a_later_game_starts_with_its_prefix() -> None:
    """A generated client names its functions after operation ids: `openD6Roll` reads
    `open_d6_roll`, beside the `open_d6_roll_request` model."""
    for ruleset in RULESETS:
        if not ruleset.schema_prefix:
            continue
        start = ruleset.schema_prefix[0].lower() + ruleset.schema_prefix[1:]
        strays = [op for op, _, _ in ruleset.operations() if not op.startswith(start)]
        assert strays == [], ruleset.id
