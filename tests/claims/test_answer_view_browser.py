"""The answer view in a real browser: state, wording, both sides of a contradiction, report card."""

from __future__ import annotations

import os

import pytest

from claims.services import answer_submit
from tests.claims.test_answer_verification import _activate, _passage, two_shops  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_answer_view_shows_verdicts_with_both_sides(page, live_server, two_shops, superuser, editor, approver, run_jobs):  # noqa: F811
    (base_a, _), (base_b, _) = two_shops
    a = _activate(base_a + "/delivery", editor, approver, run_jobs)
    b = _activate(base_b + "/delivery", editor, approver, run_jobs)
    ids = [_passage(a, "Delivery terms > Express delivery").pk, _passage(b, "Delivery terms > Express delivery").pk]
    answer = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1][2]. Express delivery costs £4.95 [1].", passage_version_ids=ids)
    run_jobs()
    page.goto(f"{live_server.url}/admin/login/?next=/admin/claims/answer/{answer.pk}/change/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "pw-root")
    page.keyboard.press("Enter")
    page.get_by_text("Verification report").wait_for()
    text = page.locator("#content").inner_text()
    assert "The approved delivery terms says express delivery costs £9.95 (Delivery terms — Express delivery)." in text
    assert "supported" in text and "contradicted" in text and "Correction" in text
    assert "Report card" in text and "Gaps" in text
    links = page.locator("#content a[rel='noopener noreferrer nofollow']")
    assert links.count() >= 2
    assert all(h.startswith(("http://127.0.0.1", "http://127.0.0.2")) for h in links.evaluate_all("els => els.map(e => e.href)"))
    page.screenshot(path="var/answer-view.png", full_page=True)
