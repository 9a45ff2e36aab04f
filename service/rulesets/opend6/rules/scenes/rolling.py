"""Rolls in a scene: made and left pending for the GM (D18), improved with Character
Points after they are seen, helped by related rolls, doubled by a climactic Fate Point,
opposed by another pending roll, and resolved by the GM ("Character Points", "Fate
Points", "Free Actions (related skills)", "Opposed Difficulties")."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import RulesError
from service.kernel.events import Event
from service.rulesets.opend6.rules.dice import roll_chain
from service.rulesets.opend6.rules.opposed import OpposedResult, handicap, judge_opposed
from service.rulesets.opend6.rules.rolled_code import repointed
from service.rulesets.opend6.rules.rolls import PointsSpent as RollPoints
from service.rulesets.opend6.rules.rolls import PointsUsed, RollOutcome, RollResult, resolve_roll
from service.rulesets.opend6.rules.scenes.events import (
    RollMade,
    RollResolved,
    SceneLogEntry,
    ScenePointsSpent,
)
from service.rulesets.opend6.rules.scenes.flow import (
    NoDice,
    controls,
    dice_concerns,
    gm_only,
    may_interrupt,
    participant_of,
    phase,
    refuse,
    spend_action,
    turn_mover,
    with_round,
)
from service.rulesets.opend6.rules.scenes.model import (
    MAX_PENDING,
    MAX_RESOLVED,
    Scene,
    SceneParticipant,
    ScenePendingRoll,
    ScenePhase,
    ScenePoints,
    SceneResolvedRoll,
)
from service.rulesets.opend6.rules.scenes.moves import (
    SceneClimacticFatePoint,
    SceneMoveType,
    SceneResolve,
    SceneRoll,
    SceneSpendCharacterPoints,
)
from service.rulesets.opend6.rules.spec import (
    Available,
    AvailableView,
    CharacterPoints,
    CriticalFailure,
    DeclaredActions,
    Difficulty,
    EquipmentBase,
    Faces,
    Modifiers,
    Related,
    RollKind,
    RollRequest,
    WildDieOnlyDifficulty,
    cp_limit,
    cp_limit_text,
)

__all__ = [
    "climactic_fate_point",
    "find_pending",
    "resolve",
    "roll",
    "spend_character_points",
]

_ACTION_KINDS = frozenset({RollKind.ACTION, RollKind.ATTACK})


def climactic_fate_point(
    scene: Scene, move: SceneClimacticFatePoint, actor: str
) -> tuple[Scene, tuple[Event, ...]]:
    """One Fate Point doubles the participant's rolls this round, spent before its first
    roll of the round; once a scene unless the GM's `climax` ("Fate Points", D19)."""
    participant = participant_of(scene, move.participant)
    controls(actor, participant)
    state = scene.rounds[participant.id]
    if state.rolls:
        raise refuse(
            "already-rolled", f"'{participant.id}' has rolled this round; spend it before."
        )
    if state.climactic:
        raise refuse("climactic-used", f"'{participant.id}''s rolls are doubled this round.")
    if state.climactic_used and not scene.rules.climax:
        raise refuse(
            "climactic-used",
            f"'{participant.id}' has spent its climactic Fate Point this scene (no `climax`).",
        )
    if state.points.fate_points < 1:
        raise refuse("not-enough-points", f"'{participant.id}' has no Fate Point.")
    points = msgspec.structs.replace(state.points, fate_points=state.points.fate_points - 1)
    scene = with_round(scene, participant.id, points=points, climactic=True, climactic_used=True)
    spent = ScenePointsSpent(
        round=scene.round, participant=participant.id, fate_points=1, climactic=True
    )
    return scene, (spent,)


def _actions(scene: Scene, participant: SceneParticipant, kind: RollKind) -> DeclaredActions | None:
    """The "Multi-Action Penalty" applies to action, attack and free rolls (D13)."""
    declared = scene.rounds[participant.id].declared
    if declared is None or kind not in (*_ACTION_KINDS, RollKind.FREE):
        return None
    return DeclaredActions(declared=declared, allotment=participant.action_allotment)


def _related(scene: Scene, ids: tuple[str, ...]) -> tuple[Scene, tuple[Related, ...]]:
    """Each related roll once: a resolved roll of this round or the last."""
    related = []
    resolved = {item.id: item for item in scene.resolved}
    for index, roll_id in enumerate(ids):
        found = resolved.get(roll_id)
        pointer = f"/related_rolls/{index}"
        if found is None:
            raise refuse(
                "related-unknown",
                f"'{roll_id}' is not a roll resolved against a difficulty this round or the last.",
                pointer,
            )
        if found.used:
            raise refuse("related-used", f"'{roll_id}' has helped a roll already.", pointer)
        resolved[roll_id] = msgspec.structs.replace(found, used=True)
        related.append(Related(label=roll_id, result_points=found.result_points))
    kept = tuple(resolved[item.id] for item in scene.resolved)
    return msgspec.structs.replace(scene, resolved=kept), tuple(related)


def _opposable(scene: Scene, move: SceneRoll, actor: str) -> None:
    """A roll resists one pending roll of another participant, one resister each
    ("Opposed Difficulties"): the resister uses up an action (an `action` or `attack`
    roll, on its turn or interrupting), or the GM grants a `free` reaction roll; a
    `damage_resistance` roll resists a `damage` roll."""
    if move.opposes is None:
        return
    kind = move.spec.kind
    if kind is RollKind.FREE:
        gm_only(actor, "grant a free roll that opposes (a reaction)", "/opposes")
    target = find_pending(scene, move.opposes, "/opposes")
    if move.difficulty is not None:
        raise refuse(
            "opposed-difficulty",
            "An opposed roll's difficulty is the other side's total; give modifiers instead.",
            "/difficulty",
        )
    resisting = target.move.kind is RollKind.DAMAGE
    if target.participant == move.participant:
        why = f"'{target.id}' is '{move.participant}''s own roll"
    elif kind is RollKind.DAMAGE or (kind is RollKind.DAMAGE_RESISTANCE) != resisting:
        why = (
            f"a {kind} roll cannot resist a {target.move.kind} roll (an action, attack or "
            "free roll resists an action; damage_resistance resists damage)"
        )
    elif target.difficulty is not None:
        why = f"'{target.id}' has the GM's difficulty, and is judged against it"
    elif target.opposes is not None:
        why = f"'{target.id}' itself opposes '{target.opposes}'"
    elif any(p.opposes == target.id for p in scene.pending):
        why = f"'{target.id}' is opposed already"
    else:
        return
    raise refuse("cannot-oppose", f"{why}.", "/opposes")


def _paid_by_climactic(result: RollResult, climactic: bool, fate_points: int) -> RollResult:
    """A climactic round's Fate Point was paid when spent: its rolls show none spent, and
    the participant's ``fate_points`` left."""
    if not climactic or result.points.available_after is None:
        return result
    spent = RollPoints(character_points=result.points.spent.character_points, fate_points=0)
    after = msgspec.structs.replace(result.points.available_after, fate_points=fate_points)
    points = PointsUsed(spent=spent, available_after=after)
    return msgspec.structs.replace(result, points=points)


def roll(
    scene: Scene, move: SceneRoll, actor: str, rng: RandomSource, roll_id: str
) -> tuple[Scene, tuple[Event, ...], SceneLogEntry]:
    """A roll in the scene: pending for the GM, or resolved at once (the GM's
    `resolve_now`, only when no waiter could interrupt it, D18)."""
    participant = participant_of(scene, move.participant)
    controls(actor, participant)
    spec = move.spec
    if spec.kind is RollKind.INITIATIVE:
        raise refuse("wrong-phase", "Initiative is rolled with the `initiative` move.")
    if move.difficulty is not None:
        gm_only(actor, "set a roll's difficulty", "/difficulty")
    if move.resolve_now:
        gm_only(actor, "resolve a roll at once", "/resolve_now")
    events: tuple[Event, ...] = ()
    if spec.kind in _ACTION_KINDS:
        scene, events = turn_mover(scene, participant.id)
        scene = spend_action(scene, participant.id)
    else:
        phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    if len(scene.pending) >= MAX_PENDING:
        raise refuse("roll-pending", f"{MAX_PENDING} rolls wait for the GM already.")
    _opposable(scene, move, actor)
    dice_concerns(scene, spec.faces, spec.seed, "/spec/faces")
    scene, related = _related(scene, move.related_rolls)
    state = scene.rounds[participant.id]
    climactic = state.climactic and not isinstance(spec.base, EquipmentBase)
    if climactic and spec.fate_point:
        raise refuse(
            "fp-not-allowed",
            "This round's rolls are doubled by a climactic Fate Point already (D6: once).",
            "/spec/fate_point",
        )
    actions = _actions(scene, participant, spec.kind)
    request = RollRequest(
        base=spec.base,
        kind=spec.kind,
        bonuses=spec.bonuses,
        related=related,
        time=spec.time,
        actions=actions,
        fate_point=spec.fate_point or climactic,
        character_points=CharacterPoints(before=spec.character_points),
        character_point_limit=scene.rules.character_point_limit,
        cp_with_fp=scene.rules.cp_with_fp,
        available=Available(
            character_points=state.points.character_points,
            fate_points=1 if climactic else state.points.fate_points,
        ),
        critical_failure=scene.rules.critical_failure,
        faces=spec.faces,
        seed=spec.seed,
    )
    try:
        result = resolve_roll(request, rng, roll_id)
    except RulesError as error:  # the multi-action penalty is the participant's `declare`
        raise repointed(error.under("/spec"), {"/spec/actions/declared": "/participant"}) from None
    result = _paid_by_climactic(result, climactic, state.points.fate_points)
    assert result.points.available_after is not None
    after = result.points.available_after
    points = ScenePoints(
        character_points=after.character_points,
        fate_points=state.points.fate_points - (1 if spec.fate_point else 0),
    )
    scene = with_round(scene, participant.id, points=points, rolls=state.rolls + 1)
    pending = ScenePendingRoll(
        id=roll_id,
        round=scene.round,
        participant=participant.id,
        by=actor,
        move=spec,
        roll=result,
        opposes=move.opposes,
        difficulty=move.difficulty,
        related=related,
        climactic=climactic,
        actions=actions,
    )
    scene = msgspec.structs.replace(
        scene, pending=(*scene.pending, pending), rolls_made=scene.rolls_made + 1
    )
    made = RollMade(round=scene.round, participant=participant.id, roll=roll_id, by=actor)
    entry = SceneLogEntry(
        round=scene.round,
        move=SceneMoveType.ROLL,
        by=actor,
        participant=participant.id,
        roll_id=roll_id,
    )
    if not move.resolve_now:
        return scene, (*events, made), entry
    waiters = [p for p in scene.rounds if p != participant.id and may_interrupt(scene, p)]
    if waiters:
        raise refuse(
            "interrupt-window",
            f"{', '.join(waiters)} may still interrupt this roll (D18); leave it pending.",
            "/resolve_now",
        )
    scene, resolved, entry = _settle(scene, pending, None, None, (), actor)
    return scene, (*events, made, *resolved), entry


def find_pending(scene: Scene, roll_id: str, pointer: str = "/roll") -> ScenePendingRoll:
    found = next((item for item in scene.pending if item.id == roll_id), None)
    if found is None:
        raise refuse("not-pending", f"No roll '{roll_id}' is waiting for the GM.", pointer)
    return found


def _request_of(scene: Scene, pending: ScenePendingRoll) -> RollRequest:
    """The pending roll again, on its own faces: only what changes is new."""
    spec, made = pending.move, pending.roll
    after = len(made.faces.character_points_after or ()) if made.faces else 0
    return RollRequest(
        base=spec.base,
        kind=spec.kind,
        bonuses=spec.bonuses,
        related=pending.related,
        time=spec.time,
        actions=pending.actions,
        fate_point=spec.fate_point or pending.climactic,
        character_points=CharacterPoints(before=spec.character_points, after=after),
        cp_with_fp=scene.rules.cp_with_fp,
        critical_failure=scene.rules.critical_failure,
        faces=made.faces,
    )


def _with_roll(scene: Scene, pending: ScenePendingRoll, made: RollResult) -> Scene:
    """The pending roll, improved (Character Points after it)."""
    kept = tuple(
        msgspec.structs.replace(p, roll=made) if p.id == pending.id else p for p in scene.pending
    )
    return msgspec.structs.replace(scene, pending=kept)


def _without(scene: Scene, pending: ScenePendingRoll) -> Scene:
    """The pending roll, resolved: no longer pending."""
    return msgspec.structs.replace(
        scene, pending=tuple(p for p in scene.pending if p.id != pending.id)
    )


def spend_character_points(
    scene: Scene, move: SceneSpendCharacterPoints, actor: str, rng: RandomSource
) -> tuple[Scene, tuple[Event, ...]]:
    """CP dice after seeing a pending roll, before the GM resolves it; the server rolls
    them ("Character Points")."""
    pending = find_pending(scene, move.roll)
    participant = participant_of(scene, pending.participant)
    controls(actor, participant)
    state = scene.rounds[participant.id]
    if move.count > state.points.character_points:
        raise refuse(
            "not-enough-points",
            f"'{participant.id}' has {state.points.character_points} Character Points.",
            "/count",
        )
    request = _request_of(scene, pending)
    spent = request.character_points.before + request.character_points.after + move.count
    limit = scene.rules.character_point_limit
    if spent > cp_limit(limit):
        raise refuse(
            "cp-limit",
            f"{spent} Character Points on one roll (before and after together); the limit "
            f"is {cp_limit_text(limit)}.",
            "/count",
        )
    if request.fate_point and not scene.rules.cp_with_fp:
        raise refuse(
            "cp-with-fp",
            f"'{pending.id}' has a Fate Point; Character Points join it only with `cp_with_fp`.",
        )
    assert request.faces is not None
    more = tuple(roll_chain(rng) for _ in range(move.count))  # the server's, like any dice
    faces = msgspec.structs.replace(
        request.faces, character_points_after=(*(request.faces.character_points_after or ()), *more)
    )
    request = msgspec.structs.replace(
        request,
        faces=faces,
        character_points=CharacterPoints(
            before=request.character_points.before,
            after=request.character_points.after + move.count,
        ),
    )
    points = msgspec.structs.replace(
        state.points, character_points=state.points.character_points - move.count
    )
    used = PointsUsed(
        spent=RollPoints(character_points=spent, fate_points=pending.roll.points.spent.fate_points),
        available_after=AvailableView(
            character_points=points.character_points, fate_points=points.fate_points
        ),
    )
    made = msgspec.structs.replace(resolve_roll(request, rng, pending.id), points=used)
    scene = with_round(_with_roll(scene, pending, made), participant.id, points=points)
    spent_event = ScenePointsSpent(
        round=scene.round,
        participant=participant.id,
        roll=pending.id,
        character_points=move.count,
    )
    return scene, (spent_event,)


def resolve(
    scene: Scene, move: SceneResolve, actor: str
) -> tuple[Scene, tuple[Event, ...], SceneLogEntry]:
    gm_only(actor, "resolve a roll")
    pending = find_pending(scene, move.roll)
    return _settle(scene, pending, move.difficulty, move.critical_failure, move.modifiers, actor)


def _rolled_again(
    scene: Scene,
    pending: ScenePendingRoll,
    difficulty: Difficulty | None,
    option: CriticalFailure | None,
) -> RollResult:
    request = msgspec.structs.replace(
        _request_of(scene, pending),
        difficulty=difficulty,
        critical_failure=option or scene.rules.critical_failure,
    )
    if isinstance(difficulty, WildDieOnlyDifficulty) and request.faces is not None:
        # "Special Difficulties": the GM reads the Wild Die's first toss alone, a 6 too:
        # its explosions and the regular dice are not part of it (D14).
        assert request.faces.wild is not None
        request = msgspec.structs.replace(request, faces=Faces(wild=request.faces.wild[:1]))
    try:
        made = resolve_roll(request, NoDice(), pending.id)
    except RulesError as error:
        raise error.under("/difficulty") from None
    return msgspec.structs.replace(made, points=pending.roll.points)


def _settle(
    scene: Scene,
    pending: ScenePendingRoll,
    difficulty: Difficulty | None,
    option: CriticalFailure | None,
    modifiers: Modifiers,
    actor: str,
) -> tuple[Scene, tuple[Event, ...], SceneLogEntry]:
    """The GM's judgement (D18): alone, against a difficulty (the GM's now, or set with the
    roll); or, when one roll opposes another, both together, modifiers counting against
    the side named (D17)."""
    opposer = next((p for p in scene.pending if p.opposes == pending.id), None)
    if pending.opposes is not None or opposer is not None:
        if difficulty is not None:
            raise refuse(
                "opposed-difficulty",
                f"'{pending.id}' is opposed: its difficulty is the other side's total.",
                "/difficulty",
            )
        return _settle_opposed(scene, pending, opposer, option, modifiers, actor)
    difficulty = difficulty or pending.difficulty
    if difficulty is None and modifiers:
        raise refuse(
            "modifiers-without-difficulty",
            f"'{pending.id}' has no difficulty for the modifiers to raise; give one.",
            "/modifiers",
        )
    if difficulty is not None and modifiers:
        difficulty = msgspec.structs.replace(
            difficulty, modifiers=(*difficulty.modifiers, *modifiers)
        )
    made = _rolled_again(scene, pending, difficulty, option)
    scene = _without(scene, pending)
    if made.result_points is not None:
        scene = _remember(scene, pending, made.result_points)
    resolved = RollResolved(
        round=scene.round,
        participant=pending.participant,
        roll=pending.id,
        total=made.total,
        outcome=made.outcome,
    )
    entry = SceneLogEntry(
        round=scene.round,
        move=SceneMoveType.RESOLVE,
        by=actor,
        participant=pending.participant,
        roll_id=pending.id,
        result=made,
    )
    return scene, (resolved,), entry


def _settle_opposed(
    scene: Scene,
    named: ScenePendingRoll,
    opposer: ScenePendingRoll | None,
    option: CriticalFailure | None,
    modifiers: Modifiers,
    actor: str,
) -> tuple[Scene, tuple[Event, ...], SceneLogEntry]:
    if opposer is not None:
        initiator, resister = named, opposer
    else:
        assert named.opposes is not None
        initiator, resister = find_pending(scene, named.opposes), named
    sides = []
    for side in (initiator, resister):
        against = handicap(side.move.base, modifiers if side is named else ())
        sides.append((_rolled_again(scene, side, None, option), against))
    opposed: OpposedResult = judge_opposed(
        sides[0], sides[1], attack=initiator.move.kind is RollKind.ATTACK
    )
    events: list[Event] = []
    for side, won, points in (
        (initiator, opposed.winner == "initiator", opposed.margin),
        (resister, opposed.winner == "resister", -opposed.margin),
    ):
        scene = _remember(_without(scene, side), side, points)
        total = opposed.initiator.roll.total if side is initiator else opposed.resister.roll.total
        events.append(
            RollResolved(
                round=scene.round,
                participant=side.participant,
                roll=side.id,
                total=total,
                outcome=RollOutcome.SUCCESS if won else RollOutcome.FAILURE,
            )
        )
    entry = SceneLogEntry(
        round=scene.round,
        move=SceneMoveType.RESOLVE,
        by=actor,
        participant=named.participant,
        roll_id=named.id,
        result=opposed.initiator.roll if named is initiator else opposed.resister.roll,
        opposed=opposed,
    )
    return scene, tuple(events), entry


def _remember(scene: Scene, pending: ScenePendingRoll, result_points: int) -> Scene:
    """A judged roll may help a related one later ("Free Actions (related skills)")."""
    kept = SceneResolvedRoll(
        id=pending.id,
        round=scene.round,
        participant=pending.participant,
        result_points=result_points,
    )
    return msgspec.structs.replace(scene, resolved=(kept, *scene.resolved)[:MAX_RESOLVED])
