"""Schema names in the published document carry their ruleset's prefix.

A generated client puts every schema in one namespace, so OpenD6's ``RollRequest`` would
read as the service's one roll. A schema that only one ruleset's operations reach is
published as ``<prefix><Name>`` (``OpenD6RollRequest``); shared ones (``Problem``,
``StreamTicket``) and a ruleset with an empty prefix (Bullseye, whose names were published
first) keep their names. Python classes keep their short names: the module says the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.http.contract.openapi_contract import schema_refs

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["prefix_schema_names", "schema_owners"]

_SCHEMA_REF = "#/components/schemas/"


def schema_owners(document: dict[str, Any], prefixes: Mapping[str, str]) -> dict[str, set[str]]:
    """Schema name → the schema prefixes of the operations that reach it (``prefixes``:
    operationId → its ruleset's prefix; the shell's own operations count as ``""``)."""
    schemas = document.get("components", {}).get("schemas", {})
    owners: dict[str, set[str]] = {}
    for item in document["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            owner = prefixes.get(operation.get("operationId", ""), "")
            todo = list(schema_refs(operation))
            seen: set[str] = set()
            while todo:
                name = todo.pop()
                if name in seen or name not in schemas:
                    continue
                seen.add(name)
                owners.setdefault(name, set()).add(owner)
                todo.extend(schema_refs(schemas[name]))
    return owners


def _renamed(node: Any, names: Mapping[str, str]) -> Any:
    if isinstance(node, dict):
        return {key: _renamed(value, names) for key, value in node.items()}
    if isinstance(node, list):
        return [_renamed(item, names) for item in node]
    if isinstance(node, str) and node.startswith(_SCHEMA_REF):
        name = node.removeprefix(_SCHEMA_REF)
        return _SCHEMA_REF + names.get(name, name)
    return node


def prefix_schema_names(document: dict[str, Any], prefixes: Mapping[str, str]) -> dict[str, Any]:
    """``document`` with each schema that one ruleset alone reaches named with its prefix.

    ``prefixes``: operationId → its ruleset's schema prefix (``OpenD6``; ``""`` keeps
    names). Refs, discriminator mappings and schema titles follow the new names.
    """
    names: dict[str, str] = {}
    for name, owners in schema_owners(document, prefixes).items():
        (prefix,) = owners if len(owners) == 1 else ("",)
        if prefix and not name.startswith(prefix):
            names[name] = prefix + name
    if not names:
        return document
    renamed: dict[str, Any] = _renamed(document, names)
    schemas = renamed["components"]["schemas"]
    for old, new in names.items():
        schema = schemas.pop(old)
        if schema.get("title") == old:
            schema["title"] = new
        schemas[new] = schema
    renamed["components"]["schemas"] = dict(sorted(schemas.items()))
    return renamed
