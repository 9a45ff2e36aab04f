"""Every use of a library's private or undocumented parts, one module per library.

Each module names the versions it was checked against (``CHECKED``); ``tests/compat``
fails loudly when another version is installed, and exercises each piece against the real
library. Everywhere else ruff's private-access rules hold. The fast paths that rest on
these pieces (the one-step JSON routes, the routing cache, the lean Redis scripts) turn off
with ``FAST_PATHS=off``, which serves every route through plain Litestar and plain redis-py.
"""

from __future__ import annotations

import importlib.metadata

__all__ = ["version_checked"]


def version_checked(distribution: str, checked: tuple[str, ...]) -> str | None:
    """Why the installed ``distribution`` was not checked (its release series, ``major.minor``,
    is not in ``checked``), or None."""
    installed = importlib.metadata.version(distribution)
    series = ".".join(installed.split(".")[:2])
    if series in checked:
        return None
    return (
        f"{distribution} {installed} is installed; service.compat was checked against "
        f"{', '.join(checked)} only: check each piece of its module again, then add {series}"
    )
