"""``make failover``: the Redis master killed (SIGKILL) under load, and what clients lost.

    python -m tests.faults.failover                   every set-up, once
    python -m tests.faults.failover -s sentinel-wait  one (or more), --runs N each

Each run starts real processes on this machine (``tests.support.ha_redis``): a primary,
a replica and three sentinels (``sentinel``), the same with the replica a quarter of a
second behind, over a link that delivers what the primary sends that late
(``sentinel-lag``: a slow network, or a busy replica), or a Redis Cluster of three
masters with a replica each (``cluster``); then the service (``python -m service``, one
worker) against them, with ``REDIS_WAIT_REPLICAS=1`` in the ``-wait`` set-ups. Twenty
writers load it: six GMs resolving whole rounds of their own conflicts, six tables moving
their own OpenD6 scenes (initiative, turns, the next round), and two travelogue games of
four players each, renaming their angels at once (a compare-and-set race on every
action). Every write
carries its own Idempotency-Key and is sent again with the same key after a 503, a 409
``request-in-flight`` or ``concurrent-update``, or a dropped connection, until the
service answers it otherwise.

A few seconds in, the master holding most sessions is killed with SIGKILL. Once a
replica is promoted, the killed node is started again as a replica (a cluster node
rejoins as its former replica's; a sentinel-managed one is told ``--replicaof`` the new
master, as an orchestrator would), the load goes on a few seconds, every write still
open is settled, and each session is read back through the service. Then:

* **acknowledged**: writes answered 2xx; each made the version its ETag names;
* **lost**: acknowledged writes whose version the final history does not hold as they
  were answered (another write's content there, or nothing);
* **duplicated**: versions in the final history that no acknowledged write accounts for
  (a key applied twice, or a write applied that was never acknowledged);
* **refused**: writes answered 4xx or 500 (a scene whose writes were lost no longer
  takes its writer's next move), **unsettled**: writes still unanswered at the end;
* **to recover**: from the kill to the promotion, to the first write answered 2xx that
  was sent after the kill, and to every writer's first one (also from the promotion).

Without WAIT, replication is asynchronous: a write the master acknowledged in the last
instant before it died may never have reached the replica, and is then lost; on one
machine the replica is rarely that far behind, hence the ``-lag`` set-ups. What a run saw
is printed as it was; the exit status is 1 when a set-up with WAIT lost or duplicated a
write.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS
from service.rulesets.opend6.api.scenes import SCENES
from service.rulesets.travelogue.api.games import GAMES
from service.sessions.host import SessionSpec
from tests.bench.bodies import FOUR_PLAYERS, ROUND
from tests.support.ha_redis import MASTER, ClusterSet, Node, SentinelSet
from tests.support.served import ServedApp
from tests.support.session_kinds import GAME, SCENE

SETUPS = (
    "sentinel",
    "sentinel-wait",
    "sentinel-lag",
    "sentinel-lag-wait",
    "cluster",
    "cluster-wait",
)
LAG = 0.25  # seconds the replica of the -lag set-ups is behind (a slow link)
# Where each kind of session is created, and its keys.
COLLECTIONS: dict[str, SessionSpec[Any]] = {
    "/v1/conflicts": CONFLICTS,
    "/v1/opend6/scenes": SCENES,
    "/v1/travelogue/games": GAMES,
}
CONFLICT_PATH, SCENE_PATH, GAME_PATH = COLLECTIONS
RETRIED = {"/problems/request-in-flight", "/problems/concurrent-update", "/problems/rate-limited"}
PAUSE = 0.05  # between a failed attempt and its retry: recovery is measured to this


@dataclass
class Write:
    """One request under one Idempotency-Key, however often it was sent."""

    session: str
    signature: Any = None  # what its history entry must hold, from its 2xx answer
    version: int | None = None  # the version its 2xx answer made (ETag)
    status: int | None = None  # its final answer's status (None: never settled)


@dataclass
class Ledger:
    """Every write and every attempt, with when it was sent and answered."""

    writes: list[Write] = field(default_factory=list)
    attempts: list[tuple[int, float, float, bool]] = field(default_factory=list)  # writer…
    failures: dict[str, int] = field(default_factory=dict)  # retried, by reason
    refusals: dict[str, int] = field(default_factory=dict)  # final non-2xx, by reason


class Writer:
    """One client of the service: its own sessions, one write at a time."""

    def __init__(self, number: int, http: httpx.AsyncClient, ledger: Ledger) -> None:
        self.number = number
        self.http = http
        self.ledger = ledger
        self._keys = itertools.count(1)
        self.tokens: dict[str, dict[str, str]] = {}  # a token of each of its sessions
        self.settle_by = float("inf")  # after this, a write still failing is left unsettled

    async def write(
        self,
        session: str,
        path: str,
        body: dict[str, Any],
        token: dict[str, str],
        signature: Callable[[Any], Any],
    ) -> httpx.Response | None:
        """``body`` to ``path`` under a new key, sent again until it is answered; the
        answer (None: unsettled). ``signature``: what of a 2xx answer (JSON) its history
        entry must hold."""
        write = Write(session)
        self.ledger.writes.append(write)
        headers = {**token, "Idempotency-Key": f"w{self.number}-{next(self._keys)}"}
        while True:
            sent = time.monotonic()
            try:
                answer = await self.http.post(path, json=body, headers=headers)
            except httpx.HTTPError as error:
                answer, reason = None, type(error).__name__
            else:
                reason = str(answer.status_code)
                if answer.status_code in (409, 429):
                    reason = answer.json()["type"]
            ok = answer is not None and answer.status_code < 300
            self.ledger.attempts.append((self.number, sent, time.monotonic(), ok))
            if answer is not None and (ok or not _retried(answer)):
                write.status = answer.status_code
                if not ok:
                    refused = f"{answer.status_code} {answer.json().get('type')}"
                    self.ledger.refusals[refused] = self.ledger.refusals.get(refused, 0) + 1
                if ok:
                    write.version = int(answer.headers["etag"].strip('"'))
                    write.signature = signature(answer.json())
                return answer
            self.ledger.failures[reason] = self.ledger.failures.get(reason, 0) + 1
            if time.monotonic() > self.settle_by:
                return None
            await asyncio.sleep(PAUSE)

    async def create(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """A new session (a creation is sent again as a new one: it takes no key)."""
        while True:
            try:
                answer = await self.http.post(path, json=body)
                if answer.status_code == 201:
                    return dict(answer.json())
            except httpx.HTTPError:
                pass
            await asyncio.sleep(PAUSE)

    async def run(self, until: Callable[[], bool]) -> None:
        raise NotImplementedError


def _retried(answer: httpx.Response) -> bool:
    if answer.status_code == 503:
        return True
    return answer.status_code in (409, 429) and answer.json().get("type") in RETRIED


class ConflictGM(Writer):
    """Resolves whole rounds of its conflict (all tied: nobody loses), to its last, then
    those of the next."""

    async def run(self, until: Callable[[], bool]) -> None:
        while not until():
            created = await self.create(CONFLICT_PATH, FOUR_PLAYERS)
            path, gm = f"{CONFLICT_PATH}/{created['id']}", _bearer(created["tokens"]["gm"])
            self.tokens[path] = gm
            while not until():
                answer = await self.write(path, f"{path}/rounds", ROUND, gm, _round_number)
                if answer is None or answer.status_code != 200:
                    break
                if answer.json()["decided"] or answer.json()["number"] == MAX_ROUNDS:
                    break


class SceneTable(Writer):
    """A scene's player and GM: both initiatives, both turns ended (the round ends by
    itself), round after round."""

    async def run(self, until: Callable[[], bool]) -> None:
        while not until():
            created = await self.create(SCENE_PATH, SCENE)
            path = f"{SCENE_PATH}/{created['id']}"
            gm = _bearer(created["tokens"]["gm"])
            self.tokens[path] = gm
            ana = _bearer(created["tokens"]["players"]["ana"])
            for number in itertools.count(1):
                moves = [
                    (ana, _initiative(number, "ana-pc", [5, 5], 4)),
                    (gm, _initiative(number, "goblins", [2], 2)),
                    (ana, {"type": "end_turn", "round": number, "participant": "ana-pc"}),
                    (gm, {"type": "end_turn", "round": number, "participant": "goblins"}),
                ]
                for token, body in moves:
                    if until():
                        return
                    made = await self.write(path, f"{path}/moves", body, token, _scene_move)
                    if made is None or made.status_code != 200:
                        break
                else:
                    continue
                break


class GamePlayer(Writer):
    """One of a travelogue game's four players, renaming its angel (each name its own)."""

    def __init__(self, *args: Any, game: str, player: str, token: str) -> None:
        super().__init__(*args)
        self.player, self.token = player, _bearer(token)
        self.path = f"{GAME_PATH}/{game}"
        self.tokens[self.path] = self.token

    async def run(self, until: Callable[[], bool]) -> None:
        path = self.path
        for count in itertools.count(1):
            if until():
                return
            name = f"w{self.number} {count}"
            body = {"type": "rename_angel", "name": name}
            # A key is bound to its body: a 2xx answer (a replay too) is this rename's.
            signature = (self.player, name)
            await self.write(path, f"{path}/actions", body, self.token, lambda _, s=signature: s)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _initiative(number: int, who: str, regular: list[int], wild: int) -> dict[str, Any]:
    faces = {"regular": regular, "wild": [wild]}
    return {"type": "initiative", "round": number, "rolls": [{"participant": who, "faces": faces}]}


def _round_number(answer: Any) -> int:
    return int(answer["number"])


def _scene_move(answer: Any) -> tuple[Any, ...]:
    return _scene_entry(answer["result"])


def _scene_entry(entry: dict[str, Any]) -> tuple[Any, ...]:
    return (entry["round"], entry["move"], entry["participant"])


# ---------------------------------------------------------------- the final state


async def _get(http: httpx.AsyncClient, path: str, token: dict[str, str]) -> Any:
    """``path`` read through the service, retried while it cannot answer (30 s at most)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            answer = await http.get(path, headers=token)
            if answer.status_code == 200:
                return answer.json()
            failed = f"{answer.status_code} {answer.text[:300]}"
        except httpx.HTTPError as error:
            failed = repr(error)
        if time.monotonic() > deadline:
            raise RuntimeError(f"GET {path}: {failed}")
        await asyncio.sleep(0.1)


async def _histories(
    http: httpx.AsyncClient, tokens: dict[str, dict[str, str]]
) -> dict[str, dict[int, Any]]:
    """Each session's history entries by the version each made."""
    found: dict[str, dict[int, Any]] = {}
    for session, token in tokens.items():
        if session.startswith(CONFLICT_PATH):
            rounds = (await _get(http, session, token))["rounds"]
            found[session] = {n + 2: entry["number"] for n, entry in enumerate(rounds)}
        elif session.startswith(SCENE_PATH):
            last = (await _get(http, session, token))["round"]
            entries = []
            for number in range(1, last + 1):
                entries += (await _get(http, f"{session}/rounds/{number}", token))["moves"]
            found[session] = {n + 2: _scene_entry(entry) for n, entry in enumerate(entries)}
        else:
            items: dict[int, Any] = {}
            after = 0
            while after is not None:
                page = await _get(http, f"{session}/history?after={after}", token)
                for item in page["items"]:
                    items[item["version"]] = (item["actor"], item["action"]["name"])
                after = page["next_after"]
            found[session] = items
    return found


def _tally(writes: list[Write], histories: dict[str, dict[int, Any]]) -> tuple[int, int]:
    """(lost, duplicated): see the module's docstring."""
    claims: dict[tuple[str, int], list[Write]] = {}
    for write in writes:
        if write.version is not None:
            claims.setdefault((write.session, write.version), []).append(write)
    lost = 0
    for (session, version), claimants in claims.items():
        held = histories.get(session, {}).get(version)
        matched = any(held == write.signature for write in claimants)
        lost += len(claimants) - (1 if matched else 0)
    duplicated = sum(
        1
        for session, entries in histories.items()
        for version in entries
        if (session, version) not in claims
    )
    return lost, duplicated


# ---------------------------------------------------------------- set-ups


class SentinelSetup:
    """A primary, a replica, three sentinels; the primary is killed. ``lag``: seconds late
    that the replica gets what the primary sends."""

    def __init__(self, lag: float = 0.0) -> None:
        self.nodes = SentinelSet(1, down_after_ms=1000, lag=lag)
        self.killed: Node | None = None

    def start(self) -> dict[str, str]:
        self.nodes.start()
        return {"REDIS_SENTINELS": self.nodes.addresses, "REDIS_SENTINEL_MASTER": MASTER}

    def kill(self, sessions: list[str]) -> None:
        self.killed = self.nodes.master()
        self.killed.kill()

    def promoted(self) -> bool:
        assert self.killed is not None
        return self.nodes.master_port() not in (None, self.killed.port)

    def restart(self) -> None:
        assert self.killed is not None
        master = self.nodes.master_port()
        self.killed.start(None, "--replicaof", "127.0.0.1", str(master))

    def close(self) -> None:
        self.nodes.close()


class ClusterSetup:
    """Three masters with a replica each; the master holding most sessions is killed."""

    def __init__(self) -> None:
        self.nodes = ClusterSet(3, node_timeout_ms=1000)
        self.killed: Node | None = None
        self.heir: Node | None = None

    def start(self) -> dict[str, str]:
        self.nodes.start()
        return {"REDIS_URL": self.nodes.url, "REDIS_CLUSTER": "1"}

    def kill(self, sessions: list[str]) -> None:
        holders = [self.nodes.node_of(_state_key(session)) for session in sessions]
        self.killed = max(set(holders), key=holders.count)
        self.heir = self.nodes.replica_of(self.killed)
        self.killed.kill()

    def promoted(self) -> bool:
        assert self.heir is not None
        return bool(self.heir.client().info("replication")["role"] == "master")

    def restart(self) -> None:
        assert self.killed is not None
        self.killed.start()  # its nodes.conf: it rejoins as a replica of the promoted one

    def close(self) -> None:
        self.nodes.close()


def _state_key(session: str) -> str:
    collection, _, session_id = session.rpartition("/")
    return COLLECTIONS[collection].kind.state(session_id)


# ---------------------------------------------------------------- one run


@dataclass
class Outcome:
    setup: str
    sent: int
    acknowledged: int
    lost: int
    duplicated: int
    refused: int
    unsettled: int
    first_after_kill: float | None
    all_after_kill: float | None
    all_after_promotion: float | None
    promotion: float
    failures: dict[str, int]
    refusals: dict[str, int]


async def _load(
    url: str, setup: SentinelSetup | ClusterSetup, before: float, after: float
) -> tuple[Ledger, dict[str, dict[int, Any]], float, float]:
    """The writers, the kill, the promotion, the restart, the final read."""
    ledger = Ledger()
    limits = httpx.Limits(max_connections=40, max_keepalive_connections=40)
    async with httpx.AsyncClient(base_url=url, timeout=15, limits=limits) as http:
        writers: list[Writer] = [ConflictGM(n, http, ledger) for n in range(6)]
        writers += [SceneTable(n, http, ledger) for n in range(6, 12)]
        for game in range(2):
            created = await writers[0].create(GAME_PATH, GAME)
            for seat, (player, token) in enumerate(created["tokens"]["players"].items()):
                number = 12 + 4 * game + seat
                writers.append(
                    GamePlayer(number, http, ledger, game=created["id"], player=player, token=token)
                )
        stop = asyncio.Event()
        tasks = [asyncio.create_task(w.run(stop.is_set)) for w in writers]
        await asyncio.sleep(before)
        sessions = sorted({write.session for write in ledger.writes})
        killed = time.monotonic()
        setup.kill(sessions)
        _say(f"killed the master of {len(sessions)} sessions' keys")
        while not setup.promoted():
            if time.monotonic() - killed > 60:
                raise RuntimeError("no replica was promoted within a minute")
            await asyncio.sleep(0.02)
        promoted = time.monotonic()
        _say(f"promoted after {promoted - killed:.2f} s")
        await asyncio.to_thread(setup.restart)
        _say(f"the killed node runs again, as a replica, {time.monotonic() - killed:.2f} s in")
        # Load on until every writer has had a write answered since the kill, and then
        # `after` seconds more.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and _back(ledger, killed) < len(writers):
            await asyncio.sleep(0.1)
        _say(f"{_back(ledger, killed)} of {len(writers)} writers answered since the kill")
        await asyncio.sleep(after)
        for writer in writers:
            writer.settle_by = time.monotonic() + 20
        stop.set()
        await asyncio.gather(*tasks)
        tokens = {path: token for writer in writers for path, token in writer.tokens.items()}
        _say(f"every write settled; reading {len(tokens)} sessions back")
        histories = await _histories(http, tokens)
    return ledger, histories, killed, promoted


def _say(line: str) -> None:
    print(f"  {time.strftime('%H:%M:%S')} {line}", file=sys.stderr, flush=True)


def _back(ledger: Ledger, since: float) -> int:
    """Writers with a write answered 2xx that was sent after ``since``."""
    return len({writer for writer, sent, _, ok in ledger.attempts if ok and sent > since})


def run(setup_name: str, *, before: float = 3.0, after: float = 3.0, log: Path) -> Outcome:
    """One run of ``setup_name`` (one of SETUPS)."""
    setup: SentinelSetup | ClusterSetup = ClusterSetup()
    if setup_name.startswith("sentinel"):
        setup = SentinelSetup(LAG if "-lag" in setup_name else 0.0)
    try:
        env = setup.start()
        env.update(SESSIONS_PER_CLIENT="0", WEB_CONCURRENCY="1", LOG_LEVEL="WARNING")
        if setup_name.endswith("-wait"):
            env["REDIS_WAIT_REPLICAS"] = "1"
        app = ServedApp(env, log)
        try:
            app.wait_ready()
            ledger, histories, killed, promoted = asyncio.run(_load(app.url, setup, before, after))
        finally:
            app.stop()
    finally:
        setup.close()
    lost, duplicated = _tally(ledger.writes, histories)
    back = _all(ledger, killed)
    return Outcome(
        setup=setup_name,
        sent=len(ledger.writes),
        acknowledged=sum(1 for w in ledger.writes if w.version is not None),
        lost=lost,
        duplicated=duplicated,
        refused=sum(1 for w in ledger.writes if w.status is not None and w.status >= 400),
        unsettled=sum(1 for w in ledger.writes if w.status is None),
        first_after_kill=_first(ledger, killed),
        all_after_kill=back,
        all_after_promotion=None if back is None else back - (promoted - killed),
        promotion=promoted - killed,
        failures=ledger.failures,
        refusals=ledger.refusals,
    )


def _first(ledger: Ledger, killed: float) -> float | None:
    answered = [done for _, sent, done, ok in ledger.attempts if ok and sent > killed]
    return min(answered) - killed if answered else None


def _all(ledger: Ledger, killed: float) -> float | None:
    firsts: dict[int, float] = {}
    for writer, sent, done, ok in ledger.attempts:
        if ok and sent > killed:
            firsts[writer] = min(firsts.get(writer, done), done)
    return max(firsts.values()) - killed if firsts else None


# ---------------------------------------------------------------- the table

COLUMNS = (
    ("setup", 17),
    ("sent", 6),
    ("acked", 6),
    ("lost", 5),
    ("dup", 4),
    ("refused", 8),
    ("unsettled", 10),
    ("promoted", 9),
    ("first ok", 9),
    ("all ok", 8),
    ("all ok after promotion", 23),
)


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


def table(outcomes: list[Outcome]) -> str:
    """The outcomes as a table: times from the kill, the last from the promotion."""
    lines = ["  ".join(f"{name:>{width}}" for name, width in COLUMNS)]
    for o in outcomes:
        cells = (
            o.setup, o.sent, o.acknowledged, o.lost, o.duplicated, o.refused, o.unsettled,
            _seconds(o.promotion), _seconds(o.first_after_kill), _seconds(o.all_after_kill),
            _seconds(o.all_after_promotion),
        )  # fmt: skip
        lines.append("  ".join(f"{c!s:>{w}}" for c, (_, w) in zip(cells, COLUMNS, strict=True)))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--setup", action="append", choices=SETUPS)
    parser.add_argument("--runs", type=int, default=1, help="runs of each set-up")
    parser.add_argument("--before", type=float, default=3.0, help="seconds of load before the kill")
    parser.add_argument("--after", type=float, default=3.0, help="seconds more once all are back")
    arguments = parser.parse_args()
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="bullseye-failover-") as temporary:
        directory = Path(temporary)
        for name in arguments.setup or SETUPS:
            for number in range(arguments.runs):
                log = directory / f"{name}-{number}.log"
                outcome = run(name, before=arguments.before, after=arguments.after, log=log)
                print(
                    f"{name}: attempts retried {outcome.failures}; refused {outcome.refusals}",
                    flush=True,
                )
                outcomes.append(outcome)
    print(
        "\nwrites: sent (one Idempotency-Key each), acknowledged (2xx), lost, duplicated, "
        "refused (4xx, 500), unsettled;\nseconds from the SIGKILL: to the promotion, to the first "
        "write answered 2xx sent after it, to every writer's first; the last from the promotion"
    )
    print(table(outcomes))
    waited = [o for o in outcomes if o.setup.endswith("-wait")]
    return 1 if any(o.lost or o.duplicated for o in waited) else 0


if __name__ == "__main__":
    sys.exit(main())
