"""A ruleset declares its stateless rolls and their odds; the platform builds the routes.

Every game serves a stateless roll the same way: the dice recorded when a receipt is asked
(:func:`~service.http.receipts.signing.receipt_dice`), the rules' roll, its odds through
the odds gate when ``with_odds`` asks (:func:`~service.http.odds.gate.with_odds`), the
answer signed when ``receipt`` asks (:func:`~service.http.receipts.signing.with_receipt`);
and its odds route is one call to the gate. Only the parts are the game's own: the types,
the rules' functions, the words and the examples. So a ruleset states those once::

    TALENT_ODDS = OddsTwin(
        request=TalentOddsRequest, answer=TalentOddsAnswer,
        compute=talent_odds, cost=talent_odds_cost,
    )
    CHECKS = stateless_routes("/checks", ruleset="self-conflict", operations=[
        RollOperation(path="/", operation_id="selfConflictCheck", ..., request=
            TalentCheckRequest, answer=TalentCheckResult, rules=resolve_check,
            odds=TALENT_ODDS, odds_request=talent_odds_request, problem=CheckProblem),
        OddsOperation(path="/odds", operation_id="selfConflictCheckOdds", ...,
            odds=TALENT_ODDS),
    ])

and mounts ``CHECKS.router``, listing ``CHECKS.examples`` with its other examples. A
capability every roll gains is then written here, once.

Each handler is a function made here with the annotations a hand-written one would carry
(``data: Annotated[Request, Body(examples=...)]``, the dependencies, the answer), so
Litestar's signature parsing, its DTO and the OpenAPI document see exactly what they did.
The handlers are registered in the order declared (a :class:`~litestar.Router`, not a
``Controller``, which orders its handlers by module and name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Generic, Protocol, TypeVar

import msgspec
from litestar import Request, Response, Router, post
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.context import new_id
from service.http.contract.registry import ServerDice
from service.http.odds.gate import (
    ODDS_HEADERS,
    ODDS_RESPONSES,
    OddsGate,
    OddsGateDependency,
    OddsProblem,
    odds_responses,
    with_odds,
)
from service.http.receipts.signing import receipt_dice, with_receipt
from service.http.shell.fast_json import FastJson

if TYPE_CHECKING:
    from litestar.handlers import HTTPRouteHandler
    from litestar.openapi.spec import Example

    from service.kernel.dice import RandomSource

__all__ = [
    "OddsOperation",
    "OddsTwin",
    "RollOperation",
    "StatelessRoutes",
    "faces_given",
    "stateless_routes",
    "without_id",
]


class Receipted(Protocol):
    """A roll's request: it may ask for a receipt."""

    @property
    def receipt(self) -> bool: ...


Req = TypeVar("Req", bound=Receipted)
Ans = TypeVar("Ans", bound=msgspec.Struct)
OddsReq = TypeVar("OddsReq", bound=msgspec.Struct)
OddsAns = TypeVar("OddsAns", bound=msgspec.Struct)


def faces_given(data: Any) -> bool:
    """Whether a request supplied the table's faces (``faces`` not null)."""
    return data.faces is not None


def without_id(
    rules: Callable[[Req, RandomSource], Ans],
) -> Callable[[Req, RandomSource, str], Ans]:
    """A roll's ``rules`` whose answer carries no id (``rules(request, dice)``), as a
    :class:`RollOperation` takes them: the roll id is not asked for."""

    def rolled(request: Req, rng: RandomSource, roll_id: str) -> Ans:
        return rules(request, rng)

    rolled.__name__ = rolled.__qualname__ = getattr(rules, "__name__", "rules")
    return rolled


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsTwin(Generic[OddsReq, OddsAns]):
    """A game's exact odds: the rules' pure function of an odds request (module level: the
    odds pool imports it by name), its cost in µs (the ruleset's ``rules/odds_cost.py``),
    and the types it reads and answers."""

    request: type[OddsReq]
    answer: type[OddsAns]
    compute: Callable[[OddsReq], OddsAns]
    cost: Callable[[OddsReq], float]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Operation:
    """What every declared operation publishes: where, its id, its words, its examples."""

    path: str
    operation_id: str
    summary: str
    description: str
    examples: list[Example]


@dataclass(frozen=True, slots=True, kw_only=True)
class RollOperation(_Operation, Generic[Req, Ans, OddsReq, OddsAns]):
    """A stateless roll: ``rules(request, dice, roll id)`` answers it; ``odds_request``
    is what its ``with_odds`` asks ``odds`` (None: not asked); ``problem`` its problems'
    schema; ``table`` whether a request supplied the faces (for its receipt); ``fast``
    serves it in one step (:class:`~service.http.shell.fast_json.FastJson`)."""

    request: type[Req]
    answer: type[Ans]
    rules: Callable[[Req, RandomSource, str], Ans]
    odds: OddsTwin[OddsReq, OddsAns]
    odds_request: Callable[[Req], OddsReq | None]
    problem: type[OddsProblem] = OddsProblem
    table: Callable[[Req], bool] = faces_given
    fast: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsOperation(_Operation, Generic[OddsReq, OddsAns]):
    """An odds route: ``odds`` answers its request through the odds gate."""

    odds: OddsTwin[OddsReq, OddsAns]


@dataclass(frozen=True, slots=True, kw_only=True)
class StatelessRoutes:
    """The declared operations' routes (``router``), and their examples by operation id
    (for :attr:`~service.http.contract.registry.Ruleset.examples`)."""

    router: Router
    examples: Mapping[str, Sequence[Example]]


def stateless_routes(
    path: str,
    *,
    ruleset: str,
    operations: Sequence[RollOperation[Any, Any, Any, Any] | OddsOperation[Any, Any]],
    tags: Sequence[str] | None = None,
) -> StatelessRoutes:
    """``operations`` under ``path`` (within the ruleset's router), in the order given.

    ``ruleset``: the ruleset's id, which its receipts name (and its routes' tag unless
    ``tags`` says otherwise).
    """
    handlers = [
        _roll(operation, ruleset) if isinstance(operation, RollOperation) else _odds(operation)
        for operation in operations
    ]
    return StatelessRoutes(
        router=Router(
            path, route_handlers=handlers, tags=list(tags if tags is not None else [ruleset])
        ),
        examples={operation.operation_id: operation.examples for operation in operations},
    )


def _roll(operation: RollOperation[Req, Ans, OddsReq, OddsAns], ruleset: str) -> HTTPRouteHandler:
    rules, odds_request, table = operation.rules, operation.odds_request, operation.table
    compute, cost, odds_answer = operation.odds.compute, operation.odds.cost, operation.odds.answer
    operation_id = operation.operation_id

    async def roll(data: Req, rng: RandomSource, request: Request[Any, Any, Any]) -> Ans:
        """Roll once, with its odds when asked (``with_odds``, through the odds gate); sign
        it when asked (``receipt``)."""
        dice = receipt_dice(rng, data.receipt)
        answer = await with_odds(
            request,
            rules(data, dice, new_id()),
            odds_request(data),
            compute,
            cost=cost,
            answer_type=odds_answer,
        )
        return await with_receipt(
            answer,
            dice,
            request,
            ruleset=ruleset,
            operation=operation_id,
            table=table(data),
        )

    _annotate(
        roll,
        operation,
        data=Annotated[operation.request, Body(examples=operation.examples)],
        rng=ServerDice,
        request=Request[Any, Any, Any],
        returns=operation.answer,
    )
    return post(
        operation.path,
        operation_id=operation_id,
        summary=operation.summary,
        description=operation.description,
        dto=_of(StrictJson, operation.request),
        return_dto=None,
        status_code=200,
        responses=odds_responses(operation.problem),
        middleware=[FastJson] if operation.fast else None,
    )(roll)


def _odds(operation: OddsOperation[OddsReq, OddsAns]) -> HTTPRouteHandler:
    compute, cost = operation.odds.compute, operation.odds.cost

    async def odds(data: OddsReq, odds_gate: OddsGate) -> Response[OddsAns]:
        """The odds of every outcome, through the odds gate."""
        return await odds_gate.answer(data, compute, cost=cost)

    _annotate(
        odds,
        operation,
        data=Annotated[operation.odds.request, Body(examples=operation.examples)],
        odds_gate=OddsGateDependency,
        returns=_of(Response, operation.odds.answer),
    )
    return post(
        operation.path,
        operation_id=operation.operation_id,
        summary=operation.summary,
        description=operation.description,
        dto=_of(StrictJson, operation.odds.request),
        return_dto=None,
        status_code=200,
        responses=ODDS_RESPONSES,
        response_headers=ODDS_HEADERS,
    )(odds)


def _annotate(
    handler: Callable[..., Any], operation: _Operation, *, returns: Any, **parameters: Any
) -> None:
    """Give ``handler`` the annotations Litestar reads (its signature, DTO and OpenAPI see
    the operation's own types) and a name of its own (Litestar keys a handler's DTO by it)."""
    handler.__annotations__ = {**parameters, "return": returns}
    handler.__name__ = handler.__qualname__ = operation.operation_id


def _of(generic: Any, argument: type[Any]) -> Any:
    """``generic[argument]``, for an ``argument`` known only when the routes are built."""
    return generic[argument]
