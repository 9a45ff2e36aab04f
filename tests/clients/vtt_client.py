"""A small VTT client on the Python package generated from openapi/openapi.json.

It resolves a Bullseye check, then plays the Bullseye guide's whole conflict (dice rolled at
the table, so every number is known): each participant submits with their own token
(AuthenticatedClient sends it as ``Authorization: Bearer``), the winners make the final
check, a player reads the conflict, the GM deletes it. Then an OpenD6 roll read through its
faces, an OpenD6 scene played with the GM's and a player's tokens, and a Self/Conflict
check, and the travelogue guide's short game with one token per player: every answer field
is used as mypy --strict types it, so a field the schema left optional would fail the type
check, and refusals' extension members (`missing`, `roles`, `waiting_for`) are read off
their problem's own class. Run by tests/clients/check.sh, which generates the
package (``tabletop_rules_service_client``), type-checks this file with ``mypy --strict``
and runs it against the served app:

    python tests/clients/vtt_client.py http://127.0.0.1:8000

Every call goes through ``expect``: an undeclared status raises (the generated client's
``raise_on_unexpected_status``), a declared but unexpected one fails with its body.
"""

from __future__ import annotations

import sys
from http import HTTPStatus
from typing import Any, TypeVar

from tabletop_rules_service_client import AuthenticatedClient, Client
from tabletop_rules_service_client.api.checks import resolve_check
from tabletop_rules_service_client.api.conflicts import (
    create_conflict,
    delete_conflict,
    get_conflict,
    make_outcome_check,
    submit_round_check,
)
from tabletop_rules_service_client.api.opend6 import (
    open_d6_create_scene,
    open_d6_delete_scene,
    open_d6_get_scene,
    open_d6_roll,
    open_d6_scene_move,
)
from tabletop_rules_service_client.api.self_conflict import self_conflict_check
from tabletop_rules_service_client.api.travelogue import (
    travelogue_create_game,
    travelogue_delete_game,
    travelogue_game_action,
)
from tabletop_rules_service_client.models import (
    CheckRequest,
    CheckResult,
    ConflictCreated,
    ConflictStatus,
    ConflictView,
    CreateConflict,
    DepletableScore,
    DepletionAtIssue,
    DepletionSide,
    DiceSource,
    ModifierSource,
    OpenD6CreateScene,
    OpenD6Faces,
    OpenD6InitiativeMethod,
    OpenD6Level,
    OpenD6NumberDifficulty,
    OpenD6NumberDifficultyKind,
    OpenD6RollAnswer,
    OpenD6RollKind,
    OpenD6RollOutcome,
    OpenD6RollRequest,
    OpenD6SceneCreated,
    OpenD6SceneDeclare,
    OpenD6SceneDeclareType,
    OpenD6SceneDiceSource,
    OpenD6SceneEndTurn,
    OpenD6SceneEndTurnType,
    OpenD6SceneInitiative,
    OpenD6SceneInitiativeRoll,
    OpenD6SceneInitiativeType,
    OpenD6SceneMoveMade,
    OpenD6SceneParticipant,
    OpenD6ScenePhase,
    OpenD6ScenePlayer,
    OpenD6SceneResolve,
    OpenD6SceneResolveType,
    OpenD6SceneRoll,
    OpenD6SceneRollSpec,
    OpenD6SceneRollType,
    OpenD6SceneRules,
    OpenD6SceneView,
    OpenD6SkillBase,
    OpenD6SkillBaseType,
    OpenD6StandardDifficulty,
    OpenD6StandardDifficultyKind,
    OppositionSpec,
    Outcome,
    OutcomeCheck,
    OutcomeRequest,
    OutcomeRequestChecks,
    ParticipantCheck,
    PlayerSpec,
    Problem,
    Quality,
    QualityType,
    ResolveCheckProblem,
    RoundAnswer,
    SelfConflictCheckProblem,
    SelfConflictDieRole,
    SelfConflictGmModifier,
    SelfConflictKarma,
    SelfConflictOutcome,
    SelfConflictTalent,
    SelfConflictTalentCheckRequest,
    SelfConflictTalentCheckResult,
    SessionProblem,
    Side,
    Situational,
    SubmissionAccepted,
    SubmitCheck,
    SuppliedRoll,
)
from tabletop_rules_service_client.models.travelogue_accept_flag import TravelogueAcceptFlag
from tabletop_rules_service_client.models.travelogue_accept_flag_type import (
    TravelogueAcceptFlagType,
)
from tabletop_rules_service_client.models.travelogue_action_taken import TravelogueActionTaken
from tabletop_rules_service_client.models.travelogue_close_scene import TravelogueCloseScene
from tabletop_rules_service_client.models.travelogue_close_scene_type import (
    TravelogueCloseSceneType,
)
from tabletop_rules_service_client.models.travelogue_create_game import TravelogueCreateGame
from tabletop_rules_service_client.models.travelogue_created_game import TravelogueCreatedGame
from tabletop_rules_service_client.models.travelogue_ending_reason import TravelogueEndingReason
from tabletop_rules_service_client.models.travelogue_game_problem import TravelogueGameProblem
from tabletop_rules_service_client.models.travelogue_pool_faces import TraveloguePoolFaces
from tabletop_rules_service_client.models.travelogue_reject_flag import TravelogueRejectFlag
from tabletop_rules_service_client.models.travelogue_reject_flag_type import (
    TravelogueRejectFlagType,
)
from tabletop_rules_service_client.models.travelogue_roll_attention import (
    TravelogueRollAttention,
)
from tabletop_rules_service_client.models.travelogue_roll_attention_type import (
    TravelogueRollAttentionType,
)
from tabletop_rules_service_client.models.travelogue_roll_final import TravelogueRollFinal
from tabletop_rules_service_client.models.travelogue_roll_final_type import (
    TravelogueRollFinalType,
)
from tabletop_rules_service_client.models.travelogue_roll_pools import TravelogueRollPools
from tabletop_rules_service_client.models.travelogue_roll_pools_type import (
    TravelogueRollPoolsType,
)
from tabletop_rules_service_client.models.travelogue_sheet import TravelogueSheet
from tabletop_rules_service_client.models.travelogue_sheet_stats import TravelogueSheetStats
from tabletop_rules_service_client.models.travelogue_take_flag import TravelogueTakeFlag
from tabletop_rules_service_client.models.travelogue_take_flag_type import (
    TravelogueTakeFlagType,
)
from tabletop_rules_service_client.models.travelogue_vote import TravelogueVote
from tabletop_rules_service_client.models.travelogue_vote_type import TravelogueVoteType
from tabletop_rules_service_client.models.travelogue_waiting_for import TravelogueWaitingFor
from tabletop_rules_service_client.models.travelogue_whose_dice import TravelogueWhoseDice
from tabletop_rules_service_client.types import Response

T = TypeVar("T")

DUELIST = Quality(name="Duelist", type_=QualityType.EXPERIENTIAL, magnitude=7)
NIMBLE = Quality(name="Nimble", type_=QualityType.INTRINSIC, magnitude=4)
GIANT = Quality(name="Giant", type_=QualityType.INTRINSIC, magnitude=8)
WAR_AXE = Quality(name="War axe", type_=QualityType.MATERIAL, magnitude=3)


def expect(label: str, response: Response[Any], status: HTTPStatus, kind: type[T]) -> T:
    """The parsed body of ``response`` if it has ``status`` and is a ``kind``; else exit."""
    parsed = response.parsed
    if response.status_code != status or not isinstance(parsed, kind):
        sys.exit(
            f"{label}: expected {status.value} {kind.__name__}, got "
            f"{response.status_code.value} {type(parsed).__name__}: {response.content[:500]!r}"
        )
    print(f"  ok  {label}: {status.value} {kind.__name__}")
    return parsed


def check(base_url: str) -> None:
    """POST /v1/checks: docs/bullseye.md's sword fight, with the die rolled at the table."""
    body = CheckRequest(
        target=15,
        qualities=[
            Quality(name="Duelling academy graduate", type_=QualityType.EXPERIENTIAL, magnitude=4),
            Quality(name="Cat-quick reflexes", type_=QualityType.INTRINSIC, magnitude=3),
        ],
        situational=[Situational(label="Rolling deck", magnitude=-1)],
        depletable=[DepletableScore(name="health", current=30, maximum=42)],
        depletion=DepletionAtIssue(
            actor=DepletionSide(threat=5, depletion_modifier=-2),
            opposition=DepletionSide(threat=10),
        ),
        roll=SuppliedRoll(faces=[11]),
    )
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        result = expect(
            "check",
            resolve_check.sync_detailed(client=client, body=body),
            HTTPStatus.OK,
            CheckResult,
        )
        # Health 30 of 42 is below three-quarters: impairment -2 (§3.2.3).
        assert (result.yield_, result.total_modifier) == (15, 4), result
        assert result.outcome == Outcome.STALEMATE, result.outcome
        assert result.modifiers[-1].source == ModifierSource.IMPAIRMENT, result.modifiers

        refused = expect(
            "check refused (quick10 with depletion)",
            resolve_check.sync_detailed(
                client=client,
                body=CheckRequest(target=10, quick10=True, depletion=DepletionAtIssue()),
            ),
            HTTPStatus.UNPROCESSABLE_ENTITY,
            ResolveCheckProblem,  # the check's own: it declares faces-missing's members
        )
        codes = [error.code for error in refused.errors]
        assert "quick10-with-depletion" in codes, codes


def submit(
    base_url: str, token: str, conflict: str, number: int, body: SubmitCheck, kind: type[T]
) -> T:
    """One participant's check, sent with that participant's token.

    202 ``SubmissionAccepted`` while the round waits, 200 ``RoundAnswer`` from the last check.
    """
    status = HTTPStatus.ACCEPTED if kind is SubmissionAccepted else HTTPStatus.OK
    with AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True) as c:
        response = submit_round_check.sync_detailed(conflict, number, client=c, body=body)
    return expect(f"round {number} {body.participant}", response, status, kind)


def conflict(base_url: str) -> None:
    """docs/bullseye.md's Bridge of Knives, every roll supplied, from creation to deletion."""
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        created = expect(
            "create conflict",
            create_conflict.sync_detailed(
                client=client,
                body=CreateConflict(
                    name="Bridge of Knives",
                    depletable_at_issue="health",
                    dice_source=DiceSource.CLIENT,
                    players=[
                        PlayerSpec(
                            id="ana", name="Ana", threat=5, bullseyes=1, qualities=[DUELIST, NIMBLE]
                        ),
                        PlayerSpec(
                            id="bo", name="Bo", depletion_modifier=-2, qualities=[GIANT, WAR_AXE]
                        ),
                    ],
                    opposition=OppositionSpec(name="Bandit crew", threat=3),
                ),
            ),
            HTTPStatus.CREATED,
            ConflictCreated,
        )
    assert (created.scores.players, created.scores.opposition) == (22, 44), created.scores
    cid, gm = created.id, created.tokens.gm
    ana, bo = created.tokens.players["ana"], created.tokens.players["bo"]

    def roll(participant: str, face: int, *qualities: Quality) -> SubmitCheck:
        return SubmitCheck(
            participant=participant, qualities=list(qualities), roll=SuppliedRoll(faces=[face])
        )

    # A player's token may submit only for that player: 403, a problem document.
    with AuthenticatedClient(base_url=base_url, token=ana, raise_on_unexpected_status=True) as c:
        forbidden = expect(
            "ana submits for gm",
            submit_round_check.sync_detailed(cid, 1, client=c, body=roll("gm", 10)),
            HTTPStatus.FORBIDDEN,
            SessionProblem,
        )
    assert forbidden.type_.endswith("/forbidden"), forbidden.type_

    # Round 1: 202 while the round waits, 200 with the round at the last check.
    waiting = submit(base_url, ana, cid, 1, roll("ana", 15, DUELIST), SubmissionAccepted)
    assert waiting.waiting_for == ["gm", "bo"], waiting
    waiting = submit(base_url, bo, cid, 1, roll("bo", 14, GIANT), SubmissionAccepted)
    assert waiting.waiting_for == ["gm"], waiting
    first = submit(base_url, gm, cid, 1, roll("gm", 10), RoundAnswer)
    assert not first.decided, first
    assert (first.scores_after.players, first.scores_after.opposition) == (22, 15), first

    # Round 2 decides it: the opposition falls to -29.
    submit(base_url, ana, cid, 2, roll("ana", 18, DUELIST), SubmissionAccepted)
    submit(base_url, bo, cid, 2, roll("bo", 12, GIANT), SubmissionAccepted)
    second = submit(base_url, gm, cid, 2, roll("gm", 3), RoundAnswer)
    assert second.decided, second
    assert second.winner == Side.PLAYERS, second.winner
    assert second.scores_after.opposition == -29, second.scores_after

    # §4.4: of the players' candidates Bo checks (9 + Giant 8 + score 22 = 39 against 20).
    candidates = OutcomeRequestChecks()
    candidates["ana"] = ParticipantCheck(qualities=[DUELIST], roll=SuppliedRoll(faces=[12]))
    candidates["bo"] = ParticipantCheck(qualities=[GIANT], roll=SuppliedRoll(faces=[9]))
    with AuthenticatedClient(base_url=base_url, token=gm, raise_on_unexpected_status=True) as c:
        outcome = expect(
            "outcome",
            make_outcome_check.sync_detailed(
                cid, client=c, body=OutcomeRequest(target=20, checks=candidates)
            ),
            HTTPStatus.OK,
            OutcomeCheck,
        )
    assert (outcome.yield_, outcome.spread, outcome.outcome) == (39, 19, Outcome.SUCCESS)
    assert outcome.by == "bo"

    # A player reads it; its ETag sent back as If-None-Match answers 304 with no body.
    with AuthenticatedClient(base_url=base_url, token=bo, raise_on_unexpected_status=True) as c:
        response = get_conflict.sync_detailed(cid, client=c)
        view = expect("read conflict", response, HTTPStatus.OK, ConflictView)
        assert (view.status, view.winner) == (ConflictStatus.DECIDED, Side.PLAYERS), view
        assert len(view.rounds) == 2, view.rounds
        assert view.outcome is not None, view
        etag = response.headers["etag"]
        assert etag == f'"{view.version}"', (etag, view.version)
        unchanged = get_conflict.sync_detailed(cid, client=c, if_none_match=etag)
        assert unchanged.status_code == HTTPStatus.NOT_MODIFIED, unchanged.status_code
        print("  ok  read conflict again: 304")

    with AuthenticatedClient(base_url=base_url, token=gm, raise_on_unexpected_status=True) as c:
        deleted = delete_conflict.sync_detailed(cid, client=c)
        assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
        print("  ok  delete conflict: 204")
        gone = get_conflict.sync_detailed(cid, client=c)
        expect("read deleted conflict", gone, HTTPStatus.NOT_FOUND, Problem)


def opend6_roll(base_url: str) -> None:
    """ "Rolling Dice": devices 4D+2 doubled by a Fate Point (D6), every die from the table."""
    body = OpenD6RollRequest(
        base=OpenD6SkillBase(type_=OpenD6SkillBaseType.SKILL, code="4D+2"),
        fate_point=True,
        faces=OpenD6Faces(regular=[3, 4, 5, 2, 6, 1, 3], wild=[6, 2]),
        difficulty=OpenD6NumberDifficulty(kind=OpenD6NumberDifficultyKind.NUMBER, value=30),
    )
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        roll = expect(
            "opend6 roll",
            open_d6_roll.sync_detailed(client=client, body=body),
            HTTPStatus.OK,
            OpenD6RollAnswer,
        )
    # `faces` is null only when nothing is rolled (an automatic success); its members never.
    assert roll.faces is not None, roll
    regular, wild = sum(roll.faces.regular), sum(roll.faces.wild)
    assert (roll.rolled_code, regular, wild) == ("8D+4", 24, 8), roll.faces
    assert roll.total == regular + wild + roll.pips == 36, roll.total
    assert roll.outcome == OpenD6RollOutcome.SUCCESS, roll.outcome


def scene_move(
    base_url: str,
    token: str,
    scene_id: str,
    body: OpenD6SceneInitiative
    | OpenD6SceneDeclare
    | OpenD6SceneRoll
    | OpenD6SceneResolve
    | OpenD6SceneEndTurn,
    status: HTTPStatus = HTTPStatus.OK,
) -> OpenD6SceneMoveMade | SessionProblem:
    """One move of the scene with ``token``: the move made (200) or its refusal."""
    kind: type[OpenD6SceneMoveMade | SessionProblem] = (
        OpenD6SceneMoveMade if status == HTTPStatus.OK else SessionProblem
    )
    with AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True) as c:
        response = open_d6_scene_move.sync_detailed(scene_id, client=c, body=body)
    return expect(f"scene {body.type_.value}", response, status, kind)


def made(answer: OpenD6SceneMoveMade | SessionProblem) -> OpenD6SceneMoveMade:
    assert isinstance(answer, OpenD6SceneMoveMade), answer
    return answer


def scene(base_url: str) -> None:
    """An ambush at the table's dice: the GM's and Ana's tokens, each for its own moves."""
    body = OpenD6CreateScene(
        name="Ambush at the ford",
        rules=OpenD6SceneRules(
            initiative=OpenD6InitiativeMethod.ROLLED_PER_ROUND,
            dice_source=OpenD6SceneDiceSource.CLIENT,
        ),
        players=[OpenD6ScenePlayer(id="ana", name="Ana")],
        participants=[
            OpenD6SceneParticipant(
                id="ana-pc", name="Ana the scout", controller="ana", acumen="3D", agility="3D+1"
            ),
            OpenD6SceneParticipant(
                id="goblins", name="Goblin band", members=3, acumen="2D", agility="2D+2"
            ),
        ],
    )
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        created = expect(
            "create scene",
            open_d6_create_scene.sync_detailed(client=client, body=body),
            HTTPStatus.CREATED,
            OpenD6SceneCreated,
        )
    sid, gm, ana = created.id, created.tokens.gm, created.tokens.players["ana"]
    assert created.phase == OpenD6ScenePhase.INITIATIVE, created.phase
    assert created.rules.initiative == OpenD6InitiativeMethod.ROLLED_PER_ROUND, created.rules
    assert [p.participant.action_allotment for p in created.participants] == [1, 1]

    def initiative(participant: str, regular: list[int], wild: list[int]) -> OpenD6SceneInitiative:
        roll = OpenD6SceneInitiativeRoll(
            participant=participant, faces=OpenD6Faces(regular=regular, wild=wild)
        )
        return OpenD6SceneInitiative(
            type_=OpenD6SceneInitiativeType.INITIATIVE, round_=1, rolls=[roll]
        )

    # "Initiative": each controller rolls for its own participants; Ana cannot roll the GM's.
    mine = made(scene_move(base_url, ana, sid, initiative("ana-pc", [4, 4], [5])))
    assert mine.scene.waiting_for == ["gm"], mine.scene.waiting_for
    scene_move(base_url, ana, sid, initiative("goblins", [2], [3]), HTTPStatus.FORBIDDEN)
    ordered = made(scene_move(base_url, gm, sid, initiative("goblins", [2], [3])))
    order = [(place.participant, place.total) for place in ordered.scene.order]
    assert order == [("ana-pc", 13), ("goblins", 5)], order
    assert ordered.scene.current == "ana-pc", ordered.scene.current

    # Her attack waits for the GM's judgement (D18); only the GM may resolve it.
    declare = OpenD6SceneDeclare(
        type_=OpenD6SceneDeclareType.DECLARE, round_=1, participant="ana-pc", actions=1
    )
    scene_move(base_url, ana, sid, declare)
    attack = OpenD6SceneRoll(
        type_=OpenD6SceneRollType.ROLL,
        round_=1,
        participant="ana-pc",
        spec=OpenD6SceneRollSpec(
            base=OpenD6SkillBase(type_=OpenD6SkillBaseType.SKILL, code="4D"),
            kind=OpenD6RollKind.ATTACK,
            faces=OpenD6Faces(regular=[6, 5, 3], wild=[2]),
        ),
    )
    rolled = made(scene_move(base_url, ana, sid, attack))
    (pending,) = rolled.scene.pending
    assert pending.roll.faces is not None, pending
    assert len(pending.roll.faces.regular) == 3, pending
    assert (pending.roll.total, pending.move.kind) == (16, OpenD6RollKind.ATTACK), pending
    resolve = OpenD6SceneResolve(
        type_=OpenD6SceneResolveType.RESOLVE,
        round_=1,
        roll=pending.id,
        difficulty=OpenD6StandardDifficulty(
            kind=OpenD6StandardDifficultyKind.STANDARD, level=OpenD6Level.MODERATE
        ),
    )
    scene_move(base_url, ana, sid, resolve, HTTPStatus.FORBIDDEN)
    judged = made(scene_move(base_url, gm, sid, resolve))
    result = judged.result.result
    assert result is not None, judged.result
    assert result.outcome == OpenD6RollOutcome.SUCCESS, result
    assert (result.result_points, result.damage_bonus) == (1, 1), result

    # The last end_turn of the round starts round 2 by itself (initiative again).
    def end_turn(participant: str) -> OpenD6SceneEndTurn:
        return OpenD6SceneEndTurn(
            type_=OpenD6SceneEndTurnType.END_TURN, round_=1, participant=participant
        )

    scene_move(base_url, ana, sid, end_turn("ana-pc"))
    following = made(scene_move(base_url, gm, sid, end_turn("goblins")))
    assert (following.scene.round_, following.scene.phase) == (2, OpenD6ScenePhase.INITIATIVE)
    assert following.scene.elapsed_seconds == 5, following.scene.elapsed_seconds

    with AuthenticatedClient(base_url=base_url, token=ana, raise_on_unexpected_status=True) as c:
        view = expect(
            "ana reads the scene",
            open_d6_get_scene.sync_detailed(sid, client=c),
            HTTPStatus.OK,
            OpenD6SceneView,
        )
    assert (view.round_, view.version) == (2, 8), (view.round_, view.version)
    with AuthenticatedClient(base_url=base_url, token=gm, raise_on_unexpected_status=True) as c:
        deleted = open_d6_delete_scene.sync_detailed(sid, client=c)
    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted.content
    print("  ok  delete scene: 204")


def self_conflict(base_url: str) -> None:
    """ "Task resolution": Fairly dangerous(4), the GM's +1, a karma point, the table's dice."""
    body = SelfConflictTalentCheckRequest(
        talent=SelfConflictTalent(name="dangerous", level=4),
        conflict_modifiers=[SelfConflictGmModifier(label="slippery deck", value=1)],
        karma=SelfConflictKarma(balance=2, modifier=-1),
        faces=[3, 3, 6],
    )
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        checked = expect(
            "self/conflict check",
            self_conflict_check.sync_detailed(client=client, body=body),
            HTTPStatus.OK,
            SelfConflictTalentCheckResult,
        )
    assert (checked.total, checked.outcome) == (12, SelfConflictOutcome.TOTAL_SUCCESS), checked
    assert checked.karma.balance_after == 1, checked.karma
    assert checked.talent.written == "Fairly dangerous(4)", checked.talent
    assert [die.role.value for die in checked.dice] == ["self", "conflict", "conflict_reroll"]

    # One face where a check takes two or more: the problem's own members say what is
    # missing (typed in `SelfConflictCheckProblem`, read without a cast).
    short = SelfConflictTalentCheckRequest(talent=SelfConflictTalent(level=4), faces=[3])
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        missing = expect(
            "self/conflict check short of faces",
            self_conflict_check.sync_detailed(client=client, body=short),
            HTTPStatus.UNPROCESSABLE_ENTITY,
            SelfConflictCheckProblem,
        )
    assert missing.missing == 1, missing.missing
    assert missing.roles == [SelfConflictDieRole.CONFLICT], missing.roles


TravelogueAction = (
    TravelogueTakeFlag
    | TravelogueAcceptFlag
    | TravelogueRejectFlag
    | TravelogueRollAttention
    | TravelogueRollPools
    | TravelogueCloseScene
    | TravelogueVote
    | TravelogueRollFinal
)


def _take(flag: int, to: str, on_behalf_of: str | None = None) -> TravelogueTakeFlag:
    return TravelogueTakeFlag(
        flag=flag, to=to, on_behalf_of=on_behalf_of, type_=TravelogueTakeFlagType.TAKE_FLAG
    )


def _accept(ring: str) -> TravelogueAcceptFlag:
    return TravelogueAcceptFlag(ring=ring, type_=TravelogueAcceptFlagType.ACCEPT_FLAG)


def _final(shooter: list[int], angel: list[int]) -> TravelogueRollFinal:
    faces = TraveloguePoolFaces(shooter=shooter, angel=angel)
    return TravelogueRollFinal(faces=faces, type_=TravelogueRollFinalType.ROLL_FINAL)


def travelogue(base_url: str) -> None:
    """The travelogue guide's short game at the table's dice, each player with its own token
    and acting only when `waiting_for` names it, from creation to deletion."""
    sheets = [
        ("hugo", "Hugo", "The Syndicate", "the ledger", (4, 1, 2, 2)),
        ("annie", "Annie", "the syndicate", "a debt", (3, 2, 2, 2)),
        ("archer", "Archer", "Interpol", "A Debt", (2, 3, 2, 2)),
        ("vera", "Vera", "Interpol", "a witness", (2, 2, 3, 2)),
    ]
    body = TravelogueCreateGame(
        name="Friday night",
        dice_source=TravelogueWhoseDice.TABLE,
        bullseyes=[
            TravelogueSheet(
                player=player, name=name, shooter=shooter, angel="a way out", beef=beef,
                stats=TravelogueSheetStats(avoid=av, armor=ar, angel=an, allies=al),
            )
            for player, name, shooter, beef, (av, ar, an, al) in sheets
        ],
    )  # fmt: skip
    with Client(base_url=base_url, raise_on_unexpected_status=True) as client:
        created = expect(
            "create game",
            travelogue_create_game.sync_detailed(client=client, body=body),
            HTTPStatus.CREATED,
            TravelogueCreatedGame,
        )
    tokens = created.tokens.players.additional_properties
    waiting = created.waiting_for
    # Out of step: 409 `wrong-step`, its `waiting_for` typed in `TravelogueGameProblem`.
    pools = TravelogueRollPools(
        faces=TraveloguePoolFaces(shooter=[1], angel=[]), type_=TravelogueRollPoolsType.ROLL_POOLS
    )
    with AuthenticatedClient(
        base_url=base_url, token=tokens["hugo"], raise_on_unexpected_status=True
    ) as hugo:
        wrong = expect(
            "hugo rolls the pools in step play",
            travelogue_game_action.sync_detailed(created.id, client=hugo, body=pools),
            HTTPStatus.CONFLICT,
            TravelogueGameProblem,
        )
    assert isinstance(wrong.waiting_for, TravelogueWaitingFor), wrong.waiting_for
    assert wrong.waiting_for.step == waiting.step, wrong.waiting_for
    steps: list[tuple[str, TravelogueAction]] = [
        ("hugo", _take(4, "annie", "annie")), ("annie", _accept("loved_ones")),
        ("annie", _take(1, "archer")), ("archer", _accept("friends")),
        ("archer", _take(2, "vera")), ("vera", _accept("possessions")),
        ("vera", _take(3, "hugo")), ("hugo", _accept("reputation")),
        ("archer", _take(5, "annie")),
        ("annie", TravelogueRejectFlag(type_=TravelogueRejectFlagType.REJECT_FLAG)),
        ("archer", _take(5, "annie")), ("annie", _accept("loved_ones")),
        ("vera", _take(6, "archer")), ("archer", _accept("friends")),
        ("annie", TravelogueRollAttention(
            faces=4, type_=TravelogueRollAttentionType.ROLL_ATTENTION,
        )),
        ("hugo", TravelogueRollPools(
            faces=TraveloguePoolFaces(shooter=[1, 1], angel=[]),
            type_=TravelogueRollPoolsType.ROLL_POOLS,
        )),
        ("hugo", TravelogueCloseScene(type_=TravelogueCloseSceneType.CLOSE_SCENE)),
        ("annie", TravelogueVote(go_for_broke=True, type_=TravelogueVoteType.VOTE)),
        ("archer", TravelogueVote(go_for_broke=True, type_=TravelogueVoteType.VOTE)),
        ("vera", TravelogueVote(go_for_broke=True, type_=TravelogueVoteType.VOTE)),
        ("annie", _final([1], [4])),
        ("archer", _final([2], [1])),
        ("vera", _final([1], [1])),
    ]  # fmt: skip
    taken: TravelogueActionTaken | None = None
    for player, action in steps:
        offered = {who.player: who.actions for who in waiting.who}
        assert action.type_.value in offered.get(player, []), (player, action, offered)
        with AuthenticatedClient(
            base_url=base_url, token=tokens[player], raise_on_unexpected_status=True
        ) as mine:
            taken = expect(
                f"{player} {action.type_.value}",
                travelogue_game_action.sync_detailed(created.id, client=mine, body=action),
                HTTPStatus.OK,
                TravelogueActionTaken,
            )
        waiting = taken.game.waiting_for
    assert taken is not None
    assert taken.game.ending is not None, taken.game
    assert taken.game.version == 1 + len(steps), taken.game.version
    assert taken.game.ending.reason == TravelogueEndingReason.WENT_FOR_BROKE
    fates = {p: f.value for p, f in taken.game.ending.fates.additional_properties.items()}
    assert fates == {"hugo": "caught", "annie": "caught", "archer": "escaped", "vera": "at_large"}
    with AuthenticatedClient(
        base_url=base_url, token=tokens["vera"], raise_on_unexpected_status=True
    ) as vera:
        deleted = travelogue_delete_game.sync_detailed(created.id, client=vera)
    assert deleted.status_code == HTTPStatus.NO_CONTENT, deleted


def main() -> None:
    """Run against the URL given as the first argument."""
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    check(base_url)
    conflict(base_url)
    opend6_roll(base_url)
    scene(base_url)
    self_conflict(base_url)
    travelogue(base_url)
    print(
        "python client: a check, a conflict, an OpenD6 roll and scene, a Self/Conflict check, "
        "a travelogue game passed"
    )


if __name__ == "__main__":
    main()
