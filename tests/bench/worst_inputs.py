"""``make bench-inputs``: every string a request carries, at its worst, through the real app.

For every operation with a JSON body, from each of its published examples (a session
operation's as its ruleset's example plays send them, in the state they expect), each
string member in turn — nested ones, list items, map keys, optional members and union
branches the examples leave out (filled in) — is replaced by adversarial strings at the
member's ``maxLength`` (without one, as long as the body limit allows): runs of each of
``.!?…`` and of whitespace before a letter, ``- at `$`` repeated, punctuation alternating
with spaces, scale labels and spaces, combining marks in falling class order, and so on
(:data:`WORST`). Then every free-text member of an example at once (where a cost per
member adds up), an unknown field in each object whose name fills the body, and as many
entries as fit in each map whose size the schema leaves open. Query and path parameters get
the same strings, the URL within 8 KiB. ``verifyReceipt`` also gets a genuine receipt with
the documents whose RFC 8785 form costs the most, as large as the body allows.

Each case goes through the app built as a served worker builds it (JSON logs, metrics
shared by workers, uvloop) against an embedded Redis (or ``REDIS_URL``), one request at a
time. Three times are printed: ``cpu ms``, the whole process's CPU (what the request costs:
the event loop and any thread it hands work to; not Redis, nor other processes sharing the
machine); ``loop ms``, the CPU of the event loop's thread alone (how long it could not
serve anyone else); ``wall ms``. ``length`` is the string's characters, or a map's or a
document's entries. The slowest case of each operation and the slowest members overall are
printed. The run fails when an answer is a 5xx or a case holds the event loop for more than
``--bound-ms`` (50 ms, see ``BOUND_MS``). A case over it, and the slowest of each member, is
run twice more and its fastest times kept.

    python -m tests.bench.worst_inputs                      every case
    python -m tests.bench.worst_inputs -o travelogueValidateBullseyes
    python -m tests.bench.worst_inputs --per-member 2       a sample: two strings a member
                                                            (all of them at once in free text)

Timings are a benchmark's, never a test's: tests/http/test_input_costs.py sends the same
cases and checks only the answers.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import itertools
import json
import math
import os
import re
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

if __name__ == "__main__":
    # Before the service is imported, as in a worker: metrics pick their storage at import.
    # Only when run: a test importing the cases must leave its process as it is.
    _METRICS = tempfile.TemporaryDirectory(prefix="worst-inputs-metrics-")
    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", _METRICS.name)
    os.environ.setdefault("LOG_FORMAT", "json")

import msgspec

from service.http.contract.registry import ExamplePlay
from tests.support.examples import PLAYS, operation_routes, step_request

__all__ = [
    "BOUND_MS",
    "WORST",
    "Case",
    "Member",
    "Reply",
    "Runner",
    "cases",
    "members",
    "receipt_cases",
]

# A request's bound, in CPU time of the event loop's thread: how long one request may keep
# a worker from serving the others. The costliest honest answers here (a 64 KiB body
# refused, a 20 000-character story counted) take a few milliseconds on the 2-core
# development machine, while a super-linear pass at these lengths takes from tens of
# milliseconds to seconds (the sentence pattern took 6 s, NFKC on runs of combining marks
# about 100 ms): ten times the honest worst leaves room for noise and still catches those.
# CPU time, because wall time on a shared machine also counts other processes' turns; the
# loop's thread, because work a handler hands to a thread (a costly set-up check, a receipt
# verified with large documents) still shows in ``cpu ms`` but no longer stops the loop.
BOUND_MS = 50.0
MAX_URL = 8192  # characters of a URL: the served app refuses a request head over 16 KiB

Json = Any
Where = tuple[str | int, ...]


# ---- the adversarial strings ----


def _cycle(unit: str, n: int) -> str:
    """``unit`` repeated and cut to ``n`` characters."""
    return (unit * (n // len(unit) + 1))[:n]


def _run_then(char: str, end: str) -> Callable[[int], str]:
    """A run of ``char``, then ``end``: what a pattern that retries inside a run needs."""
    return lambda n: char * max(0, n - len(end)) + end[: min(n, len(end))]


def _falling_marks(n: int) -> str:
    """A letter, then combining marks whose classes fall (230, then 220): NFKC reorders
    them by insertion, in time quadratic in the run."""
    half = (n - 1) // 2
    return ("a" + "\u0301" * half + "\u0316" * (n - 1 - half))[:n]


# name → the string of n characters. Each targets a pattern or a pass the audit found
# (docs/input-costs.md); the ordinary ones (letters, digits) give the honest worst case.
WORST: dict[str, Callable[[int], str]] = {
    "'.'×n then x": _run_then(".", "x"),
    "'!'×n then x": _run_then("!", "x"),
    "'?'×n then x": _run_then("?", "x"),
    "'…'×n then x": _run_then("…", "x"),
    "'.'×n": lambda n: "." * n,
    "spaces then x": _run_then(" ", "x"),
    "U+3000 then x": _run_then("\u3000", "x"),
    "newlines then x": _run_then("\n", "x"),
    "'. ' repeated": lambda n: _cycle(". ", n),
    "'.!?… ' repeated": lambda n: _cycle(".!?… ", n),
    "'.x' repeated": lambda n: _cycle(".x", n),
    "'a. ' repeated": lambda n: _cycle("a. ", n),
    "' - at `$.a' repeated": lambda n: _cycle(" - at `$.a", n),
    "' - at `key` in `$' repeated": lambda n: _cycle(" - at `key` in `$", n),
    "backticks": lambda n: "`" * n,
    '"parameter \'" repeated': lambda n: _cycle("parameter '", n),
    "label then spaces": lambda n: ("Not at all" + " " * n)[:n],
    "spaces then label": lambda n: (" " * n + "not very")[-n:],
    "'not very ' repeated": lambda n: _cycle("not very ", n),
    "'Extremely' repeated": lambda n: _cycle("Extremely", n),
    "digits": lambda n: "9" * n,
    "letters": lambda n: "a" * n,
    "combining marks, falling classes": _falling_marks,
    "U+0F73 repeated (marks only)": lambda n: "\u0f73" * n,
    "U+FDFA repeated (NFKC ×18)": lambda n: "\ufdfa" * n,
}
# An unknown field's name ends up in msgspec's message, which validation.py parses.
_FIELD_NAMES = (
    "letters",
    "' - at `$.a' repeated",
    "' - at `key` in `$' repeated",
    "backticks",
)


# ---- the members of a body, found by walking its schema beside an example ----


@dataclass(frozen=True)
class Member:
    """A place in a body where a string goes.

    ``body`` is the example the member's cases start from: a published one, or one with a
    branch of a union or an optional object it leaves out filled in (``synthetic``).
    ``kind``: ``value`` (the string at ``where``), ``absent`` (an optional string member
    the example leaves out), ``key`` (the key ``key`` of the map at ``where``),
    ``unknown-field`` (a new member of the object at ``where``), ``many-entries`` (the map
    at ``where``, filled with copies of its first entry), ``every`` (every free-text
    string of the example at once, in ``places``: where costs add up across members).
    ``label`` names the member in the schema's terms (list items ``*``, map values ``{}``,
    a union's branch by its tag in brackets), so that examples share it.
    """

    label: str
    body: Json = field(repr=False)
    where: Where
    kind: str
    max_length: int | None = None
    key: str | None = None
    synthetic: bool = False
    places: tuple[tuple[Where, int | None], ...] = ()
    free: bool = False  # a value any text of its length may fill (no enum, pattern, format)

    def build(self, make: Callable[[int], str], n: int) -> Json:
        """The body with ``make``'s string of ``n`` characters in this member (for
        ``every``, in each of its places, cut to the place's own maximum length)."""
        if self.kind != "every":
            return self.put(make(n))
        body = copy.deepcopy(self.body)
        for where, most in self.places:
            *path, last = where
            _at(body, tuple(path))[last] = make(n if most is None else min(n, most))
        return body

    def put(self, text: str) -> Json:
        """A copy of the body with ``text`` in this member."""
        body = copy.deepcopy(self.body)
        if self.kind in ("value", "absent"):
            *path, last = self.where
            _at(body, tuple(path))[last] = text
        elif self.kind == "key":
            holder = _at(body, self.where)
            items = list(holder.items())
            holder.clear()
            holder.update((text if key == self.key else key, value) for key, value in items)
        elif self.kind == "unknown-field":
            _at(body, self.where)[text] = True
        else:  # many-entries: only the text's length counts here
            holder = _at(body, self.where)
            first = next(iter(holder.values()))
            holder.clear()
            holder.update((f"k{i}", first) for i in range(len(text)))
        return body


def _at(body: Json, where: Where) -> Any:
    for step in where:
        body = body[step]
    return body


def _replaced(body: Json, where: Where, value: Json) -> Json:
    """A copy of ``body`` with ``value`` at ``where`` (a member, perhaps new; the body
    itself when ``where`` is empty)."""
    if not where:
        return copy.deepcopy(value)
    body = copy.deepcopy(body)
    *path, last = where
    _at(body, tuple(path))[last] = value
    return body


_KINDS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _kind(node: Json) -> str | None:
    kind: str | None = node.get("type", "object" if "properties" in node else None)
    return kind


class _Schemas:
    """The OpenAPI document's schemas, with ``$ref`` resolved and unions opened."""

    def __init__(self, document: Json) -> None:
        self.components = document.get("components", {}).get("schemas", {})

    def resolve(self, node: Json) -> Json:
        while isinstance(node, dict) and "$ref" in node:
            node = self.components[node["$ref"].rsplit("/", 1)[1]]
        return node if isinstance(node, dict) else {}

    def options(self, node: Json) -> list[Json] | None:
        """A union's members (nested unions opened), or None for a plain schema."""
        members = node.get("anyOf") or node.get("oneOf")
        if members is None:
            return None
        out: list[Json] = []
        for member in members:
            member = self.resolve(member)
            nested = self.options(member)
            out.extend([member] if nested is None else nested)
        return out

    def tag(self, node: Json) -> tuple[str, Any] | None:
        """An object schema's tag: the required member whose schema allows one value."""
        for name in node.get("required", ()):
            allowed = self.resolve(node.get("properties", {}).get(name, {})).get("enum")
            if allowed is not None and len(allowed) == 1:
                return name, allowed[0]
        return None

    def pick(self, options: list[Json], value: Json) -> Json | None:
        """The member of a union that ``value`` was written for: by kind, then by tag."""
        for option in options:
            kind = _kind(option)
            if kind is not None and not _KINDS[kind](value):
                continue
            tag = self.tag(option)
            if tag is not None and not (isinstance(value, dict) and value.get(tag[0]) == tag[1]):
                continue
            return option
        return None

    def string_option(self, node: Json) -> Json | None:
        """The schema of a string the member may hold, if it may hold one."""
        node = self.resolve(node)
        options = self.options(node)
        for option in [node] if options is None else options:
            if option.get("type") == "string":
                return option
        return None

    def full(self, node: Json, depth: int = 0) -> Json:
        """An instance of ``node`` with every member it may have (one item a list, one
        entry a map, a union's first branch that is not null), each string at a value
        its schema shows or allows: a body to reach what no example holds."""
        node = self.resolve(node)
        options = self.options(node)
        if options is not None:
            return self.full(next(o for o in options if _kind(o) != "null"), depth)
        kind = _kind(node)
        if kind == "string":
            if "enum" in node:
                return node["enum"][0]
            if node.get("examples"):
                return node["examples"][0]
            return "x" * max(1, node.get("minLength", 1))
        if kind in ("integer", "number"):
            return node.get("minimum", 0)
        if kind == "boolean":
            return False
        if kind == "array":
            return [] if depth > 6 else [self.full(node.get("items", {}), depth + 1)]
        if kind == "object" and depth <= 6:
            value = {
                name: self.full(p, depth + 1) for name, p in node.get("properties", {}).items()
            }
            extra = node.get("additionalProperties")
            if not value and extra is not None and extra is not False:
                value["k"] = "x" if extra is True else self.full(extra, depth + 1)
            return value
        return None


EVERY = "(every string at once)"


def members(document: Json, schema: Json, example: Json) -> list[Member]:
    """Every string member of ``example`` (a body) under ``schema``, then those only a
    union's other branches or the optional objects it leaves out hold; each label once."""
    found: dict[str, Member] = {}
    walked = list(_walk(_Schemas(document), schema, example, example, (), "", False))
    for member in sorted(walked, key=lambda m: m.synthetic):
        found.setdefault(member.label, member)
    # Only free text: one string the schema refuses would stop the body before the rules.
    places = tuple((m.where, m.max_length) for m in walked if m.free and not m.synthetic)
    if len(places) > 1:
        found[EVERY] = Member(EVERY, example, (), "every", places=places)
    return list(found.values())


def _walk(
    schemas: _Schemas,
    node: Json,
    value: Json,
    body: Json,
    where: Where,
    label: str,
    synthetic: bool,
) -> Iterator[Member]:
    """The members of ``value``, at ``where`` in ``body``, under ``node``."""
    node = schemas.resolve(node)
    options = schemas.options(node)
    if options is not None:
        chosen = schemas.pick(options, value)
        if chosen is None:
            return
        tag = schemas.tag(chosen)
        yield from _walk(
            schemas, chosen, value, body, where, label + (f"[{tag[1]}]" if tag else ""), synthetic
        )
        if synthetic and label.count("[") > 3:
            return
        for other in options:  # the other branches, each filled in whole
            other_tag = schemas.tag(other)
            if other is chosen or _kind(other) == "null":
                continue
            if other_tag is None and _kind(other) == _kind(chosen):
                continue  # the same kind untagged: nothing new to reach
            instance = schemas.full(other)
            yield from _walk(
                schemas,
                other,
                instance,
                _replaced(body, where, instance),
                where,
                label + (f"[{other_tag[1]}]" if other_tag else ""),
                True,
            )
        return
    if isinstance(value, str):
        free = not any(word in node for word in ("enum", "pattern", "format"))
        yield Member(
            label or "/", body, where, "value", node.get("maxLength"), None, synthetic, free=free
        )
    elif isinstance(value, list):
        items = node.get("items", {})
        for index, item in enumerate(value):
            yield from _walk(schemas, items, item, body, (*where, index), label + "/*", synthetic)
        if not value and where and (item := schemas.full(items)) is not None:  # one, filled in
            yield from _walk(
                schemas, node, [item], _replaced(body, where, [item]), where, label, True
            )
    elif isinstance(value, dict):
        yield from _object(schemas, node, value, body, where, label, synthetic)


def _object(
    schemas: _Schemas,
    node: Json,
    value: Json,
    body: Json,
    where: Where,
    label: str,
    synthetic: bool,
) -> Iterator[Member]:
    properties: dict[str, Json] = node.get("properties", {})
    extra = node.get("additionalProperties")
    is_map = extra is not None and extra is not False
    if is_map and value:
        names = schemas.resolve(node.get("propertyNames", {}))
        if "maxProperties" not in node:
            yield Member(
                label + "/{many entries}", body, where, "many-entries", synthetic=synthetic
            )
        for key in value:
            yield Member(
                label + "/{key}", body, where, "key", names.get("maxLength"), key, synthetic
            )
    for name, item in value.items():
        if name in properties:
            yield from _walk(
                schemas, properties[name], item, body, (*where, name), f"{label}/{name}", synthetic
            )
        elif is_map:
            yield from _walk(
                schemas,
                {} if extra is True else extra,
                item,
                body,
                (*where, name),
                label + "/{}",
                synthetic,
            )
    for name, schema in properties.items():
        if name in value:
            continue
        at = (*where, name)
        if (text := schemas.string_option(schema)) is not None:
            yield Member(
                f"{label}/{name}", body, at, "absent", text.get("maxLength"), None, synthetic
            )
            continue
        instance = schemas.full(schema)
        if isinstance(instance, (dict, list)) and instance:  # filled in whole
            yield from _walk(
                schemas,
                schema,
                instance,
                _replaced(body, at, instance),
                at,
                f"{label}/{name}",
                True,
            )
    if not is_map:
        yield Member(label + "/{unknown field}", body, where, "unknown-field", synthetic=synthetic)


# ---- cases ----


@dataclass(frozen=True)
class Case:
    """One request: ``worst`` (a :data:`WORST` name) of ``length`` characters in ``member``.
    ``at`` is (play, step) for a session operation: the case is sent in the state that
    step of that example play is sent in, to its URL, with its role's token."""

    operation: str
    member: str
    worst: str
    length: int
    method: str
    url: str
    body: bytes | None
    at: tuple[int, int] | None = None


def _fitted(build: Callable[[int], Json], length: int, limit: int) -> tuple[bytes, int] | None:
    """The body ``build(n)`` for the largest ``n ≤ length`` that keeps it within ``limit``
    bytes, and that ``n``."""
    base = len(msgspec.json.encode(build(0)))
    n = length
    while n >= 1:
        body = msgspec.json.encode(build(n))
        if len(body) <= limit:
            return body, n
        per_character = (len(body) - base) / n
        n = min(n - 1, int((limit - base) / per_character))
    return None


def _chosen(names: list[str], index: int, per_member: int | None) -> list[str]:
    """All of ``names``, or ``per_member`` of them taken in turn across members (so that a
    sample still sends every string somewhere)."""
    if per_member is None or per_member >= len(names):
        return names
    return [names[(index * per_member + j) % len(names)] for j in range(per_member)]


def _member_cases(
    operation: str,
    member: Member,
    method: str,
    url: str,
    limit: int,
    index: int,
    per_member: int | None,
    at: tuple[int, int] | None = None,
) -> Iterator[Case]:
    length = limit if member.max_length is None else member.max_length
    if member.kind == "every":
        length = max((most or limit for _, most in member.places), default=limit)
    if member.kind == "many-entries":
        # Copies of the first entry under keys k0, k1…: as many as the body holds.
        fitted = _fitted(lambda n: member.put("x" * n), limit, limit)
        if fitted is not None:
            yield Case(operation, member.label, "entries", fitted[1], method, url, fitted[0], at)
        return
    names = list(_FIELD_NAMES if member.kind == "unknown-field" else WORST)
    # A sample still sends every string to all free text at once: where the rules read it.
    for name in names if member.kind == "every" else _chosen(names, index, per_member):
        make = WORST[name]
        fitted = _fitted(lambda n, make=make: member.build(make, n), length, limit)
        if fitted is not None:
            body, n = fitted
            yield Case(operation, member.label, name, n, method, url, body, at)


def _request_schema(document: Json, method: str, path: str) -> tuple[Json, list[Json]] | None:
    """An operation's JSON body schema and its published examples' values."""
    path = re.sub(r"\{(\w+):\w+\}", r"{\1}", path)  # Litestar's {id:str} is OpenAPI's {id}
    operation = document["paths"].get(path, {}).get(method.lower(), {})
    content = operation.get("requestBody", {}).get("content", {}).get("application/json")
    if content is None:
        return None
    examples = [e["value"] for e in content.get("examples", {}).values() if "value" in e]
    return content.get("schema", {}), examples


def cases(document: Json, limit: int, per_member: int | None = None) -> Iterator[Case]:
    """Every case of every operation: stateless ones first, then each session operation's
    in its plays' order (so that the sessions they need advance step by step), then every
    query and path parameter's. A member found in a published example is sent from it
    rather than from a filled-in one."""
    routes = operation_routes()
    counter = iter(range(1_000_000))
    found: list[tuple[str, tuple[int, int] | None, Member]] = []
    session_operations: dict[str, tuple[int, int]] = {}  # → the first step sending it
    for play_index, (_, play) in enumerate(PLAYS):
        for step_index, step in enumerate(play.steps):
            if step.example is not None:
                at = (play_index, step_index)
                session_operations.setdefault(step.operation_id, at)
                schema = _request_schema(document, *routes[step.operation_id])
                assert schema is not None, step.operation_id
                found += [
                    (step.operation_id, at, m)
                    for m in members(document, schema[0], step.example.value)
                ]
    for operation, (method, path) in sorted(routes.items()):
        schema = _request_schema(document, method, path)
        if schema is None:
            continue
        # A session operation's examples no play sends: in the state of its first step.
        at = session_operations.get(operation)
        found += [(operation, at, m) for e in schema[1] for m in members(document, schema[0], e)]

    chosen: dict[tuple[str, str], tuple[tuple[int, int] | None, Member]] = {}
    # Published examples before filled-in ones; of "every string at once", the example
    # with the most strings.
    for operation, at, member in sorted(found, key=lambda f: (f[2].synthetic, -len(f[2].places))):
        chosen.setdefault((operation, member.label), (at, member))
    # Stateless first; then by play and step.
    order = sorted(chosen.items(), key=lambda c: (c[1][0] is not None, c[1][0] or (0, 0)))
    for (operation, _), (at, member) in order:
        method, path = routes[operation]
        url = "" if at is not None else path
        yield from _member_cases(
            operation, member, method, url, limit, next(counter), per_member, at
        )
    yield from _parameter_cases(document, per_member, counter)


# Documents a receipt's digests put in RFC 8785 form at their costliest, by name: n items.
_DOCUMENTS: dict[str, Callable[[int], Json]] = {
    "floats": lambda n: {"x": [0.5] * n},
    "integers past 2^53": lambda n: {"x": [2**60] * n},
    "keys beyond U+FFFF": lambda n: {f"\U0001f600{i}": 0 for i in range(n)},
    "U+1F600 and small objects": lambda n: {"x": ["\U0001f600", *[{"a": 1}] * n]},
}


def receipt_cases(limit: int, receipt: str, answer: Json, request: Json) -> Iterator[Case]:
    """``verifyReceipt`` behind a genuine signature (``receipt`` signs ``answer`` and
    ``request``), so that the digests are computed: its answer, then its request, replaced
    by each of :data:`_DOCUMENTS` as large as the body allows."""
    for member in ("answer", "request"):
        for name, make in _DOCUMENTS.items():

            def build(n: int, member: str = member, make: Callable[[int], Json] = make) -> Json:
                return {"receipt": receipt, "answer": answer, "request": request, member: make(n)}

            fitted = _fitted(build, limit, limit)
            if fitted is not None:
                label = f"/{member} (a genuine receipt)"
                path = "/v1/receipts/verify"
                yield Case("verifyReceipt", label, name, fitted[1], "POST", path, fitted[0])


def _parameter_cases(
    document: Json, per_member: int | None, counter: Iterator[int]
) -> Iterator[Case]:
    """Each path and query parameter in turn, the others at an example value."""
    for path, operations in sorted(document["paths"].items()):
        for method, operation in operations.items():
            if not isinstance(operation, dict) or method == "head":
                continue
            parameters = [
                p for p in operation.get("parameters", []) if p["in"] in ("path", "query")
            ]
            for parameter in parameters:
                others = {p["name"]: _example_value(p) for p in parameters if p is not parameter}
                schema = parameter.get("schema", {})
                length = min(schema.get("maxLength", MAX_URL), MAX_URL)
                names = _chosen(list(WORST), next(counter), per_member)
                for name in names:
                    url_of = _url_maker(path, parameter, others)
                    n = length
                    while n >= 1 and len(url_of(WORST[name](n))) > MAX_URL:
                        n = n * MAX_URL // len(url_of(WORST[name](n))) - 1
                    if n >= 1:
                        yield Case(
                            operation.get("operationId", f"{method} {path}"),
                            f"{parameter['in']} {parameter['name']}",
                            name,
                            n,
                            method.upper(),
                            url_of(WORST[name](n)),
                            None,
                        )


def _example_value(parameter: Json) -> str:
    schema = parameter.get("schema", {})
    if examples := schema.get("examples"):
        return str(examples[0])
    return "1" if schema.get("type") == "integer" else "0" * 32


def _url_maker(path: str, parameter: Json, others: dict[str, str]) -> Callable[[str], str]:
    def url(text: str) -> str:
        values = {**others, parameter["name"]: text}
        filled = path
        query: dict[str, str] = {}
        for name, value in values.items():
            if "{" + name + "}" in filled:
                filled = filled.replace("{" + name + "}", urllib.parse.quote(value, safe=""))
            else:
                query[name] = value
        return filled + ("?" + urllib.parse.urlencode(query) if query else "")

    return url


# ---- running them ----


@dataclass(frozen=True)
class Reply:
    """An answer: status, media type, body; the seconds it took, and the seconds of CPU it
    took, of the whole process and of the event loop's thread alone (0 when not measured)."""

    status: int
    content_type: str
    body: bytes
    seconds: float
    cpu_seconds: float = 0.0
    loop_cpu_seconds: float = 0.0


Send = Callable[[str, str, bytes | None, dict[str, str]], Awaitable[Reply]]


@dataclass
class _Session:
    created: Json
    next_step: int = 0
    changed: bool = False


@dataclass
class Runner:
    """Sends cases through ``send``; a session operation's in the state its play's step
    expects, replaying the play on a new session when a case changed the state."""

    send: Send
    sessions: dict[int, _Session] = field(default_factory=dict)
    routes: dict[str, tuple[str, str]] = field(default_factory=operation_routes)

    async def run(self, case: Case) -> Reply:
        url, headers = case.url, {}
        if case.at is not None:
            play_index, step_index = case.at
            play = PLAYS[play_index][1]
            session = await self._session_at(play_index, play, step_index)
            _, url, headers = step_request(play.steps[step_index], session.created, self.routes)
        reply = await self.send(case.method, url, case.body, headers)
        if case.at is not None and 200 <= reply.status < 300:
            self.sessions[case.at[0]].changed = True
        return reply

    async def _session_at(self, play_index: int, play: ExamplePlay, step_index: int) -> _Session:
        session = self.sessions.get(play_index)
        if session is None or session.changed or session.next_step > step_index:
            method, path = self.routes[play.create_operation]
            body = msgspec.json.encode(play.create.value)
            created = await self.send(method, path, body, {})
            assert created.status == 201, (play.summary, created.status, created.body[:300])
            session = self.sessions[play_index] = _Session(json.loads(created.body))
        while session.next_step < step_index:
            step = play.steps[session.next_step]
            method, url, headers = step_request(step, session.created, self.routes)
            body = None if step.example is None else msgspec.json.encode(step.example.value)
            reply = await self.send(method, url, body, headers)
            assert reply.status == step.status, (play.summary, session.next_step, reply.body[:300])
            session.next_step += 1
        return session


# ---- the benchmark ----


@dataclass
class _Timed:
    """A case's times, each the fastest of its runs: CPU of the whole process (what it
    costs), of the event loop's thread (what the bound holds), wall clock."""

    case: Case
    reply: Reply
    ms: float
    loop_ms: float
    wall_ms: float

    def add(self, reply: Reply) -> None:
        self.ms = min(self.ms, reply.cpu_seconds * 1e3)
        self.loop_ms = min(self.loop_ms, reply.loop_cpu_seconds * 1e3)
        self.wall_ms = min(self.wall_ms, reply.seconds * 1e3)


def _table(rows: list[_Timed], title: str) -> list[str]:
    lines = [
        title,
        f"  {'operation':30} {'member':38} {'slowest case':34} "
        f"{'length':>6} {'status':>6} {'cpu ms':>7} {'loop ms':>7} {'wall ms':>7}",
    ]
    for row in rows:
        case = row.case
        lines.append(
            f"  {case.operation[:30]:30} {case.member[:38]:38} {case.worst[:34]:34} "
            f"{case.length:6} {row.reply.status:6} {row.ms:7.2f} {row.loop_ms:7.2f} "
            f"{row.wall_ms:7.2f}"
        )
    return lines


async def _signed_check(send: Send, document: Json) -> tuple[str, Json, Json]:
    """A receipt, the answer it signs and the request: ``resolveCheck``'s first example."""
    request = {**_request_schema(document, "POST", "/v1/checks")[1][0], "receipt": True}  # type: ignore[index]
    reply = await send("POST", "/v1/checks", msgspec.json.encode(request), {})
    assert reply.status == 200, reply.body[:300]
    answer = json.loads(reply.body)
    return answer["receipt"], answer, request


async def _measure(
    arguments: argparse.Namespace,
    send: Send,
    document: Json,
    limit: int,
    signed: tuple[str, Json, Json],
) -> list[_Timed]:
    """Every case (of the chosen operations), timed. A case over the bound, and the slowest
    case of each member, is run twice more and its fastest time kept: a pause of the whole
    process (a full collection, another thread's work) lands on one run, not on three."""
    runner = Runner(send)
    chosen = set(arguments.operation or ())
    results: list[_Timed] = []

    async def again(row: _Timed) -> None:
        for _ in range(2):
            row.add(await runner.run(row.case))

    for case in itertools.chain(
        cases(document, limit, arguments.per_member), receipt_cases(limit, *signed)
    ):
        if chosen and case.operation not in chosen:
            continue
        reply = await runner.run(case)
        row = _Timed(case, reply, math.inf, math.inf, math.inf)
        row.add(reply)
        if row.loop_ms > arguments.bound_ms:
            await again(row)
        results.append(row)
    for row in _slowest_by(results, lambda c: (c.operation, c.member)).values():
        await again(row)
    return results


def _slowest_by(rows: list[_Timed], key: Callable[[Case], Any]) -> dict[Any, _Timed]:
    slowest: dict[Any, _Timed] = {}
    for row in rows:
        k = key(row.case)
        if k not in slowest or row.ms > slowest[k].ms:
            slowest[k] = row
    return slowest


async def main(arguments: argparse.Namespace) -> int:
    from service.app import create_app, published_openapi
    from service.embedded_redis import EmbeddedRedis
    from service.settings import Settings
    from tests.bench.profile import Driver

    with ExitStack() as stack:
        if not os.environ.get("REDIS_URL"):
            os.environ["REDIS_URL"] = stack.enter_context(EmbeddedRedis())
        real_stderr = sys.stderr
        # Put back however this ends; the request log goes nowhere meanwhile.
        stack.callback(setattr, sys, "stderr", real_stderr)
        sys.stderr = stack.enter_context(open(os.devnull, "w"))
        settings = Settings.from_env()
        document = json.loads(published_openapi(settings))
        driver = Driver(create_app(settings, worker=True))
        stop = await driver.start()

        async def send(method: str, url: str, body: bytes | None, headers: dict[str, str]) -> Reply:
            encoded = [(k.lower().encode(), v.encode()) for k, v in headers.items()]
            started, cpu, loop_cpu = time.perf_counter(), time.process_time(), time.thread_time()
            status, answer_headers, answer = await asyncio.wait_for(
                driver.exchange(method, url, body, encoded), 30
            )
            took, cpu = time.perf_counter() - started, time.process_time() - cpu
            loop_cpu = time.thread_time() - loop_cpu  # this thread runs the event loop
            media = dict(answer_headers).get(b"content-type", b"").decode()
            return Reply(status, media.split(";")[0], answer, took, cpu, loop_cpu)

        started = time.perf_counter()
        signed = await _signed_check(send, document)
        results = await _measure(arguments, send, document, settings.max_body_bytes, signed)
        elapsed = time.perf_counter() - started
        await stop()

    operations = {r.case.operation for r in results}
    slowest_member = _slowest_by(results, lambda c: (c.operation, c.member))
    slowest_operation = _slowest_by(list(slowest_member.values()), lambda c: c.operation)
    failures = [r for r in results if r.reply.status >= 500]
    over = [r for r in results if r.loop_ms > arguments.bound_ms]
    print(
        f"worst inputs: {len(results)} cases, {len(slowest_member)} members of "
        f"{len(operations)} operations, in {elapsed:.1f} s; body limit "
        f"{settings.max_body_bytes} bytes, bound {arguments.bound_ms:g} ms of the event loop's "
        "CPU a request"
    )
    by_time = sorted(slowest_operation.values(), key=lambda r: -r.ms)
    print("\n".join(_table(by_time, "slowest case of each operation:")))
    top = sorted(slowest_member.values(), key=lambda r: -r.ms)[: arguments.top]
    print("\n".join(_table(top, f"the {len(top)} slowest members:")))
    if failures:
        print("\n".join(_table(failures[:20], f"{len(failures)} answers were 5xx:")))
    if over:
        print("\n".join(_table(over[:20], f"{len(over)} cases over {arguments.bound_ms:g} ms:")))
    print("OK" if not failures and not over else "FAILED")
    return 1 if failures or over else 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--operation", action="append", help="one operation id (repeatable)")
    parser.add_argument(
        "--bound-ms", type=float, default=BOUND_MS, help="loop CPU ms a request may take"
    )
    parser.add_argument(
        "--per-member", type=int, default=None, help="strings per member (a sample)"
    )
    parser.add_argument("--top", type=int, default=15, help="slowest members to print")
    return parser.parse_args()


if __name__ == "__main__":
    try:
        import uvloop
    except ImportError:  # the servers' default loop when it is installed
        sys.exit(asyncio.run(main(_arguments())))
    else:
        sys.exit(uvloop.run(main(_arguments())))
