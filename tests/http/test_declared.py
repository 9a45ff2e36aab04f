"""Declared stateless rolls and odds (#38): the platform builds their routes in the order
declared, whatever the names, and the app answers them as it did hand-written handlers
(the byte-for-byte OpenAPI is ``make openapi-check``'s)."""

from __future__ import annotations

import random

import msgspec
import pytest
from litestar import Litestar
from litestar.di import Provide
from litestar.testing import TestClient

from service.http.contract.problems import handle_exception
from service.http.shell.declared import (
    OddsOperation,
    OddsTwin,
    RollOperation,
    stateless_routes,
    without_id,
)
from service.kernel.dice import RandomSource


class _Ask(msgspec.Struct, frozen=True, kw_only=True):
    faces: list[int] | None = None
    receipt: bool = False


class _Odds(msgspec.Struct, frozen=True, kw_only=True):
    p: float = 1.0


class _Rolled(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    odds: _Odds | None = None
    receipt: None = None


def _roll(ask: _Ask, rng: RandomSource, roll_id: str) -> _Rolled:
    return _Rolled(id=str(rng.randint(1, 6) if ask.faces is None else ask.faces[0]))


def _odds(ask: _Ask) -> _Odds:
    return _Odds()


def _cost(ask: _Ask) -> float:
    return 1.0


_TWIN = OddsTwin(request=_Ask, answer=_Odds, compute=_odds, cost=_cost)


def test_routes_stand_in_the_declared_order_not_by_name() -> None:
    routes = stateless_routes(
        "/toy",
        ruleset="toy",
        operations=[
            OddsOperation(
                path="/zeta",
                operation_id="toyZetaOdds",
                summary="z",
                description="z",
                examples=[],
                odds=_TWIN,
            ),
            RollOperation(
                path="/alpha",
                operation_id="toyAlpha",
                summary="a",
                description="a",
                examples=[],
                request=_Ask,
                answer=_Rolled,
                rules=_roll,
                odds=_TWIN,
                odds_request=lambda ask: ask,
            ),
        ],
    )
    paths = [route.path for route in routes.router.routes]
    assert paths == ["/toy/zeta", "/toy/alpha"]
    handlers = [
        handler
        for route in routes.router.routes
        for handler in getattr(route, "route_handlers", ())
        if "POST" in handler.http_methods  # not Litestar's own OPTIONS
    ]
    assert [h.operation_id for h in handlers] == ["toyZetaOdds", "toyAlpha"]
    assert [h.handler_name for h in handlers] == ["toyZetaOdds", "toyAlpha"]
    assert list(routes.examples) == ["toyZetaOdds", "toyAlpha"]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/self-conflict/checks",
        "/v1/self-conflict/checks/odds",
        "/v1/quick-shot/gambles",
        "/v1/quick-shot/gambles/odds",
        "/v1/opend6/rolls",
        "/v1/opend6/rolls/odds",
        "/v1/opend6/opposed",
        "/v1/opend6/opposed/odds",
        "/v1/travelogue/rolls",
        "/v1/travelogue/rolls/odds",
    ],
)
def test_a_declared_path_answers_options_with_its_method(client: TestClient, path: str) -> None:
    answer = client.options(path)
    assert answer.status_code in (200, 204)
    assert {m.strip() for m in answer.headers["allow"].split(",")} == {"POST", "OPTIONS"}


def _toy_roll(*, fast: bool) -> RollOperation[_Ask, _Rolled, _Ask, _Odds]:
    return RollOperation(
        path="/roll",
        operation_id="toyRoll",
        summary="r",
        description="r",
        examples=[],
        request=_Ask,
        answer=_Rolled,
        rules=_roll,
        odds=_TWIN,
        odds_request=lambda ask: None,
        fast=fast,
    )


@pytest.mark.parametrize("fast", [False, True], ids=["litestar", "fast-json"])
def test_a_declared_roll_is_served_on_either_path(fast: bool) -> None:
    routes = stateless_routes("/toy", ruleset="toy", operations=[_toy_roll(fast=fast)])
    app = Litestar(
        [routes.router],
        dependencies={"rng": Provide(lambda: random.Random(3), sync_to_thread=False)},
        exception_handlers={Exception: handle_exception},
        logging_config=None,
    )
    with TestClient(app) as client:
        assert client.post("/toy/roll", json={"faces": [4]}).json() == {
            "id": "4",
            "odds": None,
            "receipt": None,
        }
        assert client.post("/toy/roll", json={}).json()["id"] == str(random.Random(3).randint(1, 6))
        refused = client.post("/toy/roll", json={"faces": "four"})
        assert refused.status_code == 400
        assert refused.headers["content-type"] == "application/problem+json"


def _roll_without_id(ask: _Ask, rng: RandomSource) -> _Rolled:
    return _Rolled(id="none" if ask.faces is None else str(ask.faces[0]))


def test_a_roll_whose_answer_has_no_id_is_declared_with_rules_of_two_arguments() -> None:
    operation = RollOperation(
        path="/roll",
        operation_id="toyRoll",
        summary="r",
        description="r",
        examples=[],
        request=_Ask,
        answer=_Rolled,
        rules=without_id(_roll_without_id),
        odds=_TWIN,
        odds_request=lambda ask: None,
    )
    routes = stateless_routes("/toy", ruleset="toy", operations=[operation])
    app = Litestar(
        [routes.router],
        dependencies={"rng": Provide(lambda: random.Random(3), sync_to_thread=False)},
        exception_handlers={Exception: handle_exception},
        logging_config=None,
    )
    with TestClient(app) as client:
        assert client.post("/toy/roll", json={"faces": [5]}).json()["id"] == "5"
        assert client.post("/toy/roll", json={}).json()["id"] == "none"
