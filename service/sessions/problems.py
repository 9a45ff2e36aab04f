"""The problem schema of a session action that may roll the server's dice."""

from __future__ import annotations

from typing import Annotated

from msgspec import UNSET, Meta, UnsetType

from service.http.contract.problems import Problem

__all__ = ["SessionProblem"]


class SessionProblem(Problem, frozen=True, kw_only=True):
    """A problem of a session action that may roll the server's dice:
    `client-seeds-awaited` names whose client seed the session still awaits."""

    awaiting: Annotated[
        tuple[str, ...] | UnsetType,
        Meta(
            description="`client-seeds-awaited`: the participants whose client seed the "
            "session still awaits (as its `fairness.awaiting_seeds`)."
        ),
    ] = UNSET
