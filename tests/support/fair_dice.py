"""A verifier's own ``hmac-sha256-v1``, written from docs/verifiable-rolls.md ("Provably
fair sessions") with nothing but ``hmac`` and ``hashlib`` — never the service's code — and
a session's events as its stream stores them."""

from __future__ import annotations

import hashlib
import hmac

import msgspec
import redis


def seed_matches(server_seed: str, commitment: str) -> bool:
    """Whether the revealed seed is the one committed to."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() == commitment


class Stream:
    """The dice of roll ``n``, as a verifier derives them."""

    def __init__(self, server_seed: str, client_seeds: list[str], n: int) -> None:
        self.key = bytes.fromhex(server_seed)
        self.joined = ":".join(client_seeds)
        self.n = n
        self.words: list[int] = []
        self.block = 0

    def word(self) -> int:
        if not self.words:
            message = f"{self.n}:{self.block}:{self.joined}".encode()
            digest = hmac.new(self.key, message, hashlib.sha256).digest()
            self.words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
            self.block += 1
        return self.words.pop(0)

    def randint(self, a: int, b: int) -> int:
        r = b - a + 1
        limit = 2**32 - (2**32 % r)
        while True:
            x = self.word()
            if x < limit:
                return a + x % r


def faces(fairness: dict, n: int, sides: int, count: int) -> list[int]:
    """The first ``count`` faces of ``sides`` sides that roll ``n`` draws."""
    stream = Stream(fairness["server_seed"], [c["seed"] for c in fairness["client_seeds"]], n)
    return [stream.randint(1, sides) for _ in range(count)]


def stream_events(redis_url: str, key: str) -> list[tuple[str, dict]]:
    """A session's event stream, as stored (its data MessagePack): each event's type and data."""
    entries = redis.Redis.from_url(redis_url).xrange(key)
    return [
        (fields[b"type"].decode(), msgspec.msgpack.decode(fields[b"data"])) for _, fields in entries
    ]
