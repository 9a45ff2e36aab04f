"""Seeded conflicts played through ``apply``, every step's answer as bytes: what
``test_conflict_golden`` compares with the fixture captured from the rules before they
were made cheaper (issue #25), so a faster round answers, stores and tells byte for byte
what the slower one did.

    python -m tests.rulesets.bullseye.rules.conflict_golden     rewrite the fixture

Rewrite it only when a rule is meant to change an answer, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from service.kernel.errors import RulesError
from service.rulesets.bullseye.rules.checks import DepletableScore, SuppliedRoll
from service.rulesets.bullseye.rules.conflicts import (
    GM,
    CloseRound,
    Conflict,
    ConflictStatus,
    DecideBullseye,
    DiceSource,
    OppositionSpec,
    OutcomeRequest,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Side,
    Submit,
    apply,
    new_conflict,
)
from service.rulesets.bullseye.rules.dice import DICE, DiceKind
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType, Situational

FIXTURE = Path(__file__).with_name("conflict_golden.json")
GAMES = 240
# The bench's round (tests/bench/bodies.py): four players, faces supplied, all tied.
BENCH_GAME = "bench-round"

_json = msgspec.json.Encoder()
_msgpack = msgspec.msgpack.Encoder()
_TYPES = tuple(QualityType)


def _quality(rng: random.Random, index: int) -> Quality:
    kind = rng.choice(_TYPES)
    magnitude = rng.randint(-6, -1) if kind is QualityType.NEGATIVE else rng.randint(1, 9)
    return Quality(name=f"Q{index}-{rng.choice(('Quick', 'Tough', 'Sly'))}", type=kind,
                   magnitude=magnitude)  # fmt: skip


def _depletable(rng: random.Random, name: str) -> DepletableScore:
    maximum = rng.randint(8, 40)
    # Mostly fit, sometimes impaired (an unfit PC is refused at creation).
    current = rng.choice((maximum, maximum, 3 * maximum // 4, maximum // 2, maximum // 4 + 1,
                          rng.randint(maximum // 4 + 1, maximum)))  # fmt: skip
    return DepletableScore(name=name, current=current, maximum=maximum)


def _player(rng: random.Random, index: int, at_issue: str | None) -> PlayerSpec:
    qualities = tuple(_quality(rng, q) for q in range(rng.randint(1, 5)))
    shape = rng.random()
    depletable: Any = None
    if shape < 0.45:
        depletable = _depletable(rng, at_issue or "health")
    elif shape < 0.7:
        depletable = (_depletable(rng, at_issue or "health"), _depletable(rng, "resolve"))
    return PlayerSpec(
        id=f"p{index}",
        name=f"Player {index}",
        qualities=qualities,
        depletion_modifier=rng.randint(-3, 2),
        threat=rng.randint(-2, 4),
        bullseyes=rng.choice((0, 0, 1, 2)),
        depletable=depletable,
    )


def _conflict(rng: random.Random, game: int) -> Conflict | bytes:
    at_issue = rng.choice((None, None, "health"))
    players = tuple(_player(rng, i, at_issue) for i in range(rng.randint(1, 5)))
    if at_issue is not None:  # every PC then needs the score at issue
        players = tuple(
            p if p.depletable is not None else msgspec.structs.replace(
                p, depletable=_depletable(rng, at_issue)) for p in players
        )  # fmt: skip
    opposition = OppositionSpec(
        name="Horde",
        qualities=tuple(_quality(rng, q) for q in range(rng.randint(0, 4))),
        depletion_modifier=rng.randint(-2, 2),
        threat=rng.randint(-1, 5),
    )
    try:
        applied = new_conflict(
            conflict_id=f"c{game}",
            name=f"Game {game}",
            players=players,
            opposition=opposition,
            dice=rng.choice(tuple(DiceKind)),
            dice_source=rng.choice(tuple(DiceSource)),
            depletable_at_issue=at_issue,
        )
    except RulesError as error:
        return _refused(error)
    return applied.state


def _ref(rng: random.Random, declared: tuple[Quality, ...]) -> Any:
    """A quality reference: mostly a declared one by name (any case) or as declared;
    sometimes one that differs or was never declared."""
    roll = rng.random()
    if not declared or roll < 0.008:
        return "Nobody's"
    quality = rng.choice(declared)
    if roll < 0.45:
        return rng.choice((quality.name, quality.name.upper(), quality.name.lower()))
    if roll < 0.985:
        return quality
    return msgspec.structs.replace(quality, magnitude=quality.magnitude + 1)


def _check(
    rng: random.Random, conflict: Conflict, declared: tuple[Quality, ...]
) -> ParticipantCheck:
    count = rng.choice((0, 1, 1, 2, 3)) if declared or rng.random() < 0.05 else 0
    refs = tuple(_ref(rng, declared) for _ in range(count))
    situational = tuple(
        Situational(label=f"s{i}", magnitude=rng.randint(-4, 4))
        for i in range(rng.choice((0, 0, 1, 2)))
    )
    spec = DICE[conflict.dice]
    roll = seed = None
    # Client dice: faces mostly, else the server rolls (seeded or not); server dice: its own.
    client = conflict.dice_source is DiceSource.CLIENT
    if (client and rng.random() < 0.9) or rng.random() < 0.01:
        count = spec.count if rng.random() > 0.01 else spec.count + 1
        faces = tuple(rng.randint(1, spec.sides + (1 if rng.random() < 0.005 else 0))
                      for _ in range(count))  # fmt: skip
        roll = SuppliedRoll(faces=faces)
    if rng.random() < (0.5 if client and roll is None else 0.01):
        seed = rng.randint(0, 10**6)
    return ParticipantCheck(
        qualities=refs,
        situational=situational,
        roll=roll,
        seed=seed,
        bullseye=rng.random() < 0.05,
        quick10=rng.random() < 0.04,
        strict=rng.random() < 0.1,
    )


def _declared(conflict: Conflict, who: str) -> tuple[Quality, ...]:
    if who == GM:
        return conflict.opposition.qualities
    return next((p.qualities for p in conflict.players if p.id == who), ())


def _action(rng: random.Random, conflict: Conflict) -> tuple[Any, str]:
    """The next action and its actor: mostly what the table would do next."""
    ids = [p.id for p in conflict.players]
    if conflict.status is ConflictStatus.DECIDED:
        members = [GM] if conflict.winner is Side.OPPOSITION else ids
        if rng.random() < 0.05:
            members = [GM, *ids[:1]]
        chosen = rng.sample(members, rng.randint(1, len(members)))
        checks = {m: _check(rng, conflict, _declared(conflict, m)) for m in chosen}
        return OutcomeRequest(target=rng.randint(5, 25), checks=checks), GM
    if conflict.deciding and rng.random() < 0.7:
        who = rng.choice(conflict.deciding)
        return DecideBullseye(number=conflict.round, participant=who,
                              spend=rng.random() < 0.6), rng.choice((who, GM))  # fmt: skip
    waiting = [p for p in (GM, *ids) if p not in conflict.pending]
    if conflict.pending or rng.random() < 0.35:
        if not waiting or rng.random() < 0.05:
            return CloseRound(number=conflict.round), GM
        who = rng.choice(waiting)
        number = conflict.round if rng.random() > 0.03 else conflict.round + 1
        action = Submit(number=number, participant=who,
                        check=_check(rng, conflict, _declared(conflict, who)))  # fmt: skip
        return action, rng.choice((who, who, GM))
    players = {pid: _check(rng, conflict, _declared(conflict, pid)) for pid in ids}
    if rng.random() < 0.04 and players:
        players.pop(rng.choice(ids))
    if rng.random() < 0.03:
        players["stranger"] = ParticipantCheck()
    actor = GM if rng.random() > 0.03 else ids[0]
    return ResolveRound(gm=_check(rng, conflict, conflict.opposition.qualities),
                        players=players), actor  # fmt: skip


def _refused(error: RulesError) -> bytes:
    refused = {
        "error": type(error).__name__,
        "code": error.code,
        "detail": error.detail,
        "concerns": msgspec.to_builtins(error.concerns),
        "extensions": dict(error.extensions),
    }
    return json.dumps(refused, sort_keys=True).encode()


def _answer(
    conflict: Conflict, action: Any, actor: str, dice: random.Random
) -> tuple[bytes, Conflict]:
    """Every byte the step produces: state (JSON, and msgpack as stored, in hex), events,
    history;
    or the refusal (its class, code, detail, concerns and extensions)."""
    try:
        applied = apply(conflict, action, actor, dice, "check-id")
    except RulesError as error:
        return _refused(error), conflict
    parts = (
        _json.encode(applied.state),
        _msgpack.encode(applied.state).hex().encode(),
        _json.encode(applied.events),
        _json.encode(applied.history),
    )
    return b"\n".join(parts), applied.state


def _game(game: int) -> bytes:
    rng = random.Random(game)
    dice = random.Random(10_000 + game)
    conflict = _conflict(rng, game)
    if isinstance(conflict, bytes):
        return conflict
    steps = [_json.encode(conflict)]
    for _ in range(rng.randint(3, 16)):
        if conflict.status is ConflictStatus.CLOSED or conflict.outcome is not None:
            break
        action, actor = _action(rng, conflict)
        answer, conflict = _answer(conflict, action, actor, dice)
        steps.append(_json.encode(action) + b" by " + actor.encode() + b"\n" + answer)
    return b"\n\n".join(steps)


def _bench_game() -> bytes:
    players = tuple(
        PlayerSpec(id=f"p{i}", name=f"Player {i}",
                   qualities=(Quality(name="Tough", type=QualityType.INTRINSIC, magnitude=5),))
        for i in range(4)
    )  # fmt: skip
    conflict = new_conflict(
        conflict_id="bench", name="Benchmark brawl", players=players,
        opposition=OppositionSpec(name="Horde"), dice=DiceKind.D20,
        dice_source=DiceSource.CLIENT, depletable_at_issue=None,
    ).state  # fmt: skip
    tied = ParticipantCheck(roll=SuppliedRoll(faces=(10,)))
    action = ResolveRound(gm=tied, players={f"p{i}": tied for i in range(4)})
    return _answer(conflict, action, GM, random.Random(0))[0]


def answers() -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every game."""
    yield BENCH_GAME, _bench_game()
    for game in range(GAMES):
        yield f"game-{game}", _game(game)


def digest(answer: bytes) -> str:
    return hashlib.sha256(answer).hexdigest()


def main() -> None:
    games = dict(answers())
    fixture = {
        "bench_round": games[BENCH_GAME].decode(),
        "sha256": {name: digest(answer) for name, answer in games.items()},
    }
    FIXTURE.write_text(json.dumps(fixture, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
