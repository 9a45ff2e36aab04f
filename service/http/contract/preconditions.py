"""``If-Match`` and ``If-None-Match`` as RFC 9110 §13.1.1 and §13.1.2 read them: ``*``, or a
list of entity-tags (``"1", W/"2"``), each quoted.

``If-Match`` compares strongly (a weak tag never matches) and ``*`` matches any session
that exists; ``If-None-Match`` compares weakly (``W/"3"`` matches version 3) and ``*``
matches any. A session's entity-tag is its version, quoted (``"3"``), always strong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from service.kernel.errors import Concern, RulesError

__all__ = ["ENTITY_TAGS_PATTERN", "PRECONDITION_HEADERS", "EntityTags", "entity_tags", "etag"]

# entity-tag = [ W/ ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text
_TAG: Final = re.compile(r'(W/)?"([\x21\x23-\x7e\x80-\xff]*)"')
_SEPARATORS: Final = " \t,"
# What the published document says these headers hold (ECMA-262, for fuzzers and
# validators): `*`, or entity-tags separated by commas. Every value it matches is read.
_ONE_TAG: Final = r'(W/)?"[\x21\x23-\x7e]*"'
ENTITY_TAGS_PATTERN: Final = rf"^[ \t]*(\*|({_ONE_TAG}([ \t]*,[ \t]*{_ONE_TAG})*)?)[ \t]*$"
PRECONDITION_HEADERS: Final = ("If-Match", "If-None-Match")


def etag(version: int) -> str:
    """A session version as an entity tag."""
    return f'"{version}"'


@dataclass(frozen=True, slots=True)
class EntityTags:
    """A precondition header's value: ``*`` (``any``), or its tags as (weak, opaque)."""

    any: bool
    tags: tuple[tuple[bool, str], ...] = ()

    def matches_strongly(self, version: int) -> bool:
        """``If-Match``: ``*``, or a strong tag equal to the version's."""
        return self.any or (False, str(version)) in self.tags

    def matches_weakly(self, version: int) -> bool:
        """``If-None-Match``: ``*``, or any tag whose opaque part is the version's."""
        return self.any_weakly(etag(version))

    def any_weakly(self, tag: str) -> bool:
        """``If-None-Match`` against an entity-tag ``tag`` (quoted, strong)."""
        return self.any or any(f'"{opaque}"' == tag for _, opaque in self.tags)


def entity_tags(header: str, value: str) -> EntityTags:
    """``value`` of the header ``header`` (``If-Match``, ``If-None-Match``) read as RFC 9110
    §8.8.3 and §13.1 define it.

    Raises:
        RulesError: ``invalid-precondition`` (400), naming the header and what is wrong.
    """
    text = value.strip(" \t")
    if text == "*":
        return EntityTags(any=True)
    tags: list[tuple[bool, str]] = []
    position, end = 0, len(text)
    while True:
        # A list may hold empty elements (RFC 9110 §5.6.1): skip commas and spaces.
        while position < end and text[position] in _SEPARATORS:
            position += 1
        if position == end:
            break
        match = _TAG.match(text, position)
        if match is None:
            raise _malformed(header, value)
        tags.append((match[1] is not None, match[2]))
        position = match.end()
        while position < end and text[position] in " \t":
            position += 1
        if position < end and text[position] != ",":
            raise _malformed(header, value)
    # An empty list (`#entity-tag` may hold none) names no version: If-None-Match holds,
    # If-Match fails.
    return EntityTags(any=False, tags=tuple(tags))


def _malformed(header: str, value: str) -> RulesError:
    shown = value if len(value) <= 40 else value[:40] + "…"
    return RulesError.from_concerns(
        [
            Concern(
                code="invalid-precondition",
                parameter=header,
                detail=f"{header}: {shown!r} is not an entity-tag: send * or quoted tags, "
                'such as "3" (the ETag as it came), separated by commas.',
            )
        ]
    )
