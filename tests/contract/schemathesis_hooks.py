"""Schemathesis hooks (loaded through SCHEMATHESIS_HOOKS): sessions' tokens as real auth.

A conflict's routes need the token its creation returned. Links carry the conflict's id;
this provider remembers each created conflict's GM token and sends it as the bearer
credential of every request to that conflict, so the stateful phase acts with valid
tokens, and Schemathesis' auth checks still see what happens without them.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis

# The conflict, scene and game the test created before the run, for operations the config points
# at them.
_TOKENS: dict[str, str] = {
    os.environ["SCHEMATHESIS_CONFLICT_ID"]: os.environ["SCHEMATHESIS_CONFLICT_TOKEN"],
    os.environ["SCHEMATHESIS_SCENE_ID"]: os.environ["SCHEMATHESIS_SCENE_TOKEN"],
    os.environ["SCHEMATHESIS_GAME_ID"]: os.environ["SCHEMATHESIS_GAME_TOKEN"],
    os.environ["SCHEMATHESIS_POOLS_GAME_ID"]: os.environ["SCHEMATHESIS_POOLS_GAME_TOKEN"],
}
# Those two must outlive the run: the stateful phase may reach their ids through links
# inferred from answers that carry them (a move's `scene.id`), and a DELETE with their
# token would leave every later request the config points at them a 404. It goes
# without a token instead (401).
_KEPT = frozenset(_TOKENS)


_CREATES = {"createConflict", "openD6CreateScene", "travelogueCreateGame"}


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    if case.operation.definition.raw.get("operationId") not in _CREATES:
        return
    if response.status_code == 201:
        created = response.json()
        tokens = created["tokens"]
        # A travelogue game has no GM: its first player's token opens it as well.
        _TOKENS[created["id"]] = tokens.get("gm") or next(iter(tokens["players"].values()))


@schemathesis.auth(refresh_interval=None, retry_on=[]).apply_to(
    path_regex="^/v1/(conflicts|opend6/scenes|travelogue/games)/"
)
class ConflictToken:
    def get(self, case: Any, context: Any) -> str | None:
        parameters = case.path_parameters or {}
        session = (
            parameters.get("conflict_id")
            or parameters.get("scene_id")
            or parameters.get("game_id")
            or ""
        )
        if case.method.upper() == "DELETE" and session in _KEPT:
            return None
        return _TOKENS.get(session)

    def set(self, case: Any, data: str | None, context: Any) -> None:
        if data:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}
