"""The complaint desk in a real browser (Debian's chromium): "the bot told a customer that
express delivery was free — what did it rely on, was that approved at the time, and who
approved it?", answered from the answer's page in three clicks, although the passage has been
blocked since."""

from __future__ import annotations

import os

import pytest

from claims.services import answer_submit
from reviews.models import Approval, ApprovalDecision
from reviews.services import block_apply
from tests.integrations.conftest import build_source

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_what_an_answer_rested_on_when_it_was_given_in_three_clicks(browser, live_server, settings, editor, approver):
    settings.ALLOWED_HOSTS = ["*"]
    source, version = build_source(url="https://shop.example.com/delivery", title="Delivery terms", passages=[
        ("Express delivery", "express", "Express delivery is free on every order over £50."),
    ])
    Approval.objects.create(source_version=version, approver=approver, decision=ApprovalDecision.APPROVE, reason="checked against the price list")
    pv_id = source.passages.get().versions.get().pk
    answer = answer_submit(actor=editor, raw_response="Express delivery is free on every order over £50 [1].", passage_version_ids=[pv_id],
                           question="Is express delivery free?")
    block_apply(actor=editor, target="passage", passage_version_id=pv_id, reason="Express delivery costs £4.95 since the new price list")

    base = live_server.url
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/admin/login/?next=/admin/claims/answer/{answer.pk}/change/")
    page.fill("#id_username", "approver")
    page.fill("#id_password", "pw-approver")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/admin/claims/answer/{answer.pk}/change/")

    page.get_by_role("link", name=f"Trace answer {answer.pk}").click()  # 1
    page.wait_for_url(f"**/claims/answer/{answer.pk}/trace/")
    assert page.get_by_text("Express delivery costs £4.95 since the new price list").count() >= 1, "the block since is shown"
    page.get_by_role("link", name="as it was given").click()  # 2
    page.wait_for_url("**as_of=given")
    then = page.locator("table.cc-at-moment")
    assert then.get_by_role("row", name="Citable then?").inner_text().endswith("yes")
    assert "approve by approver" in then.get_by_role("row", name="Approved by then").inner_text()
    assert "checked against the price list" in then.get_by_role("row", name="Approved by then").inner_text()
    assert then.get_by_role("row", name="Blocks in force then").inner_text().endswith("none")
    assert "version 1" in then.get_by_role("row", name="Active version then").inner_text()

    page.get_by_role("link", name="The whole knowledge base at that moment").click()  # 3
    page.wait_for_url("**/admin/desk/evidence/?at=*")
    row = page.locator("table.cc-sources-then tr", has_text="Delivery terms")
    assert "version 1" in row.inner_text() and "1 / 0" in row.inner_text()
    assert page.get_by_role("link", name="Download the export at that moment (JSON lines)").count() == 1
    context.close()
