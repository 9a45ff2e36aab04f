#!/usr/bin/env bash
# Real clients against the contract (`make client-check`): generate a Python client with
# openapi-python-client and a TypeScript one with openapi-typescript + openapi-fetch from
# the committed openapi/openapi.json, type-check a small VTT client on each (mypy --strict,
# tsc strict) that resolves a Bullseye check and plays a whole conflict with player
# tokens, rolls OpenD6 dice and plays a scene with the GM's and a player's tokens, and
# makes a Self/Conflict check, then serve the app and run both clients against it; then
# `jose` (npm) verifies a signed check's roll receipt against the published JWK Set
# (receipts.ts). Last, every published example of every operation and the problems around
# it (answers.py, from tests/support/answer_cases.py: a schema error, a rules refusal, a
# missing token, … each declared problem status a request can bring about) are sent to
# the app and to a second one that computes no odds (every `odds-too-costly`), and every
# answer is read through both generated clients: the Python models' `from_dict` and every
# attribute they type as present (read_answers.py), and every member the TypeScript types
# make non-optional (answers.ts, with present.ts checked by tsc against the generated
# types, and probe.ts holding openapi-typescript's rule to the tool). A contract change
# that breaks a generated client, or an answer a generated type does not describe, fails
# here.
#
#   tests/clients/check.sh [PROJECT_PYTHON]
#
# PROJECT_PYTHON (the first argument or the variable; default .venv/bin/python) is the
# project venv's python: it serves the app, creates the tool venv, and its mypy checks
# the Python client. Needs node >= 20 and npm, and the package registries on first run.
# Everything it makes is under tests/clients/build/ and tests/clients/node_modules/.
set -euo pipefail

project_python="${1:-${PROJECT_PYTHON:-.venv/bin/python}}"
case "$project_python" in
  /*) ;;
  */*) project_python="$PWD/$project_python" ;;
  *) project_python="$(command -v "$project_python" || echo "$project_python")" ;;
esac
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"

build="$here/build"
tools="$build/venv"
spec="$root/openapi/openapi.json"
mypy="$(dirname "$project_python")/mypy"
summary=()
started=$SECONDS
step_started=$SECONDS

fail() { echo "client-check: $*" >&2; exit 1; }
servers=()
served=""
stop_servers() {
  local server
  for server in "${servers[@]}"; do
    if kill -0 "$server" 2>/dev/null; then
      kill -TERM "$server" 2>/dev/null || true
      for _ in $(seq 1 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$server" 2>/dev/null || true
      wait "$server" 2>/dev/null || true
    fi
  done
  servers=()
}
on_exit() {
  local status=$?
  stop_servers
  [ "$status" = 0 ] || echo "client-check FAILED${served:+ (service logs: tests/clients/build/service*.log)}" >&2
}
trap on_exit EXIT
trap 'exit 130' INT TERM
step() { step_started=$SECONDS; echo "==> $*"; }
done_step() { summary+=("$(printf '%-76s %3ss' "$1" $((SECONDS - step_started)))"); }

[ -x "$project_python" ] || fail "no project python at $project_python (run make venv, or pass its path)"
[ -x "$mypy" ] || fail "no mypy next to $project_python (make venv installs it)"
command -v node >/dev/null && command -v npm >/dev/null || fail "node >= 20 and npm are required"
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' \
  || fail "node >= 20 is required (found $(node --version))"
mkdir -p "$build"

step "tool venv (requirements.txt)"
wanted="$({ cat requirements.txt; "$project_python" -VV; } | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$tools/.requirements.sha256" 2>/dev/null)" != "$wanted" ]; then
  rm -rf "$tools"
  "$project_python" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
  echo "$wanted" > "$tools/.requirements.sha256"
fi
done_step "tool venv: $("$tools/bin/openapi-python-client" --version)"

step "npm ci (package-lock.json)"
# Every version is pinned (package.json, package-lock.json). TypeScript stays at 5.x:
# openapi-typescript 7.13 builds its output with the `typescript` package's JavaScript
# API (its peer dependency is typescript ^5.x), which TypeScript 7 does not provide.
npm ci --no-audit --no-fund --loglevel=error
version() { node -p "require('./node_modules/$1/package.json').version"; }
done_step "npm ci: openapi-typescript $(version openapi-typescript), openapi-fetch $(version openapi-fetch), typescript $(version typescript)"

step "generate the Python client"
# --fail-on-warning: a schema the generator cannot handle fails instead of silently
# dropping a model or an endpoint. Its ruff post-hooks need the tool venv on PATH.
PATH="$tools/bin:$PATH" "$tools/bin/openapi-python-client" generate --path "$spec" \
  --output-path "$build/python-client" --overwrite --fail-on-warning
done_step "openapi-python-client generate"

step "generate the TypeScript types"
rm -rf "$build/ts" "$build/ts-out" "$build/probe"
npm run --silent generate
"$tools/bin/python" present_keys.py "$spec" "$build/ts/present.ts"
done_step "openapi-typescript (the document, probe/defaults.json), present.ts"

step "type-check the Python client (mypy --strict)"
(cd "$root" && MYPYPATH="$build/python-client" "$mypy" --strict \
  --python-executable "$tools/bin/python" --cache-dir "$build/mypy-cache" \
  tests/clients/vtt_client.py)
done_step "mypy --strict vtt_client.py (and the generated package)"

step "type-check the TypeScript client (tsc, strict)"
# One tsc run: it type-checks exactly as `npm run typecheck` (tsc --noEmit) does and,
# with noEmitOnError, writes build/ts-out/*.js only when there is no error.
npm run --silent build
done_step "tsc -p tsconfig.json (strict) vtt.ts, answers.ts, present.ts, probe.ts"

step "serve the app, and one that computes no odds"
free_port() {
  "$project_python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# serve LOG PORT [NAME=VALUE...]: the app on PORT, in a clean environment (no REDIS_URL:
# an embedded Redis; no API_KEYS or RATE_LIMIT) but for the settings given.
serve() {
  local log=$1 port=$2
  shift 2
  (cd "$root" && exec env -i PATH="$PATH" HOME="${HOME:-/tmp}" TMPDIR="${TMPDIR:-/tmp}" \
    HOST=127.0.0.1 PORT="$port" WEB_CONCURRENCY=1 LOG_FORMAT=json "$@" \
    "$project_python" -m service) > "$build/$log" 2>&1 &
  servers+=($!)
  served=1
}
# ready BASE PID LOG: wait for the service's /readyz (60 s at most).
ready() {
  "$tools/bin/python" - "$1" "$2" <<'EOF' || { tail -n 30 "$build/$3" >&2; fail "the service did not become ready"; }
import os, sys, time, urllib.request
base, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        sys.exit("the service exited")
    try:
        with urllib.request.urlopen(f"{base}/readyz", timeout=2) as answer:
            if answer.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit("no 200 from /readyz within 60 s")
EOF
}
port="$(free_port)"
base="http://127.0.0.1:$port"
serve service.log "$port"
no_odds_port="$(free_port)"
no_odds_base="http://127.0.0.1:$no_odds_port"
# No pool and no inline budget: every odds request is refused, `odds-too-costly`.
serve service-no-odds.log "$no_odds_port" ODDS_WORKERS=0 ODDS_INLINE_MS=0
ready "$base" "${servers[0]}" service.log
ready "$no_odds_base" "${servers[1]}" service-no-odds.log
if ! "$tools/bin/python" -c 'import json, sys, urllib.request
served = json.load(urllib.request.urlopen(sys.argv[1] + "/openapi.json"))
sys.exit(served != json.load(open(sys.argv[2], encoding="utf-8")))' "$base" "$spec"; then
  echo "warning: the served /openapi.json differs from openapi/openapi.json (make openapi-check)"
fi
done_step "python -m service on $base and $no_odds_base (embedded Redis each)"

step "run the Python client against $base"
PYTHONPATH="$build/python-client" "$tools/bin/python" vtt_client.py "$base"
done_step "python vtt_client.py: Bullseye check + conflict, OpenD6 roll + scene, Self/Conflict, travelogue game"

step "run the TypeScript client against $base"
node "$build/ts-out/vtt.js" "$base"
done_step "node vtt.js: Bullseye check + conflict, OpenD6 roll + scene, Self/Conflict"

step "verify a roll receipt with jose $(version jose) against $base"
node "$build/ts-out/receipts.js" "$base"
done_step "node receipts.js: a signed check verified with jose and canonicalize"

step "record every example's answer, and the problems around them"
(cd "$root" && PYTHONPATH="$root" "$project_python" tests/clients/answers.py \
  "$base" "$no_odds_base" "$build/answers.json")
done_step "answers.py: every example of every operation and its problems, recorded"

step "read every answer through the generated Python client"
PYTHONPATH="$build/python-client" "$tools/bin/python" read_answers.py "$build/answers.json"
done_step "read_answers.py: from_dict and every attribute typed present"

step "read every answer as the generated TypeScript types describe it"
node "$build/ts-out/answers.js" "$build/answers.json" "$spec"
done_step "node answers.js: every member typed present, none untyped"

stop_servers
echo
echo "client-check passed in $((SECONDS - started))s"
printf '  %s\n' "${summary[@]}"
