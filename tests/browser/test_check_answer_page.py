"""The "Check an answer" page, used with the keyboard alone in a real browser."""

from __future__ import annotations

import json
import os

import pytest

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_keyboard_only_check_shows_findings_next_to_their_text(page, live_server, editor):
    page.goto(f"{live_server.url}/check/")
    # Redirected to the login page: fill it with the keyboard.
    page.keyboard.press("Tab")
    page.fill("#id_username", "editor")
    page.fill("#id_password", "pw-editor")
    page.keyboard.press("Enter")
    page.wait_for_url("**/check/")

    sources = "Express delivery takes 1 to 2 working days.\n---\nReturns are free within 30 days.\n---\nWarranty lasts 24 months."
    answer = json.dumps({"answer": "Express takes 1 to 2 days. Returns are free.", "citations": [
        {"source": 1, "quote": "1 to 2 working days"}, {"source": 2, "quote": "within 60 days"}]})
    page.get_by_label("Sources").focus()
    page.keyboard.insert_text(sources)
    page.keyboard.press("Tab")
    page.keyboard.insert_text(answer)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the submit button has focus now

    page.get_by_role("heading", name="Result: problems found").wait_for()
    table = page.get_by_role("table", name="Citations")
    headers = [h.text_content().strip() for h in table.get_by_role("columnheader").all()]
    assert headers == ["Source", "Quote", "Result"]
    rows = [r.inner_text() for r in table.locator("tbody tr").all()]
    assert "1 to 2 working days" in rows[0] and "exact" in rows[0]
    assert "within 60 days" in rows[1] and "not_found" in rows[1]  # a status word, not only a colour
    assert "[3]" in page.locator("section").inner_text()  # source 3 was never cited
    page.screenshot(path="var/check-answer.png", full_page=True)


def test_page_text_is_escaped(page, live_server, editor):
    page.goto(f"{live_server.url}/admin/login/?next=/check/")
    page.fill("#id_username", "editor")
    page.fill("#id_password", "pw-editor")
    page.keyboard.press("Enter")
    page.wait_for_url("**/check/")
    page.get_by_label("Sources").fill("<script>window.pwned=1</script> safe text")
    page.get_by_label("Answer").fill('{"answer": "x", "citations": [{"source": 1, "quote": "<img src=x onerror=window.pwned=2>"}]}')
    page.get_by_role("button", name="Check citations").click()
    page.get_by_role("heading", name="Result: problems found").wait_for()
    assert page.evaluate("window.pwned === undefined")
    assert "<img src=x onerror=window.pwned=2>" in page.get_by_role("table", name="Citations").inner_text()
