"""Read every recorded answer (answers.py) through the generated Python client.

Each answer goes through its operation's own ``_parse_response`` — the generated code a
call runs, which raises on an undeclared status and, in ``from_dict``, on a required member
missing — and then every attribute the client types as present (no ``Unset`` in its
annotation) is read, nested models, lists and maps included: present, and not ``UNSET``.
A member the answer carries that its model does not declare (left in a model's untyped
``additional_properties``) fails too: a client could read it only untyped.

    python tests/clients/read_answers.py ANSWERS_JSON

Run with the tool venv and the generated package on PYTHONPATH (tests/clients/check.sh).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import httpx
from tabletop_rules_service_client import Client, api
from tabletop_rules_service_client.types import Unset

Parse = Callable[..., Any]
_ROUTE = re.compile(r'"method": "(\w+)",\s*"url": "([^"]+)"')


def _parsers() -> dict[tuple[str, str], Parse]:
    """(method, path template) → the generated ``_parse_response`` of its operation."""
    found: dict[tuple[str, str], Parse] = {}
    for module_info in pkgutil.walk_packages(api.__path__, api.__name__ + "."):
        module = importlib.import_module(module_info.name)
        source = Path(str(module.__file__)).read_text()
        if (route := _ROUTE.search(source)) and hasattr(module, "_parse_response"):
            found[(route[1].upper(), route[2])] = module._parse_response
    return found


def _routes(document: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {
        operation["operationId"]: (method.upper(), path)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }


def _unread(value: Any, where: str) -> Iterator[str]:
    """What a client typing ``value`` as generated could not read: an attribute typed
    present but unset, or a member left untyped."""
    if isinstance(value, Unset):
        yield f"{where}: typed present, but absent"
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _unread(item, f"{where}[{index}]")
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            item = getattr(value, field.name)
            if field.name == "additional_properties":
                untyped = str(field.type).replace(" ", "") == "dict[str,Any]"
                if untyped and item:
                    yield f"{where}: members its model does not declare: {sorted(item)}"
                for key, member in item.items():
                    yield from _unread(member, f"{where}[{key!r}]")
            elif "Unset" not in str(field.type) or not isinstance(item, Unset):
                yield from _unread(item, f"{where}.{field.name}")


def main() -> None:
    answers = json.loads(Path(sys.argv[1]).read_text())
    root = Path(__file__).resolve().parents[2]
    routes = _routes(json.loads((root / "openapi/openapi.json").read_text()))
    parsers = _parsers()
    client = Client(base_url="http://answers.invalid", raise_on_unexpected_status=True)
    failures: list[str] = []
    read = 0
    for answer in answers:
        if answer["body"] is None:
            continue  # no body to read (204, 304)
        label = f"{answer['operation_id']} {answer['status']} ({answer['case']})"
        response = httpx.Response(
            answer["status"],
            headers={"content-type": answer["media_type"]},
            content=json.dumps(answer["body"]).encode(),
        )
        try:
            parsed = parsers[routes[answer["operation_id"]]](client=client, response=response)
        except Exception as error:
            failures.append(f"{label}: {type(error).__name__}: {error}")
            continue
        failures += [f"{label}: {problem}" for problem in _unread(parsed, type(parsed).__name__)]
        read += 1
    if failures:
        sys.exit("python client: answers it cannot read as typed:\n  " + "\n  ".join(failures))
    print(
        f"  ok  {read} answers parsed by the generated models, every attribute typed present read"
    )


if __name__ == "__main__":
    main()
