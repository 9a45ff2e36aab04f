"""Answers are their own schemas, typed as strictly as the service behaves
(docs/clients.md): checked on the published document, and against the real answers
to every published example (tests/support/examples.py: the stateless ones and every
ruleset's example plays, on the real app).

A generated client makes an optional property `T | undefined` (`Unset`), so a property the
service always sends must be required, or plain use of it fails `tsc --strict` and
`mypy --strict`. Only a Struct with ``omit_defaults`` leaves a field out; any other
optional property of an answer is a schema that lies.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema_rs import Draft202012Validator
from litestar.testing import TestClient

from service.app import create_app
from service.hosted import RULESETS
from service.http.contract.openapi_contract import omits_defaults, schema_refs, unset_fields
from service.http.shell.openapi import schema_types
from service.settings import Settings
from tests.support.examples import PLAYS, STATELESS, Answer, play, post_example

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi/openapi.json").read_text()
)
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
_REF = "#/components/schemas/"

# Optional properties of omit_defaults Structs that every replayed answer happens to
# carry, and why that is no lie.
ALWAYS_PRESENT_HERE: dict[tuple[str, str], str] = {}


def _reachable(roots: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(schema_refs(SCHEMAS[name]))
    return seen


def _operations() -> Iterator[dict[str, Any]]:
    for item in DOCUMENT["paths"].values():
        for operation in item.values():
            if isinstance(operation, dict) and "responses" in operation:
                yield operation


REQUESTS = _reachable(
    {
        name
        for operation in _operations()
        for part in (operation.get("requestBody", {}), operation.get("parameters", []))
        for name in schema_refs(part)
    }
)
ANSWERS = _reachable({name for op in _operations() for name in schema_refs(op["responses"])})


def _optional(name: str) -> list[str]:
    schema = SCHEMAS[name]
    return [p for p in schema.get("properties", {}) if p not in schema.get("required", [])]


def test_no_schema_with_optional_properties_serves_both_requests_and_answers() -> None:
    """A request's optional field is an answer's always-sent one: answers have their own."""
    assert REQUESTS & ANSWERS  # enums and all-required shapes may be shared
    shared = sorted(name for name in REQUESTS & ANSWERS if _optional(name))
    assert shared == []


# Property names that stand for a closed set of values in any ruleset's answers.
_CATEGORIES = {
    "critical",
    "decided_by",
    "dice_source",
    "initiative",
    "kind",
    "loser",
    "move",
    "narrator",
    "option",
    "outcome",
    "phase",
    "role",
    "side",
    "source",
    "state",
    "status",
    "timing",
    "type",
    "winner",
}
PROBLEMS = {
    name
    for operation in _operations()
    for response in operation["responses"].values()
    for name in schema_refs(response.get("content", {}).get("application/problem+json", {}))
}
# Free text by design: a problem type is a URI; a source cites a book or a heading.
_FREE_TEXT = {
    *((name, "type") for name in PROBLEMS),
    ("ProblemType", "type"),
    ("RulesetInfo", "source"),
    ("SelfConflictTable", "source"),
    ("QuickShotDifficultiesTable", "source"),
    ("QuickShotBetsTable", "source"),
    ("QuickShotPublishedOddsTable", "source"),
}


def _free_strings(node: dict[str, Any]) -> bool:
    """Whether ``node`` admits a string that no enum limits."""
    if "$ref" in node:
        return _free_strings(SCHEMAS[node["$ref"].removeprefix(_REF)])
    variants = node.get("anyOf") or node.get("oneOf")
    if variants:
        return any(_free_strings(variant) for variant in variants)
    return node.get("type") == "string" and not node.get("enum")


def test_answers_type_their_categories_as_string_enums() -> None:
    """docs/clients.md, "Shapes": enums are typed `string` — named ones and inline Literals, and a
    field that takes one of a few values (a move's `type`, a die's `critical`) is one."""
    plain = [
        f"{name}.{field}"
        for name in sorted(ANSWERS)
        for field, spec in SCHEMAS[name].get("properties", {}).items()
        if field in _CATEGORIES and (name, field) not in _FREE_TEXT and _free_strings(spec)
    ]
    assert plain == []


# The real answers -----------------------------------------------------------------------

_VALIDATORS: dict[str, Draft202012Validator] = {}


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    key = json.dumps(schema, sort_keys=True)
    if key not in _VALIDATORS:
        _VALIDATORS[key] = Draft202012Validator({**schema, "components": {"schemas": SCHEMAS}})
    return _VALIDATORS[key]


def _walk(instance: Any, schema: dict[str, Any], found: dict[str, list[Any]]) -> None:
    """Every value of ``instance`` that a component schema describes, by schema name."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(_REF)
        found.setdefault(name, []).append(instance)
        _walk(instance, SCHEMAS[name], found)
        return
    variants = schema.get("anyOf") or schema.get("oneOf")
    if variants:
        matching = [v for v in variants if _validator(v).is_valid(instance)]
        assert matching, (instance, schema)
        _walk(instance, matching[0], found)
        return
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, value in instance.items():
            if key in properties:
                _walk(value, properties[key], found)
            elif isinstance(extra, dict):
                _walk(value, extra, found)
    elif isinstance(instance, list) and isinstance(schema.get("items"), dict):
        for item in instance:
            _walk(item, schema["items"], found)


def _answer_schema(answer: Answer) -> dict[str, Any]:
    operation = next(op for op in _operations() if op.get("operationId") == answer.operation_id)
    content = operation["responses"][str(answer.status)]["content"]
    return next(iter(content.values()))["schema"]


def _plain_reads() -> list[tuple[str, str]]:
    """(operation id, path) of the JSON reads that take no parameter (tables, indexes)."""
    return [
        (operation["operationId"], path)
        for path, item in DOCUMENT["paths"].items()
        if "{" not in path and (operation := item.get("get"))
        if not any(p.get("required") for p in operation.get("parameters", []))
        if "application/json" in operation["responses"]["200"].get("content", {})
    ]


@pytest.fixture(scope="module")
def answers(redis_url: str) -> list[Answer]:
    """The answer to every published example (the stateless ones, then each play), and
    to every read without parameters."""
    settings = Settings(redis_url=redis_url, log_format="json")
    found = []
    with TestClient(create_app(settings, rng=random.Random(7))) as client:
        found += [post_example(client, op, body) for op, _, body in STATELESS]
        for _, example_play in PLAYS:
            found += list(play(client, example_play))
        for operation_id, path in _plain_reads():
            response = client.get(path)
            found.append(Answer(operation_id, response.status_code, response.json()))
    assert all(200 <= answer.status < 300 for answer in found)
    return found


@pytest.fixture(scope="module")
def instances(answers: list[Answer]) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for answer in answers:
        _walk(answer.body, _answer_schema(answer), found)
    return found


def test_every_answer_matches_its_published_schema(answers: list[Answer]) -> None:
    """Every field marked required is there, every value of its declared type and enum."""
    for answer in answers:
        errors = [str(e) for e in _validator(_answer_schema(answer)).iter_errors(answer.body)]
        assert errors == [], answer.operation_id


def _omits_defaults() -> set[str]:
    """Published names of the Structs that leave a field at its default out (a ruleset's
    own are published with its prefix)."""
    names = omits_defaults(schema_types(create_app(_SETTINGS)))
    return {prefix + name for name in names for prefix in {r.schema_prefix for r in RULESETS}}


def _unset_fields() -> set[tuple[str, str]]:
    """(published name, field) of the fields left out until set (an ``UNSET`` default)."""
    found = unset_fields(schema_types(create_app(_SETTINGS)))
    return {
        (prefix + name, field)
        for name, fields in found.items()
        for field in fields
        for prefix in {r.schema_prefix for r in RULESETS}
    }


_SETTINGS = Settings(redis_url="redis://unused")


def test_no_optional_property_of_an_answer_is_always_sent(
    instances: dict[str, list[Any]],
) -> None:
    """An optional property present in every real answer of its schema is one the
    service always sends: it must be required. Only an ``omit_defaults`` Struct may leave
    it optional, and then some answer must lack it (or ALWAYS_PRESENT_HERE says why); so
    may a field left out until set (an ``UNSET`` default, such as a revealed seed)."""
    omitting = _omits_defaults()
    unset = _unset_fields()
    always_sent = []
    for name, values in sorted(instances.items()):
        objects = [value for value in values if isinstance(value, dict)]
        for field in _optional(name) if objects else ():
            if (name, field) in unset:
                continue
            if all(field in value for value in objects):
                if name not in omitting or (name, field) not in ALWAYS_PRESENT_HERE:
                    always_sent.append(f"{name}.{field}")
            else:
                assert name in omitting, f"{name}.{field} is left out, yet no omit_defaults"
    assert always_sent == []


def test_the_examples_reach_the_answer_schemas(instances: dict[str, list[Any]]) -> None:
    """The replayed examples are a fair sample: most answer object schemas are seen."""
    # Events reach a client as stream frames, which the replayed JSON examples are not
    # (tests/sessions/test_stream_tickets.py checks frames against those schemas).
    streamed = _reachable(
        {
            name
            for op in _operations()
            for answer in op["responses"].values()
            for media, content in answer.get("content", {}).items()
            if media == "text/event-stream"
            for name in schema_refs(content)
        }
    )
    objects = {n for n in ANSWERS - streamed if SCHEMAS[n].get("type") == "object"}
    seen = objects & set(instances)
    assert {
        "OpenD6RollResult",
        "OpenD6RolledFaces",
        "OpenD6SceneRulesView",
        "OpenD6ScenePendingRollView",
    } <= seen
    assert {
        "PlayerView",
        "OppositionView",
        "OpenD6SceneParticipantView",
        "OpenD6SceneMoveMade",
    } <= seen
    assert len(seen) >= 0.85 * len(objects), sorted(objects - seen)
