"""A real Redis restarted onto its AOF: while it loads, every session route answers 503
`store-unavailable` with Retry-After (reliability probe: a Redis loading a 1.2 GB and a
1.9 GB AOF for 3.2 s and 5.7 s made every session request answer 500), `/readyz` says 503
too, stateless routes keep answering, and once it has loaded every session is there as it
was and takes writes again.

The AOF here is small (tens of thousands of keys); Redis's own `key-load-delay` stretches
its loading to seconds, so the loading window is real without a gigabyte on disk. (While
it loads, Redis answers a client every 2 MB it has read, with LOADING, and a new
connection's handshake may outlast the socket timeout: either is a 503.)"""

from __future__ import annotations

import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis, redis_server_binary
from service.settings import Settings
from tests.support.problems import assert_problem
from tests.support.session_kinds import KINDS, Session

# 4 000 keys of 16 KiB, uncompressed: a 64 MiB AOF. Redis answers clients every 2 MiB it
# loads (128 keys): with 1 ms a key, every 0.13 s, for about 4 s.
JUNK_KEYS = 4_000
JUNK_BYTES = 16_384
LOAD_DELAY_MICROS = 1_000


def _start_loading(directory: Path) -> subprocess.Popen[bytes]:
    """redis-server on ``directory``'s AOF, returned as soon as it listens (loading)."""
    socket_path = directory / "redis.sock"
    socket_path.unlink(missing_ok=True)
    process = subprocess.Popen(
        [
            redis_server_binary(),
            "--port", "0", "--unixsocket", str(socket_path), "--dir", str(directory),
            "--appendonly", "yes", "--save", "", "--daemonize", "no",
            "--loglevel", "warning", "--key-load-delay", str(LOAD_DELAY_MICROS),
        ],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(500):
        if socket_path.exists():
            return process
        time.sleep(0.01)
    process.kill()
    pytest.fail("redis-server did not listen")


@pytest.fixture
def aof_redis(tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, Path]]:
    server = EmbeddedRedis("--appendonly", "yes", "--rdbcompression", "no", directory=tmp_path)
    server.start()
    try:
        yield server, tmp_path
    finally:
        server.stop()


@pytest.mark.heavy(2)
def test_a_redis_loading_its_aof_is_a_503_on_every_session_route(
    aof_redis: tuple[EmbeddedRedis, Path],
) -> None:
    server, directory = aof_redis
    settings = Settings(redis_url=server.url, log_format="json", log_level="WARNING")
    with TestClient(create_app(settings, rng=random.Random(9))) as client:
        sessions: list[tuple[object, Session, str]] = []
        for kind in KINDS:
            session = kind.create(client)  # type: ignore[arg-type]
            etag = client.get(session.path, headers=session.gm).headers["etag"]
            sessions.append((kind, session, etag))
        admin = redis.Redis.from_url(server.url)
        admin.execute_command("DEBUG", "POPULATE", JUNK_KEYS, "junk", JUNK_BYTES)
        admin.bgrewriteaof()
        while admin.info("persistence")["aof_rewrite_in_progress"]:
            time.sleep(0.05)
        admin.close()
        server.stop()  # the directory, given, stays

        loading = _start_loading(directory)
        try:
            reads: list[int] = []
            writes: list[int] = []
            ready: list[int] = []
            kind, session, _ = sessions[0]
            # Until the session can be read again: every session route a 503, never a 500.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                read = client.get(session.path, headers=session.gm)
                reads.append(read.status_code)
                if read.status_code != 503:
                    break
                assert_problem(read, 503, "store-unavailable")
                assert int(read.headers["retry-after"]) >= 1
                write = kind.player_move(client, session)  # type: ignore[attr-defined]
                writes.append(write.status_code)
                if write.status_code == 503:
                    assert_problem(write, 503, "store-unavailable")
                ready.append(client.get("/readyz").status_code)
                checked = client.post("/v1/checks", json={"target": 5, "seed": 1})
                assert checked.status_code == 200  # stateless routes keep answering
            # Loaded: every session as it was (but a write that landed as loading ended).
            applied = sum(status in (200, 202) for status in writes)
            for number, (kind, session, etag) in enumerate(sessions):
                read = client.get(session.path, headers=session.gm)
                assert read.status_code == 200, read.text
                expected = int(etag.strip('"')) + (applied if number == 0 else 0)
                assert read.headers["etag"] == f'"{expected}"'
                if number:
                    moved = kind.player_move(client, session)  # type: ignore[attr-defined]
                    assert moved.status_code in (200, 202), moved.text
        finally:
            loading.terminate()
            loading.wait(timeout=10)
    assert reads[-1] == 200
    assert set(reads[:-1]) == {503}
    assert len(reads) >= 2  # asked at least once while loading (redis-py's own path asks slower)
    assert writes[0] == 503
    assert set(writes) <= {503, 200, 202}
    assert applied <= 1  # only a write that came as the loading ended
    assert 503 in ready
