"""Roles and tokens of a session (docs/sessions.md): one token per role,
kept only as hashes; a GM is optional (the chase game has none)."""

from __future__ import annotations

import pytest
from litestar import Request
from litestar.testing import TestClient

from service.http.contract.errors import Unauthorized
from service.kernel.sessions import GM
from service.sessions.access import issue_tokens, role_of, token_of
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.problems import assert_problem


def test_a_session_without_a_gm_has_player_tokens_only() -> None:
    tokens, access = issue_tokens(["ana", "bo"], gm=False)
    assert (tokens.gm, access.gm) == (None, None)
    assert role_of(access, tokens.players["bo"], "chase") == "bo"
    assert role_of(access, tokens.players["ana"], "chase") == "ana"


def test_with_a_gm_each_token_opens_its_own_role_and_only_hashes_are_kept() -> None:
    tokens, access = issue_tokens(["ana"], gm=True)
    assert tokens.gm is not None
    assert role_of(access, tokens.gm, "conflict") == GM
    kept = [access.gm, *access.players.values()]
    assert tokens.gm not in kept
    assert tokens.players["ana"] not in kept
    assert len(set(tokens.players.values()) | {tokens.gm}) == 2


def test_a_token_of_another_session_opens_nothing() -> None:
    _, access = issue_tokens(["ana"], gm=False)
    other, _ = issue_tokens(["ana"], gm=True)
    for token in (other.players["ana"], other.gm, ""):
        with pytest.raises(Unauthorized):
            role_of(access, token or "x", "chase")


def test_a_wrong_token_is_said_not_accepted_and_a_missing_one_asked_for(
    client: TestClient,
) -> None:
    """Integrators' review: a wrong token's 401 was titled "Token required"."""
    created = client.post("/v1/conflicts", json=conflict_body()).json()
    path = f"/v1/conflicts/{created['id']}"
    wrong = assert_problem(client.get(path, headers=bearer("x" * 43)), 401, "unauthorized")
    missing = assert_problem(client.get(path), 401, "unauthorized")
    assert wrong["title"] == missing["title"] == "Session token missing or not accepted"
    assert "does not open" in wrong["detail"]
    assert "Send the conflict's token" in missing["detail"]


def _presenting(*headers: tuple[bytes, bytes]) -> Request:
    return Request({"type": "http", "headers": list(headers)})  # type: ignore[typeddict-item]


def test_the_token_header_comes_first_then_a_bearer_token_each_first_of_its_name() -> None:
    """token_of reads the scope's headers as ``request.headers.get`` would: the first value
    of a name; an empty token header falls back to Authorization."""
    auth, token = (b"authorization", b"Bearer from-bearer"), (b"x-conflict-token", b"t1")
    assert token_of(_presenting(auth, token, (b"x-conflict-token", b"t2")), b"x-conflict-token",
                    "conflict") == "t1"  # fmt: skip
    assert token_of(_presenting((b"x-conflict-token", b""), auth), b"x-conflict-token",
                    "conflict") == "from-bearer"  # fmt: skip
    assert token_of(_presenting(auth, (b"authorization", b"Bearer other")), b"x-conflict-token",
                    "conflict") == "from-bearer"  # fmt: skip
    with pytest.raises(Unauthorized):
        token_of(_presenting((b"authorization", b"Basic abc")), b"x-conflict-token", "conflict")
