"""A browser's own EventSource follows a conflict with a stream ticket (it cannot send an
Authorization header): real headless Chromium against the served app."""

from __future__ import annotations

import httpx
from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM_FLAGS, chromium_path
from tests.support.bullseye_conflicts import bearer, conflict_body, faces

LISTEN = """
async ([url, count]) => await new Promise((resolve, reject) => {
  const source = new EventSource(url);
  const seen = [];
  const timer = setTimeout(() => { source.close(); reject(new Error(JSON.stringify(seen))); },
                           15000);
  const note = (event) => {
    seen.push({type: event.type, data: event.data});
    if (seen.length === count) { clearTimeout(timer); source.close(); resolve(seen); }
  };
  for (const name of ["submission.received", "round.resolved", "message"]) {
    source.addEventListener(name, note);
  }
})
"""


def test_an_event_source_with_a_ticket_receives_the_rounds_events(served_url: str) -> None:
    created = httpx.post(f"{served_url}/v1/conflicts", json=conflict_body()).json()
    base = f"{served_url}/v1/conflicts/{created['id']}"
    ana = bearer(created["tokens"]["players"]["ana"])
    ticket = httpx.post(f"{base}/events/tickets", headers=ana).json()["ticket"]
    for who, token in (("ana", ana), ("bo", bearer(created["tokens"]["players"]["bo"]))):
        answer = httpx.post(
            f"{base}/rounds/1/checks", json={"participant": who, **faces(9)}, headers=token
        )
        assert answer.status_code == 202
    gm = bearer(created["tokens"]["gm"])
    answer = httpx.post(
        f"{base}/rounds/1/checks", json={"participant": "gm", **faces(9)}, headers=gm
    )
    assert answer.status_code == 200
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            page = browser.new_page()
            page.goto(f"{served_url}/healthz")  # same origin as the stream
            seen = page.evaluate(LISTEN, [f"{base}/events?ticket={ticket}", 4])
        finally:
            browser.close()
    assert [event["type"] for event in seen] == [
        "submission.received",
        "submission.received",
        "submission.received",
        "round.resolved",
    ]
    assert all(event["data"] for event in seen)  # no empty message from a keep-alive
