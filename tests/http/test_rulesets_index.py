"""GET /v1/rulesets and the registry every ruleset plugs into (README, "How the code is
organised": adding a game)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema_rs import Draft202012Validator
from litestar.testing import TestClient

from service.hosted import RULESETS
from service.http.contract.problem_types import PROBLEM_TYPES, problem_type, register_problems
from service.http.contract.registry import ExamplePlay, Ruleset, RulesetWork
from tests.support.examples import PLAYS, SHARED_EXAMPLES, STATELESS, play, post_example


def test_the_index_lists_bullseye_with_its_published_prefix_and_operations(
    client: TestClient,
) -> None:
    response = client.get("/v1/rulesets")
    assert response.status_code == 200
    (bullseye,) = [r for r in response.json()["rulesets"] if r["id"] == "bullseye"]
    assert bullseye["title"] == "Bullseye v1.0"
    assert bullseye["route_prefix"] == "/v1"
    assert bullseye["source"] == "Bullseye v1.0, by Justin D. Jacobson (2008)"
    assert bullseye["work"] == {
        "title": "Bullseye v1.0",
        "author": "Justin D. Jacobson",
        "year": 2008,
    }
    assert bullseye["stateful"] == ["conflict"]
    assert {
        "resolveCheck",
        "resolveCheckBatch",
        "validateCharacter",
        "createConflict",
        "submitRoundCheck",
        "streamConflictEvents",
        "listTables",
    } <= set(bullseye["operations"])


def test_every_source_is_named_by_title_author_and_year_never_by_a_path(
    client: TestClient,
) -> None:
    """A caller cannot open a file of ours: ``source`` cites the game text as a reader would
    look it up, and ``work`` gives its parts (issue 21)."""
    listed = {r["id"]: r for r in client.get("/v1/rulesets").json()["rulesets"]}
    assert {r["id"]: r["work"] for r in listed.values()} == {
        "bullseye": {"title": "Bullseye v1.0", "author": "Justin D. Jacobson", "year": 2008},
        "opend6": {"title": "OpenD6 Fantasy Game Basics", "author": "West End Games", "year": 2009},
        "self-conflict": {
            "title": "An untitled 2d6 talent system",
            "author": "JurviZ",
            "year": 2004,
        },
        "travelogue": {
            "title": "Bullseye: An Urgent Travelogue",
            "author": "Judson Lester",
            "year": None,  # the text gives none
        },
        "quick-shot": {"title": "Quick Shot", "author": "Bryanhm", "year": 2010},
    }
    for ruleset in listed.values():
        work = ruleset["work"]
        year = "" if work["year"] is None else f" ({work['year']})"
        assert ruleset["source"] == f"{work['title']}, by {work['author']}{year}"
        assert "/" not in ruleset["source"], ruleset["source"]


def test_a_source_of_unknown_year_is_cited_without_one() -> None:
    undated = RulesetWork(title="Bullseye: an urgent travelogue", author="Judson Lester", year=None)
    assert undated.citation() == "Bullseye: an urgent travelogue, by Judson Lester"
    dated = RulesetWork(title="Quick Shot", author="Bryanhm", year=2010)
    assert dated.citation() == "Quick Shot, by Bryanhm (2010)"


def test_every_listed_operation_is_in_the_published_document(client: TestClient) -> None:
    published = {
        operation["operationId"]
        for path in client.get("/openapi.json").json()["paths"].values()
        for operation in path.values()
    }
    for ruleset in client.get("/v1/rulesets").json()["rulesets"]:
        assert set(ruleset["operations"]) <= published, ruleset["id"]


def test_every_ruleset_mounts_under_v1_and_further_ones_under_their_id() -> None:
    ids = [ruleset.id for ruleset in RULESETS]
    assert len(ids) == len(set(ids))
    for ruleset in RULESETS:
        expected = "/v1" if ruleset.id == "bullseye" else f"/v1/{ruleset.id}"
        assert ruleset.route_prefix == expected
        for _, _, path in ruleset.operations():
            assert path.startswith(ruleset.route_prefix + "/"), path


def test_every_registered_problem_type_resolves(client: TestClient) -> None:
    for ruleset in RULESETS:
        for kind in ruleset.problems:
            answer = client.get(kind.type)
            assert answer.status_code == 200, kind.type
            assert answer.json()["status"] == kind.status


def _published_examples(document: dict[str, Any]) -> dict[str, list[Any]]:
    """Operation id → the example bodies its request body publishes."""
    found = {}
    for item in document["paths"].values():
        for operation in item.values():
            if "requestBody" in operation:
                media = operation["requestBody"]["content"]["application/json"]
                examples = media.get("examples", {}).values()
                found[operation["operationId"]] = [example["value"] for example in examples]
    return found


def test_every_operation_with_a_body_publishes_an_example(client: TestClient) -> None:
    """The registry's convention: a request example on every operation that reads a body."""
    published = _published_examples(client.get("/openapi.json").json())
    assert published
    assert [op for op, examples in published.items() if not examples] == []


def test_the_examples_the_tests_run_are_exactly_those_published(client: TestClient) -> None:
    """Each ruleset's `examples` and `plays`, and the shell's own, run every published
    example, and only those."""
    published = _published_examples(client.get("/openapi.json").json())
    run: dict[str, list[Any]] = {}
    for examples_by_operation in (*(r.examples_run() for r in RULESETS), SHARED_EXAMPLES):
        for operation_id, examples in examples_by_operation.items():
            run.setdefault(operation_id, []).extend(example.value for example in examples)
    assert set(run) == set(published)
    for operation_id, bodies in published.items():
        assert sorted(map(_canonical, run[operation_id])) == sorted(map(_canonical, bodies)), (
            operation_id
        )


def _canonical(body: Any) -> str:
    return json.dumps(body, sort_keys=True)


def test_every_member_of_a_body_union_has_an_example(client: TestClient) -> None:
    """A body of several shapes (a scene's moves, by `type`): each shape has an example."""
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    published = _published_examples(document)
    unions = 0
    for item in document["paths"].values():
        for operation in item.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None or "oneOf" not in body["schema"]:
                continue
            unions += 1
            for member in body["schema"]["oneOf"]:
                validator = Draft202012Validator({**member, "components": {"schemas": schemas}})
                examples = published[operation["operationId"]]
                assert any(validator.is_valid(example) for example in examples), (
                    operation["operationId"],
                    member,
                )
    assert unions


@pytest.mark.parametrize(
    ("operation_id", "summary", "body"), STATELESS, ids=[f"{op}: {s}" for op, s, _ in STATELESS]
)
def test_every_stateless_example_is_accepted_by_its_operation(
    client: TestClient, operation_id: str, summary: str, body: Any
) -> None:
    """The examples a ruleset publishes are bodies its operation really accepts."""
    answer = post_example(client, operation_id, body)
    assert 200 <= answer.status < 300, (summary, answer.body)


@pytest.mark.parametrize(
    ("ruleset", "example_play"), PLAYS, ids=[f"{r.id}: {p.summary}" for r, p in PLAYS]
)
def test_every_example_play_runs_from_its_creation_to_its_last_step(
    client: TestClient, ruleset: Ruleset, example_play: ExamplePlay
) -> None:
    """A session's examples, played in order against the real app (seeded server dice),
    each answered with its step's status and showing what the step says."""
    answers = list(play(client, example_play))
    assert len(answers) == len(example_play.steps) + 1
    assert all(200 <= answer.status < 300 for answer in answers)


def test_a_problem_code_registered_twice_differently_is_refused() -> None:
    held = next(iter(PROBLEM_TYPES.values()))
    register_problems([held])  # the same entry again: a no-op
    clash = problem_type(held.code, held.status, "Another title", held.description)
    with pytest.raises(ValueError, match="registered twice"):
        register_problems([clash])
    assert PROBLEM_TYPES[held.code] == held


def test_a_rulesets_own_problem_types_resolve_under_its_id(client: TestClient) -> None:
    """README, "Adding a game": further rulesets' rule problems are /problems/<id>/<code>."""
    kind = problem_type("example-game/too-many-dice", 422, "Too many dice", "A test entry.")
    register_problems([kind])
    try:
        assert kind.type == "/problems/example-game/too-many-dice"
        answer = client.get(kind.type)
        assert answer.status_code == 200
        assert answer.json() == {
            "code": "example-game/too-many-dice",
            "type": "/problems/example-game/too-many-dice",
            "status": 422,
            "title": "Too many dice",
            "description": "A test entry.",
        }
        assert client.get("/problems/example-game/no-such-code").status_code == 404
    finally:
        PROBLEM_TYPES.pop(kind.code)  # the catalog is per process
