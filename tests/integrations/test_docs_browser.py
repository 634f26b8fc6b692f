"""The API docs page in a real browser: Swagger UI renders every operation from the package's
own static files (nothing fetched from elsewhere, no script refused by the page's policy)."""

from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_docs_page_renders_the_operations_offline(page, live_server):
    outside: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) and not r.url.startswith("data:") else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/api/v1/docs")
    page.locator(".opblock-summary-path").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert "/api/v1/passages" in paths and "/api/v1/answers" in paths
    assert outside == [], outside
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
