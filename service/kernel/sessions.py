"""What a session's rules answer: ``apply(state, action, actor, rng) -> Applied``.

The rules decide; the session engine stores. ``history`` holds what the action appended
to the session's record (a resolved round, a move): it is kept apart from the state, so
that the state a write rewrites stays bounded by the number of participants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from service.kernel.errors import NotPermittedError
from service.kernel.events import Event
from service.kernel.values import Value

__all__ = ["GM", "Applied", "require_gm", "require_gm_or_self"]

GM = "gm"  # the game master's role, in every ruleset that has one

S = TypeVar("S", bound=Value)


@dataclass(frozen=True, slots=True)
class Applied(Generic[S]):
    """The next state, the events the action caused and the entries it adds to history."""

    state: S
    events: tuple[Event, ...] = ()
    history: tuple[Value, ...] = ()


def require_gm(actor: str, doing: str) -> None:
    """Only the GM may do this (whose move it is belongs to a game's rules).

    Raises:
        NotPermittedError: ``actor`` is a participant.
    """
    if actor != GM:
        raise NotPermittedError(f"Only the GM's token may {doing}.")


def require_gm_or_self(actor: str, participant: str, doing: str) -> None:
    """The participant itself may do this, or the GM on its behalf.

    Raises:
        NotPermittedError: ``actor`` is another participant.
    """
    if actor not in (GM, participant):
        raise NotPermittedError(f"This token may only {doing} for '{actor}' (the GM's for anyone).")
