"""The desk's lists and reading pages fit a 1366 px wide screen, in a real browser (Debian's
chromium). Screenshots of each page are saved under test-artifacts/desk-reading/."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claims.models import Answer
from sources.benchdata import bench_data_generate

# Slow (issue 25: `make test` under 8 minutes): a whole flow in Chromium; `make test-slow` and CI run it.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "desk-reading"
PAGES = [
    ("sources", "/admin/sources/source/"),
    ("passage-versions", "/admin/sources/passageversion/"),
    ("source-versions", "/admin/sources/sourceversion/"),
    ("fetches", "/admin/sources/fetchresult/"),
    ("answers", "/admin/claims/answer/"),
    ("citations", "/admin/claims/citation/"),
    ("judgements", "/admin/claims/judgement/"),
    ("audit-log", "/admin/reviews/auditlog/"),
    ("overview", "/admin/sources/source/overview/"),
    ("health", "/health/"),
]


def test_desk_pages_fit_1366_pixels(page, live_server, superuser):
    bench_data_generate(scale=0.002)
    answer = Answer.objects.order_by("pk").first()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "pw-root")
    page.keyboard.press("Enter")
    page.wait_for_url("**/admin/")
    too_wide = []
    for name, path in [*PAGES, ("trace", f"/admin/claims/answer/{answer.pk}/trace/")]:
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, path
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        widest_table = page.evaluate("Math.max(0, ...Array.from(document.querySelectorAll('table')).map(t => t.getBoundingClientRect().right))")
        if width > 1366 or widest_table > 1366:
            too_wide.append((path, width, widest_table))
    assert not too_wide, too_wide
