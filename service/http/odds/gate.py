"""Odds that never stall a worker: every odds answer of every ruleset goes through one gate.

Exact odds can be costly (OpenD6's exploding dice at 120D: a few hundred milliseconds of
big-integer arithmetic), and a worker computing them on its event loop answers nothing
else meanwhile, not even ``/healthz``. So a handler gives the gate the request, the
rules' pure function and an up-front estimate of its cost (µs, a pure function of the
request in the ruleset's ``rules/odds_cost.py``, calibrated by measurement), and the gate

1. answers from this worker's cache when the same request (the same function and the same
   canonical JSON of the request) was answered before;
2. computes in line when the estimate is within ``ODDS_INLINE_MS``;
3. hands it to this worker's process pool (:mod:`service.http.odds.pool`) when it is
   within ``ODDS_MAX_MS``: the loop goes on serving while it computes. Identical requests
   waiting at once share one computation. No place free in the pool, or a computation
   past its deadline (``ODDS_DEADLINE_MS``: its process is killed): 503 ``odds-busy``;
4. refuses anything costlier, before computing anything: 422 ``odds-too-costly``, naming
   the limit and the estimate. The estimate depends on the request alone, so whether a
   request is accepted never depends on the machine or its load.

Each answer says which path served it and how long it took: ``Server-Timing:
odds;desc="inline"|"pool"|"cache";dur=<ms>``.

One call in a handler::

    async def odds(self, data: ..., odds_gate: OddsGateDependency) -> Response[Answer]:
        return await odds_gate.answer(data, answer_odds, cost=answer_odds_cost)

and one for a roll that asks for its odds in the same call (``with_odds``), once the roll
is made (so its own refusals come first) and before it is signed (a receipt covers them)::

    answer = await with_odds(
        request, roll(data, dice), odds_request_of(data), answer_odds,
        cost=answer_odds_cost, answer_type=Answer,
    )

A roll's handler reads the gate off the app (:func:`odds_gate_of`) only when the odds are
asked, rather than have it injected: a second injected dependency makes Litestar resolve
them in a task group on every request, the plain rolls' included.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import msgspec
import structlog
from litestar.datastructures import ResponseHeader
from litestar.di import NamedDependency
from litestar.response import Response
from msgspec import UNSET, Meta, UnsetType

from service.http.contract.errors import OddsBusy
from service.http.contract.problems import Problem, problem_responses
from service.http.odds.cache import AnswerCache
from service.http.odds.pool import OddsPool, PastDeadlineError, PoolBusyError, PoolLostError
from service.http.odds.process import Refusal
from service.kernel.errors import Concern, RulesError

if TYPE_CHECKING:
    from litestar import Request
    from litestar.openapi.datastructures import ResponseSpec

    from service.settings import Settings

__all__ = [
    "ODDS_HEADERS",
    "ODDS_RESPONSES",
    "TOO_COSTLY",
    "FacesProblem",
    "OddsGate",
    "OddsGateDependency",
    "OddsProblem",
    "odds_gate_of",
    "odds_responses",
    "with_odds",
]

TOO_COSTLY = "odds-too-costly"
_log = structlog.get_logger("service.odds")


class OddsProblem(Problem, frozen=True, kw_only=True):
    """A problem of an operation whose answer carries odds: `odds-too-costly` names the
    request's estimated cost and the limit."""

    estimated_cost_ms: Annotated[
        float | UnsetType,
        Meta(description="`odds-too-costly`: the request's estimated cost, in ms."),
    ] = UNSET
    max_cost_ms: Annotated[
        float | UnsetType,
        Meta(description="`odds-too-costly`: the most one request's odds may cost, in ms."),
    ] = UNSET


class FacesProblem(OddsProblem, frozen=True, kw_only=True):
    """A problem of a roll that may take the table's faces: `faces-missing` and
    `faces-extra` say by how many faces they are off (the kernel's refusals, the same in
    every game)."""

    missing: (
        Annotated[
            int, Meta(ge=1, description="`faces-missing`: how many more faces the roll needs.")
        ]
        | UnsetType
    ) = UNSET
    extra: (
        Annotated[
            int,
            Meta(ge=1, description="`faces-extra`: how many faces more than the roll takes."),
        ]
        | UnsetType
    ) = UNSET


In = TypeVar("In", bound=msgspec.Struct)
Out = TypeVar("Out", bound=msgspec.Struct)
Carrier = TypeVar("Carrier", bound=msgspec.Struct)


def odds_responses(problem: type[OddsProblem] = OddsProblem) -> dict[int, ResponseSpec]:
    """What an odds operation declares besides its answer (the route's `responses`);
    ``problem``: its problems' schema, where its rules add extension members."""
    return problem_responses(
        400,
        413,
        415,
        422,
        503,
        meanings={
            422: "A rule refuses the request (see `errors[].code`), or its odds would cost "
            "more to compute than the service allows (`odds-too-costly`, naming the limit "
            "and the request's estimated cost).",
            503: "This worker's odds pool is full, lost a process, or abandoned the "
            "computation past its deadline (`odds-busy`): retry after Retry-After seconds.",
        },
        problem=problem,
    )


ODDS_RESPONSES = odds_responses()
# Described with the document's other headers (service.http.contract.openapi_contract).
ODDS_HEADERS = [ResponseHeader(name="Server-Timing", documentation_only=True)]


class OddsGate:
    """One worker's odds: its cache, its budget and its pool (see the module)."""

    def __init__(self, settings: Settings) -> None:
        self.inline_us = round(settings.odds_inline_ms * 1000)
        self.pool = (
            OddsPool(
                settings.odds_workers,
                settings.odds_queue,
                deadline=settings.odds_deadline_seconds,
                recycle_bytes=settings.odds_recycle_mib * 2**20,
            )
            if settings.odds_workers
            else None
        )
        # Without a pool nothing may cost more than what is computed in line.
        self.limit_us = round(settings.odds_max_ms * 1000) if self.pool else self.inline_us
        self._limit_setting = "ODDS_MAX_MS" if self.pool else "ODDS_INLINE_MS, as ODDS_WORKERS is 0"
        self.cache = AnswerCache(settings.odds_cache_entries, settings.odds_cache_bytes)
        self._flights: dict[bytes, asyncio.Future[bytes | Refusal]] = {}

    async def answer(
        self, data: In, compute: Callable[[In], Out], *, cost: Callable[[In], float]
    ) -> Response[Out]:
        """``compute(data)`` as the answer, through the cache, in line or in the pool.

        ``compute`` is a module-level function of the request alone (the pool imports it
        by name); ``cost`` estimates its work in µs from the request.

        Raises:
            RulesError: the rules refuse the request, or ``odds-too-costly``.
            OddsBusy: the pool has no place free, lost a process, or the computation
                ran past its deadline.
        """
        started = time.perf_counter()
        body, served = await self._answered(data, compute, cost)
        took = (time.perf_counter() - started) * 1000
        response = Response(
            content=body,
            media_type="application/json",
            headers={"Server-Timing": f'odds;desc="{served}";dur={took:.3f}'},
        )
        return cast("Response[Out]", response)

    async def value(
        self,
        data: In,
        compute: Callable[[In], Out],
        *,
        cost: Callable[[In], float],
        answer_type: type[Out],
    ) -> Out:
        """:meth:`answer`'s odds as a value, for an answer that embeds them."""
        body, _ = await self._answered(data, compute, cost)
        return msgspec.json.decode(body, type=answer_type)

    async def with_odds(
        self,
        answer: Carrier,
        asked: In | None,
        compute: Callable[[In], Out],
        *,
        cost: Callable[[In], float],
        answer_type: type[Out],
    ) -> Carrier:
        """``answer`` with :meth:`value`'s odds of ``asked`` as its ``odds``; ``answer``
        itself, and no odds work, when nothing is asked (``asked`` None: no ``with_odds``).

        Raises:
            RulesError: the rules refuse the odds, or ``odds-too-costly``.
            OddsBusy: the pool has no place free, lost a process, or the computation
                ran past its deadline.
        """
        if asked is None:
            return answer
        odds = await self.value(asked, compute, cost=cost, answer_type=answer_type)
        return msgspec.structs.replace(answer, odds=odds)

    async def aclose(self) -> None:
        """End the pool (with the app)."""
        if self.pool is not None:
            await self.pool.aclose()

    async def _answered(
        self, data: In, compute: Callable[[In], Out], cost: Callable[[In], float]
    ) -> tuple[bytes, str]:
        key = _key(compute, data)
        if (body := self.cache.get(key)) is not None:
            return body, "cache"
        estimate = cost(data)
        if estimate > self.limit_us:
            raise self._too_costly(estimate)
        if self.pool is None or estimate <= self.inline_us:
            body, served = msgspec.json.encode(compute(data)), "inline"
        else:
            body, served = await self._pooled(self.pool, key, data, compute, estimate), "pool"
        self.cache.put(key, body)
        return body, served

    async def _pooled(
        self,
        pool: OddsPool,
        key: bytes,
        data: In,
        compute: Callable[[In], Out],
        estimate: float,
    ) -> bytes:
        flight = self._flights.get(key)
        if flight is None:
            try:
                flight = pool.submit(compute, data)
            except PoolBusyError:
                raise OddsBusy(
                    f"This worker's odds pool is full ({pool.places} requests computing or "
                    "waiting); retry shortly."
                ) from None
            self._flights[key] = flight
            flight.add_done_callback(lambda landed: self._landed(key, landed, estimate))
        try:
            # Shielded: a client that leaves does not take the others' computation along.
            outcome = await asyncio.shield(flight)
        except PastDeadlineError:
            raise OddsBusy(
                "The computation of these odds ran past its deadline "
                f"({round(pool.deadline * 1000)} ms, ODDS_DEADLINE_MS) and was abandoned: its "
                "pool process was ended, a new one takes the next request. Retry shortly."
            ) from None
        except PoolLostError:
            raise OddsBusy(
                "A process of this worker's odds pool died while computing; a new one is "
                "started: retry shortly."
            ) from None
        if isinstance(outcome, Refusal):
            raise outcome.error()
        return outcome

    def _landed(
        self, key: bytes, flight: asyncio.Future[bytes | Refusal], estimate_us: float
    ) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if flight.cancelled():
            return
        # Retrieved, should every waiter have left. Past the deadline, the estimate was far
        # off (a bug in the rules' cost), the machine starved the pool or the process was
        # stopped: the log says which request, once.
        if isinstance(flight.exception(), PastDeadlineError) and self.pool is not None:
            _log.warning(
                "odds_past_deadline",
                function=key.split(b"\n", 1)[0].decode(),
                estimated_ms=_ms(estimate_us),
                deadline_ms=round(self.pool.deadline * 1000),
            )

    def _too_costly(self, estimate_us: float) -> RulesError:
        detail = (
            f"These odds would take about {_ms(estimate_us)} ms to compute; the service "
            f"computes odds of at most {_ms(self.limit_us)} ms a request ({self._limit_setting})."
        )
        return RulesError(
            TOO_COSTLY,
            detail,
            (Concern(code=TOO_COSTLY, pointer="", detail=detail),),
            {"estimated_cost_ms": _ms(estimate_us), "max_cost_ms": _ms(self.limit_us)},
        )


# The gate as a handler's parameter (the app provides it as ``odds_gate``).
OddsGateDependency = NamedDependency[OddsGate]


def odds_gate_of(request: Request[Any, Any, Any]) -> OddsGate:
    """The worker's gate, which the app's lifespan keeps in its state."""
    gate: OddsGate = request.app.state.odds_gate
    return gate


async def with_odds(
    request: Request[Any, Any, Any],
    answer: Carrier,
    asked: In | None,
    compute: Callable[[In], Out],
    *,
    cost: Callable[[In], float],
    answer_type: type[Out],
) -> Carrier:
    """:meth:`OddsGate.with_odds` through the worker's gate, read only when the odds are
    asked (``asked`` None: ``answer`` itself, nothing read, nothing computed)."""
    if asked is None:
        return answer
    return await odds_gate_of(request).with_odds(
        answer, asked, compute, cost=cost, answer_type=answer_type
    )


def _key(compute: Callable[[In], Out], data: In) -> bytes:
    """Which function and which request: the same answer, wherever it is computed."""
    name = f"{compute.__module__}.{getattr(compute, '__qualname__', '')}"
    if "<" in name:  # a lambda or a local function: no pool process could import it
        raise TypeError(f"odds are computed by a module-level function, not {name}")
    return name.encode() + b"\n" + msgspec.json.encode(data)


def _ms(microseconds: float) -> float:
    return round(microseconds / 1000, 3)
