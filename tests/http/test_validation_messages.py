"""Schema errors in plain words, for every ruleset: each code says what was refused, where
(a JSON pointer at the offending member) and what is wanted — the allowed values, an example
of a pattern (never the regular expression), the bounds of a number or a length."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from service.http.contract.validation import _located
from tests.support.bullseye_conflicts import bearer, create
from tests.support.problems import assert_problem

JSON = {"content-type": "application/json"}
MSGSPEC_WORDING = re.compile(
    r"Expected `|matching regex|Invalid (enum )?value|Object (contains|missing)"
)
ROLL = "/v1/opend6/rolls"
SKILL = {"type": "skill", "code": "4D"}
SELF_CONFLICT_CHECK = "/v1/self-conflict/checks"
LEVELS = "automatic, very_easy, easy, moderate, difficult, very_difficult, heroic, legendary"
BASES = "skill, attribute, untrained, alternate, equipment"
SCENE = {
    "name": "Ambush at the ford",
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D"}
    ],
}


def schema_error(response: Any) -> dict[str, str]:
    """The one error of a 400 invalid-body; the problem's detail leads with its pointer."""
    problem = assert_problem(response, 400, "invalid-body")
    (error,) = problem["errors"]
    where = error["pointer"] or "The body"
    assert problem["detail"] == f"{where}: {error['detail']}"
    assert not MSGSPEC_WORDING.search(error["detail"]), error
    return error


def posted(client: TestClient, path: str, body: Any) -> dict[str, str]:
    return schema_error(client.post(path, json=body))


# ---- invalid-choice: enum values, Literal values and union tags, listing the allowed ones ----


# How a message was split into its reason and its path before the path was searched for:
# linear too, but it tried the path at every character. Kept only as the reference.
_LAZY_AT = re.compile(
    r"^(?P<reason>.*?)(?: - at (?:`(?P<path>\$[^`]*)`|`key` in `(?P<key_of>\$[^`]*)`))?$",
    re.DOTALL,
)
_MESSAGE_PARTS = [
    " - at ",
    "`",
    "$",
    "key",
    " in ",
    ".a",
    "[0]",
    "\n",
    "x",
    "`key` in `$",
    " - at `$",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_MESSAGE_PARTS), max_size=14).map("".join))
@example("Invalid value - at `$.a`\n")
@example("Object contains unknown field `a - at `$.b`` - at `key` in `$.c`\n")
@example("Expected `int`\n\n")
def test_a_message_is_split_at_its_path_as_the_lazy_pattern_split_it(message: str) -> None:
    lazy = _LAZY_AT.match(message)
    assert lazy is not None
    path = lazy["path"] or lazy["key_of"] or "$"
    assert _located(message) == (lazy["reason"], path, lazy["key_of"] is not None)


def test_a_bad_quality_type_lists_the_five_types(client: TestClient) -> None:
    quality = {"name": "Duelist", "type": "skil", "magnitude": 3}
    error = posted(client, "/v1/checks", {"target": 10, "qualities": [quality]})
    assert error == {
        "code": "invalid-choice",
        "pointer": "/qualities/0/type",
        "detail": "'skil' is not one of: core, intrinsic, experiential, material, negative.",
    }


def test_a_bad_dice_in_a_batch_points_into_that_check(client: TestClient) -> None:
    body = {"checks": [{"target": 10}, {"target": 10, "dice": "d100"}]}
    error = posted(client, "/v1/checks/batch", body)
    assert (error["code"], error["pointer"]) == ("invalid-choice", "/checks/1/dice")
    assert error["detail"] == "'d100' is not one of: d20, 2d10, 3d6, 4d6-4."


def test_a_bad_opend6_difficulty_level_lists_the_levels(client: TestClient) -> None:
    body = {"base": SKILL, "difficulty": {"kind": "standard", "level": "hard"}}
    assert posted(client, ROLL, body) == {
        "code": "invalid-choice",
        "pointer": "/difficulty/level",
        "detail": f"'hard' is not one of: {LEVELS}.",
    }


def test_a_bad_tag_is_an_invalid_choice_at_the_tag_member(client: TestClient) -> None:
    """OpenD6's `base` is a tagged union: a misspelt `type` names the five kinds of base."""
    assert posted(client, ROLL, {"base": {"type": "skil", "code": "4D"}}) == {
        "code": "invalid-choice",
        "pointer": "/base/type",
        "detail": f"'skil' is not one of: {BASES}.",
    }


def test_a_bad_tag_of_the_whole_body_points_at_its_own_member(client: TestClient) -> None:
    """A scene move is a tagged union at the top level of the body."""
    created = client.post("/v1/opend6/scenes", json=SCENE)
    assert created.status_code == 201, created.text
    scene = created.json()
    response = client.post(
        f"/v1/opend6/scenes/{scene['id']}/moves",
        json={"type": "roll_initiative"},
        headers=bearer(scene["tokens"]["gm"]),
    )
    error = schema_error(response)
    assert (error["code"], error["pointer"]) == ("invalid-choice", "/type")
    assert error["detail"].startswith("'roll_initiative' is not one of: initiative, set_order, ")
    assert "next_round" in error["detail"]


def test_a_self_conflict_talent_kind_lists_basic_and_gained(client: TestClient) -> None:
    sheet = {
        "name": "Vex",
        "sentient": False,
        "talents": [{"name": "Climbing", "level": 3, "kind": "skill"}],
    }
    assert posted(client, "/v1/self-conflict/objects/validate", {"object": sheet}) == {
        "code": "invalid-choice",
        "pointer": "/object/talents/0/kind",
        "detail": "'skill' is not one of: basic, gained.",
    }


# ---- pattern-mismatch: described by the alias's example, never by its regular expression ----


def test_a_bad_die_code_is_described_by_an_example(client: TestClient) -> None:
    assert posted(client, ROLL, {"base": {"type": "skill", "code": "4X"}}) == {
        "code": "pattern-mismatch",
        "pointer": "/base/code",
        "detail": "'4X' is not a die code such as 4D+2.",
    }


def test_a_bad_bullseye_player_id_is_described_by_an_example(client: TestClient) -> None:
    body = {
        "name": "Bridge of Knives",
        "players": [{"id": "Ana Maria", "name": "Ana"}],
        "opposition": {"name": "Bandits"},
    }
    assert posted(client, "/v1/conflicts", body) == {
        "code": "pattern-mismatch",
        "pointer": "/players/0/id",
        "detail": "'Ana Maria' is not a player's id such as ana.",
    }


def test_a_bad_scene_participant_id_is_described_by_an_example(client: TestClient) -> None:
    participant = {**SCENE["participants"][0], "id": "Ana PC"}  # type: ignore[dict-item]
    error = posted(client, "/v1/opend6/scenes", {**SCENE, "participants": [participant]})
    assert error == {
        "code": "pattern-mismatch",
        "pointer": "/participants/0/id",
        "detail": "'Ana PC' is not an id such as ana.",
    }


def _patterns(node: Any, at: str = "") -> list[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        found = [(at, node)] if isinstance(node.get("pattern"), str) else []
        return found + [p for k, v in node.items() for p in _patterns(v, f"{at}/{k}")]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _patterns(v, f"{at}/{i}")]
    return []


def test_every_published_pattern_has_an_example_and_says_what_it_is(client: TestClient) -> None:
    """A pattern-mismatch detail takes its words from the schema's own description ("A die
    code, …") and example, so every pattern the document publishes carries both (and its
    examples match it): the regular expression is never what a caller reads."""
    patterns = _patterns(client.get("/openapi.json").json())
    assert len(patterns) > 10
    for at, schema in patterns:
        examples = schema.get("examples")
        assert examples, f"{at}: a pattern without an example"
        assert all(re.search(schema["pattern"], example) for example in examples), at
        assert re.match(r"An? \w", schema.get("description", "")), f"{at}: 'A …' describes it"


# ---- out-of-range: a number's bounds, a string's or a list's length, said with the limits ----


def test_a_number_out_of_bounds_says_both_bounds(client: TestClient) -> None:
    body = {"base": SKILL, "bonuses": [{"label": "Sword", "dice": 21}]}
    assert posted(client, ROLL, body) == {
        "code": "out-of-range",
        "pointer": "/bonuses/0/dice",
        "detail": "must be between -20 and 20, got 21.",
    }


def test_a_self_conflict_level_out_of_the_scale_says_the_scale(client: TestClient) -> None:
    assert posted(client, SELF_CONFLICT_CHECK, {"talent": {"level": 9}}) == {
        "code": "out-of-range",
        "pointer": "/talent/level",
        "detail": "must be between 0 and 6, got 9.",
    }


def test_a_list_too_long_says_how_many_items_it_may_have(client: TestClient) -> None:
    bonuses = [{"label": f"Bonus {n}", "dice": 1} for n in range(21)]
    assert posted(client, ROLL, {"base": SKILL, "bonuses": bonuses}) == {
        "code": "out-of-range",
        "pointer": "/bonuses",
        "detail": "must have at most 20 items, got 21.",
    }


def test_a_list_too_short_says_both_lengths(client: TestClient) -> None:
    assert posted(client, SELF_CONFLICT_CHECK, {"talent": {"level": 3}, "faces": []}) == {
        "code": "out-of-range",
        "pointer": "/faces",
        "detail": "must have between 1 and 4 items, got 0.",
    }


def test_a_string_too_long_says_how_many_characters(client: TestClient) -> None:
    body = {"base": SKILL, "bonuses": [{"label": "x" * 81, "dice": 1}]}
    assert posted(client, ROLL, body) == {
        "code": "out-of-range",
        "pointer": "/bonuses/0/label",
        "detail": "must be between 1 and 80 characters long, got 81.",
    }


def test_an_integral_float_retried_as_an_integer_is_explained_the_same(
    client: TestClient,
) -> None:
    """12.0 counts as an integer (JSON Schema), so the body is decoded again with it made
    one; what that second decoding refuses gets the same words and pointer."""
    response = client.post("/v1/checks", content=b'{"target": 12.0, "seed": -1.0}', headers=JSON)
    assert schema_error(response) == {
        "code": "out-of-range",
        "pointer": "/seed",
        "detail": "must be between 0 and 9007199254740991, got -1.",
    }


# ---- unknown-field, missing-field, wrong-type ----


def test_an_unknown_field_is_named_and_nothing_is_listed(client: TestClient) -> None:
    assert posted(client, "/v1/checks", {"target": 10, "tagret": 12}) == {
        "code": "unknown-field",
        "pointer": "/tagret",
        "detail": "'tagret' is not a field here.",
    }


def test_an_unknown_field_in_a_body_that_breaks_off_is_still_named(client: TestClient) -> None:
    """msgspec refuses the field before it reaches the end of the (unfinished) JSON."""
    response = client.post("/v1/checks", content=b'{"tagret": 12, "tar', headers=JSON)
    assert schema_error(response) == {
        "code": "unknown-field",
        "pointer": "/tagret",
        "detail": "'tagret' is not a field here.",
    }


def test_a_missing_field_points_at_the_field_itself(client: TestClient) -> None:
    assert posted(client, "/v1/checks", {"qualities": []}) == {
        "code": "missing-field",
        "pointer": "/target",
        "detail": "'target' is required.",
    }


def test_a_missing_tag_points_at_the_tag_and_lists_its_values(client: TestClient) -> None:
    assert posted(client, ROLL, {"base": {"code": "4D"}}) == {
        "code": "missing-field",
        "pointer": "/base/type",
        "detail": f"'type' is required: one of {BASES}.",
    }


def test_a_wrong_type_says_what_was_expected_and_what_came(client: TestClient) -> None:
    assert posted(client, SELF_CONFLICT_CHECK, {"talent": {"level": "high"}}) == {
        "code": "wrong-type",
        "pointer": "/talent/level",
        "detail": "expected a whole number, got 'high'.",
    }


def test_a_wrong_type_for_an_enum_lists_its_values(client: TestClient) -> None:
    body = {"base": SKILL, "difficulty": {"kind": "standard", "level": 3}}
    assert posted(client, ROLL, body)["detail"] == f"expected one of: {LEVELS}; got 3."


def test_a_body_of_the_wrong_type_points_at_the_whole_body(client: TestClient) -> None:
    response = client.post("/v1/checks", content=b"[1, 2]", headers=JSON)
    problem = assert_problem(response, 400, "invalid-body")
    assert problem["errors"] == [
        {"code": "wrong-type", "pointer": "", "detail": "expected an object, got a list."}
    ]
    assert problem["detail"] == "The body: expected an object, got a list."


def test_an_error_inside_a_map_points_at_its_key(client: TestClient) -> None:
    """A round's `players` is keyed by player id; msgspec's path names no key, the pointer
    does."""
    conflict = create(client)
    body = {"gm": {}, "players": {"ana": {}, "bo": {"seed": -1}}}
    response = client.post(
        f"/v1/conflicts/{conflict['id']}/rounds",
        json=body,
        headers=bearer(conflict["tokens"]["gm"]),
    )
    assert schema_error(response) == {
        "code": "out-of-range",
        "pointer": "/players/bo/seed",
        "detail": "must be between 0 and 9007199254740991, got -1.",
    }


# ---- query and path parameters: the same words ----


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("maximum=abc&current=1", "expected a whole number, got 'abc'."),
        ("maximum=0&current=1", "must be between 1 and 100000, got 0."),
        ("maximum=4.5&current=1", "expected a whole number, got 4.5."),
    ],
)
def test_a_bad_query_parameter_gets_the_same_words(
    client: TestClient, query: str, detail: str
) -> None:
    problem = assert_problem(client.get(f"/v1/conditions?{query}"), 400, "invalid-parameter")
    assert problem["errors"] == [
        {"code": "invalid-parameter", "parameter": "maximum", "detail": detail}
    ]
    assert problem["detail"] == f"maximum: {detail}"


def test_a_missing_query_parameter_is_named_in_the_same_words(client: TestClient) -> None:
    problem = assert_problem(client.get("/v1/conditions?current=1"), 400, "invalid-parameter")
    assert problem["errors"] == [
        {"code": "missing-parameter", "parameter": "maximum", "detail": "'maximum' is required."}
    ]
    assert problem["detail"] == "'maximum' is required."


def test_a_bad_path_parameter_gets_the_same_words(client: TestClient) -> None:
    conflict = create(client)
    response = client.post(
        f"/v1/conflicts/{conflict['id']}/rounds/0/checks",
        json={"participant": "gm"},
        headers=bearer(conflict["tokens"]["gm"]),
    )
    problem = assert_problem(response, 400, "invalid-parameter")
    assert problem["errors"] == [
        {
            "code": "invalid-parameter",
            "parameter": "number",
            "detail": "must be between 1 and 100000, got 0.",
        }
    ]


# ---- whatever is wrong, the pointer is at a member of the body that was sent ----

VALID_BODIES = [
    (
        "/v1/checks",
        {
            "target": 12,
            "qualities": [{"name": "Duelist", "type": "experiential", "magnitude": 7}],
            "situational": [{"label": "Rain", "magnitude": -2}],
            "dice": "3d6",
        },
    ),
    (
        ROLL,
        {
            "base": {
                "type": "alternate",
                "skill": "5D",
                "governing_attribute": "3D",
                "attribute": "2D+1",
            },
            "bonuses": [{"label": "Sword", "dice": 1}],
            "difficulty": {"kind": "standard", "level": "moderate", "modifiers": []},
            "faces": {"regular": [3, 4], "wild": [6, 2]},
        },
    ),
    (SELF_CONFLICT_CHECK, {"talent": {"level": 4}, "karma": {"balance": 3}, "faces": [2, 5]}),
    (
        "/v1/travelogue/rolls",
        {
            "shooter": {"aim": 2, "ammo": 3},
            "angel": {"aim": 3, "ammo": 2},
            "stats": {"avoid": 2, "armor": 1, "angel": 3, "allies": 2},
            "faces": {"shooter": [2, 6, 5], "angel": [1, 3]},
        },
    ),
]
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=5,
)


def _paths(node: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    members = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, value in members:
        yield from _paths(value, (*at, key))


def _replaced(body: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    body = copy.deepcopy(body)
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return body


def _unescaped(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _member(body: Any, token: str) -> Any:
    if isinstance(body, list):
        return body[int(token)]
    assert isinstance(body, dict), (body, token)
    assert _unescaped(token) in body, (body, token)
    return body[_unescaped(token)]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
@pytest.mark.parametrize(
    ("path", "valid"), VALID_BODIES, ids=["bullseye", "opend6", "self-conflict", "travelogue"]
)
def test_every_refusal_points_at_a_member_of_the_body_sent(
    client: TestClient, path: str, valid: dict[str, Any], data: st.DataObject
) -> None:
    """Any member of a valid body replaced by any JSON: a 400 points at a member of what was
    sent (a missing field: at its own place in an object that lacks it), in plain words."""
    where = data.draw(st.sampled_from(list(_paths(valid))))
    body = _replaced(valid, where, data.draw(JSON_VALUES))
    response = client.post(path, content=json.dumps(body).encode(), headers=JSON)
    assert response.status_code in (200, 400, 422), response.text
    if response.status_code != 400:
        return
    error = schema_error(response)
    tokens = error["pointer"].split("/")[1:]
    parent = body
    for token in tokens[:-1]:
        parent = _member(parent, token)
    if error["code"] == "missing-field":
        assert isinstance(parent, dict)
        assert _unescaped(tokens[-1]) not in parent
    elif tokens:
        _member(parent, tokens[-1])
