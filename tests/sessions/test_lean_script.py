"""The lean path sends each script call as redis-py would: the same bytes on the wire,
the same refusal of what Redis cannot take, and the script's answer from a real Redis."""

from __future__ import annotations

import asyncio

import pytest
import redis
import redis.asyncio as aioredis
from redis._parsers.encoders import Encoder
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import PythonRespSerializer
from redis.exceptions import DataError, ResponseError

from service.embedded_redis import EmbeddedRedis
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


def test_a_connection_that_reached_a_replica_is_closed() -> None:
    """A master demoted (REPLICAOF) answers a write READONLY: that connection is dropped,
    so the next call connects again (through the sentinels, to where they say the master
    is now), never reusing a connection to a replica."""
    write = "redis.call('SET', KEYS[1], ARGV[1]) return 1"

    async def lanes(admin: redis.Redis) -> set[str]:
        await asyncio.sleep(0.1)  # for Redis to see a connection closed
        return {c["id"] for c in admin.client_list() if c["name"] == "lane"}

    async def run(url: str, admin: redis.Redis) -> None:
        pool = aioredis.BlockingConnectionPool.from_url(url, client_name="lane")
        client = SessionRedis(connection_pool=pool, retry=Retry(NoBackoff(), retries=0))
        try:
            script = client.register_script(write)
            assert await script(keys=["k"], args=["1"]) == 1
            (first,) = await lanes(admin)
            admin.replicaof("127.0.0.1", "1")  # nothing listens there: it keeps its data
            try:
                with pytest.raises(ResponseError, match="READONLY"):  # 7.0: ReadOnlyError
                    await script(keys=["k"], args=["2"])
                assert await lanes(admin) == set()
            finally:
                admin.replicaof("no", "one")
            assert await script(keys=["k"], args=["3"]) == 1
            assert await lanes(admin) - {first}
        finally:
            await client.aclose()

    with EmbeddedRedis() as url, redis.Redis.from_url(url) as admin:
        asyncio.run(run(url, admin))
