"""Assertions on problem details, as every test of every ruleset makes them."""

from __future__ import annotations

PROBLEM = "application/problem+json"


def assert_problem(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["type"] == f"/problems/{code}"
    assert body["status"] == status
    assert body["title"]
    assert body["detail"]
    assert "Traceback" not in response.text
    # One shape for every problem: at least one error, each with a stable code.
    assert isinstance(body["errors"], list), body
    assert body["errors"], body
    assert all(isinstance(error["code"], str) and error["code"] for error in body["errors"]), body
    return body
