"""Domain errors: one small hierarchy with stable codes, mapped to problems once, in ``http/``.

A code is a string each ruleset owns: Bullseye's are bare (``quick10-with-depletion``),
every further ruleset's carry its id (``opend6/faces-missing``), so codes never collide and
each is also the problem type ``/problems/{code}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = ["FORBIDDEN", "Concern", "NotPermittedError", "RulesError"]

# The catalogued problem (403) of an action the actor's role may not take.
FORBIDDEN = "forbidden"


class Concern(Value, frozen=True, kw_only=True, omit_defaults=True):
    """One thing wrong with an input: what (`code`), where and why.

    Where is a JSON `pointer` into the body, or the query `parameter` at fault.
    """

    code: str
    detail: str
    pointer: Annotated[str | None, Meta(description="A JSON pointer into the body.")] = None
    parameter: Annotated[str | None, Meta(description="The query parameter at fault.")] = None

    def under(self, prefix: str) -> Concern:
        """The same concern, its pointer moved under ``prefix`` (e.g. a batch item)."""
        if self.pointer is None:
            return self
        return Concern(code=self.code, pointer=prefix + self.pointer, detail=self.detail)


class RulesError(Exception):
    """A well-formed request the rules refuse; carries every concern found, at once.

    ``extensions`` are extra members of the problem the error becomes (RFC 9457 §3.2):
    JSON-ready values a client can act on without parsing ``detail`` (how many dice are
    missing, say). They never replace the problem's standard members.
    """

    def __init__(
        self,
        code: str,
        detail: str,
        concerns: tuple[Concern, ...] = (),
        extensions: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.concerns = concerns
        self.extensions: Mapping[str, object] = dict(extensions or {})

    def under(self, prefix: str) -> RulesError:
        """The same error with every pointer moved under ``prefix``."""
        return RulesError(
            self.code, self.detail, tuple(c.under(prefix) for c in self.concerns), self.extensions
        )

    @classmethod
    def from_concerns(
        cls, concerns: list[Concern], extensions: Mapping[str, object] | None = None
    ) -> RulesError:
        """One error for several concerns; its code is the first concern's."""
        first = concerns[0]
        detail = first.detail if len(concerns) == 1 else f"{len(concerns)} rule violations."
        return cls(first.code, detail, tuple(concerns), extensions)


class NotPermittedError(RulesError):
    """The rules do not let this participant take this action (a 403, not a 422): whose
    move it is belongs to the rules, like everything else a game decides."""

    def __init__(self, detail: str) -> None:
        super().__init__(FORBIDDEN, detail)
