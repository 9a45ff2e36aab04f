"""Frozen settings read from the environment, once, at start-up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

import msgspec

__all__ = ["Settings", "SettingsError"]


class SettingsError(ValueError):
    """An environment variable holds a value the service cannot use."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything configurable; each field is read from the upper-cased variable."""

    host: str = "127.0.0.1"
    port: int = 8000
    web_concurrency: int = 0  # 0: one worker per core
    redis_url: str | None = None  # None: `python -m service` starts an embedded Redis
    redis_max_connections: int = 64
    redis_socket_timeout: float = 1.0
    redis_connect_timeout: float = 1.0
    redis_pool_timeout: float = 1.0
    redis_retry_after_seconds: int = 2
    max_body_bytes: int = 65536
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["json", "console", "auto"] = "auto"

    @property
    def workers(self) -> int:
        """Worker processes to serve with."""
        return self.web_concurrency or os.cpu_count() or 1

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``environ`` (default: the process environment)."""
        environ = os.environ if environ is None else environ
        raw = {
            name: environ[name.upper()]
            for name in cls.__struct_fields__
            if environ.get(name.upper(), "") != ""
        }
        try:
            return msgspec.convert(raw, cls, strict=False)
        except msgspec.ValidationError as error:
            raise SettingsError(f"invalid environment: {error}") from error
