"""What a ruleset hands the host: its routes, problem types and description.

The host (``app.py``) mounts each ruleset's router at its prefix, adds its problem types
to the catalog and its tags to the OpenAPI document, and lists it at ``GET /v1/rulesets``;
it never knows a ruleset's rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from litestar.di import NamedDependency
from msgspec import Meta

from service.kernel.values import Value

if TYPE_CHECKING:
    from litestar import Router
    from litestar.openapi.spec import Example, Tag

    from service.http.problem_types import ProblemType

__all__ = [
    "Ruleset",
    "RulesetInfo",
    "RulesetList",
    "RulesetWork",
    "ServerDice",
    "example_bodies",
]

# The server's dice, injected by the app (create_app's ``rng``) into a handler's ``rng``: a
# RandomSource. Typed Any because Litestar validates a typed dependency per request (an
# isinstance check of a runtime Protocol), which costs more than the check itself.
ServerDice = NamedDependency[Any]


def example_bodies(examples: list[Example]) -> tuple[Mapping[str, Any], ...]:
    """The request bodies of published examples, for :attr:`Ruleset.examples`."""
    return tuple(example.value for example in examples if isinstance(example.value, Mapping))


class RulesetWork(Value, frozen=True, kw_only=True):
    """The published game text a ruleset implements, named as a reader would look it up."""

    title: Annotated[str, Meta(description="The text's title, as its own first page gives it.")]
    author: Annotated[str, Meta(description="Its author, or the publisher of an open release.")]
    year: Annotated[int | None, Meta(description="The year it came out; null where unknown.")]

    def citation(self) -> str:
        """``Title, by Author (year)``; the year is left out where it is not known."""
        year = "" if self.year is None else f" ({self.year})"
        return f"{self.title}, by {self.author}{year}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """One game the service hosts.

    ``id`` is the route id (hyphens); ``route_prefix`` where its router is mounted
    (``/v1/<id>``; Bullseye keeps its first published prefix, ``/v1``). ``examples`` maps
    an operation id to request bodies that the operation accepts, so the host's tests can
    try every ruleset the same way. ``stateful`` names the kinds of session it keeps in
    Redis. ``links``: OpenAPI links keyed by the operation id they start from. ``work`` is
    the game text it implements; ``source`` cites it in one line. ``schema_prefix`` starts
    the published name of every schema only this ruleset uses (``OpenD6RollRequest``), so
    generated clients keep games apart; Bullseye's is empty (it keeps the names it was
    first published with).
    """

    id: str
    title: str
    work: RulesetWork
    route_prefix: str
    router: Router
    problems: tuple[ProblemType, ...]
    tags: tuple[Tag, ...]
    description: str
    schema_prefix: str
    examples: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)
    stateful: tuple[str, ...] = ()
    links: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def source(self) -> str:
        """The game text as one line, e.g. "Bullseye v1.0, by Justin D. Jacobson (2008)"."""
        return self.work.citation()

    def operations(self) -> Iterator[tuple[str, str, str]]:
        """``(operation id, method, path)`` of every published operation, in route order."""
        for route in self.router.routes:
            for handler in getattr(route, "route_handlers", ()):
                if not handler.resolve_include_in_schema():
                    continue
                operation_id = handler.operation_id
                if isinstance(operation_id, str):
                    for method in sorted(handler.http_methods):
                        yield operation_id, method, route.path


class RulesetInfo(Value, frozen=True, kw_only=True):
    """One hosted ruleset as ``GET /v1/rulesets`` lists it."""

    id: str
    title: str
    source: Annotated[
        str, Meta(description='The game text in one line: "Title, by Author (year)".')
    ]
    work: RulesetWork
    route_prefix: str
    operations: tuple[str, ...]
    stateful: tuple[str, ...]


class RulesetList(Value, frozen=True, kw_only=True):
    """Every ruleset the service hosts."""

    rulesets: tuple[RulesetInfo, ...]
