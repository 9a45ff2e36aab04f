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
    return body
