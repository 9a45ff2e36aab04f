"""Where a session lives in Redis: every key of one session shares the hash tag ``{<id>}``,
so each script touches one slot and the design runs unchanged on Redis Cluster."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

__all__ = ["SessionKind", "digest"]


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
        """Where the first answer to ``Idempotency-Key: key`` is kept."""
        return f"{self.state(session_id)}:idem:{digest(key)}"

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
