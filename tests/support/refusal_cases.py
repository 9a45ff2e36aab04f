"""Requests to send beside the published examples (tests/support/answer_cases.py): a
stateless request each rule-refusing operation refuses (and one answered with a warning),
a session's creation refused, and detours from the rulesets' plays into a refusal.
Together they raise every problem extension member the service sends (`members`: what
the answer must carry)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DETOURS", "STATELESS_CASES", "CreateRefusal", "Detour", "StatelessCase"]

_POOLS = {
    "shooter": {"aim": 2, "ammo": 3},
    "angel": {"aim": 3, "ammo": 2},
    "stats": {"avoid": 2, "armor": 1, "angel": 3, "allies": 2},
}
_QUICK10 = {"target": 10, "quick10": True, "depletion": {}}
_BELOW_1D = {"base": {"type": "skill", "code": "1D"}, "bonuses": [{"label": "x", "dice": -4}]}
_3D = {"base": {"type": "attribute", "code": "3D"}}


@dataclass(frozen=True)
class StatelessCase:
    """A stateless request, and the status its operation's rules answer it with."""

    case: str
    operation_id: str
    body: Any
    status: int = 422
    members: tuple[str, ...] = ()


STATELESS_CASES = (
    StatelessCase(
        "a Quick 10 with a seed: a warning",
        "resolveCheck",
        {"target": 10, "quick10": True, "seed": 3},
        status=200,
        members=("warnings",),
    ),
    StatelessCase("a Quick 10 with depletion", "resolveCheck", _QUICK10),
    StatelessCase(
        "faces missing",
        "resolveCheck",
        {"target": 10, "dice": "3d6", "roll": {"faces": [4, 5]}},
        members=("missing",),
    ),
    StatelessCase(
        "faces extra",
        "resolveCheck",
        {"target": 10, "roll": {"faces": [4, 5]}},
        members=("extra",),
    ),
    StatelessCase("a batch with one", "resolveCheckBatch", {"checks": [_QUICK10]}),
    StatelessCase("its odds", "checkOdds", _QUICK10),
    StatelessCase("below 1D", "openD6Roll", _BELOW_1D),
    StatelessCase("below 1D, its odds", "openD6RollOdds", _BELOW_1D),
    StatelessCase("opposed below 1D", "openD6Opposed", {"initiator": _BELOW_1D, "resister": _3D}),
    StatelessCase("its odds", "openD6OpposedOdds", {"initiator": _BELOW_1D, "resister": _3D}),
    StatelessCase("a code over 40D", "openD6DieCodes", {"code": "41D"}),
    StatelessCase(
        "a participant twice",
        "openD6Initiative",
        {
            "participants": [
                {"id": "a", "name": "A", "acumen": "3D", "agility": "3D"},
                {"id": "a", "name": "B", "acumen": "2D", "agility": "2D"},
            ]
        },
    ),
    StatelessCase(
        "faces missing",
        "quickShotGamble",
        {"actions": [{"difficulty": "common"}], "faces": [4, 5]},
        members=("missing",),
    ),
    StatelessCase(
        "faces extra",
        "quickShotGamble",
        {"actions": [{"difficulty": "common"}], "faces": [4] * 9},
        members=("extra",),
    ),
    StatelessCase(
        "a 2 WP bet", "quickShotGambleOdds", {"actions": [{"difficulty": "common"}], "wp_bet": 2}
    ),
    StatelessCase(
        "a move to no drive",
        "quickShotRearrangeWillpower",
        {
            "drives": [{"name": "Duty", "wp": 4}],
            "moves": [{"from": "Duty", "to": "Revenge", "removed": 4}],
            "vacation_days": 7,
        },
    ),
    StatelessCase(
        "one face of at least two",
        "selfConflictCheck",
        {"talent": {"level": 4}, "faces": [3]},
        members=("missing", "roles"),
    ),
    StatelessCase(
        "GM modifiers over +10",
        "selfConflictCheckOdds",
        {
            "talent": {"level": 4},
            "conflict_modifiers": [{"label": "a", "value": 6}, {"label": "b", "value": 6}],
        },
    ),
    StatelessCase(
        "faces missing",
        "travelogueRoll",
        {**_POOLS, "faces": {"shooter": [2], "angel": []}},
        members=("missing",),
    ),
    StatelessCase(
        "31 Ammo dice",
        "travelogueRollOdds",
        {**_POOLS, "shooter": {"aim": 2, "ammo": 31}},
    ),
)


@dataclass(frozen=True)
class CreateRefusal:
    """A session's creation, as its operation's first play creates it with ``changes``."""

    case: str
    operation_id: str
    changes: Mapping[str, Any]
    status: int = 422


CREATE_REFUSALS = tuple(
    CreateRefusal("a TTL over SESSION_TTL_MAX_SECONDS", operation_id, {"ttl_seconds": 604800})
    for operation_id in ("createConflict", "openD6CreateScene", "travelogueCreateGame")
)


@dataclass(frozen=True)
class Detour:
    """A session created as the play named ``play`` (its summary's start) creates it, with
    ``create``'s changes; its first ``after`` steps made, then one request it refuses
    (``body``, or the body of the play's step ``step_body``, counted from 0)."""

    case: str
    play: str
    after: int
    operation_id: str
    role: str
    body: Any = None
    status: int = 409
    create: Mapping[str, Any] = field(default_factory=dict)
    path: Mapping[str, Any] = field(default_factory=dict)
    members: tuple[str, ...] = ()
    step_body: int | None = None


_AMBUSH = "An ambush at the table's dice"
_ATTENTION = "A first attention at the table's dice"
_DUEL = "A duel in the GM's order"
_SEEDS_FIRST = "Every participant's client seed"

DETOURS = (
    Detour(
        "the pools rolled in step play",
        _ATTENTION,
        0,
        "travelogueGameAction",
        "annie",
        {"type": "roll_pools", "faces": {"shooter": [1], "angel": [1]}},
        members=("waiting_for",),
    ),
    Detour(
        "a flag accepted by another player",
        _ATTENTION,
        1,
        "travelogueGameAction",
        "vera",
        {"type": "accept_flag", "ring": "friends"},
        status=403,
        members=("waiting_for",),
    ),
    Detour(
        "the odds of pools not pending",
        _ATTENTION,
        0,
        "travelogueGameOdds",
        "annie",
        members=("waiting_for",),
    ),
    Detour(
        "the pools short of the table's dice",
        _ATTENTION,
        13,
        "travelogueGameAction",
        "archer",
        {"type": "roll_pools", "faces": {"shooter": [5], "angel": []}},
        status=422,
        members=("missing",),
    ),
    Detour(
        "the attention die before every client seed",
        _ATTENTION,
        12,
        "travelogueGameAction",
        "vera",
        {"type": "roll_attention"},
        create={"dice_source": "server", "await_client_seeds": True},
        members=("awaiting",),
    ),
    Detour(
        "a roll before Bo's client seed",
        _DUEL,
        4,
        "openD6SceneMove",
        "bo",
        members=("awaiting",),
        step_body=5,  # Bo's roll, his client seed (step 4) not given
    ),
    Detour(
        "a check before every client seed",
        _SEEDS_FIRST,
        0,
        "submitRoundCheck",
        "gm",
        {"participant": "gm"},
        create={"await_client_seeds": True},
        path={"number": 1},
        members=("awaiting",),
    ),
    Detour(
        "a quality not declared",
        _SEEDS_FIRST,
        3,
        "submitRoundCheck",
        "gm",
        {"participant": "gm", "qualities": ["No such quality"]},
        status=422,
        path={"number": 1},
    ),
    Detour(
        "decisions closed with checks outstanding",
        _SEEDS_FIRST,
        4,
        "closeRound",
        "gm",
        path={"number": 1},
    ),
    Detour(
        "the last decision closed by the GM",
        _SEEDS_FIRST,
        8,
        "closeRound",
        "gm",
        status=200,
        path={"number": 1},
    ),
    Detour(
        "the goblins' initiative rolled by Ana",
        _AMBUSH,
        0,
        "openD6SceneMove",
        "ana",
        status=403,
        step_body=1,
    ),
    Detour(
        "an initiative short of its dice",
        _AMBUSH,
        0,
        "openD6SceneMove",
        "ana",
        {
            "type": "initiative",
            "round": 1,
            "rolls": [{"participant": "ana-pc", "faces": {"regular": [4], "wild": [5]}}],
        },
        status=422,
    ),
)
