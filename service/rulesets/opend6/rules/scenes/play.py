"""A scene's rules: ``apply(scene, move, actor, rng, roll_id)`` → the next scene, its
events and its log entries ("Performing Actions in Rounds", "Initiative", "Multi-Action
Penalty", "Character ScenePoints"; D15, D16, D18). Who may make which move is decided here."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.sessions import GM, Applied
from service.rulesets.opend6.rules.dice import roll_chain
from service.rulesets.opend6.rules.initiative import (
    InitiativeEntrant,
    InitiativeRequest,
    initiative_bonus_pips,
    roll_initiative,
)
from service.rulesets.opend6.rules.rolls import RollResult, resolve_roll
from service.rulesets.opend6.rules.scenes.events import (
    ActionsDeclared,
    InitiativeRolled,
    OrderSet,
    ParticipantWaited,
    PointsSpent,
    RollMade,
    RollResolved,
    RoundStarted,
    SceneEnded,
    SceneLogEntry,
    TurnEnded,
    TurnStarted,
)
from service.rulesets.opend6.rules.scenes.model import (
    MAX_PENDING,
    InitiativeMethod,
    Scene,
    SceneDiceSource,
    SceneOrderPlace,
    SceneParticipant,
    SceneParticipantRound,
    ScenePendingRoll,
    ScenePhase,
    ScenePlayer,
    ScenePoints,
    SceneRules,
    SceneStatus,
)
from service.rulesets.opend6.rules.scenes.moves import (
    SceneDeclare,
    SceneEnd,
    SceneEndTurn,
    SceneInitiative,
    SceneMove,
    SceneNextRound,
    SceneResolve,
    SceneRoll,
    SceneSetOrder,
    SceneSpendCharacterPoints,
    SceneWait,
)
from service.rulesets.opend6.rules.spec import (
    AttributeBase,
    Available,
    CharacterPoints,
    DeclaredActions,
    RollKind,
    RollRequest,
)

__all__ = ["ROUND_SECONDS", "acting", "apply", "new_scene"]

ROUND_SECONDS = 5  # "Game Time"
_ACTION_KINDS = frozenset({RollKind.ACTION, RollKind.ATTACK})


def _refuse(code: str, detail: str, pointer: str | None = None) -> RulesError:
    return RulesError(
        f"opend6/{code}", detail, (Concern(code=f"opend6/{code}", pointer=pointer, detail=detail),)
    )


def new_scene(
    *,
    scene_id: str,
    name: str,
    rules: SceneRules,
    players: tuple[ScenePlayer, ...],
    participants: tuple[SceneParticipant, ...],
) -> Applied[Scene]:
    """A scene at round 1, rolling initiative (or waiting for the GM's order).

    Raises:
        RulesError: duplicate ids, a controller who is not at the table, a group not the GM's.
    """
    concerns = []
    player_ids = [player.id for player in players]
    for index, player in enumerate(players):
        if player.id == GM or player_ids.count(player.id) > 1:
            concerns.append(
                Concern(
                    code="opend6/duplicate-participant",
                    pointer=f"/players/{index}/id",
                    detail=f"Player ids are unique and not '{GM}'; '{player.id}' is taken.",
                )
            )
    seen: set[str] = set()
    for index, participant in enumerate(participants):
        if participant.id in seen:
            concerns.append(
                Concern(
                    code="opend6/duplicate-participant",
                    pointer=f"/participants/{index}/id",
                    detail=f"'{participant.id}' is listed twice.",
                )
            )
        seen.add(participant.id)
        if participant.controller != GM and participant.controller not in player_ids:
            concerns.append(
                Concern(
                    code="opend6/unknown-controller",
                    pointer=f"/participants/{index}/controller",
                    detail=f"'{participant.controller}' is neither '{GM}' nor a player.",
                )
            )
        if participant.members > 1 and participant.controller != GM:
            concerns.append(
                Concern(
                    code="opend6/group-not-gm",
                    pointer=f"/participants/{index}/members",
                    detail="Groups act as one and are the GM's (D19).",
                )
            )
    if concerns:
        raise RulesError.from_concerns(concerns)
    rounds = {
        p.id: SceneParticipantRound(
            points=ScenePoints(character_points=p.character_points, fate_points=p.fate_points)
        )
        for p in participants
    }
    return Applied(
        Scene(
            id=scene_id,
            name=name,
            rules=rules,
            players=players,
            participants=participants,
            rounds=rounds,
        )
    )


def _participant(scene: Scene, participant_id: str) -> SceneParticipant:
    found = next((p for p in scene.participants if p.id == participant_id), None)
    if found is None:
        raise _refuse(
            "unknown-participant",
            f"No participant '{participant_id}' in this scene.",
            "/participant",
        )
    return found


def _controls(actor: str, participant: SceneParticipant) -> None:
    """The GM moves anyone; a player only its own participants (403)."""
    if actor != GM and participant.controller != actor:
        raise _refuse(
            "not-your-participant", f"'{participant.id}' is not one of '{actor}''s participants."
        )


def _gm_only(actor: str, doing: str) -> None:
    if actor != GM:
        raise _refuse("gm-only", f"Only the GM's token may {doing}.")


def _phase(scene: Scene, *phases: ScenePhase) -> None:
    if scene.phase not in phases:
        allowed = " or ".join(phase.value for phase in phases)
        raise _refuse("wrong-phase", f"The round is in phase {scene.phase}, not {allowed}.")


def _pending_of(scene: Scene, participant_id: str) -> list[ScenePendingRoll]:
    return [roll for roll in scene.pending if roll.participant == participant_id]


def acting(scene: Scene) -> tuple[str, ...]:
    """Who may make turn moves now: the participant whose turn it is, an interrupter, and
    waiters with actions left — at the round's end, or while another's roll is pending
    (D18)."""
    if scene.status is not SceneStatus.ACTIVE or scene.phase is ScenePhase.INITIATIVE:
        return ()
    if scene.interrupting is not None:
        return (scene.interrupting,)
    found = [scene.current] if scene.current is not None else []
    pending_by = {roll.participant for roll in scene.pending}
    for place in scene.order:
        state = scene.rounds[place.participant]
        if not (state.waiting and state.actions_left > 0 and state.able):
            continue
        if scene.phase is ScenePhase.ROUND_END or (pending_by - {place.participant}):
            found.append(place.participant)
    return tuple(dict.fromkeys(found))


def _turn_mover(scene: Scene, participant_id: str) -> tuple[Scene, tuple[Event, ...]]:
    """The participant may act now; a waiter acting on another's pending roll starts an
    interrupt (D18). Raises 403 ``not-your-turn`` naming whose turn it is."""
    _phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    if participant_id not in acting(scene):
        whose = ", ".join(acting(scene)) or "nobody's (the GM resolves or moves on)"
        raise _refuse("not-your-turn", f"It is not '{participant_id}''s turn; it is {whose}.")
    if (
        scene.interrupting is None
        and participant_id != scene.current
        and scene.phase is ScenePhase.TURNS
    ):
        interrupt = TurnStarted(round=scene.round, participant=participant_id, interrupt=True)
        return msgspec.structs.replace(scene, interrupting=participant_id), (interrupt,)
    return scene, ()


def _with_round(scene: Scene, participant_id: str, **changes: object) -> Scene:
    state = msgspec.structs.replace(scene.rounds[participant_id], **changes)
    return msgspec.structs.replace(scene, rounds={**scene.rounds, participant_id: state})


def _turn_order(scene: Scene, order: Iterable[SceneOrderPlace]) -> Scene:
    return msgspec.structs.replace(scene, order=tuple(order))


def _entrant(participant: SceneParticipant, total: int) -> InitiativeEntrant:
    return InitiativeEntrant(
        id=participant.id,
        name=participant.name,
        acumen=participant.acumen,
        agility=participant.agility,
        search=participant.search,
        dodge=participant.dodge,
        goes_first=participant.goes_first,
        edge=participant.edge,
        bonus_ranks=participant.bonus_ranks,
        total=total,
    )


def _ordered(scene: Scene, totals: dict[str, int]) -> tuple[SceneOrderPlace, ...]:
    """ "Ties/No Rolls" over the given totals (D16), through the stateless initiative."""
    entrants = tuple(_entrant(p, totals[p.id]) for p in scene.participants if p.id in totals)
    result = roll_initiative(InitiativeRequest(participants=entrants), _NoDice(), "")
    return tuple(
        SceneOrderPlace(
            participant=place.participant, total=place.total, decided_by=place.decided_by
        )
        for place in result.order
    )


class _NoDice:
    """Totals are given: the order is computed, never rolled."""

    def randint(self, a: int, b: int, /) -> int:  # pragma: no cover - never called
        raise AssertionError("initiative totals were given")


def _start_turns(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    scene = msgspec.structs.replace(scene, phase=ScenePhase.TURNS, current=None, interrupting=None)
    return _advance(scene)


def _advance(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    """The next able participant whose turn is not done takes it; after the last turn,
    waiters with actions left get the round's end, else the round ends (D18)."""
    for place in scene.order:
        state = scene.rounds[place.participant]
        if state.able and not state.turn_done:
            nxt = msgspec.structs.replace(scene, current=place.participant)
            return nxt, (TurnStarted(round=scene.round, participant=place.participant),)
    scene = msgspec.structs.replace(scene, current=None)
    waiters = [p for p, s in scene.rounds.items() if s.waiting and s.actions_left > 0 and s.able]
    if waiters or scene.pending:
        return msgspec.structs.replace(scene, phase=ScenePhase.ROUND_END), ()
    return _next_round(scene)


def _next_round(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    rounds = {
        pid: SceneParticipantRound(points=state.points, able=state.able)
        for pid, state in scene.rounds.items()
    }
    scene = msgspec.structs.replace(
        scene,
        round=scene.round + 1,
        elapsed_seconds=scene.elapsed_seconds + ROUND_SECONDS,
        rounds=rounds,
        current=None,
        interrupting=None,
    )
    started: tuple[Event, ...] = (RoundStarted(round=scene.round),)
    if scene.rules.initiative is InitiativeMethod.ROLLED_PER_ROUND:
        return msgspec.structs.replace(scene, phase=ScenePhase.INITIATIVE, order=()), started
    scene, events = _start_turns(scene)
    return scene, (*started, *events)


def _dice_concerns(scene: Scene, faces: object, seed: object, pointer: str) -> None:
    if scene.rules.dice_source is SceneDiceSource.SERVER and (
        faces is not None or seed is not None
    ):
        raise _refuse(
            "faces-not-allowed",
            "This scene's dice are rolled by the server (dice_source: server).",
            pointer,
        )


def _initiative(
    scene: Scene, move: SceneInitiative, actor: str, rng: RandomSource
) -> tuple[Scene, tuple[Event, ...]]:
    _phase(scene, ScenePhase.INITIATIVE)
    if scene.rules.initiative is InitiativeMethod.FIRST_ACTION:
        raise _refuse("wrong-phase", "This scene's order is the GM's (first_action): set_order.")
    events: list[Event] = []
    for index, item in enumerate(move.rolls):
        participant = _participant(scene, item.participant)
        _controls(actor, participant)
        state = scene.rounds[participant.id]
        if state.initiative is not None:
            raise _refuse("already-rolled", f"'{participant.id}' has rolled initiative.")
        _dice_concerns(scene, item.faces, item.seed, f"/rolls/{index}/faces")
        request = RollRequest(
            base=AttributeBase(code=participant.acumen),
            kind=RollKind.INITIATIVE,
            character_points=CharacterPoints(before=item.character_points),
            character_point_limit=scene.rules.character_point_limit,
            available=Available(
                character_points=state.points.character_points,
                fate_points=state.points.fate_points,
            ),
            critical_failure=scene.rules.critical_failure,
            faces=item.faces,
            seed=item.seed,
        )
        try:
            roll = resolve_roll(request, rng, f"{scene.id}-i{scene.round}-{participant.id}")
        except RulesError as error:
            raise error.under(f"/rolls/{index}") from None
        assert roll.total is not None
        bonus = 0
        if scene.rules.optional_initiative_bonus:
            bonus = initiative_bonus_pips(_entrant(participant, 0))
        points = ScenePoints(
            character_points=state.points.character_points - item.character_points,
            fate_points=state.points.fate_points,
        )
        scene = _with_round(scene, participant.id, initiative=roll.total + bonus, points=points)
        events.append(
            InitiativeRolled(
                round=scene.round, participant=participant.id, total=roll.total + bonus
            )
        )
    totals = {p: s.initiative for p, s in scene.rounds.items() if s.able}
    if all(total is not None for total in totals.values()):
        order = _ordered(scene, {p: t for p, t in totals.items() if t is not None})
        scene = _turn_order(scene, order)
        events.append(OrderSet(round=scene.round, order=tuple(p.participant for p in order)))
        scene, started = _start_turns(scene)
        events.extend(started)
    return scene, tuple(events)


def _set_order(scene: Scene, move: SceneSetOrder, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    _gm_only(actor, "set the order")
    _phase(scene, ScenePhase.INITIATIVE)
    if scene.rules.initiative is not InitiativeMethod.FIRST_ACTION:
        raise _refuse("wrong-phase", "This scene rolls initiative; set_order is for first_action.")
    for name in move.first:
        _participant(scene, name)
    if len(set(move.first)) < len(move.first):
        raise _refuse("duplicate-participant", "A participant is named twice in `first`.")
    rest = _ordered(scene, {p.id: 0 for p in scene.participants if p.id not in move.first})
    firsts = tuple(SceneOrderPlace(participant=p, total=None, decided_by="gm") for p in move.first)
    scene = _turn_order(scene, (*firsts, *rest))
    events: tuple[Event, ...] = (
        OrderSet(round=scene.round, order=tuple(p.participant for p in scene.order)),
    )
    scene, started = _start_turns(scene)
    return scene, (*events, *started)


def _declare(scene: Scene, move: SceneDeclare, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    participant = _participant(scene, move.participant)
    _controls(actor, participant)
    scene, events = _turn_mover(scene, participant.id)
    if scene.rounds[participant.id].declared is not None:
        raise _refuse("already-declared", f"'{participant.id}' has declared this round.")
    penalty = max(0, move.actions - participant.action_allotment)
    scene = _with_round(
        scene,
        participant.id,
        declared=move.actions,
        actions_left=move.actions,
        penalty_dice=penalty,
    )
    declared = ActionsDeclared(
        round=scene.round, participant=participant.id, actions=move.actions, penalty_dice=penalty
    )
    return scene, (*events, declared)


def _spend_action(scene: Scene, participant: SceneParticipant) -> Scene:
    state = scene.rounds[participant.id]
    if state.declared is None:
        raise _refuse("not-declared", f"'{participant.id}' declares its actions first.")
    if state.actions_left < 1:
        raise _refuse("no-actions-left", f"'{participant.id}' has no action left this round.")
    return _with_round(scene, participant.id, actions_left=state.actions_left - 1)


def _roll(
    scene: Scene, move: SceneRoll, actor: str, rng: RandomSource, roll_id: str
) -> tuple[Scene, tuple[Event, ...]]:
    participant = _participant(scene, move.participant)
    _controls(actor, participant)
    spec = move.spec
    if spec.kind is RollKind.INITIATIVE:
        raise _refuse("wrong-phase", "Initiative is rolled with the `initiative` move.")
    events: tuple[Event, ...] = ()
    if spec.kind in _ACTION_KINDS:
        scene, events = _turn_mover(scene, participant.id)
        scene = _spend_action(scene, participant)
    else:
        _phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    if len(scene.pending) >= MAX_PENDING:
        raise _refuse("roll-pending", f"{MAX_PENDING} rolls wait for the GM already.")
    _dice_concerns(scene, spec.faces, spec.seed, "/spec/faces")
    state = scene.rounds[participant.id]
    actions = None
    if state.declared is not None and spec.kind in (*_ACTION_KINDS, RollKind.FREE):
        actions = DeclaredActions(declared=state.declared, allotment=participant.action_allotment)
    request = RollRequest(
        base=spec.base,
        kind=spec.kind,
        bonuses=spec.bonuses,
        time=spec.time,
        actions=actions,
        fate_point=spec.fate_point,
        character_points=CharacterPoints(before=spec.character_points),
        character_point_limit=scene.rules.character_point_limit,
        cp_with_fp=scene.rules.cp_with_fp,
        available=Available(
            character_points=state.points.character_points, fate_points=state.points.fate_points
        ),
        critical_failure=scene.rules.critical_failure,
        faces=spec.faces,
        seed=spec.seed,
    )
    try:
        result = resolve_roll(request, rng, roll_id)
    except RulesError as error:
        raise error.under("/spec") from None
    assert result.points.available_after is not None
    after = result.points.available_after
    points = ScenePoints(character_points=after.character_points, fate_points=after.fate_points)
    scene = _with_round(scene, participant.id, points=points, waiting=False)
    pending = ScenePendingRoll(
        id=roll_id, round=scene.round, participant=participant.id, by=actor, move=spec, roll=result
    )
    scene = msgspec.structs.replace(
        scene, pending=(*scene.pending, pending), rolls_made=scene.rolls_made + 1
    )
    made = RollMade(round=scene.round, participant=participant.id, roll=roll_id, by=actor)
    return scene, (*events, made)


def _find_pending(scene: Scene, roll_id: str) -> ScenePendingRoll:
    found = next((roll for roll in scene.pending if roll.id == roll_id), None)
    if found is None:
        raise _refuse("not-pending", f"No roll '{roll_id}' is waiting for the GM.", "/roll")
    return found


def _request_of(scene: Scene, pending: ScenePendingRoll) -> RollRequest:
    """The pending roll again, on its own faces: only what changed is new."""
    spec, roll = pending.move, pending.roll
    state = scene.rounds[pending.participant]
    participant = _participant(scene, pending.participant)
    actions = None
    if state.declared is not None and spec.kind in (*_ACTION_KINDS, RollKind.FREE):
        actions = DeclaredActions(declared=state.declared, allotment=participant.action_allotment)
    after = len(roll.faces.character_points_after or ()) if roll.faces else 0
    return RollRequest(
        base=spec.base,
        kind=spec.kind,
        bonuses=spec.bonuses,
        time=spec.time,
        actions=actions,
        fate_point=spec.fate_point,
        character_points=CharacterPoints(before=spec.character_points, after=after),
        cp_with_fp=True,  # already allowed (or refused) when the roll was made
        critical_failure=scene.rules.critical_failure,
        faces=roll.faces,
    )


def _replace_pending(scene: Scene, pending: ScenePendingRoll, roll: RollResult | None) -> Scene:
    kept = tuple(
        (msgspec.structs.replace(p, roll=roll) if roll is not None else None)
        if p.id == pending.id
        else p
        for p in scene.pending
    )
    return msgspec.structs.replace(scene, pending=tuple(p for p in kept if p is not None))


def _spend(
    scene: Scene, move: SceneSpendCharacterPoints, actor: str, rng: RandomSource
) -> tuple[Scene, tuple[Event, ...]]:
    pending = _find_pending(scene, move.roll)
    participant = _participant(scene, pending.participant)
    _controls(actor, participant)
    state = scene.rounds[participant.id]
    if move.count > state.points.character_points:
        raise _refuse(
            "not-enough-points",
            f"'{participant.id}' has {state.points.character_points} Character ScenePoints.",
            "/count",
        )
    request = _request_of(scene, pending)
    spent = request.character_points.before + request.character_points.after + move.count
    limit = scene.rules.character_point_limit
    if limit is not None and spent > limit:
        raise _refuse(
            "cp-limit", f"{spent} Character ScenePoints on one roll; the limit is {limit}."
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
    result = resolve_roll(request, rng, pending.id)
    points = ScenePoints(
        character_points=state.points.character_points - move.count,
        fate_points=state.points.fate_points,
    )
    scene = _with_round(_replace_pending(scene, pending, result), participant.id, points=points)
    return scene, (PointsSpent(round=scene.round, roll=pending.id, character_points=move.count),)


def _resolve(
    scene: Scene, move: SceneResolve, actor: str
) -> tuple[Scene, tuple[Event, ...], SceneLogEntry]:
    _gm_only(actor, "resolve a roll")
    pending = _find_pending(scene, move.roll)
    request = _request_of(scene, pending)
    difficulty = move.difficulty
    if difficulty is not None and move.modifiers:
        difficulty = msgspec.structs.replace(
            difficulty, modifiers=(*difficulty.modifiers, *move.modifiers)
        )
    request = msgspec.structs.replace(
        request,
        difficulty=difficulty,
        critical_failure=move.critical_failure or request.critical_failure,
    )
    try:
        result = resolve_roll(request, _NoDice(), pending.id)
    except RulesError as error:
        raise error.under("/difficulty") from None
    scene = _replace_pending(scene, pending, None)
    resolved = RollResolved(
        round=scene.round,
        participant=pending.participant,
        roll=pending.id,
        total=result.total,
        outcome=result.outcome,
    )
    entry = SceneLogEntry(
        round=scene.round,
        move="resolve",
        by=actor,
        participant=pending.participant,
        roll_id=pending.id,
        result=result,
    )
    return scene, (resolved,), entry


def _wait(scene: Scene, move: SceneWait, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    participant = _participant(scene, move.participant)
    _controls(actor, participant)
    scene, events = _turn_mover(scene, participant.id)
    scene = _spend_action(scene, participant)
    scene = _with_round(scene, participant.id, waiting=True, turn_done=True)
    waited = ParticipantWaited(round=scene.round, participant=participant.id)
    return _pass_on(scene, participant.id, (*events, waited))


def _end_turn(scene: Scene, move: SceneEndTurn, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    participant = _participant(scene, move.participant)
    _controls(actor, participant)
    scene, events = _turn_mover(scene, participant.id)
    if _pending_of(scene, participant.id):
        raise _refuse("roll-pending", f"'{participant.id}''s roll waits for the GM first.")
    scene = _with_round(scene, participant.id, turn_done=True, waiting=False)
    ended = TurnEnded(round=scene.round, participant=participant.id)
    return _pass_on(scene, participant.id, (*events, ended))


def _pass_on(
    scene: Scene, participant_id: str, events: tuple[Event, ...]
) -> tuple[Scene, tuple[Event, ...]]:
    """An interrupter hands back to the current turn; otherwise the turn moves on."""
    if scene.interrupting == participant_id:
        return msgspec.structs.replace(scene, interrupting=None), events
    if scene.current == participant_id or scene.phase is ScenePhase.ROUND_END:
        scene, more = _advance(scene)
        return scene, (*events, *more)
    return scene, events


def apply(
    scene: Scene, move: SceneMove, actor: str, rng: RandomSource, roll_id: str
) -> Applied[Scene]:
    """The scene after ``actor`` (``gm`` or a player id) makes ``move``.

    Raises:
        RulesError: the move is against the rules, the phase or the actor's role (403
            codes: ``gm-only``, ``not-your-participant``, ``not-your-turn``).
    """
    if scene.status is SceneStatus.ENDED:
        raise _refuse("scene-ended", "The scene has ended.")
    if move.round != scene.round:
        raise _refuse("wrong-round", f"The scene is at round {scene.round}, not {move.round}.")
    entry = SceneLogEntry(round=scene.round, move=str(move.__struct_config__.tag), by=actor)
    match move:
        case SceneInitiative():
            scene, events = _initiative(scene, move, actor, rng)
        case SceneSetOrder():
            scene, events = _set_order(scene, move, actor)
        case SceneDeclare():
            scene, events = _declare(scene, move, actor)
            entry = msgspec.structs.replace(entry, participant=move.participant)
        case SceneWait():
            scene, events = _wait(scene, move, actor)
            entry = msgspec.structs.replace(entry, participant=move.participant)
        case SceneEndTurn():
            scene, events = _end_turn(scene, move, actor)
            entry = msgspec.structs.replace(entry, participant=move.participant)
        case SceneRoll():
            scene, events = _roll(scene, move, actor, rng, roll_id)
            entry = msgspec.structs.replace(entry, participant=move.participant, roll_id=roll_id)
        case SceneSpendCharacterPoints():
            scene, events = _spend(scene, move, actor, rng)
            entry = msgspec.structs.replace(entry, roll_id=move.roll)
        case SceneResolve():
            scene, events, entry = _resolve(scene, move, actor)
        case SceneNextRound():
            _gm_only(actor, "end the round")
            _phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
            if scene.pending:
                raise _refuse(
                    "roll-pending", "SceneResolve the pending rolls before the next round."
                )
            scene, events = _next_round(scene)
        case SceneEnd():
            _gm_only(actor, "end the scene")
            scene = msgspec.structs.replace(scene, status=SceneStatus.ENDED, current=None)
            events = (SceneEnded(round=scene.round),)
    return Applied(scene, events, (entry,))
