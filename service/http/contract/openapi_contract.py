"""What the published document promises beyond Litestar's paths, so generated clients can
trust it: the headers every answer carries, who may call what, the statuses the shell
itself can answer with, and schemas shaped for client generators.

Applied once, to the whole document, so every ruleset's routes get the same treatment.
"""

from __future__ import annotations

import inspect
import json
from typing import TYPE_CHECKING, Any

import msgspec

from service.http.contract.preconditions import ENTITY_TAGS_PATTERN, PRECONDITION_HEADERS
from service.http.contract.problem_types import PROBLEM_TYPES, RETRY_AFTER

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = ["HEADERS", "complete_contract", "omits_defaults", "schema_refs", "unset_fields"]

_HEADER_REF = "#/components/headers/"
_SCHEMA_REF = "#/components/schemas/"
_PROBLEM = {"$ref": _SCHEMA_REF + "Problem"}

HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id: echoed from the request's own X-Request-ID "
        "(printable ASCII, at most 128 characters), or generated.",
        "schema": {"type": "string", "maxLength": 128},
    },
    "RateLimit-Limit": {
        "description": "Requests allowed per window (on /v1 answers when RATE_LIMIT is set).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Remaining": {
        "description": "Requests left in the current window (when RATE_LIMIT is set): exact "
        "for limits below 200 a window; above, the answering worker's estimate, which may lag "
        "what other workers leased since (up to 1 % of the limit each).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "Seconds until the window resets (when RATE_LIMIT is set).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "Retry-After": {
        "description": "Seconds to wait before retrying, on every answer a retry can cure: "
        "429 `rate-limited`, `too-many-sessions`, `too-many-session-streams`, "
        "`too-many-client-streams`; 503 `store-unavailable`, `state-store-full`, "
        "`too-many-streams`, `odds-busy`; "
        "409 `concurrent-update` (a lost compare-and-set) and `request-in-flight` (the "
        "Idempotency-Key's first request still running). A 409 a retry cannot cure (a rule "
        "conflict such as `wrong-round`, or `session-full`) carries none.",
        "schema": {"type": "integer", "minimum": 1},
    },
    "ETag": {
        "description": 'The session\'s version, as `"<version>"`: send it back as If-Match '
        "(act only on this version) or If-None-Match (304 while unchanged).",
        "schema": {"type": "string"},
    },
    "Server-Timing": {
        "description": "On odds answers, how they were served and how long it took, "
        '`odds;desc="<path>";dur=<milliseconds>`: `inline` (computed by the worker, within '
        "ODDS_INLINE_MS), `pool` (in its process pool) or `cache` (answered before).",
        "schema": {"type": "string", "examples": ['odds;desc="inline";dur=0.412']},
    },
    "Idempotent-Replayed": {
        "description": "`true` on an answer replayed for a retried Idempotency-Key: the first "
        "answer to that request, the change not applied again. Absent otherwise.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Location": {
        "description": "The path of the resource just created.",
        "schema": {"type": "string", "format": "uri-reference"},
    },
    "Cache-Control": {
        "description": "How long the answer may be kept: never (`no-store`) for an answer "
        "that carries a secret (a session's tokens, a stream ticket); the roll signing keys, "
        "5 minutes (`public, max-age=300`) when ROLL_SIGNING_KEYS configures them, else 10 s "
        "at most (generated keys: the set changes as replicas start).",
        "schema": {"type": "string"},
    },
}

# The statuses of the problems a retry can cure (service.http.contract.problem_types.RETRY_AFTER).
_RETRY_STATUSES = {str(PROBLEM_TYPES[code].status) for code in RETRY_AFTER}

_SHELL_STATUSES = {
    "401": "API_KEYS is set and the request carries none of them (`api-key-required`), or "
    "a session route's token is missing or wrong (`unauthorized`).",
    "429": "Rate limited (`rate-limited`, when RATE_LIMIT is set): retry after Retry-After.",
}
_SLOW_BODY = (
    "The body did not arrive within BODY_READ_TIMEOUT_SECONDS of the headers "
    "(`body-too-slow`); the connection is closed and nothing was applied."
)


def complete_contract(
    document: dict[str, Any], struct_types: Iterable[type[msgspec.Struct]], *, api_keys: bool
) -> None:
    """Complete ``document`` in place (``struct_types``: every Struct it publishes)."""
    components = document.setdefault("components", {})
    components["headers"] = HEADERS
    schemes = components.get("securitySchemes", {})
    if not api_keys:
        # Optional, so declared once for the document: openapi-python-client makes any
        # operation with its own security list demand an AuthenticatedClient.
        document["security"] = [{}, {"apiKey": []}, {"apiKeyBearer": []}]
    for path, method, operation in _operations_by_method(document):
        if method == "head":  # as the GET, without a body
            for response in operation["responses"].values():
                response.pop("content", None)
        if path.startswith("/v1/"):
            security = _security(operation.get("security", []), schemes, api_keys)
            if security:
                operation["security"] = security
            for status, description in _SHELL_STATUSES.items():
                operation["responses"].setdefault(status, _problem(description, operation))
        elif not api_keys:
            operation["security"] = []  # health, problems: never a key
        if "requestBody" in operation:
            operation["responses"].setdefault("408", _problem(_SLOW_BODY, operation))
        _declare_headers(operation, limited=path.startswith("/v1/"))
        _plain_optional_parameters(operation)
        _entity_tag_parameters(operation)
        for key in ("summary", "description"):
            if key in operation:
                operation[key] = _clean(operation[key])
    schemas = components.get("schemas", {})
    _type_enums(schemas)
    _shape_defaults(document, schemas, omits_defaults(struct_types), unset_fields(struct_types))


def _operations(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for path, _, operation in _operations_by_method(document):
        yield path, operation


def _operations_by_method(
    document: dict[str, Any],
) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield path, method, operation


def _problem(description: str, operation: dict[str, Any]) -> dict[str, Any]:
    """A problem answer the shell adds to ``operation``, in the schema of the operation's
    own problems (one error type per operation in a generated client)."""
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": _problem_schema(operation)}},
    }


def _problem_schema(operation: dict[str, Any]) -> dict[str, Any]:
    schemas = {
        json.dumps(content["schema"], sort_keys=True)
        for response in operation["responses"].values()
        if (content := response.get("content", {}).get("application/problem+json"))
    }
    if len(schemas) > 1:
        raise RuntimeError(f"{operation.get('operationId')}: problems in several schemas")
    return json.loads(schemas.pop()) if schemas else _PROBLEM


def _security(
    declared: list[dict[str, list[str]]], schemes: dict[str, Any], api_keys: bool
) -> list[dict[str, list[str]]]:
    """Per operation: the session token it needs (if any), with an API key when the
    deployment sets API_KEYS; without keys, none of its own (the document's optional one)."""
    tokens = [requirement for requirement in declared if requirement]
    anonymous = {} in declared  # e.g. an event stream opened with a ticket instead
    if not api_keys:
        return [*tokens, *([{}] if anonymous else [])] if tokens else []
    if not tokens:
        return [{"apiKey": []}, {"apiKeyBearer": []}]
    with_key = [{"apiKey": [], **token} for token in tokens]
    # A bearer API key leaves the Authorization header taken: pair it with header tokens.
    header_tokens = [
        token for token in tokens if all(schemes.get(n, {}).get("in") == "header" for n in token)
    ]
    with_bearer = [{"apiKeyBearer": [], **token} for token in header_tokens]
    keys_only: list[dict[str, list[str]]] = (
        [{"apiKey": []}, {"apiKeyBearer": []}] if anonymous else []
    )
    return [*with_key, *with_bearer, *keys_only]


def _declare_headers(operation: dict[str, Any], *, limited: bool) -> None:
    responses = operation["responses"]
    etag = any("ETag" in r.get("headers", {}) for s, r in responses.items() if s < "3")
    keyed = any(p.get("name") == "Idempotency-Key" for p in operation.get("parameters", []))
    for status, response in responses.items():
        headers = response.setdefault("headers", {})
        names = ["X-Request-ID", *headers]
        if keyed and status[:1] in "24":  # what a retried key replays: an answer or refusal
            names.append("Idempotent-Replayed")
        if limited:
            names += ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]
        if status in _RETRY_STATUSES:
            names.append("Retry-After")
        if etag and (status < "3" or status == "304"):
            names.append("ETag")
        for name in dict.fromkeys(names):
            headers[name] = {"$ref": _HEADER_REF + name} if name in HEADERS else headers[name]


def _entity_tag_parameters(operation: dict[str, Any]) -> None:
    """If-Match and If-None-Match hold `*` or entity-tags: said as a pattern, which the
    service checks itself (a 400 `invalid-precondition` that says tags are quoted)."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "header" and parameter["name"] in PRECONDITION_HEADERS:
            parameter["schema"].update(
                pattern=ENTITY_TAGS_PATTERN,
                examples=['"3"', '"3", W/"4"', "*"],
                description="A list of entity-tags (each quoted, weak ones after `W/`, "
                "separated by commas) or `*`: " + parameter["schema"].get("description", ""),
            )


def _plain_optional_parameters(operation: dict[str, Any]) -> None:
    """An optional parameter is simply absent: ``str | None`` is published as ``string``
    (generated clients otherwise offer to send a null header)."""
    for parameter in operation.get("parameters", []):
        schema = parameter.get("schema", {})
        variants = schema.get("oneOf") or schema.get("anyOf")
        if parameter.get("required") or not variants:
            continue
        kept = [variant for variant in variants if variant.get("type") != "null"]
        if len(kept) == 1:
            extra = {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf")}
            parameter["schema"] = {**kept[0], **extra}


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def _type_enums(schemas: dict[str, Any]) -> None:
    """``enum`` with its ``type``, which msgspec leaves out and some generators need."""
    for node in _nodes(schemas):
        values = node.get("enum")
        if not isinstance(values, list) or "type" in node:
            continue
        for kind, json_type in ((str, "string"), (bool, "boolean"), (int, "integer")):
            if all(type(value) is kind for value in values):
                node["type"] = json_type
                break


def schema_refs(node: Any) -> set[str]:
    """The component schemas ``node`` refers to, by name."""
    return {
        found["$ref"].removeprefix(_SCHEMA_REF)
        for found in _nodes(node)
        if isinstance(found.get("$ref"), str) and found["$ref"].startswith(_SCHEMA_REF)
    }


def _reachable(roots: set[str], schemas: dict[str, Any]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo.extend(schema_refs(schemas[name]))
    return seen


def omits_defaults(struct_types: Iterable[type[msgspec.Struct]]) -> set[str]:
    """Names of the published Structs that leave fields at their default out of answers."""
    infos = msgspec.inspect.multi_type_info(list(struct_types))
    found: set[str] = set()
    for info in _struct_infos(infos):
        if info.cls.__struct_config__.omit_defaults:
            found.add(info.cls.__name__)
    return found


def unset_fields(struct_types: Iterable[type[msgspec.Struct]]) -> dict[str, set[str]]:
    """By published Struct, the fields (as encoded) whose default is ``msgspec.UNSET``:
    left out of an answer until set, so never required."""
    infos = msgspec.inspect.multi_type_info(list(struct_types))
    found: dict[str, set[str]] = {}
    for info in _struct_infos(infos):
        # msgspec.inspect shows an UNSET default as an optional field with no default.
        unset = {
            f.encode_name
            for f in info.fields
            if not f.required
            and f.default is msgspec.NODEFAULT
            and f.default_factory is msgspec.NODEFAULT
        }
        if unset:
            found[info.cls.__name__] = unset
    return found


def _struct_infos(infos: Iterable[Any]) -> Iterator[msgspec.inspect.StructType]:
    seen: set[int] = set()
    todo = list(infos)
    while todo:
        info = todo.pop()
        if id(info) in seen:
            continue
        seen.add(id(info))
        if isinstance(info, msgspec.inspect.StructType):
            yield info
            todo.extend(field.type for field in info.fields)
        for attribute in ("item_type", "key_type", "value_type", "type"):
            if isinstance(nested := getattr(info, attribute, None), msgspec.inspect.Type):
                todo.append(nested)
        for attribute in ("types", "item_types"):
            todo.extend(getattr(info, attribute, ()) or ())


def _shape_defaults(
    document: dict[str, Any],
    schemas: dict[str, Any],
    omits: set[str],
    unset: dict[str, set[str]],
) -> None:
    """No schema an answer or a request reaches keeps a ``default``: openapi-typescript
    types a member with one as always present, openapi-python-client as maybe absent.

    A schema a request can reach states its defaults in words (its fields stay optional).
    A schema only answers reach lists every field as required, unless its Struct omits
    defaults (then a field at its default is left out: :func:`_left_out_at_default`), but
    for those left out until set (``unset``)."""
    requests: set[str] = set()
    answers: set[str] = set()
    for _, operation in _operations(document):
        requests |= schema_refs(operation.get("requestBody", {}))
        answers |= schema_refs(operation["responses"])
    requests = _reachable(requests, schemas)
    answers = _reachable(answers, schemas) - requests
    for name, schema in schemas.items():
        properties = schema.get("properties", {})
        if name in requests:
            for field in properties.values():
                if "default" in field:
                    default = json.dumps(field.pop("default"))
                    text = field.get("description", "").rstrip()
                    field["description"] = f"{text} Default: `{default}`.".lstrip()
        elif name in answers and name in omits:
            _left_out_at_default(properties)
        elif name in answers and properties:
            maybe_absent = unset.get(name, set())
            schema["required"] = [key for key in properties if key not in maybe_absent]
            for field in properties.values():
                field.pop("default", None)


def _left_out_at_default(properties: dict[str, Any]) -> None:
    """An answer field its Struct leaves out at its default stays optional, its default
    said in words; left out when it would be ``null``, it is never ``null`` (generated
    types then read ``pointer?: string``, not ``pointer?: string | null``)."""
    for field in properties.values():
        if "default" not in field:
            continue
        default = field.pop("default")
        variants = field.get("anyOf")
        if default is None and isinstance(variants, list):
            kept = [variant for variant in variants if variant.get("type") != "null"]
            extra = {key: value for key, value in field.items() if key != "anyOf"}
            field.clear()
            field.update(kept[0] if len(kept) == 1 else {"anyOf": kept}, **extra)
        said = "no value" if default is None else f"the value `{json.dumps(default)}`"
        text = field.get("description", "").rstrip()
        field["description"] = f"{text} Left out when it has {said}.".lstrip()


def _clean(text: str) -> str:
    """A docstring as Markdown: its indentation gone, reST's double backticks single."""
    return inspect.cleandoc(text).replace("``", "`")
