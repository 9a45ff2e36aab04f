"""A real headless Chromium opens /docs from a running server (no internet needed)."""

from __future__ import annotations

from playwright.sync_api import sync_playwright

from tests.support.browser import CHROMIUM_FLAGS, chromium_path


def test_docs_page_lists_the_check_operation(served_url: str) -> None:
    """The Swagger UI renders from locally served assets and shows POST /v1/checks."""
    foreign_requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
        )
        try:
            page = browser.new_page()
            page.on(
                "request",
                lambda request: (
                    foreign_requests.append(request.url)
                    if not request.url.startswith((served_url, "data:"))
                    else None
                ),
            )
            page.goto(f"{served_url}/docs")
            operation = page.locator("#operations-checks-resolveCheck")
            operation.wait_for(state="visible", timeout=20_000)
            assert "/v1/checks" in operation.inner_text()
            assert page.locator(".opblock-summary-path", has_text="/v1/checks/batch").count() == 1
            assert page.title().startswith("Tabletop rules service")
        finally:
            browser.close()
    assert foreign_requests == [], "the docs page must not load anything from the internet"
