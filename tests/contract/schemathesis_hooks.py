"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS): conflicts' tokens as real auth.

A conflict's routes need the token its creation returned. Links carry the conflict's id;
this provider remembers each created conflict's GM token and sends it as the bearer
credential of every request to that conflict, so the stateful phase acts with valid
tokens, and Schemathesis' auth checks still see what happens without them.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis

# The conflict the test created before the run, for operations the config points at it.
_TOKENS: dict[str, str] = {
    os.environ["SCHEMATHESIS_CONFLICT_ID"]: os.environ["SCHEMATHESIS_CONFLICT_TOKEN"],
    os.environ["SCHEMATHESIS_SCENE_ID"]: os.environ["SCHEMATHESIS_SCENE_TOKEN"],
}


_CREATES = {"createConflict", "opend6CreateScene"}


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.operation.definition.raw.get("operationId") not in _CREATES:
        return
    if response.status_code == 201:
        created = response.json()
        _TOKENS[created["id"]] = created["tokens"]["gm"]


@schemathesis.auth(refresh_interval=None, retry_on=[]).apply_to(
    path_regex="^/v1/(conflicts|opend6/scenes)/"
)
class ConflictToken:
    def get(self, case: Any, context: Any) -> str | None:
        parameters = case.path_parameters or {}
        return _TOKENS.get(parameters.get("conflict_id") or parameters.get("scene_id") or "")

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
