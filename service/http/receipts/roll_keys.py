"""The Ed25519 keys that sign roll receipts: ``ROLL_SIGNING_KEYS`` and the published JWKS.

``ROLL_SIGNING_KEYS`` is a JSON array of private JWKs (RFC 8037: ``kty`` ``OKP``, ``crv``
``Ed25519``, ``x`` and ``d``), or a JWK Set (``{"keys": [...]}``) holding them. The first
signs; every one is published at ``/.well-known/jwks.json``, so receipts signed before a
rotation still verify. A key's ``kid`` is its RFC 7638 thumbprint (a ``kid`` given in the
setting must be it). ``python -m service.http.receipts.roll_keys`` prints a new key in this format.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from jwt.algorithms import OKPAlgorithm
from jwt.exceptions import InvalidKeyError
from jwt.utils import base64url_encode
from msgspec import Meta
from nacl.bindings import crypto_sign, crypto_sign_seed_keypair

from service.http.receipts.canonical import canonical_json
from service.kernel.values import Value

__all__ = [
    "Jwks",
    "PublicJwk",
    "RollKey",
    "RollKeys",
    "SigningKeyError",
    "new_private_jwk",
    "thumbprint",
]

MAX_KEYS = 16


class SigningKeyError(ValueError):
    """``ROLL_SIGNING_KEYS`` holds something that is not a usable Ed25519 private key."""


class PublicJwk(Value, frozen=True, kw_only=True):
    """A public key that verifies roll receipts (RFC 8037 OKP key, RFC 7517 members)."""

    kty: Literal["OKP"]
    crv: Literal["Ed25519"]
    x: Annotated[str, Meta(description="The public key, base64url (RFC 8037 §2).")]
    kid: Annotated[
        str,
        Meta(description="The key's RFC 7638 thumbprint (SHA-256), as receipts name it."),
    ]
    alg: Literal["EdDSA"]
    use: Literal["sig"]


class Jwks(Value, frozen=True, kw_only=True):
    """A JWK Set (RFC 7517 §5): every key whose receipts verify, the signing one first."""

    keys: tuple[PublicJwk, ...]


def thumbprint(x: str) -> str:
    """The RFC 7638 thumbprint of the Ed25519 public key ``x`` (RFC 8037 §2), base64url."""
    members = canonical_json({"crv": "Ed25519", "kty": "OKP", "x": x})
    return base64url_encode(hashlib.sha256(members).digest()).decode()


@dataclass(frozen=True, slots=True)
class RollKey:
    """One key pair and the public JWK that names it.

    ``cryptography`` holds the keys (loads, generates, publishes them); libsodium (PyNaCl)
    signs with them (:meth:`sign`): Ed25519 is deterministic (RFC 8032 §5.1.6), so both
    write the same signature, and libsodium's costs about half as much.
    """

    private: Ed25519PrivateKey
    public: Ed25519PublicKey
    jwk: PublicJwk
    # libsodium's form of the private key: its 32-byte seed, then the public key.
    secret: bytes = field(repr=False, compare=False)

    @property
    def kid(self) -> str:
        """The key's id: its RFC 7638 thumbprint."""
        return self.jwk.kid

    @classmethod
    def of(cls, private: Ed25519PrivateKey) -> RollKey:
        """The key pair of ``private``."""
        public = private.public_key()
        x = str(OKPAlgorithm.to_jwk(public, as_dict=True)["x"])
        jwk = PublicJwk(kty="OKP", crv="Ed25519", x=x, kid=thumbprint(x), alg="EdDSA", use="sig")
        _, secret = crypto_sign_seed_keypair(private.private_bytes_raw())
        return cls(private=private, public=public, jwk=jwk, secret=secret)

    def sign(self, data: bytes) -> bytes:
        """The Ed25519 signature of ``data`` (64 bytes), by libsodium."""
        return crypto_sign(data, self.secret)[:64]


def _private_key(member: Any, where: str) -> RollKey:
    if not isinstance(member, dict):
        raise SigningKeyError(f"{where} is not a JWK object")
    if "d" not in member:
        raise SigningKeyError(f"{where} has no 'd': give the private key, not the public one")
    try:
        key = OKPAlgorithm.from_jwk(member)
    except (InvalidKeyError, ValueError, TypeError) as error:
        raise SigningKeyError(f"{where} is not an Ed25519 private JWK: {error}") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningKeyError(f"{where} is not an Ed25519 key (crv must be Ed25519)")
    pair = RollKey.of(key)
    if (kid := member.get("kid")) is not None and kid != pair.kid:
        raise SigningKeyError(
            f"{where} names kid {kid!r}, but a key's kid is its RFC 7638 thumbprint, "
            f"{pair.kid!r}: leave kid out, or give that"
        )
    return pair


@dataclass(frozen=True, slots=True)
class RollKeys:
    """The keys receipts are signed and verified with. ``generated``: made at start-up
    because ``ROLL_SIGNING_KEYS`` was not set (then published through Redis for every
    replica to verify with: ``service.http.receipts.published_keys``)."""

    keys: tuple[RollKey, ...]
    generated: bool

    @property
    def signing(self) -> RollKey:
        """The key that signs: the first."""
        return self.keys[0]

    def by_kid(self, kid: str) -> RollKey | None:
        """The published key named ``kid``, if any."""
        return next((key for key in self.keys if key.kid == kid), None)

    def jwks(self) -> Jwks:
        """The public keys, as ``/.well-known/jwks.json`` publishes them."""
        return Jwks(keys=tuple(key.jwk for key in self.keys))

    @classmethod
    def parse(cls, setting: str, *, generated: bool = False) -> RollKeys:
        """The keys of a ``ROLL_SIGNING_KEYS`` value.

        Raises:
            SigningKeyError: not a JSON array (or JWK Set) of 1…16 distinct Ed25519 private
                JWKs.
        """
        try:
            document = msgspec.json.decode(setting)
        except (msgspec.DecodeError, RecursionError):
            raise SigningKeyError("not JSON: give a JSON array of private JWKs") from None
        members = document.get("keys") if isinstance(document, dict) else document
        if not isinstance(members, list) or not 1 <= len(members) <= MAX_KEYS:
            raise SigningKeyError(
                f"give a JSON array of 1 to {MAX_KEYS} Ed25519 private JWKs (or a JWK Set)"
            )
        keys = tuple(_private_key(member, f"key {index}") for index, member in enumerate(members))
        if len({key.kid for key in keys}) != len(keys):
            raise SigningKeyError("the same key is listed twice")
        return cls(keys=keys, generated=generated)

    @classmethod
    def generate(cls) -> RollKeys:
        """One new key, for a service started without ``ROLL_SIGNING_KEYS``."""
        return cls(keys=(RollKey.of(Ed25519PrivateKey.generate()),), generated=True)


def new_private_jwk() -> dict[str, str]:
    """A new Ed25519 private JWK with its ``kid``, as ``ROLL_SIGNING_KEYS`` lists them."""
    private = Ed25519PrivateKey.generate()
    jwk = {str(name): str(value) for name, value in OKPAlgorithm.to_jwk(private, True).items()}
    return {**jwk, "kid": RollKey.of(private).kid}


def _main(argv: list[str]) -> str:
    """A new key as ``ROLL_SIGNING_KEYS``; given the current value, that value with the new
    key appended (published, not yet signing: move it first once verifiers have it)."""
    current: list[Any] = []
    if argv:
        RollKeys.parse(argv[0])
        document = msgspec.json.decode(argv[0])
        current = document["keys"] if isinstance(document, dict) else document
    return msgspec.json.encode([*current, new_private_jwk()]).decode()


if __name__ == "__main__":  # pragma: no cover - an operator's command
    import sys

    print(_main(sys.argv[1:]))
