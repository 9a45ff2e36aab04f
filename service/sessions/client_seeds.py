"""Client seeds, added after a provably fair session's creation: the route every kind with
server dice shares, and the step it hands the session engine.

The session commits to its server seed when it is created, before anyone has sent a
client seed; then each participant adds its own with its own token — the role the token
opens is the participant, so nobody adds a seed for someone else — until the session's
first roll of the server's dice closes them (``SessionDice.settle``). The addition is a
session write like any other (If-Match, Idempotency-Key, a new version, an event on the
stream). A ruleset declares the route once per kind with :func:`client_seed_routes` and
mounts the router it returns, as it does :func:`service.sessions.routes.stream_routes`;
the refusals are the kernel's (``kernel.fairness.with_client_seed``).
"""

# No ``from __future__ import annotations``: the handler's annotations are evaluated where
# the handler is made, since the name of its path parameter is the kind's own.

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from litestar import Request, Router, post
from litestar.openapi.spec import Example
from litestar.params import Body, PathParameter
from litestar.response import Response

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.fairness import (
    ClientSeed,
    ClientSeedAdded,
    ClientSeedText,
    FairnessView,
    with_client_seed,
)
from service.kernel.sessions import Applied
from service.kernel.values import Value
from service.sessions.dice import SessionDice, fairness_of
from service.sessions.engine import Decision, Step
from service.sessions.host import SessionSpec, session_host
from service.sessions.params import VERSION_HEADERS, IdempotencyKey, IfMatch
from service.sessions.routes import Security

__all__ = [
    "AddClientSeed",
    "ClientSeedRoutes",
    "SeedEvent",
    "client_seed_routes",
    "client_seed_step",
    "seed_added",
]


class AddClientSeed(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The caller's own client seed, for the participant its token opens."""

    seed: ClientSeedText


# How a kind tells a seed added on its stream: the seed, and the version its addition makes.
SeedEvent = Callable[[ClientSeed, int], Event]


def seed_added(seed: ClientSeed, version: int) -> Event:
    """``client_seed.added`` as a kind whose events carry no stamps of their own tells it."""
    return ClientSeedAdded(participant=seed.participant, seed=seed.seed)


def client_seed_step(seed: str, event: SeedEvent = seed_added) -> Step[Any]:
    """The engine's step adding ``seed`` for the caller's role; it answers the session's
    ``fairness`` view as it then stands.

    Raises (in the step):
        RulesError: the session has no server dice to feed
            (``client-seeds-without-server-dice``), or ``with_client_seed``'s refusals.
    """

    def step(state: Value, role: str, dice: SessionDice[Any], version: int) -> Decision[Any]:
        fairness = fairness_of(state)
        if fairness is None:
            raise RulesError.from_concerns(
                [
                    Concern(
                        code="client-seeds-without-server-dice",
                        pointer="/seed",
                        detail="Client seeds feed the server's dice; this session rolls none "
                        "(its dice are the table's, or follow from a public seed), so it "
                        "takes no client seed.",
                    )
                ]
            )
        added = with_client_seed(fairness, role, seed)
        state = msgspec.structs.replace(state, fairness=added)
        applied = dice.settle(Applied(state, (event(added.client_seeds[-1], version),)))
        settled = fairness_of(applied.state)
        assert settled is not None
        return Decision(applied, 200, settled.view())

    return step


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientSeedRoutes:
    """A kind's client-seed route (``router``) and its operation id."""

    router: Router
    kind: str
    id_parameter: str
    operation_id: str

    def links(self) -> dict[str, Any]:
        """The OpenAPI link from the answer creating a session (its id at ``/id``)."""
        return {
            "AddClientSeed": {
                "operationId": self.operation_id,
                "parameters": {self.id_parameter: "$response.body#/id"},
                "description": f"With each participant's own token of the {self.kind} "
                "(`tokens` in this answer).",
            }
        }


def _description(kind: str) -> str:
    return (
        "The participant the token opens — `gm` for the GM's token, a player's id for that "
        f"player's — adds its own client seed to the {kind}, after the {kind} published "
        "its `fairness.commitment` (at creation) and before its first roll of the "
        "server's dice; nobody adds a seed for someone else. Every later roll joins the "
        'seeds in the order they were added (docs/verifiable-rolls.md, "Provably fair '
        f"sessions\"). **200** with the {kind}'s `fairness` as it now stands, `ETag` its "
        "new version; the event stream gets `client_seed.added` (`participant`, `seed`). "
        "Accepts `If-Match` (412 when it moved on) and `Idempotency-Key` (a retry answers "
        "the first answer, adding nothing). Refusals, each changing nothing: 409 "
        "`client-seed-already-given` (this participant has given one), 409 "
        f"`client-seeds-closed` (the {kind}'s first roll of the server's dice was made, or "
        f"it ended), 422 `client-seeds-without-server-dice` (the {kind}'s dice are not the "
        "server's committed dice: the table's, or a public seed's)."
    )


def client_seed_routes(
    spec: SessionSpec[Any],
    *,
    path: str,
    id_parameter: str,
    security: Security,
    tags: Sequence[str],
    operation_id: str,
    examples: Sequence[Example],
    event: SeedEvent = seed_added,
) -> ClientSeedRoutes:
    """``POST {path}/{id}/client-seeds`` for ``spec``'s kind.

    ``path``, ``id_parameter``, ``security``, ``tags``: as for ``stream_routes``;
    ``examples``: the bodies the operation publishes (the kind's plays send each once);
    ``event``: how the kind's stream tells a seed added (by default ``client_seed.added``
    with the participant and its seed).
    """
    kind = spec.kind.kind

    @post(
        f"/{{{id_parameter}:str}}/client-seeds",
        operation_id=operation_id,
        response_headers=VERSION_HEADERS,
        security=security,
        summary=f"Add your client seed to the {kind}",
        description=_description(kind),
        dto=StrictJson[AddClientSeed],
        return_dto=None,
        status_code=200,
        responses=problem_responses(
            400,
            401,
            403,
            404,
            409,
            412,
            413,
            415,
            422,
            503,
            meanings={403: "The Idempotency-Key was first sent by another participant."},
        ),
    )
    async def add_client_seed(
        session_id: Annotated[
            str, PathParameter(name=id_parameter, max_length=64, description=f"The {kind}'s id.")
        ],
        data: Annotated[AddClientSeed, Body(examples=list(examples))],
        request: Request[Any, Any, Any],
        idempotency_key: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> Response[FairnessView]:
        """Add the caller's client seed."""
        engine = session_host(request).engine(spec)
        return await engine.act(  # type: ignore[return-value]  # the view, encoded
            session_id,
            request,
            client_seed_step(data.seed, event),
            idempotency_key=idempotency_key,
            if_match=if_match,
        )

    return ClientSeedRoutes(
        router=Router(path, route_handlers=[add_client_seed], tags=list(tags)),
        kind=kind,
        id_parameter=id_parameter,
        operation_id=operation_id,
    )
