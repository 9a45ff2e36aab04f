# Everything a newcomer needs: `make run` and `make test` (both create .venv on first use).
#
# Python packages come from uv.lock (committed) and nothing else: uv, pinned below, is
# bootstrapped into .uv/ with pip on first use, then `uv sync --locked` makes .venv match
# the lock exactly. `--locked` refuses to install when pyproject.toml and uv.lock
# disagree (a dependency edited without `make lock`), instead of resolving anew.
#   make run        the runtime dependencies only (no test or lint tool)
#   make test/lint  adds the [dev] extra; make load adds [load]
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# `make test` runs the tests on one pytest-xdist worker per CPU core (auto, at most 8),
# each with its own embedded Redis and served app; idle workers take queued tests from
# busy ones (worksteal). PYTEST_WORKERS=0: one process. With REDIS_URL (one server for
# every worker, whose counters some tests read) it is 0.
PYTEST_WORKERS ?= $(if $(REDIS_URL),0,auto)

UV_VERSION := 0.13.9
UV_HOME := .uv/$(UV_VERSION)
UV := $(UV_HOME)/bin/uv
# Which environment uv syncs (also when another virtualenv is active).
export UV_PROJECT_ENVIRONMENT := $(VENV)
# Use $(PYTHON) (a system interpreter), never download one.
export UV_PYTHON_DOWNLOADS := never
# Bytecode for the installed packages, compiled once at install: where the environment sets
# PYTHONDONTWRITEBYTECODE, every process would otherwise compile each module it imports,
# and a test run starts about a hundred (served apps, Schemathesis, workers).
export UV_COMPILE_BYTECODE := 1
UV_SYNC := $(UV) sync --locked --quiet --no-default-groups
# One stamp per level. A sync is exact (it removes what the level does not list), so the
# runtime sync drops the dev stamp; the dev sync includes the runtime and stamps both.
RUN_STAMP := $(VENV)/.stamp-run
DEV_STAMP := $(VENV)/.stamp-dev
LOCK_ARGS ?=

# System packages: when one is missing, `make test` installs it with apt-get if it can
# (running as root, or password-less sudo: `sudo -n true`), else stops before any test
# and prints the command to run. SYSTEM_INSTALL=no never installs, only prints.
CHROMIUM ?= chromium chromium-browser
SYSTEM_INSTALL ?= auto

.PHONY: help venv venv-run lock run test test-plain lint chromium openapi openapi-check client-check \
	system-deps bench bench-odds bench-odds-memory bench-inputs bench-instructions flood failover \
	load clean

help:
	@echo "make run            serve on http://$${HOST:-127.0.0.1}:$${PORT:-8000} (embedded Redis unless REDIS_URL)"
	@echo "make lint           ruff, mypy --strict and the import contracts (pyproject.toml)"
	@echo "make test           lint, type-check and run the whole test suite on every core (installs Chromium if it can)"
	@echo "make test-plain     the HTTP and session tests with FAST_PATHS=off (plain Litestar, plain redis-py)"
	@echo "make openapi        regenerate openapi/openapi.json from the app"
	@echo "make openapi-check  fail if the committed openapi/openapi.json differs from the app"
	@echo "make client-check   generate Python and TypeScript clients from the spec, type-check and run them"
	@echo "make lock           update uv.lock after editing dependencies in pyproject.toml (LOCK_ARGS=--upgrade)"
	@echo "make venv           .venv with everything make test needs (make venv-run: what make run needs)"
	@echo "make system-deps    install Chromium, wrk and valgrind (Debian: apt-get, as root or with sudo)"
	@echo "make bench          load the service and a bare-Litestar baseline with wrk; print ratios"
	@echo "make bench-odds     the worst-case odds of every ruleset, in-process and through HTTP"
	@echo "make bench-odds-memory  what an odds pool process holds (RSS, PSS, USS) as it works"
	@echo "make bench-inputs   every request string at its worst (maxLength, adversarial), in-process;"
	@echo "                    fails when an answer is a 5xx or takes over 50 ms"
	@echo "make flood          four clients flood the costliest odds; /healthz and a check measured"
	@echo "make bench-instructions  instructions per request (valgrind callgrind), in-process, beside"
	@echo "                    the bare-Litestar baseline and a FastAPI peer (BENCH_ARGS='-s check -s peer')"
	@echo "make failover       the Redis master killed under 20 writers (Sentinel, Cluster; with and"
	@echo "                    without REDIS_WAIT_REPLICAS): writes lost, duplicated, time to recover"
	@echo "                    (FAILOVER_ARGS='-s sentinel-wait --runs 3'; REDIS_SERVER=path to pick one)"
	@echo "make load URL=...   a mixed locust workload against any URL (USERS=50 DURATION=1m)"
	@echo "make clean          remove .venv, .uv and caches"

$(UV):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (set PYTHON=python3.11)")'
	rm -rf $(UV_HOME)
	$(PYTHON) -m venv $(UV_HOME)
	$(UV_HOME)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# Created once from $(PYTHON); `uv sync` then keeps it (given --python, it would
# recreate it whenever the interpreter is named by a path).
$(VENV)/pyvenv.cfg: | $(UV)
	$(UV) venv --quiet --allow-existing --python $(PYTHON) $(VENV)

# Fails, naming the fix, when pyproject.toml changed and uv.lock was not regenerated.
define check_lock
@$(UV) lock --check --quiet --python $(PYTHON) \
	|| { echo "uv.lock does not match pyproject.toml: run 'make lock' and commit uv.lock" >&2; exit 1; }
endef

$(RUN_STAMP): pyproject.toml uv.lock | $(VENV)/pyvenv.cfg
	$(check_lock)
	@rm -f $(DEV_STAMP)
	$(UV_SYNC)
	@touch $@

$(DEV_STAMP): pyproject.toml uv.lock | $(VENV)/pyvenv.cfg
	$(check_lock)
	$(UV_SYNC) --extra dev
	@touch $@ $(RUN_STAMP)

venv-run: $(RUN_STAMP)

venv: $(DEV_STAMP)

lock: | $(UV)
	$(UV) lock --python $(PYTHON) $(LOCK_ARGS)

run: $(RUN_STAMP)
	$(BIN)/python -m service

LINT_COMMANDS := \
	$(BIN)/ruff check service tests; \
	$(BIN)/ruff format --check service tests; \
	$(BIN)/mypy --strict service; \
	$(BIN)/lint-imports --no-cache

lint: $(DEV_STAMP)
	@set -ex; $(LINT_COMMANDS)

# chromium first: a machine that cannot get it stops before the lint and the install.
# The tests write bytecode even where the environment sets PYTHONDONTWRITEBYTECODE (into
# the ignored __pycache__ directories): otherwise every worker would rewrite the asserts of
# each test module and of the pytest plugins' packages (Schemathesis, Hypothesis, Faker:
# some 500 modules, about 5 s of CPU per process) and every served app would compile
# service/ again.
# The lint runs beside the tests, not before them (mypy --strict alone takes 5-10 s of a
# fresh clone's run): its output is printed once the tests end, and either failing fails
# make test.
test: chromium $(DEV_STAMP)
	@lint_log=$$(mktemp); \
	( set -ex; $(LINT_COMMANDS) ) >"$$lint_log" 2>&1 & lint=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --maxprocesses 8 --dist worksteal $(PYTEST_ARGS); \
	tests=$$?; wait $$lint; linted=$$?; \
	echo "---- make lint (run beside the tests) ----"; cat "$$lint_log"; rm -f "$$lint_log"; \
	if [ $$linted -ne 0 ]; then echo "make test: the lint failed (above)" >&2; fi; \
	if [ $$tests -ne 0 ]; then echo "make test: the tests failed" >&2; fi; \
	[ $$tests -eq 0 ] && [ $$linted -eq 0 ]

# The HTTP and session tests again on the plain paths (service/compat/__init__.py): every
# route through plain Litestar and plain redis-py. CI runs it after `make test`.
test-plain: $(DEV_STAMP)
	FAST_PATHS=off PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(PYTEST_WORKERS) --maxprocesses 8 --dist worksteal \
		tests/http tests/sessions tests/compat $(PYTEST_ARGS)

openapi: $(DEV_STAMP)
	$(BIN)/python -m service.export > openapi/openapi.json.tmp && mv openapi/openapi.json.tmp openapi/openapi.json

openapi-check: $(DEV_STAMP)
	@$(BIN)/python -m service.export | diff -u openapi/openapi.json - \
		&& echo "openapi/openapi.json matches the app" \
		|| { echo "openapi/openapi.json is stale: run 'make openapi' and commit it"; exit 1; }

bench: $(DEV_STAMP)
	@command -v wrk >/dev/null 2>&1 || { echo "make bench needs wrk: apt-get install wrk (Debian), or make system-deps"; exit 2; }
	$(BIN)/python -m tests.bench.run

bench-odds: $(DEV_STAMP)
	$(BIN)/python -m tests.bench.odds

bench-odds-memory: $(DEV_STAMP)
	$(BIN)/python -m tests.bench.odds_memory

# Every string member of every request at its worst (docs/input-costs.md); BENCH_ARGS
# picks operations (-o ID) or samples (--per-member N).
bench-inputs: $(DEV_STAMP)
	$(BIN)/python -m tests.bench.worst_inputs $(BENCH_ARGS)

flood: $(DEV_STAMP)
	$(BIN)/python -m tests.bench.flood_odds

# Instructions per request under callgrind: repeatable whatever the machine's load, so
# they gate changes that wall-clock timings cannot see. The [bench] extra adds the FastAPI
# peer (tests/bench/peer_fastapi.py); valgrind is a Debian package.
bench-instructions: $(DEV_STAMP)
	@command -v valgrind >/dev/null 2>&1 || { $(call apt_install,valgrind,make bench-instructions needs it); }
	@$(BIN)/python -c 'import fastapi' 2>/dev/null || $(UV_SYNC) --extra dev --extra bench
	$(BIN)/python -m tests.bench.instructions $(BENCH_ARGS)

# Real redis-server processes on this machine (no Docker): a primary, a replica and three
# sentinels, or a 3-master cluster with replicas; the master killed with SIGKILL under load.
FAILOVER_ARGS ?=
failover: $(DEV_STAMP)
	$(BIN)/python -m tests.faults.failover $(FAILOVER_ARGS)

URL ?= http://127.0.0.1:8000
USERS ?= 50
DURATION ?= 1m
load: $(DEV_STAMP)
	@$(BIN)/python -c 'import locust' 2>/dev/null || $(UV_SYNC) --extra dev --extra load
	$(BIN)/locust -f tests/load/locustfile.py --headless --host $(URL) \
		--users $(USERS) --spawn-rate $(USERS) --run-time $(DURATION) --only-summary

# $(call apt_install,PACKAGE,WHY): shell code that installs a missing Debian package (as
# root, or through password-less sudo) when SYSTEM_INSTALL=auto, and otherwise prints the
# one command that does and fails.
define apt_install
if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
if ! command -v apt-get >/dev/null 2>&1; then \
	echo "$(1) is not installed ($(2)): install it with your package manager, then run make again." >&2; \
	exit 1; \
fi; \
if [ "$(SYSTEM_INSTALL)" = auto ] && { [ -z "$$sudo" ] || sudo -n true 2>/dev/null; }; then \
	[ -z "$$sudo" ] || sudo="sudo -n"; \
	echo "$(1) is not installed ($(2)); installing it: $${sudo:+sudo }apt-get install -y $(1)"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null 2>&1 \
		|| { $$sudo apt-get update -qq \
			&& $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null; } \
		|| { echo "apt-get could not install $(1)" >&2; exit 1; }; \
else \
	echo "$(1) is not installed ($(2)). Install it, then run make again:" >&2; \
	echo "    $${sudo:+sudo }apt-get install -y $(1)" >&2; \
	exit 1; \
fi
endef

# Where tests/support/browser.py looks for it: chromium or chromium-browser on PATH.
chromium:
	@for name in $(CHROMIUM); do command -v "$$name" >/dev/null 2>&1 && exit 0; done; \
	$(call apt_install,chromium,the browser tests need it); \
	for name in $(CHROMIUM); do command -v "$$name" >/dev/null 2>&1 && exit 0; done; \
	echo "chromium was installed but none of '$(CHROMIUM)' is on PATH" >&2; exit 1

system-deps: chromium
	@command -v wrk >/dev/null 2>&1 || { $(call apt_install,wrk,make bench needs it); }
	@command -v valgrind >/dev/null 2>&1 || { $(call apt_install,valgrind,make bench-instructions needs it); }

clean:
	rm -rf $(VENV) .uv .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Clients generated from openapi/openapi.json (openapi-python-client, openapi-typescript;
# pinned in tests/clients/), type-checked, and run against the served app. Needs the
# PyPI and npm registries on first use. CI runs it after make test.
client-check: $(DEV_STAMP)
	tests/clients/check.sh $(BIN)/python
