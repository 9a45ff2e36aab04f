"""Roles and bearer tokens: one token per role, shown once, stored only as SHA-256 hashes.

A session has an optional GM (the chase game has none) and named participants. A token
travels as ``Authorization: Bearer <token>`` or in the ruleset's token header (which a
link can carry when Authorization holds a service API key).
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING, Any

from service.http.contract.errors import Unauthorized
from service.kernel.sessions import GM
from service.kernel.values import Value
from service.sessions.keys import digest

if TYPE_CHECKING:
    from collections.abc import Iterable

    from litestar import Request

__all__ = ["Access", "Tokens", "issue_tokens", "role_of", "token_hash", "token_of"]


class Access(Value, frozen=True, kw_only=True):
    """SHA-256 hashes of a session's tokens, by role; the tokens themselves are never kept."""

    gm: str | None = None
    players: dict[str, str] = {}


class Tokens(Value, frozen=True, kw_only=True):
    """Bearer tokens: shown once, at creation."""

    gm: str | None = None
    players: dict[str, str]


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return digest(token)


def issue_tokens(players: Iterable[str], *, gm: bool) -> tuple[Tokens, Access]:
    """Fresh tokens for a GM (if the game has one) and each participant, and their hashes."""
    tokens = Tokens(
        gm=secrets.token_urlsafe(32) if gm else None,
        players={player: secrets.token_urlsafe(32) for player in players},
    )
    access = Access(
        gm=token_hash(tokens.gm) if tokens.gm is not None else None,
        players={player: token_hash(token) for player, token in tokens.players.items()},
    )
    return tokens, access


def token_of(request: Request[Any, Any, Any], token_header: bytes, kind: str) -> str:
    """The session token a request presents: the ``token_header`` header (its name in
    lower case) first, since Authorization may carry a service-level API key.

    Both are read off the ASGI scope's headers (whose names servers give in lower case),
    the first of each name as ``request.headers.get`` gives it: ``request.headers`` would
    build a case-insensitive multidict of every header for these two values (~10 kIr on
    every session request)."""
    header_token = authorization = None
    for name, value in request.scope["headers"]:
        if name == token_header:
            if header_token is None:
                header_token = value
        elif name == b"authorization" and authorization is None:
            authorization = value
    if header_token:
        return header_token.decode("latin-1")
    scheme, _, token = (authorization or b"").decode("latin-1").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    raise Unauthorized(detail=f"Send the {kind}'s token: Authorization: Bearer <token>.")


def role_of(access: Access, token: str, kind: str) -> str:
    """GM or a participant's id; compared in constant time against every stored hash."""
    digest = token_hash(token)
    role = None
    if access.gm is not None and hmac.compare_digest(digest, access.gm):
        role = GM
    for player, stored in access.players.items():
        if hmac.compare_digest(digest, stored):
            role = player
    if role is None:
        raise Unauthorized(detail=f"This token does not open this {kind}.")
    return role
