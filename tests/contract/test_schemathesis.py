"""Schemathesis fuzzes the served app over HTTP, as any caller would reach it.

Served by its own process (not the in-process ASGI transport, which would run the
lifespan per request), with examples, coverage, fuzzing and stateful phases (following
the OpenAPI links from a created conflict, its id carried along and its GM token sent by
the auth hook in schemathesis_hooks.py; only in parts with something to chain), positive
and negative data, and every check enabled (schemathesis.toml) — once as deployed by
default, once with service API keys required. Any warning fails the run.

Each run is split by part of the API: the service's own operations, then each hosted
game's (its OpenAPI tags). Every part is a test of its own, seeded alike, so the parts run
side by side on pytest-xdist's workers instead of one long run holding one worker; links
(the stateful phase) stay within a game. They are marked ``heavy``, weighted by their
operations: tests/conftest.py starts them first, longest first, so no worker is left
running a long one while the others have run out of tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.hosted import RULESETS
from service.rulesets.travelogue.api.examples import BULLSEYES
from tests.rulesets.travelogue.rules.game.full_game import STEPS
from tests.support.bullseye_conflicts import conflict_body
from tests.support.openapi import default_document
from tests.support.served import ROOT, ServedApp
from tests.support.travelogue_games import body_of, sheets_json

CONFIG = Path(__file__).with_name("schemathesis.toml")
MAX_EXAMPLES = os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "100")
API_KEY = "schemathesis-key-7d2f-0123456789abcdefghij"
SCENE = {
    "name": "Fuzzed",
    "participants": [{"id": "pc", "name": "PC", "acumen": "3D", "agility": "3D"}],
}
GAME = {"name": "Fuzzed", "bullseyes": BULLSEYES}
# Part of the API -> its OpenAPI tags; together they cover every operation (tested below).
PARTS = {
    "operations": ("operations", "receipts"),
    **{ruleset.id: tuple(tag.name for tag in ruleset.tags) for ruleset in RULESETS},
}
PATHS = default_document()["paths"]
OPERATIONS = [
    operation
    for item in PATHS.values()
    for operation in item.values()
    if isinstance(operation, dict) and "operationId" in operation
]


def stateful(part: str) -> bool:
    """Whether the stateful phase has anything to chain in this part: an operation with a
    path parameter, which another's answer can fill (explicit or inferred links). A part of
    stateless operations alone has none, and Schemathesis counts that phase as an error."""
    return any(
        "{" in path
        for path, item in PATHS.items()
        for operation in item.values()
        if isinstance(operation, dict) and set(PARTS[part]) & set(operation.get("tags", ()))
    )


def parts(weight: int) -> list[object]:
    """Every part, marked heavy with ``weight`` times its operations: tests/conftest.py
    starts the longest runs first, so the short ones fill in at the end."""
    return [
        pytest.param(
            part,
            id=part,
            marks=pytest.mark.heavy(
                weight * sum(1 for op in OPERATIONS if set(tags) & set(op.get("tags", ())))
            ),
        )
        for part, tags in PARTS.items()
    ]


def _conflict_env(url: str, headers: dict[str, str]) -> dict[str, str]:
    """A conflict, an OpenD6 scene and a travelogue game for the fuzzing phases to act on,
    and their GM tokens (the game's first player's: it has no GM) for the auth hook."""
    created = httpx.post(f"{url}/v1/conflicts", json=conflict_body(), headers=headers).json()
    scene = httpx.post(f"{url}/v1/opend6/scenes", json=SCENE, headers=headers).json()
    game = httpx.post(f"{url}/v1/travelogue/games", json=GAME, headers=headers).json()
    waiting = _game_at_the_pools(url, headers)
    return {
        "SCHEMATHESIS_POOLS_GAME_ID": waiting["id"],
        "SCHEMATHESIS_POOLS_GAME_TOKEN": waiting["tokens"]["players"]["vera"],
        "SCHEMATHESIS_GAME_ID": game["id"],
        "SCHEMATHESIS_GAME_TOKEN": game["tokens"]["players"]["hugo"],
        "SCHEMATHESIS_CONFLICT_ID": created["id"],
        "SCHEMATHESIS_CONFLICT_TOKEN": created["tokens"]["gm"],
        "SCHEMATHESIS_SCENE_ID": scene["id"],
        "SCHEMATHESIS_SCENE_TOKEN": scene["tokens"]["gm"],
    }


def _game_at_the_pools(url: str, headers: dict[str, str]) -> dict[str, Any]:
    """A table-dice game played to its first `roll_pools` (Hugo's), so its odds answer 200;
    Vera's token reads them and can change nothing there but her Angel's name."""
    body = {"name": "Fuzzed odds", "bullseyes": sheets_json(), "dice_source": "table"}
    game: dict[str, Any] = httpx.post(
        f"{url}/v1/travelogue/games", json=body, headers=headers
    ).json()
    tokens = game["tokens"]["players"]
    for actor, action in STEPS[:15]:  # batch 1, then the attention die
        answer = httpx.post(
            f"{url}/v1/travelogue/games/{game['id']}/actions",
            json=body_of(action),
            headers={**headers, "Authorization": f"Bearer {tokens[actor]}"},
        )
        assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["step"] == "attention.pools"
    return game


def run_schemathesis(
    url: str,
    workdir: Path,
    *extra: str,
    part: str,
    max_examples: str,
    headers: dict[str, str] | None = None,
) -> None:
    st = Path(sys.executable).with_name("st")
    phases = ["examples", "coverage", "fuzzing", *(["stateful"] if stateful(part) else [])]
    env = {
        **os.environ,
        **_conflict_env(url, headers or {}),
        "SCHEMATHESIS_HOOKS": "tests.contract.schemathesis_hooks",
        "PYTHONPATH": str(ROOT),
    }
    result = subprocess.run(
        [
            str(st),
            "--config-file",
            str(CONFIG),
            "--no-color",
            "run",
            f"{url}/openapi.json",
            "--phases",
            ",".join(phases),
            "--mode",
            "all",
            "--max-examples",
            max_examples,
            "--seed",
            "20261122",
            "--workers",
            "1",  # one worker: the same seed gives the same cases, run after run
            "--report-dir",
            str(workdir),
            "--output-truncate",
            "false",
            # An event stream never ends while its session lives; tests/api covers them.
            "--exclude-operation-id",
            "streamConflictEvents",
            "--exclude-operation-id",
            "openD6SceneEvents",
            "--exclude-operation-id",
            "travelogueGameEvents",
            *(option for tag in PARTS[part] for option in ("--include-tag", tag)),
            *extra,
        ],
        cwd=workdir,  # its crash cache and reports stay out of the work tree
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    failures_start = result.stdout.find("FAILURES")
    summary = (
        result.stdout[failures_start:][:20000] if failures_start >= 0 else result.stdout[-6000:]
    )
    assert result.returncode == 0, summary
    assert "WARNINGS" not in result.stdout, result.stdout[result.stdout.find("WARNINGS") :]
    for phase in phases:
        assert f"✅ {phase.capitalize()}" in result.stdout, (
            f"phase {phase} did not pass:\n{summary}"
        )
    counts = re.search(r"^\s+(\d+) generated, (\d+) passed(?:, \d+ skipped)?$", result.stdout, re.M)
    assert counts, summary
    assert counts[1] == counts[2], summary


def test_the_parts_cover_every_operation() -> None:
    """An operation tagged with none of the parts' tags would never be fuzzed."""
    tags = {tag for part in PARTS.values() for tag in part}
    untested = [op["operationId"] for op in OPERATIONS if not tags & set(op.get("tags", ()))]
    assert not untested, f"add their tags to PARTS: {untested}"


@pytest.mark.parametrize("part", parts(weight=2))
def test_schemathesis_finds_no_failure(served_url: str, tmp_path: Path, part: str) -> None:
    """Zero failures over every operation of this part of the published document."""
    run_schemathesis(served_url, tmp_path, part=part, max_examples=MAX_EXAMPLES)


@pytest.fixture(scope="module")
def keyed_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("keyed") / "service.log"
    app = ServedApp({"REDIS_URL": redis_url, "API_KEYS": API_KEY}, log)
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


@pytest.mark.parametrize("part", parts(weight=1))  # 30 examples, not 100
def test_schemathesis_with_api_keys_required(keyed_url: str, tmp_path: Path, part: str) -> None:
    """Keys on and supplied: zero failures, and ``ignored_auth`` sees a request without
    the key refused."""
    run_schemathesis(
        keyed_url,
        tmp_path,
        "--header",
        f"X-API-Key: {API_KEY}",
        part=part,
        max_examples="30",
        headers={"X-API-Key": API_KEY},
    )
