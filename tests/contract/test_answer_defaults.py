"""No schema an answer reaches carries `default` (docs/clients.md).

openapi-typescript types a member with a `default` as always present (the generator
assumes the server fills it in), openapi-python-client as maybe absent (`Unset`): for an
answer the two disagree, and a strict TypeScript client reading a member the service
leaves out crashes at run time. So in every schema an answer reaches, a member is typed
present exactly when it is `required` (and then always sent, as `null` where it has no
value), and no schema says `default`. tests/clients (`make client-check`) checks the real
answers against both generators' types.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi/openapi.json").read_text()
)
_COMPONENTS: dict[str, Any] = DOCUMENT["components"]


def _resolved(ref: str) -> tuple[str, Any]:
    _, _, kind, name = ref.split("/", 3)
    return f"{kind}/{name}", _COMPONENTS[kind][name]


def _schemas(node: Any, where: str, seen: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in ``node`` (a schema), refs followed once, with where it is."""
    if not isinstance(node, dict):
        return
    if isinstance(ref := node.get("$ref"), str):
        name, target = _resolved(ref)
        if name not in seen:
            seen.add(name)
            yield from _schemas(target, name, seen)
    yield where, node
    for key, value in node.get("properties", {}).items():
        yield from _schemas(value, f"{where}.{key}", seen)
    for keyword in ("items", "additionalProperties", "not", "contains"):
        yield from _schemas(node.get(keyword), f"{where}/{keyword}", seen)
    for keyword in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for index, variant in enumerate(node.get(keyword, ())):
            yield from _schemas(variant, f"{where}/{keyword}/{index}", seen)


def answer_schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema of every response of every operation: its bodies and its headers."""
    seen: set[str] = set()
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                where = f"{method.upper()} {path} {status}"
                for media, content in response.get("content", {}).items():
                    yield from _schemas(content.get("schema"), f"{where} {media}", seen)
                for name, header in response.get("headers", {}).items():
                    if isinstance(ref := header.get("$ref"), str):
                        name, header = _resolved(ref)
                    yield from _schemas(header.get("schema"), f"{where} {name}", seen)


def test_the_walk_reaches_every_answer_schema() -> None:
    """The walk is no empty pass: it reaches problems, nested views and headers."""
    reached = {where for where, _ in answer_schemas()}
    for name in ("Problem", "ProblemError", "Concern", "OpenD6SceneView", "TravelogueWaitingFor"):
        assert f"schemas/{name}" in reached, name
    assert any(where.endswith(" headers/Retry-After") for where in reached)


def test_no_schema_an_answer_reaches_has_a_default() -> None:
    defaults = [
        f"{where}: {node['default']!r}" for where, node in answer_schemas() if "default" in node
    ]
    assert defaults == []
