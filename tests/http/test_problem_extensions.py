"""RFC 9457 §3.2 extension members: a rules error may carry values a client acts on
without parsing `detail` (Self/Conflict's `faces-missing` says how many dice, and which)."""

from __future__ import annotations

import msgspec

from service.http.contract.problems import handle_exception
from service.kernel.errors import Concern, RulesError


def _body(error: RulesError) -> dict[str, object]:
    response = handle_exception(None, error)  # type: ignore[arg-type]
    body: dict[str, object] = msgspec.json.decode(response.content)
    return body


# Any catalogued code will do; the shell's own keeps this test free of every ruleset.
CODE = "forbidden"


def test_extensions_are_members_beside_the_standard_ones() -> None:
    concern = Concern(code=CODE, pointer="/faces", detail="2 more.")
    body = _body(
        RulesError(CODE, "2 more.", (concern,), {"missing": 2, "roles": ["self_reroll", "x"]})
    )
    assert body["type"] == "/problems/forbidden"
    assert (body["missing"], body["roles"]) == (2, ["self_reroll", "x"])
    assert body["errors"] == [{"code": concern.code, "detail": "2 more.", "pointer": "/faces"}]


def test_extensions_never_replace_a_standard_member_and_survive_under() -> None:
    error = RulesError(CODE, "1 too many.", (), {"status": 200, "n": 1})
    body = _body(error.under("/checks/0"))
    assert (body["status"], body["n"]) == (403, 1)


def test_without_extensions_the_problem_is_unchanged() -> None:
    body = _body(RulesError(CODE, "1 too many."))
    assert set(body) == {"type", "title", "status", "detail", "errors", "request_id"}
