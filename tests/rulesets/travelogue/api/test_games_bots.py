"""A client that knows nothing of the rules can play a whole game by following `waiting_for`
alone: four clients a game, each holding only its own player's token, play seeded
server-dice games to their end against the service run as its own process (D28, D31).

Each bot acts only when `waiting_for.who` names it, and only with an action offered there
(``tests.support.travelogue_bot.choose``); it learns of the others' moves by polling the
game with `If-None-Match` or from the event stream (half the games each). The four race:
at `play` every running player may reach, at `attention.roll` everyone may roll, at
`departure.vote` the voters vote at once. Every action carries the version the bot read
(`If-Match`), so a bot outrun by another is told 412 and reads again; it carries an
`Idempotency-Key` too, and a transport that loses some answers after the service applied
them makes the bot resend the same request, which must answer what the lost one did.
"""

from __future__ import annotations

import asyncio
import random
import ssl
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
import pytest

from tests.support.travelogue_bot import choose
from tests.support.travelogue_games import GAMES, sheets_json

pytestmark = pytest.mark.heavy(3)

GAME_COUNT = 100
AT_ONCE = 30  # games played at the same time: 120 clients, 60 of them holding a stream
LOSS_RATE = 0.03  # of action answers lost on the way back
# A waiting bot reads the game at most this often, so a run of one player's actions (his
# pools, buy-out and scene) is one read for the others, not three.
READ_SECONDS = 0.05
# Plain HTTP: one context for every client, not a certificate store loaded per client.
TLS = ssl.create_default_context()
# A game no bot can move on would otherwise wait for ever: the run fails once no action has
# been applied in any game for this long. Progress, not the run's length, is watched, so a
# machine slowed by other work only makes the run longer.
STALL_SECONDS = 60
ROLLS = {"roll_attention", "roll_pools", "roll_final"}
# What a bot outrun by another may be told: its If-Match is stale (412), or the service
# gave up after too many writers at once (409 concurrent-update). Anything else is a bug:
# the bot only ever sends what `waiting_for` offered it at the version it names.
RACES = {(412, "/problems/precondition-failed"), (409, "/problems/concurrent-update")}


@dataclass
class Tally:
    """Everything the run's clients were answered, for the assertions' messages."""

    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    applied: Counter[str] = field(default_factory=Counter)  # by game id
    lost: Counter[str] = field(default_factory=Counter)  # by action type
    mismatched_replays: list[str] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)

    def summary(self, elapsed: float) -> str:
        return (
            f"{GAME_COUNT} games in {elapsed:.1f} s: {sum(self.applied.values())} actions "
            f"applied; answers {dict(sorted(self.statuses.items()))}; refusals after a race "
            f"{dict(self.refusals)}; answers lost and resent {dict(self.lost)}; "
            f"endings {dict(self.endings)}"
        )


class LosingTransport(httpx.AsyncBaseTransport):
    """HTTP that loses some actions' answers after the service has applied them: the
    client sees a transport error, as when a connection drops on the way back. The lost
    answers are kept, so the test can compare the retry's answer with them."""

    def __init__(self, rng: random.Random) -> None:
        self._inner = httpx.AsyncHTTPTransport(verify=TLS)
        self._rng = rng
        self.lost: dict[str, tuple[int, bytes]] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        key = request.headers.get("idempotency-key")
        if key and key not in self.lost and self._rng.random() < LOSS_RATE:
            body = await response.aread()
            await response.aclose()
            self.lost[key] = (response.status_code, body)
            raise httpx.ReadError("the answer was lost", request=request)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class Bot:
    """One player's client: its token only, its own connections."""

    def __init__(
        self, url: str, game_id: str, player: str, token: str, seed: int, tally: Tally
    ) -> None:
        self.player = player
        # Whole URLs made once: merging a path into a base URL is a tenth of a request's cost
        # in the client, and the client shares the machine's two cores with the service.
        self.url = httpx.URL(f"{url}{GAMES}/{game_id}")
        self.actions = httpx.URL(f"{self.url}/actions")
        self.events = httpx.URL(f"{self.url}/events")
        self.game_id = game_id
        self.rng = random.Random(seed)
        self.tally = tally
        self.transport = LosingTransport(random.Random(seed))
        # Half the players name themselves with X-Game-Token, half with a bearer token.
        auth = {"Authorization": f"Bearer {token}"} if seed % 2 else {"X-Game-Token": token}
        self.http = httpx.AsyncClient(
            headers=auth,
            transport=self.transport,
            timeout=30,
            event_hooks={"response": [self._count]},
        )
        self.changed = asyncio.Event()
        self.sent = 0

    async def _count(self, response: httpx.Response) -> None:
        self.tally.statuses[(response.request.method, response.status_code)] += 1

    async def read(self, etag: str | None = None) -> tuple[dict[str, Any], str] | None:
        """The game, or None while it is still at ``etag`` (304)."""
        headers = {"If-None-Match": etag} if etag else {}
        answer = await self.http.get(self.url, headers=headers)
        if answer.status_code == 304:
            return None
        assert answer.status_code == 200, answer.text
        return msgspec.json.decode(answer.content), answer.headers["etag"]

    async def wait(self, etag: str, streaming: bool) -> tuple[dict[str, Any], str]:
        """The game once it has moved past ``etag``: told by the stream, or by polling."""
        while True:
            if streaming:
                await self.changed.wait()
            await asyncio.sleep(READ_SECONDS)
            self.changed.clear()
            read = await self.read(etag)
            if read is not None:
                return read

    async def watch(self) -> None:
        """Follow the event stream from its start; every event says "read again"."""
        async with self.http.stream("GET", self.events) as stream:
            assert stream.status_code == 200
            async for line in stream.aiter_lines():
                if line.startswith("id:"):
                    self.changed.set()

    async def send(self, body: dict[str, Any], etag: str) -> httpx.Response:
        """One action at the version read, resent with the same key when the answer is
        lost; a resent answer must be what the lost one was."""
        self.sent += 1
        key = f"{self.game_id}-{self.player}-{self.sent}"
        headers = {"If-Match": etag, "Idempotency-Key": key, "Content-Type": "application/json"}
        content = msgspec.json.encode(body)
        try:
            return await self.http.post(self.actions, content=content, headers=headers)
        except httpx.TransportError:
            self.tally.lost[body["type"]] += 1
            again = await self.http.post(self.actions, content=content, headers=headers)
            status, first = self.transport.lost[key]
            if status == 200 and again.content != first:
                self.tally.mismatched_replays.append(f"{key}: {first!r} then {again.content!r}")
            assert again.status_code == status, (key, status, again.text)
            return again

    async def play(self, streaming: bool) -> None:
        """Act whenever `waiting_for` names this player, until the game has ended."""
        read = await self.read()
        assert read is not None
        view, etag = read
        while view["status"] != "ended":
            body = choose(view, self.rng, self.player)
            if body is None:
                view, etag = await self.wait(etag, streaming)
                continue
            answer = await self.send(body, etag)
            if answer.status_code == 200:
                self.tally.applied[self.game_id] += 1
                view, etag = msgspec.json.decode(answer.content)["game"], answer.headers["etag"]
                continue
            problem = answer.json()
            assert (answer.status_code, problem["type"]) in RACES, (self.player, body, problem)
            self.tally.refusals[f"{answer.status_code} {problem['type']}"] += 1
            read = await self.read()
            assert read is not None
            view, etag = read

    async def aclose(self) -> None:
        await self.http.aclose()


@asynccontextmanager
async def watching(bot: Bot, streaming: bool) -> AsyncIterator[None]:
    """The bot's event stream open for as long as it plays (streaming games only)."""
    if not streaming:
        yield
        return
    watcher = asyncio.create_task(bot.watch())
    try:
        yield
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)


async def one_game(url: str, number: int, tally: Tally) -> None:
    """Create a seeded game, let its four bots play it out, check how it ended."""
    body = {"name": f"Bots {number}", "bullseyes": sheets_json(), "seed": number}
    async with httpx.AsyncClient(base_url=url, timeout=30, verify=TLS) as http:
        created = await http.post(GAMES, json=body)
        assert created.status_code == 201, created.text
        game = created.json()
        streaming = number % 2 == 0
        bots = [
            Bot(url, game["id"], player, token, number * 10 + seat, tally)
            for seat, (player, token) in enumerate(game["tokens"]["players"].items())
        ]
        try:

            async def run(bot: Bot) -> None:
                async with watching(bot, streaming):
                    await bot.play(streaming)

            await asyncio.gather(*(run(bot) for bot in bots))
        finally:
            await asyncio.gather(*(bot.aclose() for bot in bots))
        token = game["tokens"]["players"]["vera"]
        final = (await http.get(f"{GAMES}/{game['id']}", headers={"X-Game-Token": token})).json()
    assert final["status"] == "ended"
    # Every applied action made one version: a lost answer's retry applied nothing again.
    assert final["version"] == 1 + tally.applied[game["id"]] == 1 + final["actions"], final
    tally.endings[final["ending"]["reason"]] += 1


async def all_games(url: str, tally: Tally) -> None:
    room = asyncio.Semaphore(AT_ONCE)

    async def limited(number: int) -> None:
        async with room:
            await one_game(url, number, tally)

    await asyncio.gather(*(limited(number) for number in range(GAME_COUNT)))


async def unless_stalled(url: str, tally: Tally) -> None:
    """:func:`all_games`, cancelled with a TimeoutError once no action has been applied
    for :data:`STALL_SECONDS`."""
    games = asyncio.create_task(all_games(url, tally))
    applied, since = -1, time.monotonic()
    while not games.done():
        await asyncio.wait({games}, timeout=1)
        if (now := sum(tally.applied.values())) != applied:
            applied, since = now, time.monotonic()
        elif time.monotonic() - since > STALL_SECONDS:
            games.cancel()
            await asyncio.gather(games, return_exceptions=True)
            raise TimeoutError
    await games


def test_four_clients_with_a_token_each_play_a_hundred_games_to_their_end(
    served_url: str,
) -> None:
    """Following `waiting_for` alone, every game ends, nothing answers 5xx, every race is
    a 412 (or 409 concurrent-update) the bot gets over by reading again, and every lost
    answer's retry answers the same bytes without applying the action twice."""
    tally = Tally()
    started = time.monotonic()

    try:
        asyncio.run(unless_stalled(served_url, tally))
    except TimeoutError:
        pytest.fail(f"stuck for {STALL_SECONDS} s: {tally.summary(time.monotonic() - started)}")
    summary = tally.summary(time.monotonic() - started)
    assert sum(tally.endings.values()) == GAME_COUNT, summary
    assert not [s for s in tally.statuses.elements() if s[1] >= 500], summary
    assert not tally.mismatched_replays, (summary, tally.mismatched_replays[:3])
    # The run did race and did lose answers, rolls among them: the paths were taken.
    assert sum(tally.refusals.values()) > 0, summary
    assert set(tally.lost) & ROLLS, summary
    print(summary)
