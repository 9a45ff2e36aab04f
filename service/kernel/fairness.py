"""Provably fair sessions (``hmac-sha256-v1``): dice a session commits to at creation.

At creation the server draws a secret 32-byte seed and publishes only its SHA-256 (the
*commitment*); the players may add *client seeds*. The session's n-th rolling action
draws its faces from HMAC-SHA256 blocks keyed by the server seed over ``n`` and the
client seeds, and the seed is revealed once the session can roll no more: then anyone
can check the commitment and re-derive every roll (docs/verifiable-rolls.md, "Provably
fair sessions"). Pure: no I/O; the session engine decides when a roll is counted.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from typing import Annotated, Final, TypeVar

import msgspec
from msgspec import Meta

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

E = TypeVar("E", bound=msgspec.Struct)

__all__ = [
    "ALGORITHM",
    "CLIENT_SEED_PATTERN",
    "ClientSeed",
    "ClientSeedText",
    "ClientSeeds",
    "FairDice",
    "Fairness",
    "FairnessView",
    "RevealedSeed",
    "commitment_of",
    "new_fairness",
    "session_fairness",
    "with_seed_revealed",
]

ALGORITHM: Final = "hmac-sha256-v1"
SEED_BYTES = 32
CLIENT_SEED_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
_WORD = 2**32

ClientSeedText = Annotated[
    str,
    Meta(
        pattern=CLIENT_SEED_PATTERN,
        description="A participant's client seed: 1–64 of A–Z, a–z, 0–9, '_' and '-'. It "
        "goes into every server roll of the session, so the server cannot have chosen "
        "its seed against it.",
        examples=["ana-lucky-7"],
    ),
]


class ClientSeed(Value, frozen=True, kw_only=True):
    """One participant's client seed, in the order the seeds were given."""

    participant: str
    seed: str


class FairnessView(Value, frozen=True, kw_only=True):
    """What anyone with a token sees of a session's fairness: the commitment, the client
    seeds and how many rolling actions drew dice; ``server_seed`` null until the session
    has ended, was closed or deleted."""

    algorithm: Annotated[str, Meta(description="Always `hmac-sha256-v1` for now.")]
    commitment: Annotated[
        str, Meta(description="Lowercase hex SHA-256 of the 32 raw bytes of the server seed.")
    ]
    client_seeds: tuple[ClientSeed, ...]
    rolls: Annotated[
        int, Meta(description="Rolling actions so far; the next one draws roll number rolls + 1.")
    ]
    server_seed: Annotated[
        str | None,
        Meta(description="The server seed (64 lowercase hex characters), once revealed."),
    ]


class Fairness(Value, frozen=True, kw_only=True):
    """A session's fairness as stored: the secret seed with it, never shown before the end
    (views go through :meth:`view`)."""

    algorithm: str = ALGORITHM
    commitment: str
    client_seeds: tuple[ClientSeed, ...] = ()
    rolls: int = 0
    secret: str  # the server seed, hex: shown only once revealed
    revealed: bool = False

    def view(self) -> FairnessView:
        """As a session's view shows it: the seed only once revealed."""
        return FairnessView(
            algorithm=self.algorithm,
            commitment=self.commitment,
            client_seeds=self.client_seeds,
            rolls=self.rolls,
            server_seed=self.secret if self.revealed else None,
        )

    def dice(self) -> FairDice:
        """The dice of the next rolling action (roll number ``rolls + 1``)."""
        return FairDice(
            bytes.fromhex(self.secret), [c.seed for c in self.client_seeds], self.rolls + 1
        )


def commitment_of(server_seed: bytes) -> str:
    """The public commitment to a server seed: its SHA-256, lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def new_fairness(rng: RandomSource, client_seeds: Iterable[tuple[str, str]]) -> Fairness:
    """A new session's fairness: a 32-byte seed drawn from the server's dice (an injected
    seeded generator keeps tests reproducible), and the client seeds in the order given."""
    seed = rng.randint(0, 2 ** (8 * SEED_BYTES) - 1).to_bytes(SEED_BYTES, "big")
    return Fairness(
        commitment=commitment_of(seed),
        client_seeds=tuple(ClientSeed(participant=p, seed=s) for p, s in client_seeds),
        secret=seed.hex(),
    )


class FairDice:
    """The dice stream of roll ``number``: HMAC-SHA256 blocks ``B_i`` keyed by the server
    seed over ``f"{number}:{i}:" + ":".join(client_seeds)``, read as big-endian 32-bit
    words; ``randint`` rejects words past the largest multiple of the range (no bias)."""

    __slots__ = ("_block", "_key", "_next_block", "_number", "_suffix", "_used")

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str], number: int) -> None:
        self._key = server_seed
        self._number = number
        self._suffix = ":".join(client_seeds)
        self._block = b""
        self._used = 0  # bytes of the current block consumed
        self._next_block = 0

    @property
    def drawn(self) -> bool:
        """Whether any face came from these dice (then the roll number is used up)."""
        return self._next_block > 0

    def _word(self) -> int:
        if self._used >= len(self._block):
            message = f"{self._number}:{self._next_block}:{self._suffix}".encode()
            self._block = hmac.digest(self._key, message, "sha256")
            self._next_block += 1
            self._used = 0
        word = int.from_bytes(self._block[self._used : self._used + 4], "big")
        self._used += 4
        return word

    def randint(self, a: int, b: int, /) -> int:
        """A uniform integer in ``a..b``, both inclusive."""
        span = b - a + 1
        if span < 1 or span > _WORD:
            raise ValueError(f"randint({a}, {b}): the range must hold 1 to 2**32 integers")
        limit = _WORD - _WORD % span
        while True:
            x = self._word()
            if x < limit:
                return a + x % span


SEED_FIELD: Final = "server_seed"


def with_seed_revealed(event: E, fairness: Fairness) -> E:
    """``event`` carrying the revealed server seed, when it is an event that ends a
    session (one with a ``server_seed`` field); any other event as it is."""
    if SEED_FIELD not in type(event).__struct_fields__:
        return event
    return msgspec.structs.replace(event, **{SEED_FIELD: fairness.secret})


ClientSeeds = Annotated[
    dict[Annotated[str, Meta(min_length=1, max_length=40)], ClientSeedText],
    Meta(
        max_length=32,
        description="Client seeds of a provably fair session, by participant (a player's "
        "id, or `gm` where the session has a GM), kept in the order given. Each goes into "
        "every server roll of the session (`fairness`, algorithm `hmac-sha256-v1`).",
        examples=[{"ana": "ana-lucky-7"}],
    ),
]


def session_fairness(
    rng: RandomSource,
    *,
    server_dice: bool,
    client_seeds: dict[str, str] | None,
    receipts: bool,
    participants: Iterable[str],
) -> Fairness | None:
    """A new session's fairness: for a session whose dice are the server's, a committed
    seed and the participants' client seeds; none for table dice (they need no trust).

    Every kind of session creates through here, so here is the one rule that what only the
    server's dice can give — client seeds, which feed them, and ``receipts``, which sign
    them — is refused to a session that will never roll them (table dice, a seeded game):
    every such wish at once, each at its member.

    Raises:
        RulesError: a client seed for someone who is no participant
            (``unknown-seed-participant``), or client seeds or receipts without server
            dice (``client-seeds-without-server-dice``, ``receipts-without-server-dice``).
    """
    seeds = client_seeds or {}
    if not server_dice:
        if wishes := _wishes_without_server_dice(seeds, receipts=receipts):
            raise RulesError.from_concerns(wishes)
        return None
    known = set(participants)
    if strangers := [p for p in seeds if p not in known]:
        raise RulesError.from_concerns(
            [
                Concern(
                    code="unknown-seed-participant",
                    pointer=f"/client_seeds/{p}",
                    detail=f"'{p}' takes no part in this session (known: "
                    f"{', '.join(sorted(known))}).",
                )
                for p in strangers
            ]
        )
    return new_fairness(rng, seeds.items())


def _wishes_without_server_dice(seeds: dict[str, str], *, receipts: bool) -> list[Concern]:
    """What a session without the server's dice was asked for that only they can give."""
    wishes: list[Concern] = []
    if seeds:
        wishes.append(
            Concern(
                code="client-seeds-without-server-dice",
                pointer="/client_seeds",
                detail="Client seeds feed the server's dice; this session rolls none, so it "
                "takes no client seeds.",
            )
        )
    if receipts:
        wishes.append(
            Concern(
                code="receipts-without-server-dice",
                pointer="/receipts",
                detail="Receipts sign the server's dice; this session rolls none (its dice "
                "are the table's, or follow from a public seed), so no receipt would come.",
            )
        )
    return wishes


# Absent (UNSET) from the event of a session without fairness: its events stay as they were.
RevealedSeed = Annotated[
    str | msgspec.UnsetType,
    Meta(
        description="The session's server seed, revealed by the event that ends the session "
        "(absent when its dice were not the server's committed dice): check it against "
        "`fairness.commitment` and re-derive every roll (docs/verifiable-rolls.md)."
    ),
]
