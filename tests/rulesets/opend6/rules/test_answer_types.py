"""The types OpenD6's answers are made of: scenes stored by the previous release still
decode, and encode to the same JSON; the enums answers carry name every tag they stand
for, so answers are typed `string` enums without a second list of values drifting."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest

from service.rulesets.opend6.rules.scenes.events import SceneLogEntry
from service.rulesets.opend6.rules.scenes.model import Scene
from service.rulesets.opend6.rules.scenes.moves import SceneMove, SceneMoveType
from service.rulesets.opend6.rules.spec import Base, BaseType, Difficulty, DifficultyKind

# Scenes and log entries as the release before these answer types wrote them to Redis
# (msgpack): the ambush and the duel of the published example plays, pending rolls with
# Character Points after, an opposed resolution, a climactic Fate Point, set_order.
STORED = json.loads((Path(__file__).parent / "data" / "stored_scenes.json").read_text())


def _raw(item: dict[str, str]) -> bytes:
    return base64.b64decode(item["msgpack"])


@pytest.mark.parametrize(
    ("kind", "items"), [(Scene, STORED["scenes"]), (SceneLogEntry, STORED["log"])]
)
def test_stored_scenes_decode_and_encode_as_before(kind: type[Any], items: list[Any]) -> None:
    decoder = msgspec.msgpack.Decoder(kind)
    for item in items:
        typed = decoder.decode(_raw(item))
        assert json.loads(msgspec.json.encode(typed)) == msgspec.msgpack.decode(_raw(item))


def _tags(union: Any) -> set[str]:
    members = get_args(get_args(union)[0]) if hasattr(union, "__metadata__") else union
    return {str(member.__struct_config__.tag) for member in members}


@pytest.mark.parametrize(
    ("enum", "union"),
    [(BaseType, Base), (DifficultyKind, Difficulty), (SceneMoveType, SceneMove)],
)
def test_an_answers_enum_lists_exactly_the_tags_of_its_union(enum: Any, union: Any) -> None:
    assert {member.value for member in enum} == _tags(union)
