"""Where a session lives in Redis: every key of one session shares the hash tag ``{<id>}``,
so each script touches one slot and the design runs unchanged on Redis Cluster."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["SessionKind", "digest", "idempotency_field", "owner_tag"]


@dataclass(frozen=True, slots=True)
class SessionKind:
    """A kind of session of one ruleset, e.g. Bullseye's ``conflict``."""

    ruleset: str
    kind: str

    def state(self, session_id: str) -> str:
        """The hash holding the envelope: version, state, access, expiry, history size."""
        return f"{self.ruleset}:{self.kind}:{{{session_id}}}"

    def events(self, session_id: str) -> str:
        """The stream of the session's events."""
        return f"{self.state(session_id)}:events"

    def history(self, session_id: str) -> str:
        """The list of what the session appended to its record (rounds, moves)."""
        return f"{self.state(session_id)}:history"

    def idempotency(self, session_id: str, key: str) -> str:
        """Where a release before 2026-12 kept the first answer to ``Idempotency-Key: key``
        (of whichever participant sent it first); still read until such records expire."""
        return f"{self.state(session_id)}:idem:{digest(key)}"

    def pending(self, session_id: str, field: str) -> str:
        """The marker of a request in flight under the key ``field`` names (see
        :func:`idempotency_field`), for as long as its lease."""
        return f"{self.state(session_id)}:pending:{field}"

    def answers(self, session_id: str) -> str:
        """The hash of first answers, by :func:`idempotency_field`, with each participant's
        count (``#<owner tag>``); counted in the session's bytes."""
        return f"{self.state(session_id)}:answers"

    def answer_order(self, session_id: str) -> str:
        """The list of ``<owner tag>:<field>`` in the order the answers were kept, so each
        participant's oldest goes first."""
        return f"{self.state(session_id)}:answers:order"

    def write_keys(self, session_id: str, pending: str | None) -> list[str]:
        """A write's keys (``service.sessions.store``), in its script's order: the state,
        events, history, the pending marker of the field ``pending`` (the state's own key
        when none), answers and answer order. The state's key is made once and the others
        are its suffixes, as the methods above make them: a call per key cost a write
        about 6 kIr (two calls for each key past the state)."""
        state = f"{self.ruleset}:{self.kind}:{{{session_id}}}"
        return [
            state,
            f"{state}:events",
            f"{state}:history",
            f"{state}:pending:{pending}" if pending is not None else state,
            f"{state}:answers",
            f"{state}:answers:order",
        ]

    def ticket(self, session_id: str, ticket: str) -> str:
        """A stream ticket's role, for as long as the ticket lives."""
        return f"{self.state(session_id)}:ticket:{digest(ticket)}"

    @property
    def closed_event(self) -> str:
        """The last event of a session that was ended on purpose."""
        return f"{self.kind}.closed"

    @property
    def expired_event(self) -> str:
        """The last event of a session whose time ran out."""
        return f"{self.kind}.expired"


def digest(text: str) -> str:
    """What is stored of a secret or a client's key: its SHA-256, in hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def idempotency_field(principal: str, key: str) -> str:
    """Where one participant's ``Idempotency-Key`` is kept: keys are the participant's own,
    so another's key (guessed, or simply the same) is another request, never a refusal."""
    return digest(f"{principal}\n{key}")


def owner_tag(principal: str) -> str:
    """A participant, as the answers it keeps are counted and ordered."""
    return digest(principal)[:16]
