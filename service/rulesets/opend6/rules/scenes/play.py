"""A scene's rules: ``apply(scene, move, actor, rng, roll_id)`` → the next scene, its
events and its log entries ("Performing Actions in Rounds", "Initiative", "Multi-Action
Penalty", "Character Points", "Fate Points"; D15, D16, D18, D19). Who may make which move
is decided here; the round's flow is in ``flow``, rolls in ``rolling``."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.sessions import GM, Applied
from service.rulesets.opend6.rules.initiative import initiative_bonus_pips
from service.rulesets.opend6.rules.rolled_code import repointed
from service.rulesets.opend6.rules.rolls import RollResult, resolve_roll
from service.rulesets.opend6.rules.scenes.events import (
    ActionsDeclared,
    InitiativeRolled,
    InterruptStarted,
    OrderSet,
    ParticipantAble,
    ParticipantWaited,
    SceneEnded,
    SceneLogEntry,
    TurnEnded,
)
from service.rulesets.opend6.rules.scenes.flow import (
    advance,
    controls,
    dice_concerns,
    entrant,
    gm_only,
    next_round,
    ordered,
    participant_of,
    pass_on,
    pending_of,
    phase,
    refuse,
    spend_action,
    start_turns,
    turn_mover,
    unplaced,
    with_round,
)
from service.rulesets.opend6.rules.scenes.model import (
    InitiativeMethod,
    Scene,
    SceneOrderPlace,
    SceneParticipant,
    SceneParticipantRound,
    ScenePhase,
    ScenePlayer,
    ScenePoints,
    SceneRules,
    SceneStatus,
)
from service.rulesets.opend6.rules.scenes.moves import (
    SceneClimacticFatePoint,
    SceneDeclare,
    SceneEnd,
    SceneEndTurn,
    SceneInitiative,
    SceneMove,
    SceneMoveType,
    SceneMoveUp,
    SceneNextRound,
    SceneResolve,
    SceneRoll,
    SceneSetAble,
    SceneSetOrder,
    SceneSpendCharacterPoints,
    SceneWait,
)
from service.rulesets.opend6.rules.scenes.rolling import (
    climactic_fate_point,
    resolve,
    roll,
    spend_character_points,
)
from service.rulesets.opend6.rules.spec import (
    AttributeBase,
    Available,
    CharacterPoints,
    RollKind,
    RollRequest,
)

__all__ = ["apply", "new_scene"]


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
            points=ScenePoints(character_points=p.character_points, fate_points=p.fate_points),
            climactic_used=p.climactic_used,
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


def _initiative(
    scene: Scene, move: SceneInitiative, actor: str, rng: RandomSource
) -> tuple[Scene, tuple[Event, ...], tuple[RollResult, ...]]:
    """The scene after an initiative move, its events, and each roll it made, in order."""
    phase(scene, ScenePhase.INITIATIVE)
    if scene.rules.initiative is InitiativeMethod.FIRST_ACTION:
        raise refuse("wrong-phase", "This scene's order is the GM's (first_action): set_order.")
    events: list[Event] = []
    rolls: list[RollResult] = []
    for index, item in enumerate(move.rolls):
        participant = participant_of(scene, item.participant)
        controls(actor, participant)
        state = scene.rounds[participant.id]
        if state.initiative is not None:
            raise refuse("already-rolled", f"'{participant.id}' has rolled initiative.")
        dice_concerns(scene, item.faces, item.seed, f"/rolls/{index}/faces")
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
        except RulesError as error:  # the Acumen rolled is the participant's
            at = f"/rolls/{index}"
            raise repointed(error.under(at), {f"{at}/base": f"{at}/participant"}) from None
        assert roll.total is not None
        rolls.append(roll)
        bonus = 0
        if scene.rules.optional_initiative_bonus:
            bonus = initiative_bonus_pips(entrant(participant, 0))
        points = ScenePoints(
            character_points=state.points.character_points - item.character_points,
            fate_points=state.points.fate_points,
        )
        scene = with_round(scene, participant.id, initiative=roll.total + bonus, points=points)
        events.append(
            InitiativeRolled(
                round=scene.round, participant=participant.id, total=roll.total + bonus
            )
        )
    scene, ordered_events = _order_when_rolled(scene)
    return scene, (*events, *ordered_events), tuple(rolls)


def _order_when_rolled(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    """Once every able participant has rolled, the order is set (D16) and turns begin;
    the unable ones go last."""
    totals = {p: s.initiative for p, s in scene.rounds.items() if s.able}
    rolled = scene.rules.initiative is not InitiativeMethod.FIRST_ACTION
    if not (rolled and totals) or any(total is None for total in totals.values()):
        return scene, ()
    order = ordered(scene, {p: t for p, t in totals.items() if t is not None})
    order = (*order, *unplaced(scene, (place.participant for place in order)))
    scene = msgspec.structs.replace(scene, order=order)
    events: tuple[Event, ...] = (
        OrderSet(round=scene.round, order=tuple(p.participant for p in order)),
    )
    scene, started = start_turns(scene)
    return scene, (*events, *started)


def _set_order(scene: Scene, move: SceneSetOrder, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    gm_only(actor, "set the order")
    phase(scene, ScenePhase.INITIATIVE)
    if scene.rules.initiative is not InitiativeMethod.FIRST_ACTION:
        raise refuse("wrong-phase", "This scene rolls initiative; set_order is for first_action.")
    for name in move.first:
        participant_of(scene, name)
    if len(set(move.first)) < len(move.first):
        raise refuse("duplicate-participant", "A participant is named twice in `first`.")
    rest = ordered(scene, {p.id: 0 for p in scene.participants if p.id not in move.first})
    firsts = tuple(SceneOrderPlace(participant=p, total=None, decided_by="gm") for p in move.first)
    scene = msgspec.structs.replace(scene, order=(*firsts, *rest))
    events: tuple[Event, ...] = (
        OrderSet(round=scene.round, order=tuple(p.participant for p in scene.order)),
    )
    scene, started = start_turns(scene)
    return scene, (*events, *started)


def _declare(scene: Scene, move: SceneDeclare, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    participant = participant_of(scene, move.participant)
    controls(actor, participant)
    scene, events = turn_mover(scene, participant.id)
    if scene.rounds[participant.id].declared is not None:
        raise refuse("already-declared", f"'{participant.id}' has declared this round.")
    penalty = max(0, move.actions - participant.action_allotment)
    scene = with_round(
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


def _wait(scene: Scene, move: SceneWait, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    participant = participant_of(scene, move.participant)
    controls(actor, participant)
    scene, events = turn_mover(scene, participant.id)
    scene = with_round(spend_action(scene, participant.id), participant.id, waiting=True)
    if scene.interrupting != participant.id:
        scene = with_round(scene, participant.id, turn_done=True)
    waited = ParticipantWaited(round=scene.round, participant=participant.id)
    return pass_on(scene, participant.id, (*events, waited))


def _end_turn(scene: Scene, move: SceneEndTurn, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    """The current turn ends; an interrupt hands back (a waiter keeps waiting, a moved-up
    participant keeps its own turn); at the round's end a waiter gives up its actions."""
    participant = participant_of(scene, move.participant)
    controls(actor, participant)
    scene, events = turn_mover(scene, participant.id)
    if pending_of(scene, participant.id):
        raise refuse("roll-pending", f"'{participant.id}''s roll waits for the GM first.")
    if scene.interrupting != participant.id:
        scene = with_round(scene, participant.id, turn_done=True, waiting=False)
    ended = TurnEnded(round=scene.round, participant=participant.id)
    return pass_on(scene, participant.id, (*events, ended))


def _move_up(scene: Scene, move: SceneMoveUp, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    """The GM lets a participant react now ("move up"): it interrupts at once; what it
    does takes its actions, and its own turn, if still to come, stays."""
    gm_only(actor, "let a participant move up")
    phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    participant = participant_of(scene, move.participant)
    state = scene.rounds[participant.id]
    if scene.interrupting is not None:
        raise refuse(
            "interrupting", f"'{scene.interrupting}' is interrupting; move up after it ends."
        )
    if participant.id == scene.current:
        raise refuse("not-waiting", f"It is '{participant.id}''s turn already.", "/participant")
    if not state.able:
        raise refuse("not-able", f"'{participant.id}' is unable to act.", "/participant")
    if state.declared is not None and state.actions_left < 1:
        raise refuse("no-actions-left", f"'{participant.id}' has no action left this round.")
    scene = with_round(scene, participant.id, moved_up=True)
    scene = msgspec.structs.replace(scene, interrupting=participant.id)
    return scene, (InterruptStarted(round=scene.round, participant=participant.id, moved_up=True),)


def _set_able(scene: Scene, move: SceneSetAble, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    """An unable participant loses the turn that comes while it is unable (its current
    one, too); able again before its place in the order comes, it acts there (one placed
    last, unable when the order was set, acts last)."""
    gm_only(actor, "set who is able to act")
    participant = participant_of(scene, move.participant)
    state = scene.rounds[participant.id]
    events: tuple[Event, ...] = (
        ParticipantAble(round=scene.round, participant=participant.id, able=move.able),
    )
    if state.able == move.able:
        return scene, events
    if move.able:
        scene = with_round(scene, participant.id, able=True)
    else:
        lost = state.turn_done or scene.current == participant.id
        scene = with_round(scene, participant.id, able=False, turn_done=lost, moved_up=False)
    if scene.phase is ScenePhase.INITIATIVE:
        scene, more = _order_when_rolled(scene)
        return scene, (*events, *more)
    if scene.interrupting == participant.id:
        scene = msgspec.structs.replace(scene, interrupting=None)
    if scene.current == participant.id or (move.able and scene.phase is ScenePhase.ROUND_END):
        scene = msgspec.structs.replace(scene, phase=ScenePhase.TURNS)
        scene, more = advance(scene)
        return scene, (*events, *more)
    return scene, events


def _next_round(scene: Scene, actor: str) -> tuple[Scene, tuple[Event, ...]]:
    gm_only(actor, "end the round")
    phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    if scene.pending:
        raise refuse("roll-pending", "Resolve the pending rolls before the next round.")
    return next_round(scene)


def apply(
    scene: Scene, move: SceneMove, actor: str, rng: RandomSource, roll_id: str
) -> Applied[Scene]:
    """The scene after ``actor`` (``gm`` or a player id) makes ``move``.

    Raises:
        RulesError: the move is against the rules, the phase or the actor's role (403
            codes: ``gm-only``, ``not-your-participant``, ``not-your-turn``).
    """
    if scene.status is SceneStatus.ENDED:
        raise refuse("scene-ended", "The scene has ended.")
    if move.round != scene.round:
        raise refuse("wrong-round", f"The scene is at round {scene.round}, not {move.round}.")
    entry = SceneLogEntry(round=scene.round, move=SceneMoveType.of(move), by=actor)
    if participant := getattr(move, "participant", None):
        entry = msgspec.structs.replace(entry, participant=participant)
    match move:
        case SceneInitiative():
            scene, events, rolls = _initiative(scene, move, actor, rng)
            entry = msgspec.structs.replace(entry, initiative=rolls)
        case SceneSetOrder():
            scene, events = _set_order(scene, move, actor)
        case SceneDeclare():
            scene, events = _declare(scene, move, actor)
        case SceneWait():
            scene, events = _wait(scene, move, actor)
        case SceneEndTurn():
            scene, events = _end_turn(scene, move, actor)
        case SceneRoll():
            scene, events, entry = roll(scene, move, actor, rng, roll_id)
        case SceneSpendCharacterPoints():
            scene, events = spend_character_points(scene, move, actor, rng)
            entry = msgspec.structs.replace(entry, roll_id=move.roll)
        case SceneResolve():
            scene, events, entry = resolve(scene, move, actor)
        case SceneClimacticFatePoint():
            scene, events = climactic_fate_point(scene, move, actor)
        case SceneMoveUp():
            scene, events = _move_up(scene, move, actor)
        case SceneSetAble():
            scene, events = _set_able(scene, move, actor)
        case SceneNextRound():
            scene, events = _next_round(scene, actor)
        case SceneEnd():
            gm_only(actor, "end the scene")
            scene = msgspec.structs.replace(scene, status=SceneStatus.ENDED, current=None)
            events = (SceneEnded(round=scene.round),)
    return Applied(scene, events, (entry,))
