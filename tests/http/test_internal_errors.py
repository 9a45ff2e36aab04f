"""An unexpected exception becomes a 500 problem with no internals in it."""

from __future__ import annotations

import msgspec

from service.http.contract.problems import handle_exception


class _BoomError(RuntimeError):
    pass


def test_an_unexpected_error_is_a_bare_500_problem() -> None:
    response = handle_exception(None, _BoomError("database password is hunter2"))  # type: ignore[arg-type]
    assert response.status_code == 500
    assert response.media_type == "application/problem+json"
    body = msgspec.json.decode(response.content)
    assert body["type"] == "/problems/internal-error"
    assert "hunter2" not in response.content.decode()
    assert "_BoomError" not in response.content.decode()
