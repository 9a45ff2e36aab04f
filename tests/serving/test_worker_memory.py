"""A server worker freezes what start-up built out of the cycle collector's passes; an app
built for a test or a tool leaves the process's collector alone."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.usefixtures("unfrozen")
def test_a_worker_app_freezes_start_up_objects(settings: Settings) -> None:
    with TestClient(create_app(settings, worker=True)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000  # modules, routes, the OpenAPI document


@pytest.mark.usefixtures("unfrozen")
def test_an_app_for_tests_and_tools_does_not(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() == 0
