"""Problem 1 of issue 20 walked on the desk in a real browser (Debian's chromium): a price
change approved, a rollback, the shop reverting its page, and the answer's trace page, open all
along, reads `supported` again by itself, without a reload."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.test import override_settings

from claims.models import Answer, AnswerState
from claims.services import answer_submit
from sources.demo.site import DemoShop, serve
from sources.models import PassageVersion, Source, SourceVersion
from sources.services import source_refetch, source_register, version_activate
from tests.desk.test_editor_day_browser import CSP_ERRORS, _login, _shot

# Slow (issue 25: `make test` under 8 minutes): a whole flow in Chromium; `make test-slow` and CI run it.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def price_shop() -> Iterator[tuple[str, DemoShop]]:
    server, shop = serve("127.0.0.1", 0)
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01):
        yield f"http://127.0.0.1:{server.server_address[1]}", shop
    server.shutdown()
    server.server_close()


def _state(answer: Answer) -> str:
    return Answer.objects.get(pk=answer.pk).state


def test_rollback_and_identical_revert_end_supported_on_the_desk(browser, live_server, settings, price_shop, editor, approver, run_jobs):
    settings.ALLOWED_HOSTS = ["*"]
    base, shop = price_shop
    CSP_ERRORS.clear()
    source = source_register(actor=editor, url=f"{base}/prices", title="Price list", priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=source).pk, reason="prices checked")
    run_jobs()
    tent = PassageVersion.objects.get(passage__source=source, memberships__source_version__is_active=True, text__contains="Ridge 2")
    answer = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1].", passage_version_ids=[tent.pk])
    run_jobs()
    assert _state(answer) == AnswerState.SUPPORTED

    # The trace of the answer stays open in its own tab all along.
    tab = _login(browser, live_server.url, "approver")
    tab.goto(f"{live_server.url}/admin/claims/answer/{answer.pk}/trace/")
    tab.evaluate("window.__noReload = true")
    heading = tab.locator("#trace-answer")
    assert "supported" in heading.inner_text()

    # The price goes up; the approver approves version 2 on the source page.
    shop.change()
    ap = _login(browser, live_server.url, "approver")
    source_refetch(actor=editor, source_id=source.pk)  # the scheduled re-check
    run_jobs()
    ap.goto(f"{live_server.url}/admin/desk/sources/{source.pk}/")
    ap.get_by_role("button", name="Approve version 2").click()
    ap.get_by_text("Approved: version 2 of Price list is now active").wait_for()
    run_jobs()
    tab.locator("#trace-answer", has_text="contradicted").wait_for(timeout=30000)

    # The shop says £169 was a mistake: the approver rolls back to version 1.
    ap.get_by_label("Reason for rolling back").fill("The shop says the new price is a mistake.")
    ap.get_by_role("button", name="Roll back to version 1").click()
    ap.get_by_text("Rolled back: version 1 of Price list is active again").wait_for()
    run_jobs()

    # The shop reverts its page; the next fetch equals the active version 1.
    shop.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    assert SourceVersion.objects.filter(source=source).count() == 2, "no new version for a page equal to the active one"
    assert not Source.objects.get(pk=source.pk).live_page_changed
    assert _state(answer) == AnswerState.SUPPORTED
    tab.locator("#trace-answer", has_text="supported").wait_for(timeout=30000)
    assert "contradicted" not in heading.inner_text()
    assert tab.evaluate("window.__noReload === true"), "the trace followed the answer without a reload"
    _shot(tab, "trace-after-revert")
    for opened in (tab, ap):  # the trace's poller stops with its page, before the live server does
        opened.context.close()
    assert CSP_ERRORS == []
