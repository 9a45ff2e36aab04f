"""The lean path sends each script call as redis-py would: the same bytes on the wire,
the same refusal of what Redis cannot take, and the script's answer from a real Redis."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from redis._parsers.encoders import Encoder
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import PythonRespSerializer
from redis.exceptions import DataError

from service.sessions.client import LeanScript, SessionRedis

SCRIPT = "return {KEYS[1], ARGV[1], ARGV[2], tostring(#ARGV)}"
CALLS = [
    ((b"session:{a}",), (b"state", 1)),
    (("session:{é}", "idem:{é}"), ("ünïcode", -7, 2**70, 0.1, 1e20, b"\x00\xff")),
    ((), ()),
]


def _redis_py(*args: object) -> bytes:
    encoder = Encoder("utf-8", "strict", decode_responses=False)
    return b"".join(PythonRespSerializer(6000, encoder.encode).pack(*args))


def _client(redis_url: str) -> SessionRedis:
    pool = aioredis.BlockingConnectionPool.from_url(redis_url, max_connections=2)
    return SessionRedis(connection_pool=pool, retry=Retry(NoBackoff(), retries=0))


@pytest.mark.parametrize(("keys", "args"), CALLS)
def test_a_call_is_packed_as_redis_py_packs_it(
    redis_url: str, keys: tuple[bytes | str, ...], args: tuple[object, ...]
) -> None:
    script = LeanScript(_client(redis_url), SCRIPT)
    expected = _redis_py("EVALSHA", script.sha, len(keys), *keys, *args)
    assert script.pack(keys, args) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [True, None, object()])
def test_what_redis_py_refuses_is_refused(redis_url: str, value: object) -> None:
    script = LeanScript(_client(redis_url), SCRIPT)
    with pytest.raises(DataError):
        _redis_py("EVALSHA", script.sha, 0, value)
    with pytest.raises(DataError):
        script.pack((), (value,))  # type: ignore[arg-type]


def test_a_packed_call_runs_the_script(redis_url: str) -> None:
    async def run() -> object:
        client = _client(redis_url)
        try:
            script = client.register_script(SCRIPT)
            return await script(keys=["k:{x}"], args=["ü", 3])
        finally:
            await client.aclose()

    assert asyncio.run(run()) == [b"k:{x}", "ü".encode(), b"3", b"2"]
