"""What a ruleset hands the host: its routes, problem types and description.

The host (``app.py``) mounts each ruleset's router at its prefix, adds its problem types
to the catalog and its tags to the OpenAPI document, and lists it at ``GET /v1/rulesets``;
it never knows a ruleset's rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from litestar.di import NamedDependency
from msgspec import Meta

from service.kernel.values import Value

if TYPE_CHECKING:
    from litestar import Router
    from litestar.openapi.spec import Example, Tag

    from service.http.contract.problem_types import ProblemType

__all__ = [
    "ExamplePlay",
    "PlayStep",
    "Ruleset",
    "RulesetInfo",
    "RulesetList",
    "RulesetWork",
    "ServerDice",
]

# The server's dice, injected by the app (create_app's ``rng``) into a handler's ``rng``: a
# RandomSource. Typed Any because Litestar validates a typed dependency per request (an
# isinstance check of a runtime Protocol), which costs more than the check itself.
ServerDice = NamedDependency[Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayStep:
    """One request of an :class:`ExamplePlay`.

    ``example`` is one the operation publishes (``Body(examples=...)``; None for an
    operation without a body). ``role`` is whose token sends it: ``gm`` or a player's id,
    as the session's creation answered them (``tokens.gm``, ``tokens.players``). ``path``
    holds the path parameters besides the session's id (a round's ``number``), ``status``
    the answer's status, and ``shows`` what the answer then holds (JSON pointer → value),
    for a step that demonstrates a rule (a round advancing by itself, say).
    """

    operation_id: str
    example: Example | None = None
    role: str = "gm"
    path: Mapping[str, str | int] = field(default_factory=dict)
    status: int = 200
    shows: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class ExamplePlay:
    """A session played from its creation, each request a published example, in an order
    the rules accept: how a ruleset shows its session operations' examples working
    together, and what the host's tests replay against the real app.

    ``create`` is an example of ``create_operation``, which answers 201 with the session's
    ``id`` (the one path parameter a step leaves unnamed) and its ``tokens``. Dice that
    decide what a later step may do are the table's (``faces``), so the play is valid
    whatever the server rolls.
    """

    summary: str
    create_operation: str
    create: Example
    steps: tuple[PlayStep, ...]


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
    (``/v1/<id>``; Bullseye keeps its first published prefix, ``/v1``). ``stateful`` names
    the kinds of session it keeps in Redis. ``links``: OpenAPI links keyed by the
    operation id they start from. ``work`` is the game text it implements; ``source`` cites
    it in one line. ``schema_prefix`` starts the published name of every schema only this
    ruleset uses (``OpenD6RollRequest``), so generated clients keep games apart;
    Bullseye's is empty (it keeps the names it was first published with).

    Every operation with a request body publishes at least one example, and the host's
    tests run every one of them: a stateless operation's are listed in ``examples``
    (operation id → the examples it publishes), a session operation's appear in
    ``plays``, which create a session and act on it in order (:class:`ExamplePlay`).
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
    examples: Mapping[str, Sequence[Example]] = field(default_factory=dict)
    plays: tuple[ExamplePlay, ...] = ()
    stateful: tuple[str, ...] = ()
    links: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def examples_run(self) -> dict[str, list[Example]]:
        """Every example the host's tests run, by operation id: ``examples`` and each play's
        creation and steps — exactly what the operations must publish."""
        found: dict[str, list[Example]] = {op: list(items) for op, items in self.examples.items()}
        for play in self.plays:
            found.setdefault(play.create_operation, []).append(play.create)
            for step in play.steps:
                if step.example is not None:
                    found.setdefault(step.operation_id, []).append(step.example)
        return found

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
