"""API keys (security review): at least 128 bits, kept only as HMAC-SHA256 digests under the
server's secret (so Redis, where the rate limiter names its counters after a key, holds
nothing a key can be found from without it), and required on ``/metrics`` too."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterator

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.http.shell.keys import ApiKeys, key_problem, new_key
from service.settings import Settings
from tests.support.problems import assert_problem

KEY = "key-0123456789abcdefghijklmnopqrstuv"
SECRET = "secret-0123456789abcdefghijklmnopqrstuvwxyz"


@pytest.fixture
def keyed(redis_url: str) -> Iterator[TestClient]:
    settings = Settings(
        redis_url=redis_url,
        api_keys=KEY,
        api_key_secret=SECRET,
        rate_limit="1000/hour",
        log_format="json",
    )
    with TestClient(create_app(settings, rng=random.Random(1))) as client:
        yield client


def test_the_limiter_names_a_keys_window_after_its_hmac_not_its_hash(
    keyed: TestClient, redis_url: str
) -> None:
    assert keyed.post("/v1/checks", json={"target": 5}, headers={"X-API-Key": KEY}).is_success
    names = [name.decode() for name in redis.Redis.from_url(redis_url).keys("*ratelimit*")]
    keyed_hmac = hmac.new(SECRET.encode(), KEY.encode(), hashlib.sha256).hexdigest()
    assert any(f"{{key:{keyed_hmac[:32]}}}" in name for name in names), names
    assert not any(hashlib.sha256(KEY.encode()).hexdigest()[:32] in name for name in names)


def test_metrics_need_a_key_when_keys_are_configured(keyed: TestClient) -> None:
    assert_problem(keyed.get("/metrics"), 401, "api-key-required")
    assert_problem(keyed.get("/metrics", headers={"X-API-Key": "x" * 40}), 401, "api-key-required")
    assert keyed.get("/metrics", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
    assert keyed.get("/healthz").status_code == 200  # probes stay open


def test_metrics_stay_open_without_keys(client: TestClient) -> None:
    assert client.get("/metrics").status_code == 200


def test_a_key_counts_only_under_the_secret_it_was_configured_with() -> None:
    ours, theirs = ApiKeys((KEY,), SECRET), ApiKeys((KEY,), new_key())
    assert ours.known(KEY) is not None
    assert ours.known(KEY) != theirs.known(KEY)  # another secret, another digest
    assert ours.known(KEY + "x") is None


@pytest.mark.parametrize(
    ("candidate", "why"),
    [
        ("0123456789abcdef0123456789abcde", "is 31 characters"),
        ("REPLACE-ME-0123456789abcdefghijklmnop", "placeholder"),
        ("change-me-0123456789abcdefghijklmnopq", "placeholder"),
        ("ab" * 20, "too few characters"),
        ("0123456789abcdef 0123456789abcdef", "printable ASCII without spaces"),
    ],
)
def test_weak_keys_are_refused(candidate: str, why: str) -> None:
    problem = key_problem(candidate, "key 1 of 1")
    assert problem is not None
    assert why in problem
    assert candidate not in problem


def test_a_generated_key_is_accepted() -> None:
    assert key_problem(new_key(), "key") is None
    assert key_problem("0123456789abcdef0123456789abcdef", "key") is None  # 128 bits as hex
