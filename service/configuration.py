"""The settings the service starts with, checked whole.

:class:`service.settings.Settings` checks what it can alone and imports nothing of the
service. The values whose rules belong to a capability — API keys, CORS origins, the rate
limit, the roll signing keys — are checked here by the modules that own those rules, so each
rule stays in one place and the settings stay a leaf.
"""

from __future__ import annotations

from collections.abc import Mapping

from service.http.receipts.roll_keys import RollKeys, SigningKeyError
from service.http.shell.cors import origin_problem
from service.http.shell.keys import key_problem, split_keys
from service.http.shell.rates import parse_rate
from service.settings import Settings, SettingsError

__all__ = ["check_settings", "load_settings"]


def load_settings(environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from ``environ`` (default: the process environment), checked whole."""
    return check_settings(Settings.from_env(environ))


def check_settings(settings: Settings) -> Settings:
    """``settings`` if every value may be used, else :class:`SettingsError` naming it."""
    if problem := _problem(settings):
        raise SettingsError(f"invalid environment: {problem}")
    return settings


def _problem(settings: Settings) -> str | None:
    keys = split_keys(settings.api_keys)
    for number, key in enumerate(keys, start=1):
        if problem := key_problem(key, f"key {number} of {len(keys)}"):
            return f"API_KEYS: {problem}"
    if settings.api_key_secret is not None and (
        problem := key_problem(settings.api_key_secret, "the secret")
    ):
        return f"API_KEY_SECRET: {problem}"
    for origin in (entry.strip() for entry in (settings.cors_origins or "").split(",")):
        if origin and (problem := origin_problem(origin)):
            return f"CORS_ORIGINS: {problem}"
    if settings.rate_limit:
        try:
            parse_rate(settings.rate_limit)
        except ValueError as error:  # its words read well as they are
            return str(error)
    if settings.roll_signing_keys is not None:
        try:
            RollKeys.parse(settings.roll_signing_keys)
        except SigningKeyError as error:
            return f"ROLL_SIGNING_KEYS: {error}"
    return None
