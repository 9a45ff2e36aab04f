"""Fixtures of the session tests that put a real fault between the service and Redis."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.proxy import HoldingProxy


@pytest.fixture
def proxy(redis_url: str) -> Iterator[HoldingProxy]:
    """A TCP proxy in front of the test Redis that can hold, drop, cut or answer commands."""
    holding = HoldingProxy(redis_url)
    try:
        yield holding
    finally:
        holding.close()


@pytest.fixture
def through_proxy(proxy: HoldingProxy) -> Iterator[TestClient]:
    """The service with Redis behind the proxy and a short socket timeout."""
    settings = Settings(redis_url=proxy.url, redis_socket_timeout=0.3, log_format="json")
    with TestClient(create_app(settings, rng=random.Random(11))) as test_client:
        yield test_client
