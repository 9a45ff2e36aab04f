"""Provably fair sessions (``hmac-sha256-v1``): dice a session commits to at creation.

At creation the server draws a secret 32-byte seed and publishes only its SHA-256 (the
*commitment*), before it has seen any client seed; then each participant may add its own
*client seed*, until the session's first roll closes them. The session's n-th rolling
action draws its faces from HMAC-SHA256 blocks keyed by the server seed over ``n`` and the
client seeds in the order they were added, and the seed is revealed once the session can
roll no more: then anyone can check the commitment and re-derive every roll
(docs/verifiable-rolls.md, "Provably fair sessions"). Pure: no I/O; the session engine
decides when a roll is counted and when a seed is added.
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
from service.kernel.events import Event
from service.kernel.values import Value

E = TypeVar("E", bound=msgspec.Struct)

__all__ = [
    "ALGORITHM",
    "CLIENT_SEED_PATTERN",
    "AwaitClientSeeds",
    "ClientSeed",
    "ClientSeedAdded",
    "ClientSeedText",
    "ClientSeedsAtCreation",
    "FairDice",
    "Fairness",
    "FairnessView",
    "RevealedSeed",
    "commitment_of",
    "new_fairness",
    "session_fairness",
    "with_client_seed",
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
    """One participant's client seed, in the order the seeds were added."""

    participant: str
    seed: str


class FairnessView(Value, frozen=True, kw_only=True):
    """What anyone with a token sees of a session's fairness: the commitment, the client
    seeds, whether they are closed, and how many rolling actions drew dice;
    ``server_seed`` null until the session has ended, was closed or deleted."""

    algorithm: Annotated[str, Meta(description="Always `hmac-sha256-v1` for now.")]
    commitment: Annotated[
        str, Meta(description="Lowercase hex SHA-256 of the 32 raw bytes of the server seed.")
    ]
    client_seeds: Annotated[
        tuple[ClientSeed, ...],
        Meta(
            description="The participants' client seeds in the order they were added "
            "(each by its own token, after the commitment was published): the order every "
            "roll joins them in."
        ),
    ]
    seeds_closed: Annotated[
        bool,
        Meta(
            description="Whether the client seeds are closed: by the session's first action "
            "that drew the server's dice (or its end). No seed is added after."
        ),
    ]
    awaiting_seeds: Annotated[
        tuple[str, ...],
        Meta(
            description="Participants whose client seed the first roll still waits for "
            "(a session created with `await_client_seeds: true`); while any is named, an "
            "action that would roll the server's dice is 409 `client-seeds-awaited`. Empty "
            "otherwise."
        ),
    ]
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
    # Set by the first action that draws the server's dice, or by the end (SessionDice
    # settles it). A session stored by an earlier release decodes with False: its rolls
    # close it all the same (see ``closed``).
    seeds_closed: bool = False
    # The participants whose seeds the first roll waits for: all of them when the session
    # was created with ``await_client_seeds: true``, else none.
    awaited: tuple[str, ...] = ()

    @property
    def closed(self) -> bool:
        """Whether no client seed may be added any more."""
        return self.seeds_closed or self.rolls > 0 or self.revealed

    def awaiting(self) -> tuple[str, ...]:
        """The awaited participants who have given no seed yet (none once closed)."""
        if not self.awaited or self.closed:
            return ()
        given = {c.participant for c in self.client_seeds}
        return tuple(p for p in self.awaited if p not in given)

    def view(self) -> FairnessView:
        """As a session's view shows it: the seed only once revealed."""
        return FairnessView(
            algorithm=self.algorithm,
            commitment=self.commitment,
            client_seeds=self.client_seeds,
            seeds_closed=self.closed,
            awaiting_seeds=self.awaiting(),
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


def new_fairness(rng: RandomSource, *, awaited: Iterable[str] = ()) -> Fairness:
    """A new session's fairness: a 32-byte seed drawn from the server's dice (an injected
    seeded generator keeps tests reproducible), committed to before any client seed is
    known; ``awaited``: the participants whose seeds the first roll must wait for."""
    seed = rng.randint(0, 2 ** (8 * SEED_BYTES) - 1).to_bytes(SEED_BYTES, "big")
    return Fairness(commitment=commitment_of(seed), secret=seed.hex(), awaited=tuple(awaited))


def with_client_seed(fairness: Fairness, participant: str, seed: str) -> Fairness:
    """``fairness`` with ``participant``'s client seed added after the others.

    Raises:
        RulesError: the seeds are closed (``client-seeds-closed``: a roll was made, or the
            session ended), or this participant already gave one
            (``client-seed-already-given``).
    """
    if fairness.closed:
        raise RulesError(
            "client-seeds-closed",
            "The client seeds are closed: the session's first roll of the server's dice "
            "has been made (or the session has ended), and every roll joins the same seeds.",
        )
    if any(c.participant == participant for c in fairness.client_seeds):
        raise RulesError(
            "client-seed-already-given",
            f"'{participant}' already gave its client seed; each participant gives one.",
        )
    added = ClientSeed(participant=participant, seed=seed)
    return msgspec.structs.replace(fairness, client_seeds=(*fairness.client_seeds, added))


class ClientSeedAdded(Event, frozen=True, kw_only=True, tag="client_seed.added"):
    """A participant added its client seed (the last of ``fairness.client_seeds``)."""

    participant: str
    seed: str


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


# Kept in the creation bodies so that clients generated from an earlier document still
# build; any seed in it is refused (``session_fairness``): seeds come after the commitment.
ClientSeedsAtCreation = Annotated[
    Annotated[
        dict[Annotated[str, Meta(min_length=1, max_length=40)], ClientSeedText],
        Meta(max_length=32),
    ]
    | None,
    Meta(
        description="**Deprecated**: client seeds are added after creation, each by its "
        "participant's token (`POST …/{id}/client-seeds`), once the session has published "
        "its commitment. Absent, null or `{}`; any seed here is 422 "
        "`client-seeds-at-creation`.",
        extra_json_schema={"deprecated": True},
    ),
]


AwaitClientSeeds = Annotated[
    bool,
    Meta(
        description="Make no roll of the server's dice before every participant has added "
        "its client seed (`POST …/{id}/client-seeds`): until then an action that would "
        "draw them is 409 `client-seeds-awaited`, naming who is missing, and changes "
        "nothing. Fixed for the session; only with the server's dice (else 422 "
        "`client-seeds-without-server-dice`)."
    ),
]


def session_fairness(
    rng: RandomSource,
    *,
    server_dice: bool,
    client_seeds: dict[str, str] | None,
    receipts: bool,
    participants: Iterable[str],
    await_client_seeds: bool = False,
) -> Fairness | None:
    """A new session's fairness: for a session whose dice are the server's, a committed
    seed (each participant adds its client seed afterwards, :func:`with_client_seed`);
    none for table dice (they need no trust).

    Every kind of session creates through here, so here is the one rule that what only the
    server's dice can give — client seeds, which feed them, waiting for those seeds, and
    ``receipts``, which sign them — is refused to a session that will never roll them
    (table dice, a seeded game): every such wish at once, each at its member. And the one
    rule that no client seed comes with the creation: the server commits first.

    ``await_client_seeds``: no action may draw the server's dice until every one of
    ``participants`` has added its seed.

    Raises:
        RulesError: client seeds in the creation body (``client-seeds-at-creation``), or
            client seeds, ``await_client_seeds`` or receipts without server dice
            (``client-seeds-without-server-dice``, ``receipts-without-server-dice``).
    """
    seeds = client_seeds or {}
    if not server_dice:
        wishes = _wishes_without_server_dice(
            seeds, await_client_seeds=await_client_seeds, receipts=receipts
        )
        if wishes:
            raise RulesError.from_concerns(wishes)
        return None
    if seeds:
        raise RulesError.from_concerns(
            [
                Concern(
                    code="client-seeds-at-creation",
                    pointer="/client_seeds",
                    detail="Client seeds are no longer taken at creation: the session "
                    "publishes its commitment first, then each participant adds its own "
                    "seed with its token (POST …/{id}/client-seeds) before the first roll.",
                )
            ]
        )
    return new_fairness(rng, awaited=participants if await_client_seeds else ())


def _wishes_without_server_dice(
    seeds: dict[str, str], *, await_client_seeds: bool, receipts: bool
) -> list[Concern]:
    """What a session without the server's dice was asked for that only they can give."""
    wishes: list[Concern] = []
    detail = (
        "Client seeds feed the server's dice; this session rolls none, so it takes no client seeds."
    )
    if seeds:
        wishes.append(
            Concern(code="client-seeds-without-server-dice", pointer="/client_seeds", detail=detail)
        )
    if await_client_seeds:
        wishes.append(
            Concern(
                code="client-seeds-without-server-dice",
                pointer="/await_client_seeds",
                detail=detail,
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
