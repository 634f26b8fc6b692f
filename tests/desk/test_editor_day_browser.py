"""An editor's day in a real browser (Debian's chromium): register a demo page, watch it walk
the stages without reloading, approve as another user after waiving a failing pair, block it
(gone from the export, listed as an incident), unblock it, and block a passage by keyboard alone.
Screenshots of the main pages go to test-artifacts/ on each run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviews import testpairs
from sources.models import Source
from sources.selectors import export_passages
from sources.services import source_register, version_activate

# Slow (issue 25: `make test` under 8 minutes): a whole flow in Chromium; `make test-slow` and CI run it.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PAIRS = ('[{"claim": "Express delivery takes 1 to 2 working days.", "expected_status": "supported"},'
         ' {"claim": "Express delivery costs £4.95.", "expected_status": "supported"}]')


def _shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


CSP_ERRORS: list[str] = []


def _login(browser, base: str, username: str):
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    # The browser reports every Content-Security-Policy violation on the console.
    page.on("console", lambda m: CSP_ERRORS.append(m.text) if m.type == "error" and ("Content Security Policy" in m.text or "Refused" in m.text) else None)
    page.on("pageerror", lambda e: CSP_ERRORS.append(str(e)))
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/admin/")
    return page


def _exported(source: Source) -> set[int]:
    return set(export_passages().filter(passage__source=source).values_list("pk", flat=True))


def _tab_to(page, text: str = "", *, field_id: str = "", limit: int = 250) -> None:
    """Press Tab until the focused element shows `text` (or has `field_id`); check its focus ring."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        label = page.evaluate("(document.activeElement.innerText || document.activeElement.value || '').trim()")
        if (field_id and page.evaluate("document.activeElement.id") == field_id) or (not field_id and text in label):
            ring = page.evaluate("(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()")
            assert ring[0] != "none" and ring[1] >= 2, f"focus ring on {label!r}: {ring}"
            return
    raise AssertionError(f"no focusable element shows {text!r}")


def test_register_watch_the_stages_waive_and_approve(browser, live_server, settings, demo_shop, editor, approver, run_jobs):
    settings.ALLOWED_HOSTS = ["*"]
    base = live_server.url
    CSP_ERRORS.clear()

    # The editor registers a demo page and lands on its page, which follows the work by itself.
    ed = _login(browser, base, "editor")
    _shot(ed, "review-queue-empty")
    ed.goto(f"{base}/admin/sources/source/add/")
    ed.get_by_label("URL").fill(f"{demo_shop}/delivery")
    ed.get_by_label("Title").fill("Delivery terms")
    ed.get_by_label("Priority").select_option("primary")
    ed.get_by_role("button", name="Register a source").click()
    ed.wait_for_url("**/admin/desk/sources/*/")
    source = Source.objects.get()
    ed.get_by_text("Fetching the page").wait_for()
    ed.evaluate("window.__noReload = true")
    testpairs.testpairs_import(actor=editor, source_id=source.pk, text=PAIRS)

    run_jobs()  # a real RQ worker: fetch, extract, version, golden pairs
    ed.get_by_text("Version 1 waits for a decision").wait_for(timeout=20000)
    assert ed.evaluate("window.__noReload === true"), "the page updated itself, without a reload"
    assert ed.get_by_role("cell", name="Delivery terms > Express delivery").count() >= 1
    _shot(ed, "source-page-tested")

    # An approver starts from the queue, waives the failing pair with a reason and approves.
    ap = _login(browser, base, "approver")
    ap.get_by_role("link", name="Golden pairs failed: Delivery terms — version 1").wait_for()
    _shot(ap, "review-queue")
    ap.get_by_role("link", name="Golden pairs failed: Delivery terms — version 1").click()
    ap.get_by_label("Reason to waive “Express delivery costs £4.95.”").fill("The price on the page is right; the pair is out of date.")
    ap.get_by_role("button", name="Waive this failing pair").click()
    ap.get_by_text("Waived the failing golden pair").wait_for()
    assert ap.get_by_text("Waived by approver: The price on the page is right").count() == 1
    ap.get_by_role("button", name="Approve version 1").click()
    ap.get_by_text("Approved: version 1 of Delivery terms is now active").wait_for()
    _shot(ap, "source-page-active")
    assert _exported(source), "the approved passages are in the export"
    assert CSP_ERRORS == [], "no page broke the Content-Security-Policy or threw a script error"


def test_block_unblock_incident_switch_and_a_keyboard_only_block(browser, live_server, settings, demo_shop, editor, approver, run_jobs):
    settings.ALLOWED_HOSTS = ["*"]
    base = live_server.url
    CSP_ERRORS.clear()
    source = source_register(actor=editor, url=f"{demo_shop}/delivery", title="Delivery terms", priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=source.versions.get().pk, reason="checked")
    live = _exported(source)
    assert live
    ed = _login(browser, base, "editor")
    ap = _login(browser, base, "approver")

    # The editor blocks the source: a preview of the impact first, then it is gone from the export.
    ed.goto(f"{base}/admin/desk/sources/{source.pk}/")
    ed.get_by_role("link", name="Block Delivery terms").click()
    ed.get_by_role("heading", name="You are about to block the source Delivery terms").wait_for()
    _shot(ed, "block-preview")
    assert _exported(source) == live, "the preview changes nothing"
    ed.get_by_label("Reason for the block").fill("Delivery times are being renegotiated.")
    ed.get_by_role("button", name="Block source now").click()
    ed.wait_for_url("**/admin/desk/incidents/**")
    row = ed.locator("tr", has_text="Source Delivery terms")
    assert "Delivery times are being renegotiated." in row.inner_text() and "editor" in row.inner_text()
    _shot(ed, "incidents")
    assert _exported(source) == set(), "blocked evidence vanished from the export"

    # The approver unblocks it from the incidents page; everything comes back.
    ap.goto(f"{base}/admin/desk/incidents/")
    ap.get_by_role("link", name="Unblock Source Delivery terms").click()
    ap.get_by_label("Reason").fill("Terms confirmed unchanged.")
    ap.get_by_role("button", name="Lift this block").click()
    ap.get_by_text("Unblocked: Source Delivery terms").wait_for()
    assert _exported(source) == live

    # The global incident switch: a banner on every page while it is on.
    ap.get_by_label("Pause every activation").check()
    ap.get_by_label("Reason for the change").fill("Suspicious edits on the shop under investigation.")
    ap.get_by_role("button", name="Save the incident switches").click()
    ap.get_by_text("Incident switches saved: activations are paused").wait_for()
    ed.goto(f"{base}/admin/")
    banner = ed.get_by_role("status").filter(has_text="Incident mode")
    assert "activations are paused" in banner.inner_text() and "Suspicious edits" in banner.inner_text()
    _shot(ed, "review-queue-incident-banner")
    ap.get_by_label("Pause every activation").uncheck()
    ap.get_by_label("Reason for the change").fill("Investigation closed.")
    ap.get_by_role("button", name="Save the incident switches").click()
    ap.get_by_text("Incident switches saved: activations are allowed").wait_for()

    # A whole flow by keyboard alone: block one passage from the source page.
    ed.goto(f"{base}/admin/desk/sources/{source.pk}/")
    _tab_to(ed, "Block the passage “Delivery terms > Express delivery”")
    ed.keyboard.press("Enter")
    ed.get_by_role("heading", name="You are about to block the passage “Delivery terms > Express delivery” of Delivery terms").wait_for()
    _tab_to(ed, field_id="id_reason")
    ed.keyboard.type("Express price under review.")
    _tab_to(ed, "Block passage now")
    _shot(ed, "keyboard-focus-block-button")
    ed.keyboard.press("Enter")
    ed.wait_for_url("**/admin/desk/incidents/**")
    assert ed.locator("tr", has_text="Passage “Delivery terms > Express delivery” of Delivery terms").count() == 1
    _shot(ed, "incidents-passage")
    assert len(_exported(source)) == len(live) - 1
    assert CSP_ERRORS == [], "no page of the day broke the Content-Security-Policy or threw a script error"
