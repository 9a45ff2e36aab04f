"""The deployment files, checked against each other and against the code.

No Docker engine or cluster is needed: the Dockerfile, .dockerignore, compose.yaml,
nginx.conf and the Kubernetes manifests are parsed here, and each test checks a
relationship that breaks when one file changes without the others (a renamed replica, a
setting name with a typo, a probe on the wrong port, a CPU limit without its workers…).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlparse

import pytest
import yaml

from service.configuration import load_settings
from service.http.receipts.roll_keys import new_private_jwk
from service.http.shell.keys import new_key
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.serving import GRACEFUL_SHUTDOWN_SECONDS
from service.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"

# Read by the metrics library rather than by service.settings.Settings.
SERVER_VARIABLES = {"PROMETHEUS_MULTIPROC_DIR"}
COMPILERS = {"build-essential", "gcc", "g++", "clang", "cc", "c++", "make"}
LABEL = ("app.kubernetes.io/name", "bullseye")


# --- Dockerfile ---------------------------------------------------------------------


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def args(self, keyword: str) -> list[str]:
        return [args for kw, args in self.instructions if kw == keyword]

    def env(self) -> dict[str, str]:
        env: dict[str, str] = {}
        for args in self.args("ENV"):
            tokens = shlex.split(args)
            if all("=" in token for token in tokens):
                env.update(token.split("=", 1) for token in tokens)
            else:  # the legacy form, ENV NAME value
                env[tokens[0]] = " ".join(tokens[1:])
        return env


def parse_dockerfile(text: str) -> list[Stage]:
    """Stages of a Dockerfile: continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#") or (not line and pending):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        if pending or line:
            logical.append(pending + line)
        pending = ""
    stages: list[Stage] = []
    for line in logical:
        keyword, _, args = line.partition(" ")
        keyword, args = keyword.upper(), args.strip()
        if keyword == "FROM":
            parts = [part for part in args.split() if not part.startswith("--")]
            name = parts[2] if len(parts) == 3 and parts[1].upper() == "AS" else None
            stages.append(Stage(base=parts[0], name=name))
        elif stages:
            stages[-1].instructions.append((keyword, args))
    return stages


@cache
def dockerfile() -> list[Stage]:
    return parse_dockerfile((ROOT / "Dockerfile").read_text())


def final_stage() -> Stage:
    return dockerfile()[-1]


def healthcheck_command() -> list[str]:
    """The final stage's HEALTHCHECK as an argv (exec form, or the shell form via sh)."""
    checks = final_stage().args("HEALTHCHECK")
    assert checks, "the final stage has no HEALTHCHECK"
    options, found, command = checks[-1].partition("CMD ")
    assert found, f"HEALTHCHECK without CMD (or NONE): {checks[-1]!r}"
    assert "NONE" not in options.upper()
    command = command.strip()
    return json.loads(command) if command.startswith("[") else ["/bin/sh", "-c", command]


def docker_user() -> tuple[str, str | None]:
    users = final_stage().args("USER")
    assert users, "the final stage has no USER: the container would run as root"
    user, _, group = users[-1].partition(":")
    return user, group or None


def copy_sources(args: str) -> list[str]:
    """The source paths of a COPY (without its flags and destination)."""
    parts = [part for part in shlex.split(args) if not part.startswith("--")]
    return parts[:-1]


def copy_from(args: str) -> str | None:
    match = re.search(r"--from=(\S+)", args)
    return match.group(1) if match else None


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9_.+\-\[\]]+", text))


def test_the_image_is_built_in_one_stage_and_run_from_a_fresh_base() -> None:
    stages = dockerfile()
    assert len(stages) >= 2, "the Dockerfile must be multi-stage"
    earlier = {stage.name for stage in stages[:-1]}
    # `FROM build` would inherit the build stage's compiler and sources.
    assert final_stage().base not in earlier


def test_the_runtime_stage_installs_no_compiler() -> None:
    for args in final_stage().args("RUN"):
        assert not words(args) & COMPILERS, f"a compiler in the final stage: {args!r}"


def shell_commands(stage: Stage) -> list[list[str]]:
    """Each simple command of a stage's RUN instructions (split at &&, || and ;), as argv."""
    return [
        shlex.split(command)
        for args in stage.args("RUN")
        for command in re.split(r"&&|\|\||;", args)
        if command.strip()
    ]


def virtualenvs(stage: Stage) -> list[str]:
    """Where a stage creates virtualenvs: `python -m venv DIR` or `uv venv DIR`."""
    found = []
    for argv in shell_commands(stage):
        for i in range(1, len(argv)):
            if argv[i] == "venv" and argv[i - 1] in {"-m", "uv"}:
                rest = iter(argv[i + 1 :])
                for token in rest:
                    if token in {"-p", "--python", "--prompt"}:
                        next(rest, None)  # the option's value
                    elif not token.startswith("-"):
                        found.append(token.rstrip("/"))
                        break
    return found


def test_the_runtime_stage_copies_only_the_virtualenv_and_runs_it() -> None:
    venvs = {stage.name: virtualenvs(stage) for stage in dockerfile()[:-1]}
    copies = [args for args in final_stage().args("COPY") if copy_from(args)]
    assert copies, "the final stage copies nothing from the build stage"
    for args in copies:
        stage = copy_from(args)
        assert stage in venvs, f"COPY --from={stage}: not an earlier stage"
        for source in copy_sources(args):
            assert source.rstrip("/") in venvs[stage], f"copies more than the virtualenv: {source}"
    venv = copy_sources(copies[0])[0].rstrip("/")
    # `python` in CMD and HEALTHCHECK must be the virtualenv's, with the service installed.
    assert final_stage().env()["PATH"].startswith(f"{venv}/bin:")


def test_the_runtime_user_is_numeric_and_not_root() -> None:
    user, group = docker_user()
    # Numeric, so that Kubernetes can enforce runAsNonRoot.
    assert user.isdigit(), f"USER {user}: use the uid"
    assert int(user) != 0
    assert group is None or (group.isdigit() and int(group) != 0)


def test_the_healthcheck_asks_for_healthz() -> None:
    assert "/healthz" in " ".join(healthcheck_command())


class _Stub(BaseHTTPRequestHandler):
    status: ClassVar[int] = 200
    paths: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).paths.append(self.path)
        self.send_response(self.status if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def stub_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Stub)
    _Stub.paths = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _run_healthcheck(port: int) -> int:
    command = [sys.executable if arg == "python" else arg for arg in healthcheck_command()]
    env = {**final_stage().env(), "PATH": "/usr/bin:/bin"}
    env["PORT"] = str(port)
    return subprocess.run(command, env=env, timeout=20, check=False).returncode


def test_the_healthcheck_passes_on_200_and_fails_otherwise(
    stub_server: ThreadingHTTPServer,
) -> None:
    port = stub_server.server_address[1]
    _Stub.status = 200
    assert _run_healthcheck(port) == 0
    assert _Stub.paths == ["/healthz"]
    _Stub.status = 503
    assert _run_healthcheck(port) != 0
    stub_server.shutdown()
    stub_server.server_close()
    assert _run_healthcheck(port) != 0


def test_the_container_command_is_python_m_service() -> None:
    commands = final_stage().args("CMD")
    assert commands, "no CMD"
    assert json.loads(commands[-1]) == ["python", "-m", "service"]
    assert not final_stage().args("ENTRYPOINT")


def test_no_dev_dependency_or_editable_install() -> None:
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    names = {
        re.match(r"[A-Za-z0-9_.\-]+", requirement).group(0).lower()  # type: ignore[union-attr]
        for group in optional.values()
        for requirement in group
    }
    assert {"pytest", "schemathesis"} <= names
    for stage in dockerfile():
        for args in stage.args("RUN"):
            tokens = {token.lower() for token in words(args)}
            assert not tokens & {"-e", "--editable"}, f"editable install: {args!r}"
            for group in optional:
                assert f"[{group}" not in args, f"the [{group}] extra: {args!r}"
            assert not tokens & names, f"installs {tokens & names}: {args!r}"


def uv_commands(subcommand: str) -> list[list[str]]:
    """Every `uv SUBCOMMAND ...` the Dockerfile runs, as argv."""
    return [
        argv
        for stage in dockerfile()
        for argv in shell_commands(stage)
        if argv[:2] == ["uv", subcommand]
    ]


def makefile_variable(name: str) -> str:
    match = re.search(
        rf"^{name}\s*[:?]?=\s*(\S+)\s*$", (ROOT / "Makefile").read_text(), re.MULTILINE
    )
    assert match, f"the Makefile sets no {name}"
    return match.group(1)


def virtualenvs_copied() -> dict[str, str]:
    """The earlier stages the final stage copies a virtualenv from, and its path."""
    copied = {}
    for args in final_stage().args("COPY"):
        stage = copy_from(args)
        if stage:
            copied[stage] = copy_sources(args)[0].rstrip("/")
    return copied


def test_the_image_installs_the_runtime_dependencies_from_the_lock() -> None:
    build = [stage for stage in dockerfile()[:-1] if stage.name in virtualenvs_copied()]
    assert len(build) == 1
    copied = {source for args in build[0].args("COPY") for source in copy_sources(args)}
    assert {"pyproject.toml", "uv.lock"} <= copied
    syncs = uv_commands("sync")
    assert syncs, "no `uv sync`: the dependencies would not come from uv.lock"
    venv = virtualenvs_copied()[build[0].name]
    assert build[0].env().get("UV_PROJECT_ENVIRONMENT", "").rstrip("/") == venv
    for argv in syncs:
        # --locked: fail when uv.lock no longer matches pyproject.toml (--frozen would
        # install the stale lock, a plain sync would quietly re-resolve).
        assert "--locked" in argv, argv
        assert "--no-default-groups" in argv, argv
        for option in ("--extra", "--all-extras", "--group", "--all-groups", "--dev"):
            assert not any(a == option or a.startswith(f"{option}=") for a in argv), argv
    # The last sync installs the project itself, as a wheel rather than a link to /src.
    assert "--no-install-project" not in syncs[-1]
    assert "--no-editable" in syncs[-1]


def test_pip_installs_nothing_but_the_pinned_uv_of_the_makefile() -> None:
    # Anything else pip installed would bypass uv.lock.
    version = makefile_variable("UV_VERSION")
    installs = [
        argv[argv.index("install") + 1 :]
        for stage in dockerfile()
        for argv in shell_commands(stage)
        if any(re.fullmatch(r"(?:\S*/)?pip3?(?:\.\d+)?", word) for word in argv[:3])
        and "install" in argv
    ]
    assert installs, "no uv: the Dockerfile installs it with pip"
    for packages in installs:
        assert [p for p in packages if not p.startswith("-")] == [f"uv=={version}"], packages


def _requirement(
    text: str, group: str | None
) -> tuple[str, tuple[str, ...], frozenset[str], str | None]:
    match = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(?:\[([^\]]*)\])?\s*([^;]*?)\s*(?:;.*)?", text)
    assert match, text
    name, extras, specifier = match.groups()
    return (
        re.sub(r"[-_.]+", "-", name).lower(),
        tuple(sorted(e.strip() for e in (extras or "").split(",") if e.strip())),
        frozenset(part.replace(" ", "") for part in specifier.split(",") if part.strip()),
        group,
    )


def test_the_lock_matches_the_declared_dependencies() -> None:
    """What `uv lock --check` (run by make) verifies, without uv: regenerate with `make lock`."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    assert lock["requires-python"] == project["requires-python"]
    (locked,) = [p for p in lock["package"] if p["name"] == project["name"]]
    declared = {_requirement(r, None) for r in project["dependencies"]} | {
        _requirement(r, group)
        for group, requirements in project.get("optional-dependencies", {}).items()
        for r in requirements
    }
    recorded = set()
    for item in locked["metadata"]["requires-dist"]:
        group = re.search(r"extra == '([^']+)'", item.get("marker", ""))
        text = (
            item["name"]
            + "[{}]".format(",".join(item.get("extras", [])))
            + item.get("specifier", "")
        )
        recorded.add(_requirement(text, group.group(1) if group else None))
    assert declared == recorded, "uv.lock is stale: run `make lock` and commit uv.lock"
    assert set(locked["metadata"].get("provides-extras", [])) == set(
        project.get("optional-dependencies", {})
    )


def test_the_exposed_port_is_the_configured_port() -> None:
    assert final_stage().args("EXPOSE") == [final_stage().env()["PORT"]]


# --- .dockerignore --------------------------------------------------------------------


def _pattern(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern as a regular expression (Go filepath.Match plus `**`)."""
    out, i = "", 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
            continue
        if pattern.startswith("**", i):
            out, i = out + ".*", i + 2
            continue
        if char == "*":
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            end = pattern.index("]", i + 1)
            body = pattern[i + 1 : end]
            out += "[" + ("^" + body[1:] if body[:1] in ("!", "^") else body) + "]"
            i = end
        elif char == "\\":
            i += 1
            out += re.escape(pattern[i])
        else:
            out += re.escape(char)
        i += 1
    return re.compile(out + r"\Z")


@cache
def dockerignore() -> list[tuple[bool, re.Pattern[str]]]:
    rules = []
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        exclude = not line.startswith("!")
        pattern = line.lstrip("!").strip().strip("/")
        rules.append((exclude, _pattern(pattern)))
    return rules


def ignored(path: str) -> bool:
    """Whether Docker leaves ``path`` out of the build context (the last match wins)."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    result = False
    for exclude, pattern in dockerignore():
        if any(pattern.match(prefix) for prefix in prefixes):
            result = exclude
    return result


@pytest.mark.parametrize(
    "path",
    [
        "tests/conftest.py",
        "tests/deploy/test_deployment_files.py",
        ".git/HEAD",
        ".venv/bin/python",
        ".env",
        "service/__pycache__/app.cpython-311.pyc",
    ],
)
def test_dockerignore_keeps_out(path: str) -> None:
    assert ignored(path)


def test_dockerignore_admits_every_file_the_dockerfile_copies() -> None:
    copied = [
        source
        for stage in dockerfile()
        for args in stage.args("COPY")
        if not copy_from(args)
        for source in copy_sources(args)
    ]
    assert "service" in copied
    for source in copied:
        path = ROOT / source
        assert path.exists(), f"COPY {source}: no such file"
        files = [path] if path.is_file() else list(path.rglob("*.py"))
        assert files
        for file in files:
            relative = file.relative_to(ROOT).as_posix()
            if "__pycache__" not in relative:
                assert not ignored(relative), f".dockerignore keeps out {relative}"


# --- compose.yaml and nginx.conf --------------------------------------------------------


@cache
def compose() -> dict[str, Any]:
    document = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(document, dict)
    return document


def services() -> dict[str, dict[str, Any]]:
    return compose()["services"]


def environment(service: dict[str, Any]) -> dict[str, str]:
    """A compose service's environment, ${NAME:-default} read as its default."""
    raw = service.get("environment") or {}
    if isinstance(raw, list):
        raw = dict(item.split("=", 1) for item in raw)
    interpolate = re.compile(r"\$\{\w+(?::?-([^}]*))?\}")
    return {
        key: interpolate.sub(lambda m: m.group(1) or "", str(value)) for key, value in raw.items()
    }


def replicas() -> dict[str, dict[str, Any]]:
    """The services built from this repository's Dockerfile."""
    built = {}
    for name, service in services().items():
        build = service.get("build")
        if build is None:
            continue
        context = build if isinstance(build, str) else build.get("context", ".")
        file = "Dockerfile" if isinstance(build, str) else build.get("dockerfile", "Dockerfile")
        assert (DEPLOY / context).resolve() == ROOT, f"{name} is built from {context}"
        assert (DEPLOY / context / file).resolve() == ROOT / "Dockerfile", f"{name}: {file}"
        built[name] = service
    return built


def redis_service() -> str:
    names = [name for name, s in services().items() if "redis" in str(s.get("image", ""))]
    assert len(names) == 1, f"one Redis service, not {names}"
    return names[0]


def proxy_service() -> str:
    names = [name for name, s in services().items() if "nginx" in str(s.get("image", ""))]
    assert len(names) == 1, f"one nginx service, not {names}"
    return names[0]


def seconds(duration: str | int) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    return sum(
        float(number) * units[unit]
        for number, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", str(duration))
    ) or float(duration)


def graceful_shutdown_seconds() -> int:
    """The server's graceful-shutdown timeout, as `python -m service` passes it."""
    return GRACEFUL_SHUTDOWN_SECONDS


@cache
def nginx() -> str:
    return re.sub(r"#[^\n]*", "", (DEPLOY / "nginx.conf").read_text())


def nginx_upstreams() -> dict[str, list[tuple[str, int]]]:
    upstreams = {}
    for name, body in re.findall(r"upstream\s+(\S+)\s*\{([^}]*)\}", nginx()):
        servers = re.findall(r"^\s*server\s+([^\s:;]+):(\d+)", body, re.MULTILINE)
        upstreams[name] = [(host, int(port)) for host, port in servers]
    return upstreams


def test_compose_uses_the_compose_spec_format() -> None:
    assert "version" not in compose()
    assert set(services()) >= {"bullseye-1", "bullseye-2"}


def test_redis_is_the_official_image_with_aof_a_volume_and_a_healthcheck() -> None:
    redis = services()[redis_service()]
    assert redis["image"].split(":")[0] in {"redis", "valkey/valkey"}
    command = redis["command"]
    command = " ".join(command) if isinstance(command, list) else command
    assert re.search(r"--appendonly\s+yes\b", command)
    assert re.search(r"--appendfsync\s+everysec\b", command)
    assert re.search(r"--maxmemory-policy\s+noeviction\b", command)
    data = [volume for volume in redis.get("volumes", []) if str(volume).endswith(":/data")]
    assert data, "Redis keeps its AOF in /data: mount a volume there"
    assert data[0].split(":")[0] in compose().get("volumes", {})
    assert redis["healthcheck"]["test"]


def test_the_replicas_are_exactly_the_nginx_upstream_servers() -> None:
    upstreams = nginx_upstreams()
    assert len(upstreams) == 1
    (servers,) = upstreams.values()
    assert sorted(host for host, _ in servers) == sorted(replicas())
    assert len(servers) >= 2


def test_every_proxy_pass_names_the_upstream() -> None:
    targets = re.findall(r"proxy_pass\s+http://([^/;\s]+)", nginx())
    assert targets
    assert set(targets) <= set(nginx_upstreams())


def test_each_replica_serves_on_the_upstream_port_with_the_shared_redis() -> None:
    ports = dict(next(iter(nginx_upstreams().values())))
    for name, service in replicas().items():
        env = environment(service)
        assert set(env) <= {n.upper() for n in Settings.__struct_fields__} | SERVER_VARIABLES
        assert urlparse(env["REDIS_URL"]).hostname == redis_service()
        assert int(env["WEB_CONCURRENCY"]) >= 1, "set WEB_CONCURRENCY, not one per host CPU"
        settings = Settings.from_env({**final_stage().env(), **env})
        assert settings.host == "0.0.0.0", f"{name} must listen on every interface"
        assert settings.port == ports[name]
        assert service["depends_on"][redis_service()]["condition"] == "service_healthy"


def test_each_replica_can_write_tmp_and_stop_gracefully() -> None:
    for name, service in replicas().items():
        if service.get("read_only"):
            # `python -m service` makes its Prometheus multiprocess directory under /tmp.
            tmpfs = service.get("tmpfs", [])
            assert "/tmp" in ([tmpfs] if isinstance(tmpfs, str) else tmpfs), name
        grace = seconds(service.get("stop_grace_period", "10s"))
        assert grace > graceful_shutdown_seconds(), f"{name}: stop_grace_period too short"


def test_the_proxy_publishes_8000_on_nginx_port_and_mounts_nginx_conf() -> None:
    proxy = services()[proxy_service()]
    listen = {int(port) for port in re.findall(r"listen\s+(\d+)", nginx())}
    published = {}
    for port in proxy["ports"]:
        if isinstance(port, dict):
            published[str(port["published"])] = int(port["target"])
        else:
            host_part, _, target = str(port).rpartition(":")
            published[host_part.rpartition(":")[2]] = int(target)
    assert published.get("8000") in listen
    mounts = [str(volume).split(":") for volume in proxy["volumes"]]
    assert any(
        (DEPLOY / source).resolve() == DEPLOY / "nginx.conf"
        and re.fullmatch(r"/etc/nginx/conf\.d/[\w.-]+\.conf", target)
        for source, target, *_ in mounts
    )
    waits_for = proxy["depends_on"]
    assert set(replicas()) <= set(waits_for)


def test_nginx_lets_go_of_an_idle_upstream_connection_before_a_replica_closes_it() -> None:
    """granian closes a connection idle for HEADER_READ_TIMEOUT_SECONDS (service.serving);
    nginx reusing one the replica is closing shows as sporadic 502s on POSTs."""
    (upstream,) = re.findall(r"upstream\s+\w+\s*\{([^}]*)\}", nginx())
    (idle,) = re.findall(r"keepalive_timeout\s+(\S+);", upstream)
    for name, service in replicas().items():
        settings = Settings.from_env({**final_stage().env(), **environment(service)})
        assert settings.server == "granian", name
        assert seconds(idle) < settings.header_read_timeout_seconds, name


def test_event_streams_pass_nginx_unbuffered() -> None:
    paths = json.loads((ROOT / "openapi" / "openapi.json").read_text())["paths"]
    streams = [re.sub(r"\{\w+\}", "0a1b2c", path) for path in paths if path.endswith("/events")]
    assert streams
    unbuffered = [
        regex
        for regex, body in re.findall(r"location\s+~\*?\s+(\S+)\s*\{([^}]*)\}", nginx())
        if re.search(r"proxy_buffering\s+off", body)
    ]
    for path in streams:
        assert any(re.search(regex, path) for regex in unbuffered), path
    assert not any(re.search(regex, "/v1/checks") for regex in unbuffered)


# --- Kubernetes --------------------------------------------------------------------------

MANIFESTS = sorted(p.name for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


@cache
def documents(name: str) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all((K8S / name).read_text()) if doc is not None]


def all_documents() -> list[dict[str, Any]]:
    return [doc for name in MANIFESTS for doc in documents(name)]


def one(kind: str) -> dict[str, Any]:
    found = [doc for doc in all_documents() if doc["kind"] == kind]
    assert len(found) == 1, f"one {kind}, not {len(found)}"
    return found[0]


def named(kind: str) -> set[str]:
    return {doc["metadata"]["name"] for doc in all_documents() if doc["kind"] == kind}


def pod_spec() -> dict[str, Any]:
    return one("Deployment")["spec"]["template"]["spec"]


def container() -> dict[str, Any]:
    containers = pod_spec()["containers"]
    assert len(containers) == 1
    return containers[0]


def pod_labels() -> dict[str, str]:
    return one("Deployment")["spec"]["template"]["metadata"]["labels"]


def selects_the_pods(selector: dict[str, Any]) -> bool:
    match_labels = selector.get("matchLabels", selector)
    return (
        bool(match_labels)
        and "matchExpressions" not in selector
        and match_labels.items() <= pod_labels().items()
    )


def container_port(port: int | str) -> int:
    ports = {p["name"]: p["containerPort"] for p in container()["ports"]}
    return ports[port] if isinstance(port, str) else port


def effective_environment() -> dict[str, str]:
    """What the container's environment holds: envFrom first, then env over it."""
    data = {"ConfigMap": "data", "Secret": "stringData"}
    sources = {
        (doc["kind"], doc["metadata"]["name"]): doc.get(data[doc["kind"]], {})
        for doc in all_documents()
        if doc["kind"] in data
    }
    env: dict[str, str] = {}
    for source in container().get("envFrom", []):
        if "configMapRef" in source:
            env.update(sources["ConfigMap", source["configMapRef"]["name"]])
        else:
            env.update(sources["Secret", source["secretRef"]["name"]])
    for item in container().get("env", []):
        if "value" in item:
            env[item["name"]] = item["value"]
            continue
        ((ref, selector),) = item["valueFrom"].items()
        kind = "ConfigMap" if ref == "configMapKeyRef" else "Secret"
        env[item["name"]] = sources[kind, selector["name"]][selector["key"]]
    return env


def cpus(quantity: str | int) -> float:
    text = str(quantity)
    return int(text[:-1]) / 1000 if text.endswith("m") else float(text)


@pytest.mark.parametrize("name", MANIFESTS)
def test_every_manifest_names_itself_and_carries_the_app_label(name: str) -> None:
    docs = documents(name)
    assert docs, f"{name} is empty"
    for doc in docs:
        assert doc.get("apiVersion")
        assert doc.get("kind")
        assert doc.get("metadata", {}).get("name")
        assert doc["metadata"].get("labels", {}).get(LABEL[0]) == LABEL[1]


def test_kustomization_lists_exactly_the_yaml_files() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    resources = kustomization["resources"]
    assert len(resources) == len(set(resources))
    assert sorted(resources) == MANIFESTS


def test_kustomization_image_override_names_the_deployment_image() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    image = container()["image"].rsplit(":", 1)[0]
    assert image in {entry["name"] for entry in kustomization.get("images", [])}


def test_selectors_match_the_pod_labels() -> None:
    deployment = one("Deployment")
    assert pod_labels().get(LABEL[0]) == LABEL[1]
    assert selects_the_pods(deployment["spec"]["selector"])
    assert selects_the_pods(one("Service")["spec"]["selector"])
    assert selects_the_pods(one("PodDisruptionBudget")["spec"]["selector"])
    spread = pod_spec().get("topologySpreadConstraints", [])
    anti = pod_spec().get("affinity", {}).get("podAntiAffinity", {})
    terms = [
        term.get("podAffinityTerm", term)
        for key in (
            "requiredDuringSchedulingIgnoredDuringExecution",
            "preferredDuringSchedulingIgnoredDuringExecution",
        )
        for term in anti.get(key, [])
    ]
    across_nodes = [
        rule for rule in [*spread, *terms] if rule["topologyKey"] == "kubernetes.io/hostname"
    ]
    assert across_nodes, "spread the replicas across nodes"
    for rule in [*spread, *terms]:
        assert selects_the_pods(rule["labelSelector"])


def test_the_hpa_scales_the_deployment_on_cpu_it_requests() -> None:
    hpa, deployment = one("HorizontalPodAutoscaler"), one("Deployment")
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"]) == ("apps/v1", "Deployment")
    assert target["name"] == deployment["metadata"]["name"]
    assert 2 <= hpa["spec"]["minReplicas"] <= deployment["spec"]["replicas"]
    assert hpa["spec"]["maxReplicas"] >= hpa["spec"]["minReplicas"]
    metrics = [m["resource"] for m in hpa["spec"]["metrics"] if m["type"] == "Resource"]
    assert any(m["name"] == "cpu" and m["target"]["type"] == "Utilization" for m in metrics)
    # CPU utilization is measured against the request.
    assert container()["resources"]["requests"]["cpu"]


def test_the_pdb_lets_a_drain_proceed_without_taking_every_pod() -> None:
    pdb = one("PodDisruptionBudget")
    assert pdb["apiVersion"] == "policy/v1"
    minimum = one("HorizontalPodAutoscaler")["spec"]["minReplicas"]
    spec = pdb["spec"]
    if "minAvailable" in spec:
        assert 1 <= spec["minAvailable"] < minimum
    else:
        assert 1 <= spec["maxUnavailable"] < minimum


def test_the_service_routes_port_80_to_the_container_port() -> None:
    service = one("Service")
    assert service["spec"].get("type", "ClusterIP") == "ClusterIP"
    (port,) = service["spec"]["ports"]
    assert port["port"] == 80
    assert (
        container_port(port["targetPort"])
        == Settings.from_env({**effective_environment(), **REPLACED}).port
    )


def test_probes_hit_healthz_and_readyz_on_the_served_port() -> None:
    paths = json.loads((ROOT / "openapi" / "openapi.json").read_text())["paths"]
    served = Settings.from_env({**final_stage().env(), **effective_environment(), **REPLACED})
    assert served.host == "0.0.0.0", "probes come from the node, not from localhost"
    probes = {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}
    for probe, path in probes.items():
        get = container()[probe]["httpGet"]
        assert get["path"] == path
        assert path in paths
        assert container_port(get["port"]) == served.port


def test_the_pod_runs_as_the_image_user_without_privileges() -> None:
    user, group = docker_user()
    pod, own = pod_spec().get("securityContext", {}), container()["securityContext"]
    context = {**pod, **own}  # the container's own settings win
    assert context["runAsNonRoot"] is True
    assert "runAsUser" in context
    for level in (pod, own):  # both, where given: no level may contradict the image
        assert level.get("runAsUser", int(user)) == int(user)
        if group is not None:
            assert level.get("runAsGroup", int(group)) == int(group)
    assert own["allowPrivilegeEscalation"] is False
    assert own["readOnlyRootFilesystem"] is True
    assert own["capabilities"]["drop"] == ["ALL"]


def test_the_read_only_pod_has_a_writable_tmp() -> None:
    # `python -m service` creates its Prometheus multiprocess directory with tempfile,
    # under /tmp, unless PROMETHEUS_MULTIPROC_DIR names one.
    needed = effective_environment().get("PROMETHEUS_MULTIPROC_DIR", "/tmp")
    empty_dirs = {v["name"] for v in pod_spec().get("volumes", []) if "emptyDir" in v}
    mounts = [m for m in container()["volumeMounts"] if m["name"] in empty_dirs]
    assert any(
        needed == m["mountPath"] or needed.startswith(m["mountPath"].rstrip("/") + "/")
        for m in mounts
        if not m.get("readOnly")
    )


def test_resources_are_bounded_and_workers_match_the_cpu_limit() -> None:
    resources = container()["resources"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(resources[kind]), kind
    limit = cpus(resources["limits"]["cpu"])
    assert limit == int(limit) >= 1, "a whole number of CPUs, one per worker"
    assert "WEB_CONCURRENCY" in effective_environment(), "unset means one worker per node CPU"
    assert Settings.from_env({**effective_environment(), **REPLACED}).workers == int(limit)


def test_shutdown_outlasts_endpoint_removal_and_the_server_grace() -> None:
    deployment = one("Deployment")
    pre_stop = container()["lifecycle"]["preStop"]
    if "sleep" in pre_stop:
        sleep = int(pre_stop["sleep"]["seconds"])
    else:
        command = pre_stop["exec"]["command"]
        assert command[0] in {"sleep", "/bin/sleep"}
        sleep = int(command[1])
    assert sleep >= 1
    grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    assert grace > sleep + graceful_shutdown_seconds()
    strategy = deployment["spec"]["strategy"]
    assert strategy["type"] == "RollingUpdate"
    assert strategy["rollingUpdate"]["maxUnavailable"] == 0
    assert deployment["spec"]["replicas"] >= 2


def test_every_env_source_is_defined_here() -> None:
    sources = container()["envFrom"]
    refs = [(ref, source[ref]["name"]) for source in sources for ref in source]
    assert {ref for ref, _ in refs} == {"configMapRef", "secretRef"}
    refs += [
        (ref, item["valueFrom"][ref]["name"])
        for item in container().get("env", [])
        for ref in item.get("valueFrom", {})
    ]
    for ref, name in refs:
        kind = {"configMapRef": "ConfigMap", "configMapKeyRef": "ConfigMap"}.get(ref, "Secret")
        assert name in named(kind), f"{ref} {name}: no such {kind} in deploy/k8s"


def test_every_configured_name_is_a_setting_and_the_values_are_valid() -> None:
    allowed = {name.upper() for name in Settings.__struct_fields__}
    for doc in all_documents():
        if doc["kind"] == "ConfigMap":
            data = doc["data"]
            assert set(data) <= allowed | {"PROMETHEUS_MULTIPROC_DIR"}, set(data) - allowed
        elif doc["kind"] == "Secret":
            data = doc["stringData"]
            assert set(data) <= allowed, set(data) - allowed
        else:
            continue
        # Kubernetes refuses a ConfigMap whose values are numbers or booleans.
        assert all(isinstance(value, str) for value in data.values()), doc["metadata"]["name"]
    env_names = {item["name"] for item in container().get("env", [])}
    assert env_names <= allowed | SERVER_VARIABLES, env_names - allowed
    # Once the Secret's placeholders are replaced (as an operator must), every value is a
    # valid setting: raises SettingsError on a bad value.
    Settings.from_env({**effective_environment(), **REPLACED})


# What an operator puts in place of the example Secret's placeholders.
REPLACED = {
    "API_KEYS": f"{new_key()},{new_key()}",
    "API_KEY_SECRET": new_key(),
    "ROLL_SIGNING_KEYS": json.dumps([new_private_jwk()]),
}


def test_the_example_secret_holds_only_placeholders() -> None:
    secret = one("Secret")
    assert {"REDIS_URL", "API_KEYS", "API_KEY_SECRET", "ROLL_SIGNING_KEYS"} <= set(
        secret["stringData"]
    )
    for key, value in secret["stringData"].items():
        assert "REPLACE-ME" in value, f"{key}: a real credential must never be committed"


@pytest.mark.parametrize("name", sorted(REPLACED))
def test_the_service_refuses_to_start_with_a_placeholder_left_in(name: str) -> None:
    """Security review: the manifests' REPLACE-ME keys were accepted as API keys."""
    environment = {**effective_environment(), **REPLACED, name: one("Secret")["stringData"][name]}
    with pytest.raises(SettingsError, match=name):
        load_settings(environment)


def test_the_example_config_limits_every_caller() -> None:
    """Security review: the Kubernetes config shipped RATE_LIMIT "" (off)."""
    settings = Settings.from_env({**effective_environment(), **REPLACED})
    assert settings.rate_limit
    assert settings.sessions_per_client > 0


def test_the_redis_notes_show_the_store_key_layout() -> None:
    notes = (K8S / "redis.md").read_text()
    assert CONFLICTS.kind.state("<id>") in notes
    assert CONFLICTS.kind.events("<id>") in notes
    for required in ("noeviction", "appendonly yes", "rediss://", "REDIS_CLUSTER"):
        assert required in notes


def test_the_readme_names_every_deployment_file() -> None:
    readme = (DEPLOY / "README.md").read_text()
    files = [p.relative_to(DEPLOY).as_posix() for p in DEPLOY.rglob("*") if p.is_file()]
    for file in [*files, "../Dockerfile", "../.dockerignore"]:
        if file != "README.md":
            assert f"`{file}`" in readme, file
    assert "docker compose -f deploy/compose.yaml up --build" in readme
    assert "kubectl apply -k deploy/k8s" in readme
    assert re.findall(r"^## (.+)$", readme, re.MULTILINE)[-1] == "Capacity plan"
