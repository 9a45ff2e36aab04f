"""A browser follows an OpenD6 scene: real headless Chromium opens the scene's event stream
with a stream ticket (its EventSource cannot send a token), the table moves over HTTP, and
the events arrive in the page; when the connection drops, the EventSource's own reconnection
is refused (a ticket opens one stream, once), and the page asks a new ticket and resumes
with `?last_event_id=`: it misses nothing, repeats nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, sync_playwright

from service.rulesets.opend6.rules.scenes.events import SCENE_EVENTS
from tests.support.browser import CHROMIUM_FLAGS, chromium_path
from tests.support.proxy import HoldingProxy
from tests.support.session_kinds import KINDS, scene_initiative

SCENE = next(kind for kind in KINDS if kind.kind == "scene")

# What a page does (docs/sessions.md, "Stream tickets for browsers"): a ticket per EventSource; when
# one closes for good, a new ticket, resuming after the last event id seen.
FOLLOW = """
async ([events, tickets, token]) => await new Promise((resolve, reject) => {
  window.seen = []; window.opened = 0; window.errors = 0; window.tickets = 0;
  let last = null;
  const follow = async () => {
    window.tickets += 1;
    const headers = {Authorization: `Bearer ${token}`};
    const answer = await fetch(tickets, {method: "POST", headers});
    const {ticket} = await answer.json();
    const resume = last === null ? "" : `&last_event_id=${encodeURIComponent(last)}`;
    const source = new EventSource(`${events}?ticket=${ticket}${resume}`);
    window.source = source;
    source.onopen = () => { window.opened += 1; if (window.opened === 1) resolve(true); };
    source.onerror = () => {
      window.errors += 1;
      if (source.readyState === EventSource.CLOSED) follow();
    };
    for (const name of %s) {
      source.addEventListener(name, (event) => {
        last = event.lastEventId;
        window.seen.push({type: event.type, id: event.lastEventId, data: JSON.parse(event.data)});
      });
    }
  };
  follow();
  setTimeout(() => reject(new Error("the stream did not open")), 15000);
})
"""


@pytest.fixture
def proxy(served_url: str) -> Iterator[HoldingProxy]:
    """The page and its stream reach the service through a proxy that can cut them."""
    between = HoldingProxy(served_url)
    try:
        yield between
    finally:
        between.close()


def _wait_for_events(page: Page, count: int) -> list[dict]:
    page.wait_for_function(f"window.seen.length >= {count}", timeout=20_000)
    return page.evaluate("window.seen")


def test_a_browser_follows_a_scene_with_a_ticket_and_resumes_after_a_drop(
    served_url: str, proxy: HoldingProxy
) -> None:
    origin = f"http://127.0.0.1:{proxy.port}"
    with httpx.Client(base_url=served_url, timeout=10) as table:
        scene = SCENE.create(table)
        token = scene.player["Authorization"].split()[1]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
            )
            try:
                page = browser.new_page()
                page.goto(f"{origin}/healthz")  # a page of the stream's own origin
                events = f"{origin}{scene.path}/events"
                follow = [events, f"{events}/tickets", token]
                assert page.evaluate(FOLLOW % json.dumps(SCENE_EVENTS), follow) is True

                # The player rolls initiative ("Initiative"); the page sees it.
                assert SCENE.player_move(table, scene).status_code == 200
                (first,) = _wait_for_events(page, 1)
                assert first["type"] == "initiative.rolled"
                assert first["data"]["participant"] == "ana-pc"

                # The connection drops; meanwhile the GM rolls for the goblins, which
                # sets the order and starts the first turn.
                proxy.cut()
                page.wait_for_function("window.errors >= 1", timeout=10_000)
                gm = table.post(
                    f"{scene.path}/moves",
                    json=scene_initiative("goblins", [2], 3),
                    headers=scene.gm,
                )
                assert gm.status_code == 200, gm.text

                seen = _wait_for_events(page, 4)
                opened = page.evaluate("window.opened")
                tickets = page.evaluate("window.tickets")
                page.evaluate("window.source.close()")
            finally:
                browser.close()
    assert opened == 2
    assert tickets == 2  # reconnected with a new ticket (its own retry, on the old, refused)
    assert [event["type"] for event in seen] == [
        "initiative.rolled",
        "initiative.rolled",
        "order.set",
        "turn.started",
    ]
    assert [event["data"].get("participant") for event in seen] == [
        "ana-pc",
        "goblins",
        None,
        "ana-pc",
    ]
    # Resumed after the last id it had (Last-Event-ID), not replayed from the start.
    ids = [event["id"] for event in seen]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids, key=lambda i: tuple(int(p) for p in i.split("-")))
