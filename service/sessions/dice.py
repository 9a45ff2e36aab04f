"""The dice a session action rolls with, given to its step by the engine for one attempt.

A provably fair session (a state whose ``fairness`` is set, ``kernel.fairness``) rolls
the dice of its next roll number; any other rolls the server's dice. After the step, the
engine *settles* the attempt: the roll number is used up only when these dice gave a
face — and the first such face closes the client seeds —, and the server seed is revealed
once the kind's ``ended`` says the session can roll no more. Each attempt starts from the
state it is run on, so a write retried on a fresher state draws that state's roll number:
no retry ever uses up two. This is the one place where a session's dice are chosen; a
session created with ``receipts: true`` (``service.sessions.receipts``) has them record
their faces here, for its receipts, and one created with ``await_client_seeds: true`` has
them refuse to give a face while a participant's seed is missing
(:class:`ClientSeedsAwaited`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, TypeVar

import msgspec

from service.kernel.dice import RecordingDice
from service.kernel.errors import RulesError
from service.kernel.fairness import FairDice, Fairness, session_fairness, with_seed_revealed
from service.kernel.sessions import Applied
from service.kernel.values import Value
from service.sessions.receipts import receipts_asked

if TYPE_CHECKING:
    from service.kernel.dice import RandomSource
    from service.kernel.events import Event

__all__ = [
    "FAIR_DICE_DESCRIPTION",
    "ClientSeedsAwaited",
    "Ended",
    "SessionDice",
    "fairness_of",
    "revealed_closing",
    "with_fairness",
]

S = TypeVar("S", bound=Value)
Ended = Callable[[S], bool]


def fairness_of(state: Value) -> Fairness | None:
    """The session's fairness, if it has one (every kind's state has a ``fairness``
    field; one stored by an earlier release decodes with none)."""
    fairness = getattr(state, "fairness", None)
    return fairness if isinstance(fairness, Fairness) else None


class ClientSeedsAwaited(Exception):  # noqa: N818 - a refusal, said as the problem's code
    """An action tried to draw the server's dice while client seeds it must wait for are
    missing (``await_client_seeds``).

    Raised by the dice, in the middle of the rules, and deliberately not a
    :class:`RulesError`: rules catch their own errors to merge or re-point them, and must
    not absorb this one. It unwinds the whole step — whose state is immutable, so nothing
    of it was applied — and the engine answers it as the 409 :meth:`refusal`.
    """

    def __init__(self, missing: tuple[str, ...]) -> None:
        super().__init__(f"client seeds awaited from {', '.join(missing)}")
        self.missing = missing

    def refusal(self) -> RulesError:
        """The problem it is answered as: ``client-seeds-awaited``, naming who is missing."""
        return RulesError(
            "client-seeds-awaited",
            "No roll before every participant has added a client seed (this session was "
            f"created with await_client_seeds): still missing: {', '.join(self.missing)}.",
            extensions={"awaiting": list(self.missing)},
        )


class SessionDice(Generic[S]):
    """The dice of one attempt at an action on ``state``: a :class:`RandomSource`."""

    __slots__ = ("_awaiting", "_ended", "_fair", "_fairness", "_recording", "_source")

    def __init__(self, rng: RandomSource, state: S, ended: Ended[S] | None) -> None:
        self._fairness = fairness_of(state)
        self._fair: FairDice | None = None
        self._awaiting: tuple[str, ...] = ()
        self._source = rng
        if self._fairness is not None:
            self._fair = self._source = self._fairness.dice()
            self._awaiting = self._fairness.awaiting()
        self._recording: RecordingDice | None = None
        if receipts_asked(state):
            self._recording = self._source = RecordingDice(self._source)
        self._ended = ended

    @property
    def faces(self) -> list[int] | None:
        """Every face this attempt drew, in rolling order, when the session asked for
        receipts; else None (nothing is recorded)."""
        return None if self._recording is None else self._recording.faces

    def randint(self, a: int, b: int, /) -> int:
        """A face: of the session's fair dice for this roll number, or the server's.

        Raises:
            ClientSeedsAwaited: the session awaits client seeds that are missing.
        """
        if self._awaiting:
            raise ClientSeedsAwaited(self._awaiting)
        return self._source.randint(a, b)

    def settle(self, applied: Applied[S]) -> Applied[S]:
        """``applied`` with the session's fairness as this attempt leaves it: one more roll
        when these dice gave a face, and the client seeds closed by it; the seed revealed
        (in the state and in the events that end a session) when ``applied`` ended it,
        which closes the seeds too. The same however often it is asked, so a step may
        settle to render its answer and the engine settle again before storing. A client
        seed the step added (the only change a step makes to ``fairness``) is kept."""
        before = self._fairness
        if before is None:
            return applied
        drawn = self._fair is not None and self._fair.drawn
        ended = before.revealed or (self._ended is not None and self._ended(applied.state))
        after = msgspec.structs.replace(
            fairness_of(applied.state) or before,
            rolls=before.rolls + (1 if drawn else 0),
            revealed=ended,
            seeds_closed=before.seeds_closed or drawn or ended,
        )
        if fairness_of(applied.state) == after and not (ended and applied.events):
            return applied
        state = msgspec.structs.replace(applied.state, fairness=after)
        events = applied.events
        if ended:
            events = tuple(with_seed_revealed(event, after) for event in events)
        return Applied(state, events, applied.history)


def revealed_closing(state: Value, closing: Event) -> Event:
    """The last event of a deleted session: with its server seed when it has one."""
    fairness = fairness_of(state)
    return closing if fairness is None else with_seed_revealed(closing, fairness)


# How every kind of session with server dice documents them at its creation route.
FAIR_DICE_DESCRIPTION = (
    " **Provably fair dice** (`fairness`, algorithm `hmac-sha256-v1`, "
    "docs/verifiable-rolls.md), in this order: (1) creation commits to a secret 32-byte "
    "server seed — `commitment` is the lowercase hex SHA-256 of its raw bytes — before "
    "any client seed exists; (2) each participant (`gm` where the session has a GM, and "
    "each player) adds its own client seed with its own token, once: "
    '`POST …/{id}/client-seeds` `{"seed": "<1–64 of [A-Za-z0-9_-]>"}`; (3) the first '
    "action that draws the server's dice closes the seeds (`seeds_closed`; a seed after "
    "it is 409 `client-seeds-closed`); (4) at the end the seed is revealed. The creation "
    "body takes no seed: `client_seeds` is deprecated, and any seed in it is 422 "
    "`client-seeds-at-creation`. With `await_client_seeds: true` no action draws the "
    "server's dice before every participant has added its seed: until then such an "
    "action is 409 `client-seeds-awaited` (its `awaiting`, like `fairness.awaiting_seeds`, "
    "names who is missing) and changes nothing; actions that roll nothing go ahead. The "
    "n-th action that draws server dice (`rolls` counts them; an action that draws none "
    "takes no number) reads its faces from the 32-byte blocks HMAC-SHA256(key = the "
    'seed\'s bytes, message = UTF-8 of `"{n}:{i}:" + ":".join(client seeds in the order '
    "added)`), i = 0, 1, …, as successive big-endian 32-bit words x: a die a..b with "
    "r = b − a + 1 faces is a + x mod r when x < 2^32 − (2^32 mod r), else the next word "
    "is taken. `server_seed` stays null until the session ends, then it is revealed in "
    "the final state and in the event that ends it (or the closing event of a DELETE). "
    "With the table's dice, `fairness` is null."
)


def with_fairness(
    applied: Applied[S],
    rng: RandomSource,
    *,
    server_dice: bool,
    client_seeds: dict[str, str] | None,
    await_client_seeds: bool,
    receipts: bool,
    participants: Iterable[str],
) -> Applied[S]:
    """A new session as its rules set it up, with its ``fairness`` (a commitment when its
    dice are the server's, ``kernel.fairness.session_fairness``, whose refusals it raises)
    and whether it signs ``receipts``: how every kind of session is created."""
    fairness = session_fairness(
        rng,
        server_dice=server_dice,
        client_seeds=client_seeds,
        await_client_seeds=await_client_seeds,
        receipts=receipts,
        participants=participants,
    )
    state = msgspec.structs.replace(applied.state, fairness=fairness, receipts=receipts)
    return dataclasses.replace(applied, state=state)
