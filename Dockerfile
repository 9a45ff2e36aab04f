# syntax=docker/dockerfile:1
# Multi-stage: build a wheel with its dependencies, run as a non-root user.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY service ./service
RUN python -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir .

FROM python:3.11-slim
COPY --from=build /opt/venv /opt/venv
RUN useradd --system --uid 10001 --no-create-home bullseye
USER bullseye
ENV PATH=/opt/venv/bin:$PATH HOST=0.0.0.0 PORT=8000 LOG_FORMAT=json
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"PORT\",\"8000\")}/healthz', timeout=2)"
CMD ["python", "-m", "service"]
