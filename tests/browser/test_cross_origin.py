"""A page of another origin calls the service from real headless Chromium (CORS_ORIGINS
names the page's origin): the browser's preflight passes, and the page reads every header
the contract documents — RateLimit-*, X-Request-ID, Location, ETag; a header the service
does not take is refused by the browser, as the preflight's problem says."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM_FLAGS, chromium_path
from tests.support.served import ServedApp
from tests.support.session_kinds import SCENE


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>A VTT module</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture(scope="module")
def page_origin() -> Iterator[str]:
    """Another origin (another port) serving the module's page."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def service(
    redis_url: str, page_origin: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    env = {
        "REDIS_URL": redis_url,
        "CORS_ORIGINS": page_origin,
        "RATE_LIMIT": "100/minute",
        # The first call also connects the limiter to Redis: on a loaded machine the 50 ms
        # default may run out, and the limiter then steps aside (no RateLimit-* headers).
        "RATE_LIMIT_BUDGET_SECONDS": "1",
    }
    app = ServedApp(env, Path(tmp_path_factory.mktemp("cors")) / "service.log")
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


CALL = """
async ([url, body, headers]) => {
  const answer = await fetch(url, {method: "POST", body: JSON.stringify(body),
                                   headers: {"Content-Type": "application/json", ...headers}});
  const read = {};
  for (const name of ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
                      "X-Request-ID", "Location", "ETag"]) {
    read[name] = answer.headers.get(name);
  }
  return {status: answer.status, headers: read};
}
"""

REFUSED = """
async ([url]) => {
  try {
    await fetch(url, {method: "POST", body: "{}",
                      headers: {"Content-Type": "application/json", "X-Debug": "1"}});
    return "answered";
  } catch (error) { return error.name; }
}
"""


def test_a_page_of_another_origin_reads_every_documented_header(
    service: str, page_origin: str
) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            page = browser.new_page()
            page.goto(f"{page_origin}/")
            check = page.evaluate(CALL, [f"{service}/v1/checks", {"target": 5, "seed": 1}, {}])
            scene = page.evaluate(CALL, [f"{service}/v1/opend6/scenes", SCENE, {}])
            refused = page.evaluate(REFUSED, [f"{service}/v1/checks"])
        finally:
            browser.close()
    assert check["status"] == 200
    assert check["headers"]["RateLimit-Limit"] == "100"
    assert int(check["headers"]["RateLimit-Remaining"]) < 100
    assert int(check["headers"]["RateLimit-Reset"]) >= 0
    assert check["headers"]["X-Request-ID"]
    assert scene["status"] == 201
    assert scene["headers"]["Location"].startswith("/v1/opend6/scenes/")
    assert scene["headers"]["ETag"] == '"1"'
    assert refused == "TypeError"  # the browser's own refusal after the 403 preflight
