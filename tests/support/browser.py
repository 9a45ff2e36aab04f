"""Headless Chromium as the browser tests launch it (Debian's package, never a download)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail(
            "Chromium is required for the browser test: `make system-deps` "
            "(Debian: apt-get install chromium); make test installs it when it can."
        )
    return path
