"""Shared fixtures: a real Redis (embedded unless REDIS_URL is set) and the real app."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL when set (CI against a real server), else a private embedded redis-server."""
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    with EmbeddedRedis() as url:
        yield url


@pytest.fixture
def settings(redis_url: str) -> Settings:
    return Settings(redis_url=redis_url, log_format="json")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The real app (lifespan and all) with seeded server dice."""
    with TestClient(create_app(settings, rng=random.Random(7))) as test_client:
        yield test_client


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServedApp:
    """``python -m service`` running as its own process, as a user would start it."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        full_env = {
            **os.environ,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": "1",
            "LOG_FORMAT": "json",
            **env,
        }
        if not full_env.get("REDIS_URL"):
            full_env.pop("REDIS_URL", None)
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "service"],
            cwd=ROOT,
            env=full_env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"service exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"service did not start: {self.log.read_text()}")

    def stop(self) -> int:
        self.process.terminate()
        try:
            code = self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._log_file.close()
        return code


@pytest.fixture(scope="session")
def served_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service served over HTTP by its own process, against the test Redis."""
    app = ServedApp({"REDIS_URL": redis_url}, tmp_path_factory.mktemp("served") / "service.log")
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()
