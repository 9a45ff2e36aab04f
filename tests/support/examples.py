"""Every example the rulesets publish, run against the real app as the registry lists
them: a stateless operation's one by one, a session operation's as its ruleset's plays
(:class:`service.http.contract.registry.ExamplePlay`). tests/http checks they all succeed;
tests/contract checks every answer against its published schema."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from litestar.testing import TestClient

from service.hosted import RULESETS
from service.http.contract.registry import ExamplePlay, PlayStep, Ruleset
from service.http.receipts.routes import VERIFY_EXAMPLES

__all__ = [
    "PLAYS",
    "SHARED_EXAMPLES",
    "STATELESS",
    "Answer",
    "operation_routes",
    "play",
    "post_example",
    "step_request",
]

_PARAMETER = re.compile(r"\{(\w+)(?::\w+)?\}")


@dataclass(frozen=True)
class Answer:
    """One answer to a published example."""

    operation_id: str
    status: int
    body: Any


# The shell's own operations with a body (every ruleset's receipts), with their examples.
_SHARED_ROUTES = {"verifyReceipt": ("POST", "/v1/receipts/verify")}
SHARED_EXAMPLES = {"verifyReceipt": VERIFY_EXAMPLES}


def operation_routes() -> dict[str, tuple[str, str]]:
    """Operation id → (method, path template) over every ruleset and the shell's own."""
    routes = {op: (method, path) for r in RULESETS for op, method, path in r.operations()}
    return routes | _SHARED_ROUTES


STATELESS = [
    (operation_id, example.summary or "", example.value)
    for examples_by_operation in (*(r.examples for r in RULESETS), SHARED_EXAMPLES)
    for operation_id, examples in examples_by_operation.items()
    for example in examples
]
PLAYS: list[tuple[Ruleset, ExamplePlay]] = [(r, p) for r in RULESETS for p in r.plays]


def post_example(client: TestClient, operation_id: str, body: Any) -> Answer:
    method, path = operation_routes()[operation_id]
    assert not _PARAMETER.search(path), f"{operation_id} has path parameters: play it"
    response = client.request(method, path, json=body)
    return Answer(operation_id, response.status_code, response.json() if response.content else None)


def _pointed(document: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        key = part.replace("~1", "/").replace("~0", "~")
        document = document[int(key)] if isinstance(document, list) else document[key]
    return document


def step_request(
    step: PlayStep, session: Any, routes: dict[str, tuple[str, str]] | None = None
) -> tuple[str, str, dict[str, str]]:
    """The method, URL and headers of a play's ``step`` in ``session`` (the creation's
    answer: its ``id`` fills the one path parameter the step leaves unnamed, its ``tokens``
    the role's bearer token)."""
    method, template = (routes or operation_routes())[step.operation_id]
    named = {name: str(value) for name, value in step.path.items()}
    unnamed = [p for p in _PARAMETER.findall(template) if p not in named]
    assert len(unnamed) == 1, (step.operation_id, unnamed)  # the session's id
    named[unnamed[0]] = session["id"]
    url = template
    for name, value in named.items():
        url = re.sub(r"\{" + name + r"(?::\w+)?\}", value, url)
    tokens = session["tokens"]
    token = tokens["gm"] if step.role == "gm" else tokens["players"][step.role]
    return method, url, {"Authorization": f"Bearer {token}"}


def play(client: TestClient, example_play: ExamplePlay) -> Iterator[Answer]:
    """Create the session, then make each step with its role's token, asserting each
    status and what the step says its answer shows; yields every answer, creation first."""
    routes = operation_routes()
    method, path = routes[example_play.create_operation]
    created = client.request(method, path, json=example_play.create.value)
    assert created.status_code == 201, (example_play.summary, created.text)
    session = created.json()
    yield Answer(example_play.create_operation, 201, session)
    for index, step in enumerate(example_play.steps, start=1):
        method, url, headers = step_request(step, session, routes)
        response = client.request(
            method,
            url,
            json=None if step.example is None else step.example.value,
            headers=headers,
        )
        where = f"{example_play.summary}, step {index} ({step.operation_id}"
        if step.example is not None:
            where += f": {step.example.summary}"
        where += ")"
        assert response.status_code == step.status, f"{where}: {response.text}"
        body = response.json() if response.content else None
        for pointer, value in step.shows.items():
            assert _pointed(body, pointer) == value, f"{where}: {pointer} in {response.text}"
        yield Answer(step.operation_id, response.status_code, body)
