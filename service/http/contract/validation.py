"""Schema errors in the project's words: what was refused, where, and what is wanted.

msgspec stops at the first error and words it for a parser ("Expected `str` matching regex
'…' - at `$.base.code`"). Only when it raises (a body that decodes never comes here), this
module follows the error's path through the model's annotations, choosing a tagged union's
member by the tag in the decoded JSON, to the annotation that refused the value, and says
what that annotation wants: an enum's, Literal's or tag's allowed values, a pattern by its
alias's ``Meta`` (``description`` names the thing, ``examples`` show one), a bound or
length by its limits. Every ruleset's bodies are decoded by :mod:`service.http.contract.body`, so
every ruleset gets these words; query and path parameters get them too.

The codes (``errors[].code`` of an ``invalid-body`` problem): ``unknown-field``,
``missing-field``, ``wrong-type``, ``invalid-choice`` (enum, Literal, union tag),
``pattern-mismatch`` and ``out-of-range`` (a number's bounds, a string's or list's length).
"""

from __future__ import annotations

import enum
import itertools
import re
import types
from typing import Annotated, Any, Final, Literal, NewType, Union, get_args, get_origin

import msgspec
import structlog
from msgspec import Meta

from service.kernel.values import Value

__all__ = ["UNKNOWN", "InvalidBodyError", "Violation", "explain", "explain_parameter"]


class Violation(Value, frozen=True, kw_only=True):
    """One schema error: a stable ``code``, a JSON pointer at the offending member ("" for
    the whole body) and a sentence for a person."""

    code: str
    pointer: str
    detail: str


class InvalidBodyError(Exception):
    """A body that breaks its model's schema, explained."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.detail)
        self.violation = violation


class _Unknown(enum.Enum):
    UNKNOWN = "unknown"


UNKNOWN: Final = _Unknown.UNKNOWN
"""The value at a path when the JSON could not be read as builtins (or has no member)."""

# Where msgspec says the error is, at the end of its message. Searched for (a literal
# prefix sre finds fast) rather than matched after a lazy `^(.*?)`, which tried the suffix
# at every character: both linear, this one 10–100 times faster on a 64 KiB body's message
# (user text in it is escaped, up to six characters a character).
_AT = re.compile(
    r" - at (?:`(?P<path>\$[^`]*)`|`key` in `(?P<key_of>\$[^`]*)`)$",
    re.DOTALL,
)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_UNKNOWN_FIELD = re.compile(r"^Object contains unknown field `(?P<name>.*)`$", re.DOTALL)
_MISSING_FIELD = re.compile(r"^Object missing required field `(?P<name>.*)`$", re.DOTALL)
_CHOICE = re.compile(r"^Invalid (?:enum )?value ")
_BOUND = re.compile(r"^Expected `\w+` (?P<op>>=|<=|>|<) (?P<n>\S+)$")
_MULTIPLE = re.compile(r"^Expected `\w+` that's a multiple of (?P<n>\S+)$")
_LENGTH = re.compile(
    r"^Expected `(?P<kind>str|array|object|bytes)` of length (?:(?P<op>>=|<=) )?(?P<n>\d+)$"
)
_WRONG_TYPE = re.compile(r"^Expected `(?P<expected>[^`]+)`(?:, got `(?P<got>[^`]+)`)?$")
_ARTICLE = re.compile(r"^(?:An?) [^,:;.(]{1,60}")

_TYPE_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "number": "a number",
    "decimal": "a number",
    "str": "a string",
    "bool": "true or false",
    "null": "null",
    "array": "a list",
    "object": "an object",
    "datetime": "an RFC 3339 date-time",
    "date": "an RFC 3339 date",
    "time": "an RFC 3339 time",
    "uuid": "a UUID",
}
_GOT_WORDS = {"float": "a decimal number", "int": "a whole number"}
_UNITS = {"str": "character", "bytes": "byte", "array": "item", "object": "entry"}
_SHOWN = 40  # characters of a refused value quoted in a detail
_log = structlog.get_logger("service.errors")


def explain(model: Any, error: msgspec.ValidationError, document: Any = UNKNOWN) -> Violation:
    """Word ``error``, raised decoding ``model`` from ``document`` (the body as JSON
    builtins, or :data:`UNKNOWN` when it cannot be read as such)."""
    reason, path, in_key = _located(str(error))
    steps = [n or i for n, i in _STEP.findall(path[1:])]
    try:
        return _follow(_Walk(model, document), steps, in_key).explain(reason)
    except Exception:  # the words are a courtesy: a refused body must never become a 500
        _log.exception("schema_error_unexplained", reason=reason)
        return _follow(_Walk(Any, UNKNOWN), steps, in_key).explain(reason)


def _located(message: str) -> tuple[str, str, bool]:
    """msgspec's ``message`` as its reason, the path it ends with (``$`` when none) and
    whether the error is in a dict's key. The reason drops a final newline when there is no
    path (as ``$`` matches before one)."""
    if (at := _AT.search(message)) is None:
        return message.removesuffix("\n"), "$", False
    return message[: at.start()], at["path"] or at["key_of"], at["key_of"] is not None


def _follow(walk: _Walk, steps: list[str], in_key: bool) -> _Walk:
    """Walk msgspec's path (``in_key``: the error is in a key of the dict it ends at)."""
    for done, step in enumerate(steps):
        if not walk.step(step):
            # The annotations cannot follow (no JSON to choose a union's member by): the
            # path's names and indexes still point into the body, up to a dict's unnamed key.
            walk.tokens.extend(itertools.takewhile(lambda s: s != "...", steps[done:]))
            walk.annotation, walk.value = Any, UNKNOWN
            return walk
    if in_key:
        walk.key()
    return walk


def explain_parameter(reason: str, annotation: Any, value: Any = UNKNOWN) -> str:
    """The detail for a query, path or header parameter's msgspec ``reason`` (Litestar's
    message, without its path), said from the parameter's annotation."""
    try:
        return _Walk(annotation, value).explain(reason).detail
    except Exception:  # as in explain: plain words are a courtesy, never a 500
        _log.exception("parameter_error_unexplained", reason=reason)
        return _Walk(Any, UNKNOWN).explain(reason).detail


class _Walk:
    """Where the error's path has led so far: an annotation, the JSON there, its pointer."""

    def __init__(self, annotation: Any, value: Any) -> None:
        self.annotation = annotation
        self.value = value
        self.tokens: list[str] = []
        self.tag_choices: tuple[Any, ...] | None = None  # set when the step was a union's tag

    @property
    def pointer(self) -> str:
        return "".join(_join("", token) for token in self.tokens)

    def step(self, step: str) -> bool:
        """Follow one step of msgspec's path; False when the annotations cannot."""
        base, _ = _strip(self.annotation)
        if _is_union(base) or _is_struct(base):
            tagged = _tagged(base)
            if tagged and step == tagged[0]:  # a path ends at a tag only when it is refused
                self.tokens.append(step)
                self.tag_choices = tuple(tagged[1])
                self.value = _get(self.value, step)
                return True
            base = _strip(_member(base, self.value))[0] if _is_union(base) else base
        if _is_struct(base):
            fields = {f.encode_name: f for f in msgspec.structs.fields(base)}
            if step not in fields:
                return False
            self.annotation, self.value = fields[step].type, _get(self.value, step)
        elif (origin := get_origin(base)) in (list, tuple, set, frozenset) and step.isdigit():
            arguments = get_args(base)
            fixed = origin is tuple and not (len(arguments) == 2 and arguments[1] is Ellipsis)
            if fixed and int(step) >= len(arguments):
                return False
            self.annotation = arguments[int(step)] if fixed else arguments[0]
            self.value = _get(self.value, int(step))
        elif origin is dict and step == "...":
            key, value_type = _refused_item(base, self.value)
            if key is None:
                return False
            step, self.annotation, self.value = key, value_type, self.value[key]
        else:
            return False
        self.tokens.append(step)
        return True

    def key(self) -> None:
        """The error is in one of a dict's keys: go to the first key its type refuses."""
        base = _strip(self.annotation)[0]
        if get_origin(base) is dict and isinstance(self.value, dict):
            key_type = get_args(base)[0]
            for key in self.value:
                if not _accepts(key_type, key):
                    self.tokens.append(key)
                    self.annotation, self.value = key_type, key
                    return

    def explain(self, reason: str) -> Violation:
        pointer, value = self.pointer, self.value
        if self.tag_choices is not None:
            choices = _listed(self.tag_choices)
            if _CHOICE.match(reason):
                return Violation(
                    code="invalid-choice",
                    pointer=pointer,
                    detail=f"{_subject(value)} is not one of: {choices}.",
                )
            return Violation(
                code="wrong-type",
                pointer=pointer,
                detail=f"expected one of: {choices}{_got(value, ';')}.",
            )
        if field := _UNKNOWN_FIELD.match(reason):
            name = field["name"]
            return Violation(
                code="unknown-field",
                pointer=_join(pointer, name),
                detail=f"{_show(name)} is not a field here.",
            )
        if field := _MISSING_FIELD.match(reason):
            name = field["name"]
            base = _strip(self.annotation)[0]
            tagged = _tagged(base)
            detail = f"{_show(name)} is required"
            if tagged and tagged[0] == name:
                detail += f": one of {_listed(tagged[1])}"
            return Violation(
                code="missing-field", pointer=_join(pointer, name), detail=detail + "."
            )
        base, metas = _strip(self.annotation)
        if _is_union(base) and (member := _member(base, value)) is not None:
            base, more = _strip(member)
            metas = (*metas, *more)
        return Violation(
            code=_code(reason), pointer=pointer, detail=_detail(reason, base, metas, value)
        )


# ---- annotations ----


def _strip(annotation: Any) -> tuple[Any, tuple[Meta, ...]]:
    """The type under ``Annotated`` and ``NewType`` layers, and the Metas on the way."""
    metas: tuple[Meta, ...] = ()
    while True:
        if get_origin(annotation) is Annotated:
            arguments = get_args(annotation)
            metas = (*metas, *(m for m in arguments[1:] if isinstance(m, Meta)))
            annotation = arguments[0]
        elif isinstance(annotation, NewType):
            annotation = annotation.__supertype__
        else:
            return annotation, metas


def _is_union(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType)


def _is_struct(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, msgspec.Struct)


def _struct_tag(annotation: Any) -> tuple[str, Any] | None:
    if not _is_struct(annotation):
        return None
    config = annotation.__struct_config__
    return (config.tag_field, config.tag) if config.tag_field is not None else None


def _members(union: Any) -> list[Any]:
    """A union's members, with unions inside it (``Annotated[A | B, …] | None``) opened."""
    members = []
    for member in get_args(union):
        base = _strip(member)[0]
        members.extend(_members(base) if _is_union(base) else [member])
    return members


def _tagged(annotation: Any) -> tuple[str, list[Any]] | None:
    """A struct's or a union's tag field and its allowed tags, if it is tagged."""
    members = _members(annotation) if _is_union(annotation) else [annotation]
    tags = [t for m in members if (t := _struct_tag(_strip(m)[0])) is not None]
    if not tags:
        return None
    return tags[0][0], [tag for _, tag in tags]


def _kind(annotation: Any) -> str:
    """Which JSON kind an annotation decodes from: null, bool, int, float, str, array,
    object (or "" when it cannot tell)."""
    base = _strip(annotation)[0]
    if base is None or base is type(None):
        return "null"
    if _is_struct(base) or get_origin(base) is dict or base is dict:
        return "object"
    if get_origin(base) in (list, tuple, set, frozenset) or base in (list, tuple, set, frozenset):
        return "array"
    if get_origin(base) is Literal:
        return _value_kind(get_args(base)[0])
    if isinstance(base, type) and issubclass(base, enum.Enum):
        return _value_kind(next(iter(base)).value)
    if isinstance(base, type):
        for kind, python in (("bool", bool), ("int", int), ("float", float)):
            if issubclass(base, python):
                return kind
        return "str"
    return ""


def _value_kind(value: Any) -> str:
    for kind, python in (("null", type(None)), ("bool", bool), ("int", int), ("float", float)):
        if isinstance(value, python):
            return kind
    if isinstance(value, dict):
        return "object"
    return "array" if isinstance(value, list) else "str"


def _member(union: Any, value: Any) -> Any | None:
    """The union's member the JSON value was decoded as: by kind, then by tag."""
    members = [m for m in _members(union) if _kind(m) != "null"]
    if value is UNKNOWN:
        return members[0] if len(members) == 1 else None
    kind = _value_kind(value)
    fits = [m for m in members if _kind(m) == kind or (kind == "int" and _kind(m) == "float")]
    if kind == "object" and isinstance(value, dict):
        for member in fits:
            tag = _struct_tag(_strip(member)[0])
            if tag is not None and value.get(tag[0]) == tag[1]:
                return member
    return fits[0] if fits else None


def _get(value: Any, key: str | int) -> Any:
    if isinstance(key, str) and isinstance(value, dict):
        return value.get(key, UNKNOWN)
    if isinstance(key, int) and isinstance(value, list) and key < len(value):
        return value[key]
    return UNKNOWN


def _accepts(annotation: Any, value: Any) -> bool:
    try:
        msgspec.convert(value, annotation, strict=True)
    except msgspec.ValidationError:
        return False
    return True


def _refused_item(dict_type: Any, value: Any) -> tuple[str | None, Any]:
    """msgspec's path names no key inside a dict: the first item its type refuses."""
    value_type = get_args(dict_type)[1]
    if isinstance(value, dict):
        for key, item in value.items():
            if not _accepts(value_type, item):
                return key, value_type
    return None, value_type


def _choices(annotation: Any) -> list[Any] | None:
    if get_origin(annotation) is Literal:
        return list(get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return [member.value for member in annotation]
    return None


def _constraint(metas: tuple[Meta, ...], name: str) -> Any:
    """A constraint as msgspec applies it: the innermost Meta that sets it."""
    for meta in metas:
        if (value := getattr(meta, name, None)) is not None:
            return value
    return None


def _join(pointer: str, name: str) -> str:
    """``pointer`` extended by one member (RFC 6901 escapes ``~`` and ``/``)."""
    return pointer + "/" + name.replace("~", "~0").replace("/", "~1")


# ---- words ----


def _code(reason: str) -> str:
    if _UNKNOWN_FIELD.match(reason):
        return "unknown-field"
    if _MISSING_FIELD.match(reason):
        return "missing-field"
    if _CHOICE.match(reason):
        return "invalid-choice"
    if "` matching regex " in reason:
        return "pattern-mismatch"
    if reason == "Number out of range" or any(
        pattern.match(reason) for pattern in (_BOUND, _MULTIPLE, _LENGTH)
    ):
        return "out-of-range"
    return "wrong-type"


def _detail(reason: str, base: Any, metas: tuple[Meta, ...], value: Any) -> str:
    """The sentence for ``reason``, said from the annotation that raised it."""
    if _CHOICE.match(reason) and (choices := _choices(base)) is not None:
        return f"{_subject(value)} is not one of: {_listed(choices)}."
    if "` matching regex " in reason:
        return _pattern(metas, value)
    if _BOUND.match(reason) or reason == "Number out of range":
        limits = _range(
            _constraint(metas, "ge"),
            _constraint(metas, "le"),
            above=_constraint(metas, "gt"),
            below=_constraint(metas, "lt"),
        )
        if limits:
            return f"must be {limits}{_got(value)}."
    if (length := _LENGTH.match(reason)) and (
        limits := _range(_constraint(metas, "min_length"), _constraint(metas, "max_length"))
    ):
        return _length(length["kind"], limits, value)
    if _WRONG_TYPE.match(reason) and (choices := _choices(base)) is not None:
        return f"expected one of: {_listed(choices)}{_got(value, ';')}."
    return _plain(reason, value)


def _plain(reason: str, value: Any) -> str:
    """The sentence for ``reason`` from its own words (no annotation to say more)."""
    if _CHOICE.match(reason):
        return f"{reason.split(' ', 3)[-1] if value is UNKNOWN else _show(value)} is not allowed."
    if "` matching regex " in reason:
        return f"{_subject(value)} is not in the expected form."
    if multiple := _MULTIPLE.match(reason):
        return f"must be a multiple of {multiple['n']}{_got(value)}."
    if bound := _BOUND.match(reason):
        words = {">=": "at least", "<=": "at most", ">": "greater than", "<": "less than"}
        return f"must be {words[bound['op']]} {_number(bound['n'])}{_got(value)}."
    if length := _LENGTH.match(reason):
        words = {">=": "at least", "<=": "at most", "": "exactly"}
        return _length(length["kind"], f"{words[length['op'] or '']} {length['n']}", value)
    if reason == "Number out of range":
        return "the number is out of range."
    if wrong := _WRONG_TYPE.match(reason):
        expected = " or ".join(_TYPE_WORDS.get(t, f"`{t}`") for t in wrong["expected"].split(" | "))
        if value is not UNKNOWN:
            return f"expected {expected}, got {_show(value)}."
        if got := wrong["got"]:
            return f"expected {expected}, got {_GOT_WORDS.get(got) or _TYPE_WORDS.get(got, got)}."
        return f"expected {expected}."
    if reason.startswith("Invalid "):
        return f"not a valid {reason.removeprefix('Invalid ').split(' encoded ')[-1]}."
    return reason[:1].lower() + reason[1:] + ("" if reason.endswith(".") else ".")


def _length(kind: str, limits: str, value: Any) -> str:
    """ "must be at most 80 characters long, got 95", "must have at most 12 items"…"""
    unit = _UNITS[kind]
    plural = unit if limits.endswith(" 1") else ("entries" if unit == "entry" else unit + "s")
    got = f", got {len(value)}" if isinstance(value, (str, list, dict)) else ""
    if kind == "str":
        return f"must be {limits} {plural} long{got}."
    return f"must have {limits} {plural}{got}."


def _pattern(metas: tuple[Meta, ...], value: Any) -> str:
    """A pattern said by the alias's own Meta: its description names the thing ("A die
    code, …" → "a die code"), its examples show one; never the regular expression."""
    metas = tuple(sorted(metas, key=lambda m: m.pattern is None))  # the pattern's own first
    examples = next((m.examples for m in metas if m.examples), None)
    such_as = f" such as {examples[0]}" if examples else ""
    shown = _subject(value)
    for meta in metas:
        if meta.description and (noun := _ARTICLE.match(meta.description)):
            name = noun[0].strip()
            return f"{shown} is not {name[0].lower()}{name[1:]}{such_as}."
    return f"{shown} is not in the expected form{',' + such_as if such_as else ''}."


def _range(low: Any, high: Any, *, above: Any = None, below: Any = None) -> str:
    """ "between 1 and 12", "at least 0", "at most 20", "exactly 2", "greater than 0"…"""
    if low is not None and low == high:
        return f"exactly {_number(low)}"
    if low is not None and high is not None:
        return f"between {_number(low)} and {_number(high)}"
    lower = (
        f"at least {_number(low)}"
        if low is not None
        else (f"greater than {_number(above)}" if above is not None else "")
    )
    upper = (
        f"at most {_number(high)}"
        if high is not None
        else (f"less than {_number(below)}" if below is not None else "")
    )
    return " and ".join(part for part in (lower, upper) if part)


def _number(n: Any) -> str:
    if isinstance(n, str):
        n = float(n) if any(c in n for c in ".eE") else int(n)
    if isinstance(n, float) and n.is_integer():
        n = int(n)
    return str(n)


def _got(value: Any, separator: str = ",") -> str:
    return "" if value is UNKNOWN else f"{separator} got {_show(value)}"


def _subject(value: Any) -> str:
    return "the value" if value is UNKNOWN else _show(value)


def _listed(values: list[Any] | tuple[Any, ...]) -> str:
    return ", ".join(v if isinstance(v, str) else _show(v) for v in values)


def _show(value: Any) -> str:
    """A refused value as a detail quotes it: strings in single quotes, cut to 40."""
    if isinstance(value, str):
        return "'" + (value if len(value) <= _SHOWN else value[:_SHOWN] + "…") + "'"
    if value is None or isinstance(value, bool):
        return msgspec.json.encode(value).decode()
    if isinstance(value, (int, float)):
        text = msgspec.json.encode(value).decode()
        if len(text) <= 20:
            return text
        return f"{float(value):.6g}" if abs(value) < 1e300 else "a number this large"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "the value"
