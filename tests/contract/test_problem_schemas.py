"""Every problem the service answers is its operation's declared schema, extension members
included (RFC 9457 §3.2): a generated client reads `waiting_for`, `missing` or `awaiting`
off its typed error, with no cast (docs/clients.md).

The answers are those of tests/support/answer_cases.py on the real app: every published
example and the problems around it, and the examples again on an app that computes no
odds (every odds operation's `odds-too-costly`). The extension members the code can send
are found in its source (every ``extensions=`` of a ``RulesError`` or a problem), so a new
one fails here until an answer here carries it and its operation's schema declares it.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema_rs import Draft202012Validator
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.answer_cases import (
    DOCUMENT,
    Answered,
    all_cases,
    declared_schema,
    odds_cases,
    unanswered,
)

SERVICE = Path(__file__).resolve().parents[2] / "service"
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
_REF = "#/components/schemas/"
PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def answers(redis_url: str) -> list[Answered]:
    served = Settings(redis_url=redis_url, log_format="json", sessions_per_client=0)
    with TestClient(create_app(served, rng=random.Random(7))) as client:
        found = all_cases(client)
    no_odds = Settings(redis_url=redis_url, odds_workers=0, odds_inline_ms=0, sessions_per_client=0)
    with TestClient(create_app(no_odds)) as client:
        found += odds_cases(client)
    return found


def _problems(answers: list[Answered]) -> Iterator[tuple[Answered, dict[str, Any]]]:
    for answer in answers:
        if answer.media_type == PROBLEM:
            schema = declared_schema(answer)
            assert schema is not None, (answer.operation_id, answer.status, answer.case)
            yield answer, SCHEMAS[schema["$ref"].removeprefix(_REF)]


def test_every_declared_problem_status_is_answered(answers: list[Answered]) -> None:
    """The cases are no empty pass: each operation's declared problem statuses (but those
    no request can bring about here) are answered, each as its operation declares."""
    assert unanswered(answers) == []


def test_every_problem_is_valid_in_its_declared_schema(answers: list[Answered]) -> None:
    invalid = []
    for answer, schema in _problems(answers):
        validator = Draft202012Validator({**schema, "components": {"schemas": SCHEMAS}})
        errors = [error.message for error in validator.iter_errors(answer.body)]
        if errors:
            invalid.append(f"{answer.operation_id} {answer.status} ({answer.case}): {errors}")
    assert invalid == []


def test_every_member_of_a_problem_is_declared(answers: list[Answered]) -> None:
    """What a problem carries its schema names, so a generated client types it."""
    undeclared = {
        f"{answer.operation_id} {answer.status}: {member}"
        for answer, schema in _problems(answers)
        for member in answer.body
        if member not in schema["properties"]
    }
    assert sorted(undeclared) == []


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _keys(node: ast.expr | None) -> set[str]:
    if not isinstance(node, ast.Dict):
        return set()
    return {
        key.value
        for key in node.keys
        if isinstance(key, ast.Constant) and isinstance(key.value, str)
    }


def _sent_in(tree: ast.Module) -> set[str]:
    """The extension members ``tree`` passes: ``extensions={...}``, a ``RulesError``'s
    fourth argument (``from_concerns``' second), ``extensions.setdefault("name", …)`` and
    the keywords of a call to a function taking ``**extensions``."""
    spreading = {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.args.kwarg
        if node.args.kwarg.arg == "extensions"
    }
    found: set[str] = set()
    for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
        name = _call_name(call)
        for keyword in call.keywords:
            if keyword.arg == "extensions":
                found |= _keys(keyword.value)
            elif name in spreading and keyword.arg:
                found.add(keyword.arg)
        position = {"RulesError": 3, "from_concerns": 1}.get(name)
        if position is not None and len(call.args) > position:
            found |= _keys(call.args[position])
        target = call.func.value if isinstance(call.func, ast.Attribute) else None
        named = isinstance(target, ast.Name) and target.id == "extensions"
        first = call.args[0] if call.args else None
        if name == "setdefault" and named and isinstance(first, ast.Constant):
            found.add(str(first.value))
    return found


def sent_extension_members() -> set[str]:
    """Every problem extension member the service's code passes."""
    found: set[str] = set()
    for path in sorted(SERVICE.rglob("*.py")):
        found |= _sent_in(ast.parse(path.read_text(), str(path)))
    return found


def test_the_source_scan_finds_the_extension_members() -> None:
    """The scan is no empty pass: it finds each way the code passes a member."""
    assert {"waiting_for", "awaiting", "estimated_cost_ms", "roles", "extra"} <= (
        sent_extension_members()
    )


def test_every_extension_member_the_code_sends_is_answered_and_declared(
    answers: list[Answered],
) -> None:
    standard = set(SCHEMAS["Problem"]["properties"])
    carried = {
        member
        for answer, schema in _problems(answers)
        for member in answer.body
        if member not in standard and member in schema["properties"]
    }
    assert sorted(sent_extension_members() - carried) == []


def test_every_extension_member_is_described() -> None:
    """An extension member says which problem sends it, and what it holds."""
    standard = set(SCHEMAS["Problem"]["properties"])
    problems = {
        content["schema"]["$ref"].removeprefix(_REF)
        for item in DOCUMENT["paths"].values()
        for operation in item.values()
        if isinstance(operation, dict)
        for response in operation.get("responses", {}).values()
        if (content := response.get("content", {}).get(PROBLEM))
    }
    bare = [
        f"{name}.{member}"
        for name in sorted(problems)
        for member, spec in SCHEMAS[name]["properties"].items()
        if member not in standard and "`" not in spec.get("description", "")
    ]
    assert bare == []
