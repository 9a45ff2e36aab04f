"""How a round flows ("Performing Actions in Rounds", "Initiative", D16, D18): whose turn it
is, who may interrupt, and what comes after a turn — shared by every move of a scene."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.sessions import GM
from service.rulesets.opend6.rules.dice import FACES
from service.rulesets.opend6.rules.initiative import (
    InitiativeEntrant,
    InitiativeRequest,
    roll_initiative,
)
from service.rulesets.opend6.rules.scenes.events import InterruptStarted, RoundStarted, TurnStarted
from service.rulesets.opend6.rules.scenes.model import (
    InitiativeMethod,
    Scene,
    SceneDiceSource,
    SceneOrderPlace,
    SceneParticipant,
    SceneParticipantRound,
    ScenePendingRoll,
    ScenePhase,
    SceneStatus,
)

__all__ = [
    "ROUND_SECONDS",
    "NoDice",
    "acting",
    "advance",
    "controls",
    "dice_concerns",
    "entrant",
    "gm_only",
    "may_interrupt",
    "ordered",
    "participant_of",
    "pass_on",
    "pending_of",
    "phase",
    "refuse",
    "spend_action",
    "start_turns",
    "turn_mover",
    "unplaced",
    "waiting_for",
    "with_round",
]

ROUND_SECONDS = 5  # "Game Time"


def refuse(code: str, detail: str, pointer: str | None = None) -> RulesError:
    return RulesError(
        f"opend6/{code}", detail, (Concern(code=f"opend6/{code}", pointer=pointer, detail=detail),)
    )


def participant_of(scene: Scene, participant_id: str) -> SceneParticipant:
    found = next((p for p in scene.participants if p.id == participant_id), None)
    if found is None:
        raise refuse(
            "unknown-participant",
            f"No participant '{participant_id}' in this scene.",
            "/participant",
        )
    return found


def controls(actor: str, participant: SceneParticipant) -> None:
    """The GM moves anyone; a player only its own participants (403)."""
    if actor != GM and participant.controller != actor:
        raise refuse(
            "not-your-participant", f"'{participant.id}' is not one of '{actor}''s participants."
        )


def gm_only(actor: str, doing: str, pointer: str | None = None) -> None:
    if actor != GM:
        raise refuse("gm-only", f"Only the GM's token may {doing}.", pointer)


def phase(scene: Scene, *phases: ScenePhase) -> None:
    if scene.phase not in phases:
        allowed = " or ".join(item.value for item in phases)
        raise refuse("wrong-phase", f"The round is in phase {scene.phase}, not {allowed}.")


def dice_concerns(scene: Scene, faces: object, seed: object, pointer: str) -> None:
    if scene.rules.dice_source is SceneDiceSource.SERVER and (
        faces is not None or seed is not None
    ):
        raise RulesError.from_concerns(
            [
                FACES.faces_not_allowed(
                    pointer, "This scene's dice are rolled by the server (dice_source: server)."
                )
            ]
        )


def pending_of(scene: Scene, participant_id: str) -> list[ScenePendingRoll]:
    return [roll for roll in scene.pending if roll.participant == participant_id]


def with_round(scene: Scene, participant_id: str, **changes: object) -> Scene:
    state = msgspec.structs.replace(scene.rounds[participant_id], **changes)
    return msgspec.structs.replace(scene, rounds={**scene.rounds, participant_id: state})


def spend_action(scene: Scene, participant_id: str) -> Scene:
    """One of the round's declared actions, used (a roll of the acting kinds, a wait)."""
    state = scene.rounds[participant_id]
    if state.declared is None:
        raise refuse("not-declared", f"'{participant_id}' declares its actions first.")
    if state.actions_left < 1:
        raise refuse("no-actions-left", f"'{participant_id}' has no action left this round.")
    return with_round(scene, participant_id, actions_left=state.actions_left - 1)


def may_interrupt(scene: Scene, participant_id: str) -> bool:
    """A waiter with actions left, able to act (D18)."""
    state = scene.rounds[participant_id]
    return state.waiting and state.actions_left > 0 and state.able


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
        if not may_interrupt(scene, place.participant):
            continue
        if scene.phase is ScenePhase.ROUND_END or (pending_by - {place.participant}):
            found.append(place.participant)
    return tuple(dict.fromkeys(found))


def waiting_for(scene: Scene) -> tuple[str, ...]:
    """Whose move it is, as roles (``gm`` or player ids): the controllers of those yet to
    roll initiative and of the `acting` participants, and the GM while the order awaits
    ``set_order``, a roll awaits resolution, or the round's end awaits ``next_round``."""
    if scene.status is SceneStatus.ENDED:
        return ()
    controller = {p.id: p.controller for p in scene.participants}
    roles: list[str] = []
    if scene.phase is ScenePhase.INITIATIVE:
        if scene.rules.initiative is InitiativeMethod.FIRST_ACTION:
            return (GM,)  # the GM names who goes first; nobody rolls
        roles += [
            controller[p]
            for p, state in scene.rounds.items()
            if state.able and state.initiative is None
        ]
    roles += [controller[p] for p in acting(scene)]
    if scene.pending or scene.phase is ScenePhase.ROUND_END:
        roles.append(GM)
    return tuple(dict.fromkeys(roles))


def turn_mover(scene: Scene, participant_id: str) -> tuple[Scene, tuple[Event, ...]]:
    """The participant may act now; a waiter acting on another's pending roll starts an
    interrupt (D18). Raises 403 ``not-your-turn`` naming whose turn it is."""
    phase(scene, ScenePhase.TURNS, ScenePhase.ROUND_END)
    if participant_id not in acting(scene):
        whose = ", ".join(acting(scene)) or "nobody's (the GM resolves or moves on)"
        raise refuse("not-your-turn", f"It is not '{participant_id}''s turn; it is {whose}.")
    if (
        scene.interrupting is None
        and participant_id != scene.current
        and scene.phase is ScenePhase.TURNS
    ):
        interrupt = InterruptStarted(round=scene.round, participant=participant_id)
        return msgspec.structs.replace(scene, interrupting=participant_id), (interrupt,)
    return scene, ()


def entrant(participant: SceneParticipant, total: int) -> InitiativeEntrant:
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


class NoDice:
    """Nothing is left to chance here: a call is a bug, not a roll."""

    def randint(self, a: int, b: int, /) -> int:  # pragma: no cover - never called
        raise AssertionError("no dice are rolled here")


def ordered(scene: Scene, totals: dict[str, int]) -> tuple[SceneOrderPlace, ...]:
    """ "Ties/No Rolls" over the given totals (D16), through the stateless initiative."""
    entrants = tuple(entrant(p, totals[p.id]) for p in scene.participants if p.id in totals)
    result = roll_initiative(InitiativeRequest(participants=entrants), NoDice(), "")
    return tuple(
        SceneOrderPlace(
            participant=place.participant, total=place.total, decided_by=place.decided_by
        )
        for place in result.order
    )


def unplaced(scene: Scene, placed: Iterable[str]) -> tuple[SceneOrderPlace, ...]:
    """Participants without a place (unable when the order was set) go last, in listing
    order, and take their turns there once able."""
    taken = set(placed)
    return tuple(
        SceneOrderPlace(participant=p.id, total=None, decided_by="unable")
        for p in scene.participants
        if p.id not in taken
    )


def start_turns(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    scene = msgspec.structs.replace(scene, phase=ScenePhase.TURNS, current=None, interrupting=None)
    return advance(scene)


def advance(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    """The next participant whose turn is not done takes it; one unable when its turn
    comes loses it. After the last turn, waiters with actions left get the round's end,
    else the round ends (D18)."""
    for place in scene.order:
        state = scene.rounds[place.participant]
        if state.turn_done:
            continue
        if not state.able:
            scene = with_round(scene, place.participant, turn_done=True)
            continue
        nxt = msgspec.structs.replace(scene, current=place.participant)
        return nxt, (TurnStarted(round=scene.round, participant=place.participant),)
    scene = msgspec.structs.replace(scene, current=None)
    waiters = [p for p in scene.rounds if may_interrupt(scene, p)]
    nobody_able = not any(state.able for state in scene.rounds.values())
    if waiters or scene.pending or nobody_able:  # nobody able: the GM moves on, not a loop
        return msgspec.structs.replace(scene, phase=ScenePhase.ROUND_END), ()
    return next_round(scene)


def next_round(scene: Scene) -> tuple[Scene, tuple[Event, ...]]:
    """Unused actions die with the round; points, ability and a spent climactic Fate
    Point carry over; related rolls older than the last round are forgotten."""
    rounds = {
        pid: SceneParticipantRound(
            points=state.points, able=state.able, climactic_used=state.climactic_used
        )
        for pid, state in scene.rounds.items()
    }
    scene = msgspec.structs.replace(
        scene,
        round=scene.round + 1,
        elapsed_seconds=scene.elapsed_seconds + ROUND_SECONDS,
        rounds=rounds,
        current=None,
        interrupting=None,
        resolved=tuple(r for r in scene.resolved if r.round >= scene.round),
    )
    started: tuple[Event, ...] = (RoundStarted(round=scene.round),)
    if scene.rules.initiative is InitiativeMethod.ROLLED_PER_ROUND:
        return msgspec.structs.replace(scene, phase=ScenePhase.INITIATIVE, order=()), started
    scene, events = start_turns(scene)
    return scene, (*started, *events)


def pass_on(
    scene: Scene, participant_id: str, events: tuple[Event, ...]
) -> tuple[Scene, tuple[Event, ...]]:
    """An interrupter hands back to the current turn; otherwise the turn moves on."""
    if scene.interrupting == participant_id:
        scene = with_round(scene, participant_id, moved_up=False)
        return msgspec.structs.replace(scene, interrupting=None), events
    if scene.current == participant_id or scene.phase is ScenePhase.ROUND_END:
        scene, more = advance(scene)
        return scene, (*events, *more)
    return scene, events
