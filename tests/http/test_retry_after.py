"""Which answers say when to retry is decided in one place, the problem catalog
(service.http.contract.problem_types.RETRY_AFTER), and the published document declares it on every
status such an answer can have."""

from __future__ import annotations

import pytest

from service.hosted import RULESETS
from service.http.contract.problem_types import PROBLEM_TYPES, RETRY_AFTER
from service.http.contract.problems import problem_response
from tests.support.openapi import default_document


def test_every_curable_problem_is_a_409_429_or_503_of_the_catalog() -> None:
    assert {PROBLEM_TYPES[code].status for code in RETRY_AFTER} == {409, 429, 503}
    assert all(seconds >= 1 for seconds in RETRY_AFTER.values())


def test_every_503_is_curable_and_no_rule_conflict_is() -> None:
    """The state store or a worker's streams come back; a rule says the same next time."""
    unavailable = {code for code, kind in PROBLEM_TYPES.items() if kind.status == 503}
    assert unavailable <= set(RETRY_AFTER)
    rule_conflicts = {
        kind.code for ruleset in RULESETS for kind in ruleset.problems if kind.status == 409
    }
    assert rule_conflicts  # wrong-round, round-already-resolved, wrong-phase, …
    assert not rule_conflicts & set(RETRY_AFTER)
    assert "session-full" not in RETRY_AFTER  # the session stays too big


@pytest.mark.parametrize("code", sorted(RETRY_AFTER))
def test_a_curable_problem_always_says_when_and_keeps_a_raisers_own_wait(code: str) -> None:
    assert problem_response(code, "x").headers["Retry-After"] == str(RETRY_AFTER[code])
    given = problem_response(code, "x", headers={"retry-after": "7", "Allow": "GET"})
    assert (given.headers["Retry-After"], given.headers["Allow"]) == ("7", "GET")


def test_a_problem_no_retry_cures_never_says_when_to_retry() -> None:
    refused = problem_response("session-full", "x", headers={"Retry-After": "1"})
    assert "Retry-After" not in refused.headers


def test_the_document_declares_retry_after_on_every_409_429_and_503() -> None:
    document = default_document()
    header = document["components"]["headers"]["Retry-After"]
    for code in RETRY_AFTER:
        assert f"`{code}`" in header["description"]
    declared = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                has = "Retry-After" in response.get("headers", {})
                assert has == (status in ("409", "429", "503")), (method, path, status)
                declared += status == "409"
    assert declared >= 8  # every session write and creation
