"""Every input-driven cost linear and bounded (docs/input-costs.md), through the real app:
the regular-expression denial of service the security review found, every string member of
every request at its worst, and the travelogue's set-up check that leaves the event loop when
its texts make it costly. How long each takes is ``make bench-inputs``'s business, never
these tests': they check the answers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
from litestar.testing import TestClient

from service.http.receipts.routes import INLINE_VERIFY_BYTES
from service.rulesets.travelogue.api.bullseyes import INLINE_SETUP_COST
from service.rulesets.travelogue.api.examples import BULLSEYES
from service.rulesets.travelogue.rules.setup import check_setup, setup_cost
from service.rulesets.travelogue.rules.sheet import Sheet
from service.settings import Settings
from tests.bench.worst_inputs import (
    WORST,
    Case,
    Reply,
    Runner,
    Send,
    _Schemas,
    cases,
    receipt_cases,
)
from tests.support.examples import operation_routes
from tests.support.problems import PROBLEM, assert_problem

OBJECTS = "/v1/self-conflict/objects/validate"
BULLSEYES_VALIDATE = "/v1/travelogue/bullseyes/validate"
GAMES = "/v1/travelogue/games"
VERIFY = "/v1/receipts/verify"
OBJECT = {
    "name": "Vessa Roon",
    "concept": "A smuggler pilot",
    "sentient": False,
    "talents": [{"name": "Pilot", "level": 3}],
    "signs": ["a burn scar"],
}


def test_a_story_of_dots_then_a_letter_is_counted_at_once_as_one_sentence(
    client: TestClient,
) -> None:
    """The security review's "Regex denial of service" (high): the story's sentences were
    counted with ``[.!?…]+(?:\\s+|$)``, which retried a run of end marks not followed by
    whitespace from each of its marks; 19 999 dots then an ``x`` (20 KB, no token) held the
    event loop for 6.5 s. The pattern now starts a match only where a run starts: the same
    answer, a story of one sentence, in linear time."""
    story = "." * 19_999 + "x"
    response = client.post(OBJECTS, json={"object": {**OBJECT, "story": story}})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["valid"] is False
    assert [(v["code"], v["pointer"], v["detail"]) for v in report["violations"]] == [
        (
            "story-too-short",
            "/object/story",
            "Step 2, Story: 1 sentence(s); at least 3 (D9).",
        )
    ]


def test_runs_of_every_end_mark_before_letters_end_no_sentence(client: TestClient) -> None:
    """The same at the field's 20 000 characters with a run of each of ``.!?…`` before a
    letter: no run ends a sentence, so the story is one."""
    story = "".join(f"{mark * 4_999}a" for mark in ".!?…")
    assert len(story) == 20_000
    response = client.post(OBJECTS, json={"object": {**OBJECT, "story": story}})
    assert response.status_code == 200, response.text
    details = [v["detail"] for v in response.json()["violations"]]
    assert details == ["Step 2, Story: 1 sentence(s); at least 3 (D9)."]


def _send(client: TestClient) -> Send:
    async def send(method: str, url: str, body: bytes | None, headers: dict[str, str]) -> Reply:
        if body is not None:
            headers = {**headers, "content-type": "application/json"}
        response = client.request(method, url, content=body, headers=headers)
        media = response.headers.get("content-type", "").split(";")[0]
        return Reply(response.status_code, media, response.content, 0.0)

    return send


def _string_members(document: Any) -> set[tuple[str, str]]:
    """(operation, label) of every string member a request body's schema has, found from
    the schema alone, labelled as the bench labels them."""
    schemas = _Schemas(document)

    def labels(node: Any, label: str, depth: int) -> set[str]:
        node = schemas.resolve(node)
        if (options := schemas.options(node)) is not None:
            found: set[str] = set()
            for option in options:
                tag = schemas.tag(option)
                found |= labels(option, label + (f"[{tag[1]}]" if tag else ""), depth)
            return found
        kind = node.get("type", "object" if "properties" in node else None)
        if kind == "string":
            return {label or "/"}
        if kind == "array":
            return labels(node.get("items", {}), label + "/*", depth)
        if kind != "object" or depth > 8:
            return set()
        found = set()
        extra = node.get("additionalProperties")
        if extra is not None and extra is not False:
            found |= {label + "/{key}"} | labels(
                {} if extra is True else extra, label + "/{}", depth + 1
            )
        for name, member in node.get("properties", {}).items():
            found |= labels(member, f"{label}/{name}", depth + 1)
        return found

    members = set()
    for operation, (method, path) in operation_routes().items():
        path = path.replace(":str}", "}").replace(":int}", "}")
        content = document["paths"][path][method.lower()].get("requestBody", {}).get("content")
        if content:
            schema = content["application/json"]["schema"]
            members |= {(operation, label) for label in labels(schema, "", 0)}
    return members


def test_every_string_member_at_its_worst_is_answered_without_a_server_error(
    client: TestClient, settings: Settings
) -> None:
    """Each string member of each request (nested, list items, map keys, members the
    examples leave out, unknown fields, path and query parameters) gets one of the bench's
    adversarial strings at its maximum length, the strings taken in turn so that each is
    sent somewhere; every answer is a 2xx or a 4xx problem document."""
    document = client.get("/openapi.json").json()
    sample = list(cases(document, settings.max_body_bytes, per_member=1))
    assert {case.worst for case in sample} >= set(WORST)
    assert _string_members(document) <= {(case.operation, case.member) for case in sample}
    sample += receipt_cases(settings.max_body_bytes, *_signed_check(client))

    async def answers() -> list[tuple[Case, Reply]]:
        runner = Runner(_send(client))
        return [(case, await runner.run(case)) for case in sample]

    wrong = [
        (case.operation, case.member, case.worst, reply.status, reply.body[:200])
        for case, reply in asyncio.run(answers())
        if not (
            200 <= reply.status < 300
            or (400 <= reply.status < 500 and reply.content_type == PROBLEM)
        )
    ]
    assert wrong == []


def _signed_check(client: TestClient) -> tuple[str, Any, Any]:
    """A check's receipt, the answer it signs and the request."""
    request = {"target": 12, "qualities": [{"name": "Hero", "type": "core", "magnitude": 3}]}
    request["receipt"] = True
    response = client.post("/v1/checks", json=request)
    assert response.status_code == 200, response.text
    return response.json()["receipt"], response.json(), request


def test_a_receipt_verified_with_large_documents_is_judged_as_with_small_ones(
    client: TestClient,
) -> None:
    """A genuine receipt with an answer past INLINE_VERIFY_BYTES (16 000 floats, whose RFC
    8785 form costs the most) is verified on a worker thread, and judged as inline: the
    signature holds, the answer is another one; with the real answer and request, valid."""
    receipt, answer, request = _signed_check(client)
    body = {"receipt": receipt, "answer": answer, "request": request}
    assert client.post(VERIFY, json=body).json()["valid"] is True
    for big in ({"x": [0.5] * 16_000}, {"x": ["\U0001f600", *[{"a": 1}] * 6_000]}):
        large = {**body, "answer": big}
        assert len(msgspec.json.encode(large)) > INLINE_VERIFY_BYTES
        verdict = client.post(VERIFY, json=large).json()
        assert (verdict["valid"], verdict["reason"]) == (False, "answer-mismatch")
        assert verdict["checked"] == ["signature"]


def _sheets(shooter: str, beef: str) -> list[dict[str, Any]]:
    """The example table, every sheet with this shooter and this beef."""
    return [{**sheet, "shooter": shooter, "beef": beef} for sheet in BULLSEYES]


def test_a_costly_set_up_is_answered_as_the_rules_check_it(client: TestClient) -> None:
    """Texts of U+FDFA (NFKC makes 18 characters of each) over their limits: past
    INLINE_SETUP_COST the check runs on a worker thread, and answers what it answers
    inline — every violation, the whole table linked by its shared shooter and beef."""
    body = {"bullseyes": _sheets("\ufdfa" * 300, "\ufdfa" * 300)}
    sheets = msgspec.convert(body["bullseyes"], list[Sheet])
    assert setup_cost(sheets) > INLINE_SETUP_COST
    response = client.post(BULLSEYES_VALIDATE, json=body)
    assert response.status_code == 200, response.text
    assert response.json() == json.loads(msgspec.json.encode(check_setup(sheets)))
    assert [v["code"] for v in response.json()["violations"]] == ["text-too-long"] * 8
    assert response.json()["components"] == [[0, 1, 2, 3]]


def test_a_game_whose_set_up_is_costly_starts_or_is_refused_as_any_other(
    client: TestClient,
) -> None:
    """The same off the event loop in a game's creation: a valid costly table starts the
    game (201), an invalid one is refused with every violation (422 `invalid-setup`)."""
    valid = _sheets("\ufdfa" * 120, "\ufdfa" * 200)  # at the limits, 1 280 characters
    assert setup_cost(msgspec.convert(valid, list[Sheet])) > INLINE_SETUP_COST
    created = client.post(GAMES, json={"name": "Costly", "bullseyes": valid})
    assert created.status_code == 201, created.text
    assert created.json()["players"][0]["bullseye"]["shooter"]["name"] == "\ufdfa" * 120

    too_long = _sheets("\ufdfa" * 300, "\ufdfa" * 300)
    refused = client.post(GAMES, json={"name": "Costly", "bullseyes": too_long})
    problem = assert_problem(refused, 422, "travelogue/invalid-setup")
    assert [e["code"] for e in problem["errors"]] == ["travelogue/text-too-long"] * 8
