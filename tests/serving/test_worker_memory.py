"""A server worker freezes what start-up built out of the cycle collector's passes and lets
young objects build up before each pass; an app built for a test or a tool leaves the
process's collector alone."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service.app import YOUNG_OBJECTS_PER_COLLECTION, create_app
from service.settings import Settings


@pytest.fixture
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("unfrozen")
def test_a_worker_app_freezes_start_up_objects(settings: Settings) -> None:
    with TestClient(create_app(settings, worker=True)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() > 10_000  # modules, routes, the OpenAPI document
        assert gc.get_threshold()[0] == YOUNG_OBJECTS_PER_COLLECTION > 700  # Python's own


@pytest.mark.usefixtures("unfrozen")
def test_a_worker_collects_cycles_less_often_than_python_would(settings: Settings) -> None:
    with TestClient(create_app(settings, worker=True)) as client:
        assert client.get("/healthz").status_code == 200
        before = gc.get_stats()[0]["collections"]
        garbage = [[] for _ in range(5_000)]  # young objects, as requests leave them
        assert gc.get_stats()[0]["collections"] == before  # at 700, seven passes
        del garbage


@pytest.mark.usefixtures("unfrozen")
def test_an_app_for_tests_and_tools_does_not(settings: Settings) -> None:
    threshold = gc.get_threshold()
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == threshold
