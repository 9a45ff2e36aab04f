"""A page reloaded mid-game resumes its event stream where it left off (integrators' review:
an EventSource that reopened replayed from `game.created`): the page keeps the last event id
in its session storage, and after the reload asks a new ticket and opens
`…/events?ticket=…&last_event_id=…` — real headless Chromium, a travelogue game played over
HTTP meanwhile."""

from __future__ import annotations

import json

import httpx
from playwright.sync_api import Page, sync_playwright

from service.rulesets.travelogue.rules.game.events import GAME_EVENTS
from tests.support.browser import CHROMIUM_FLAGS, chromium_path
from tests.support.session_kinds import KINDS

GAME = next(kind for kind in KINDS if kind.kind == "game")

# What a page does: remember the last id it showed; on (re)load, resume after it.
FOLLOW = """
async ([events, tickets, token, names]) => {
  window.seen = [];
  const last = sessionStorage.getItem("last-event-id");
  const headers = {Authorization: `Bearer ${token}`};
  const answer = await fetch(tickets, {method: "POST", headers});
  const {ticket} = await answer.json();
  const resume = last === null ? "" : `&last_event_id=${encodeURIComponent(last)}`;
  const source = new EventSource(`${events}?ticket=${ticket}${resume}`);
  for (const name of names) {
    source.addEventListener(name, (event) => {
      sessionStorage.setItem("last-event-id", event.lastEventId);
      window.seen.push({type: event.type, id: event.lastEventId, data: JSON.parse(event.data)});
    });
  }
  await new Promise((resolve) => { source.onopen = resolve; });
  return last;
}
"""


def _follow(page: Page, served_url: str, path: str, token: str) -> str | None:
    events = f"{served_url}{path}/events"
    args = [events, f"{events}/tickets", token, list(GAME_EVENTS)]
    resumed: str | None = page.evaluate(FOLLOW, args)
    return resumed


def _seen(page: Page, count: int) -> list[dict]:
    page.wait_for_function(f"window.seen.length >= {count}", timeout=20_000)
    return page.evaluate("window.seen")


def test_a_reloaded_page_resumes_its_stream_by_query(served_url: str) -> None:
    with httpx.Client(base_url=served_url, timeout=10) as table:
        game = GAME.create(table)
        token = game.player["Authorization"].split()[1]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
            )
            try:
                page = browser.new_page()
                page.goto(f"{served_url}/healthz")
                assert _follow(page, served_url, game.path, token) is None
                (created,) = _seen(page, 1)
                assert created["type"] == "game.created"

                page.reload()  # the page forgets everything but its session storage
                assert GAME.player_move(table, game).status_code == 200
                resumed_after = _follow(page, served_url, game.path, token)
                after_reload = _seen(page, 1)
            finally:
                browser.close()
    assert resumed_after == created["id"]
    # Only what came after the last event shown, never game.created again.
    assert [event["type"] for event in after_reload] == ["flag.taken"]
    assert all(event["data"]["type"] == event["type"] for event in after_reload)
    assert json.dumps(after_reload).count("game.created") == 0
