"""Frozen settings read from the environment, once, at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Literal, cast
from urllib.parse import urlsplit

import msgspec
from msgspec import Meta

__all__ = ["Settings", "SettingsError", "sentinel_addresses"]


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use."""


REDIS_SCHEMES = ("redis:", "rediss:", "unix:")
Seconds = Annotated[float, Meta(gt=0, le=60)]
_UPPER_CASE = {"log_level"}
_LOWER_CASE = {"server", "fast_paths"}


def _fast_paths_default() -> Literal["on", "off"]:
    # Settings built in code follow FAST_PATHS too, so that a test run under FAST_PATHS=off
    # serves every app it builds the plain way.
    value = os.environ.get("FAST_PATHS", "").strip().lower() or "on"
    return cast('Literal["on", "off"]', value)  # checked in __post_init__


def sentinel_addresses(value: str) -> list[tuple[str, int]]:
    """``host:port,host:port`` (an IPv6 host in brackets) as pairs.

    Raises:
        ValueError: an entry that is not ``host:port``, naming REDIS_SENTINELS.
    """
    addresses = []
    for entry in (part.strip() for part in value.split(",")):
        try:
            parsed = urlsplit(f"//{entry}")
            host, port = parsed.hostname, parsed.port
        except ValueError:
            host = port = None
        if not entry or not host or port is None or not 0 < port < 65536:
            raise ValueError(
                f"REDIS_SENTINELS: {entry!r} is not host:port (the sentinels, separated by "
                "commas: sentinel-1:26379,sentinel-2:26379)"
            )
        addresses.append((host, port))
    return addresses


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything configurable; each field is read from the upper-cased variable."""

    host: Annotated[str, Meta(min_length=1)] = "127.0.0.1"
    port: Annotated[int, Meta(ge=1, le=65535)] = 8000
    web_concurrency: Annotated[int, Meta(ge=0, le=512)] = 0  # 0: one worker per core
    server: Literal["granian", "uvicorn"] = "granian"  # see service.serving
    # Proxies whose X-Forwarded-For names the client (addresses, networks, or *).
    forwarded_allow_ips: Annotated[str, Meta(max_length=4096)] = "127.0.0.1"
    redis_url: str | None = None  # None: `python -m service` starts an embedded Redis
    # The embedded Redis's memory (MiB); full, it refuses writes (503 state-store-full),
    # never evicts a session.
    embedded_redis_maxmemory_mb: Annotated[int, Meta(ge=16, le=1024 * 1024)] = 256
    redis_cluster: bool = False  # REDIS_URL names one node of a Redis Cluster
    # Redis Sentinel: "host:port,host:port" of the sentinels, and the name of the master
    # they watch; REDIS_URL, if set too, gives only the master's credentials, database and
    # TLS (its host must be the master's name). The sentinels' own password, if any.
    redis_sentinels: str = ""
    redis_sentinel_master: str = ""
    redis_sentinel_password: str | None = None
    # Each session write waits until this many replicas hold it (WAIT), at most
    # REDIS_WAIT_TIMEOUT_MS; fewer in time: 503 (the write is kept, a retry with the
    # same Idempotency-Key finds it). 0: answered once the primary has it.
    redis_wait_replicas: Annotated[int, Meta(ge=0, le=16)] = 0
    redis_wait_timeout_ms: Annotated[int, Meta(ge=1, le=60_000)] = 1000
    redis_max_connections: Annotated[int, Meta(ge=1, le=10000)] = 64
    redis_socket_timeout: Seconds = 1.0
    redis_connect_timeout: Seconds = 1.0
    redis_pool_timeout: Seconds = 1.0
    redis_retry_after_seconds: Annotated[int, Meta(ge=1, le=3600)] = 2
    max_body_bytes: Annotated[int, Meta(ge=1024, le=16 * 1024 * 1024)] = 65536
    # Slow and huge requests (granian enforces the header bounds; see service.serving).
    max_header_bytes: Annotated[int, Meta(ge=8192, le=1024 * 1024)] = 16384
    header_read_timeout_seconds: Seconds = 10.0
    body_read_timeout_seconds: Seconds = 10.0
    conflict_ttl_seconds: Annotated[int, Meta(ge=60, le=604800)] = 86400
    # The longest any session may wait untouched, its creator's `ttl_seconds` included.
    session_ttl_max_seconds: Annotated[int, Meta(ge=60, le=604800)] = 86400
    # Live sessions one client (its API key, else its address) may keep (0: no limit).
    sessions_per_client: Annotated[int, Meta(ge=0, le=1_000_000)] = 200
    # Sessions of each kind each worker remembers, so a write usually needs no read first
    # (0: off), and at most this many bytes of them.
    recent_sessions: Annotated[int, Meta(ge=0, le=100000)] = 2048
    recent_session_bytes: Annotated[int, Meta(ge=0, le=1024 * 1024 * 1024)] = 64 * 1024 * 1024
    # The ceiling of one session's stored bytes: state, tokens and history.
    session_max_bytes: Annotated[int, Meta(ge=64 * 1024, le=64 * 1024 * 1024)] = 1024 * 1024
    # The first answers to Idempotency-Keys each participant of a session keeps (its
    # oldest dropped first); they count in the session's bytes.
    idempotency_keys_kept: Annotated[int, Meta(ge=1, le=1000)] = 16
    api_keys: str | None = None  # comma-separated; when set, /v1 routes and /metrics need one
    # The HMAC key the API keys are kept under (service.http.shell.keys); every replica needs the
    # same one. Unset: `python -m service` generates one for its workers, and says so.
    api_key_secret: str | None = None
    rate_limit: str = ""  # e.g. "600/minute" per API key (or client address); empty: off
    rate_limit_budget_seconds: Seconds = 0.05  # the longest a request waits for the limiter
    cors_origins: str = ""  # comma-separated origins allowed to call from a browser, or *
    sse_max_connections: Annotated[int, Meta(ge=1, le=10000)] = 256
    # Streams over every worker and replica (counted in Redis): on one session, and held by
    # one client (its API key, else its address).
    sse_max_per_session: Annotated[int, Meta(ge=1, le=10000)] = 32
    sse_max_per_client: Annotated[int, Meta(ge=1, le=100000)] = 64
    sse_keep_alive_seconds: Annotated[float, Meta(ge=0.05, le=60)] = 15.0
    stream_ticket_seconds: Annotated[int, Meta(ge=5, le=3600)] = 60
    # Odds (service.http.odds.gate): every odds request's cost is estimated up front from
    # its inputs. Up to ODDS_INLINE_MS it is computed on the worker's event loop; up to
    # ODDS_MAX_MS in a pool of ODDS_WORKERS processes per worker (0: no pool, and the
    # inline budget is the limit), which holds ODDS_QUEUE more requests waiting (then 503
    # odds-busy); above, 422 odds-too-costly. A pooled computation still running
    # ODDS_DEADLINE_MS after its process received it is abandoned, its process killed (503
    # odds-busy); unset: five times ODDS_MAX_MS, at least a second. A pool process holding
    # more than ODDS_RECYCLE_MIB after an answer is replaced (0: never). Answers are
    # remembered per worker, at most ODDS_CACHE_ENTRIES of them and ODDS_CACHE_BYTES bytes
    # (0: none).
    odds_inline_ms: Annotated[float, Meta(ge=0, le=1000)] = 2.0
    odds_max_ms: Annotated[float, Meta(ge=0, le=600_000)] = 1000.0
    odds_deadline_ms: Annotated[float, Meta(ge=1000, le=3_600_000)] | None = None
    odds_recycle_mib: Annotated[int, Meta(ge=0, le=1024 * 1024)] = 48
    odds_workers: Annotated[int, Meta(ge=0, le=64)] = 1
    odds_queue: Annotated[int, Meta(ge=0, le=10_000)] = 4
    odds_cache_entries: Annotated[int, Meta(ge=0, le=1_000_000)] = 4096
    odds_cache_bytes: Annotated[int, Meta(ge=0, le=1024 * 1024 * 1024)] = 16 * 1024 * 1024
    # Ed25519 private JWKs that sign roll receipts, the first signing (a JSON array; see
    # service.http.receipts.roll_keys). Unset: a key is generated at start-up, and said so.
    roll_signing_keys: str | None = None
    # Set by `python -m service` when it generated the key its workers share.
    roll_signing_keys_generated: bool = False
    # A generated key's public half is published through Redis to every replica's JWKS
    # while its replica runs, and this long after it stops (service.http.receipts.published_keys).
    roll_key_retention_seconds: Annotated[int, Meta(ge=1, le=2_592_000)] = 86400
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["json", "console", "auto"] = "auto"
    # off: every route served through plain Litestar and plain redis-py (no one-step JSON
    # routes, routing cache or lean Redis scripts); the same answers at more instructions
    # each. The way back should a library release break what service.compat relies on.
    fast_paths: Literal["on", "off"] = msgspec.field(default_factory=_fast_paths_default)

    def __post_init__(self) -> None:
        # Values whose rules belong to a capability are checked by service.configuration.
        if self.fast_paths not in ("on", "off"):  # a default taken from the environment
            raise ValueError(f"FAST_PATHS must be on or off, not {self.fast_paths!r}")
        if self.conflict_ttl_seconds > self.session_ttl_max_seconds:
            raise ValueError("CONFLICT_TTL_SECONDS must be at most SESSION_TTL_MAX_SECONDS")
        if self.odds_max_ms < self.odds_inline_ms:
            raise ValueError("ODDS_MAX_MS must be at least ODDS_INLINE_MS")
        if self.odds_deadline_ms is not None and self.odds_deadline_ms < self.odds_max_ms:
            raise ValueError("ODDS_DEADLINE_MS must be at least ODDS_MAX_MS")
        if self.redis_url is not None and not self.redis_url.startswith(REDIS_SCHEMES):
            schemes = ", ".join(f"{scheme}//" for scheme in REDIS_SCHEMES)
            raise ValueError(f"REDIS_URL must start with one of {schemes}")
        if self.redis_sentinels or self.redis_sentinel_master:
            self._check_sentinel()

    def _check_sentinel(self) -> None:
        if not self.redis_sentinels:
            raise ValueError("REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS is not")
        sentinel_addresses(self.redis_sentinels)  # its ValueError names the variable
        if not self.redis_sentinel_master:
            raise ValueError(
                "REDIS_SENTINEL_MASTER must name the master the sentinels watch "
                "(their `sentinel monitor <name> …`)"
            )
        if self.redis_cluster:
            raise ValueError("REDIS_SENTINELS and REDIS_CLUSTER exclude each other")
        if self.redis_url is not None:
            url = urlsplit(self.redis_url)
            if url.scheme == "unix":
                raise ValueError("REDIS_URL: a unix socket cannot be found through sentinels")
            if url.hostname != self.redis_sentinel_master.lower() or url.port is not None:
                raise ValueError(
                    "REDIS_URL: with REDIS_SENTINELS the sentinels name the master's address; "
                    "REDIS_URL gives only its credentials, database and TLS, with the "
                    f"master's name as its host (redis://:<password>@"
                    f"{self.redis_sentinel_master}/0)"
                )

    @property
    def redis_configured(self) -> bool:
        """Whether Redis is the operator's (a URL or sentinels), not one to embed."""
        return bool(self.redis_url or self.redis_sentinels)

    @property
    def odds_deadline_seconds(self) -> float:
        """How long a pooled odds computation may run (ODDS_DEADLINE_MS, or its default)."""
        if self.odds_deadline_ms is not None:
            return self.odds_deadline_ms / 1000
        return max(5 * self.odds_max_ms, 1000.0) / 1000

    @property
    def workers(self) -> int:
        """Worker processes to serve with."""
        return self.web_concurrency or os.cpu_count() or 1

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``environ`` (default: the process environment)."""
        environ = os.environ if environ is None else environ
        raw: dict[str, str] = {}
        for name in cls.__struct_fields__:
            value = environ.get(name.upper(), "")
            if value == "":
                continue
            if name in _UPPER_CASE:
                value = value.upper()
            elif name in _LOWER_CASE:
                value = value.lower()
            raw[name] = value
        try:
            return msgspec.convert(raw, cls, strict=False)
        except msgspec.ValidationError as error:
            reason, _, field = str(error).partition(" - at `$.")
            where = f" variable {field.rstrip('`').upper()}" if field else ""
            raise SettingsError(f"invalid environment{where}: {reason}") from error
