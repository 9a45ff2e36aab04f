"""Fixtures of the shell's tests: an app that signs roll receipts with a known key."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from tests.http.test_receipts import app_with, new_key


@pytest.fixture
def keyed(redis_url: str) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """The real app signing with a new Ed25519 key, and that key (a private JWK)."""
    key = new_key()
    with app_with(redis_url, key) as client:
        yield client, key
