"""An unhandled error is logged with its traceback's frames, never their locals: a frame may
hold a token, a key or a body (security review: structlog's ``dict_tracebacks`` showed
locals, and a ``token`` local appeared verbatim in the log)."""

from __future__ import annotations

import json
import secrets

import pytest

from service.http.contract.problems import handle_exception
from service.logging import _LINES, configure_logging
from service.settings import Settings


class _BoomError(RuntimeError):
    pass


def _fail_holding(token: str) -> None:
    held = {"authorization": f"Bearer {token}"}
    raise _BoomError(f"failed after {len(held)} header")


@pytest.mark.parametrize("log_format", ["json", "console"])
def test_an_unhandled_errors_log_line_holds_no_local(
    log_format: str, capfd: pytest.CaptureFixture[str]
) -> None:
    configure_logging(Settings(log_format=log_format))  # type: ignore[arg-type]
    token = secrets.token_urlsafe(32)
    status = 0
    try:
        _fail_holding(token)
    except _BoomError as error:
        status = handle_exception(None, error).status_code  # type: ignore[arg-type]
    _LINES.flush()
    logged = capfd.readouterr().err
    configure_logging(Settings(log_format="json"))
    assert status == 500
    assert "unhandled_exception" in logged
    assert "_fail_holding" in logged  # the frames are there
    assert token not in logged
    if log_format == "json":
        (line,) = (json.loads(x) for x in logged.splitlines() if "unhandled_exception" in x)
        frames = line["exception"][0]["frames"]
        assert frames
        assert all(not frame.get("locals") for frame in frames)
