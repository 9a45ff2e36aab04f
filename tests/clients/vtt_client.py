"""A small VTT client on the Python package generated from openapi/openapi.json.

It resolves a check, then plays the README's whole conflict (dice rolled at the table, so
every number is known): each participant submits with their own token (AuthenticatedClient
sends it as ``Authorization: Bearer``), the winners make the final check, a player reads
the conflict, the GM deletes it. Run by tests/clients/check.sh, which generates the
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
    Round,
    Side,
    Situational,
    SubmissionAccepted,
    SubmitCheck,
    SuppliedRoll,
)
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
    """POST /v1/checks: the README's sword fight, with the die rolled at the table."""
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
            Problem,
        )
        codes = [error.code for error in refused.errors]
        assert "quick10-with-depletion" in codes, codes


def submit(
    base_url: str, token: str, conflict: str, number: int, body: SubmitCheck, kind: type[T]
) -> T:
    """One participant's check, sent with that participant's token.

    202 ``SubmissionAccepted`` while the round waits, 200 ``Round`` from the last check.
    """
    status = HTTPStatus.ACCEPTED if kind is SubmissionAccepted else HTTPStatus.OK
    with AuthenticatedClient(base_url=base_url, token=token, raise_on_unexpected_status=True) as c:
        response = submit_round_check.sync_detailed(conflict, number, client=c, body=body)
    return expect(f"round {number} {body.participant}", response, status, kind)


def conflict(base_url: str) -> None:
    """The README's Bridge of Knives, every roll supplied, from creation to deletion."""
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
            Problem,
        )
    assert forbidden.type_.endswith("/forbidden"), forbidden.type_

    # Round 1: 202 while the round waits, 200 with the round at the last check.
    waiting = submit(base_url, ana, cid, 1, roll("ana", 15, DUELIST), SubmissionAccepted)
    assert waiting.waiting_for == ["gm", "bo"], waiting
    waiting = submit(base_url, bo, cid, 1, roll("bo", 14, GIANT), SubmissionAccepted)
    assert waiting.waiting_for == ["gm"], waiting
    first = submit(base_url, gm, cid, 1, roll("gm", 10), Round)
    assert not first.decided, first
    assert (first.scores_after.players, first.scores_after.opposition) == (22, 15), first

    # Round 2 decides it: the opposition falls to -29.
    submit(base_url, ana, cid, 2, roll("ana", 18, DUELIST), SubmissionAccepted)
    submit(base_url, bo, cid, 2, roll("bo", 12, GIANT), SubmissionAccepted)
    second = submit(base_url, gm, cid, 2, roll("gm", 3), Round)
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


def main() -> None:
    """Run against the URL given as the first argument."""
    base_url = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    check(base_url)
    conflict(base_url)
    print("python client: a check and a whole conflict passed")


if __name__ == "__main__":
    main()
