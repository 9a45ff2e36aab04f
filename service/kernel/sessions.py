"""What a session's rules answer: ``apply(state, action, actor, rng) -> Applied``.

The rules decide; the session engine stores. ``history`` holds what the action appended
to the session's record (a resolved round, a move): it is kept apart from the state, so
that the state a write rewrites stays bounded by the number of participants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from service.kernel.events import Event
from service.kernel.values import Value

__all__ = ["GM", "Applied"]

GM = "gm"  # the game master's role, in every ruleset that has one

S = TypeVar("S", bound=Value)


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The next state, the events the action caused and the entries it adds to history."""

    state: S
    events: tuple[Event, ...] = ()
    history: tuple[Value, ...] = ()
