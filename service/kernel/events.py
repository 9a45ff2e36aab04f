"""Typed events: what a session's rules say happened, for its event stream.

Each ruleset declares its events as subclasses with a ``tag`` (the event's name, e.g.
``round.resolved``) and a union of them; the names come from that one union, for the
rules, the store and the API's documentation alike.
"""

from __future__ import annotations

from typing import Any, get_args

import msgspec

from service.kernel.values import Value

__all__ = ["Event", "event_data", "event_names"]


class Event(Value, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event; a subclass's ``tag`` is its name."""

    @property
    def type(self) -> str:
        """The event's name, as its stream entry and the event-stream frame carry it."""
        return str(self.__struct_config__.tag)

    @property
    def data(self) -> dict[str, Any]:
        """The event's fields without its name, as plain JSON-ready values."""
        return event_data(self)


def event_names(union: Any) -> tuple[str, ...]:
    """The names (tags) of the event types in ``union``, in declaration order."""
    members = get_args(union) or (union,)
    return tuple(str(member.__struct_config__.tag) for member in members)


def event_data(event: Event) -> dict[str, Any]:
    """An event's fields without its name: what a stream client receives as data."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    data.pop("type", None)
    return data
