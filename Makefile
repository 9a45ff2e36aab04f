# Everything a newcomer needs: `make run` and `make test` (both create .venv on first use).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PYTEST_ARGS ?=

.PHONY: help venv run test lint openapi openapi-check system-deps bench load clean

help:
	@echo "make run            serve on http://$${HOST:-127.0.0.1}:$${PORT:-8000} (embedded Redis unless REDIS_URL)"
	@echo "make lint           ruff, mypy --strict and the import contracts (pyproject.toml)"
	@echo "make test           lint, type-check and run the whole test suite"
	@echo "make openapi        regenerate openapi/openapi.json from the app"
	@echo "make openapi-check  fail if the committed openapi/openapi.json differs from the app"
	@echo "make system-deps    install Chromium for the browser test (Debian, as root)"
	@echo "make bench          load the service and a bare-Litestar baseline with wrk; print ratios"
	@echo "make load URL=...   a mixed locust workload against any URL (USERS=50 DURATION=1m)"
	@echo "make clean          remove .venv and caches"

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python >= 3.11 is required (set PYTHON=python3.11)")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/python -m service

lint: $(STAMP)
	$(BIN)/ruff check service tests
	$(BIN)/ruff format --check service tests
	$(BIN)/mypy --strict service
	$(BIN)/lint-imports --no-cache

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

openapi: $(STAMP)
	$(BIN)/python -m service.export > openapi/openapi.json.tmp && mv openapi/openapi.json.tmp openapi/openapi.json

openapi-check: $(STAMP)
	@$(BIN)/python -m service.export | diff -u openapi/openapi.json - \
		&& echo "openapi/openapi.json matches the app" \
		|| { echo "openapi/openapi.json is stale: run 'make openapi' and commit it"; exit 1; }

bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { echo "make bench needs wrk: apt-get install wrk (Debian), or make system-deps"; exit 2; }
	$(BIN)/python -m tests.bench.run

URL ?= http://127.0.0.1:8000
USERS ?= 50
DURATION ?= 1m
load: $(STAMP)
	@$(BIN)/python -c 'import locust' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[dev,load]'
	$(BIN)/locust -f tests/load/locustfile.py --headless --host $(URL) \
		--users $(USERS) --spawn-rate $(USERS) --run-time $(DURATION) --only-summary

system-deps:
	@command -v chromium >/dev/null 2>&1 && command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium wrk; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
