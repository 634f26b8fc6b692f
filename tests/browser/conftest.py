from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

CHROMIUM = shutil.which("chromium")


# Module scope: Playwright's sync API keeps an event loop running in this thread while it is
# open, which would break later tests that call asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if CHROMIUM is None:
        pytest.skip("browser tests need Debian's chromium (apt-get install chromium; `make test` does it as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server, settings):
    settings.ALLOWED_HOSTS = ["*"]
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()
