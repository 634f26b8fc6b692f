"""The source page as one screen, its JSON status for the live updates, and template safety."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from claims.services import answer_verify
from reviews.services import block_apply
from sources.models import FetchResult, Passage
from sources.services import source_refetch, source_register
from tests.desk.kb import build_kb, candidate

pytestmark = pytest.mark.django_db

DESK_TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "admin"


def _fetches(source, n: int) -> None:
    now = timezone.now()
    FetchResult.objects.bulk_create([
        FetchResult(source=source, requested_url=source.canonical_url, final_url=source.canonical_url, status_code=200 if i % 3 else 503,
                    link_state="ok" if i % 3 else "server_error", fetched_at=now - timezone.timedelta(hours=i))
        for i in range(n)
    ])


def test_the_source_page_shows_everything_on_one_screen(client, editor):
    kb = build_kb(editor)
    answer_verify(answer_id=kb.answer.pk)
    v2 = candidate(kb.prices, failing=True)
    Passage.objects.filter(source=kb.prices, heading_path="Price list > Stoves").update(anchor="")
    _fetches(kb.prices, 25)
    client.force_login(editor)
    text = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "<strong>Registered</strong>: registered — editor," in text, "the stage timeline names who did each step"
    assert f"Version {v2.number} waits for a decision" in text
    assert "Compared with version 1: 1 changed, 0 added, 0 removed, 1 unchanged." in text, "the diff summary reads as a sentence"
    assert "{&quot;" not in text and '{"added"' not in text, "no raw JSON"
    assert "Price list &gt; Tents" in text
    assert 'href="https://shop.example.org/prices#tents" rel="noopener noreferrer nofollow"' in text, "the exact place on the live page"
    assert "https://shop.example.org/prices#:~:text=The%20Ember%20stove%20costs%20%C2%A359." in text, "a text fragment where there is no anchor"
    assert "failed" in text and "Waive this failing pair" not in text, "editors see the result; only approvers get the waive control"
    assert f"Answer {kb.answer.pk}:" in text, "the answers citing the source"
    assert text.count("<td>") and "Page 1 of 3" in text and "Older fetches" in text, "fetch history is paginated"
    older = client.get(reverse("admin:desk-source", args=[kb.prices.pk]), {"fetches": 3}).content.decode()
    assert "Page 3 of 3" in older and "Newer fetches" in older


def test_source_page_queries_do_not_grow_with_fetches_and_versions(client, editor, django_assert_max_num_queries):
    kb = build_kb(editor)
    client.force_login(editor)
    url = reverse("admin:desk-source", args=[kb.prices.pk])
    used = []
    for number, fetches in ((2, 3), (3, 60)):
        candidate(kb.prices, number=number)
        _fetches(kb.prices, fetches)
        client.get(url)
        with django_assert_max_num_queries(40), CaptureQueriesContext(connection) as ctx:
            client.get(url)
        used.append(len(ctx.captured_queries))
    assert used[0] == used[1], f"queries grew with the rows: {used}"


def test_status_json_reports_queued_work_and_changes_revision(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    url = reverse("admin:desk-source-status", args=[kb.prices.pk])
    idle = client.get(url).json()
    assert idle["running"] is False and idle["stage"] == "active"
    source_refetch(actor=editor, source_id=kb.prices.pk)
    busy = client.get(url).json()
    assert busy["running"] is True and busy["message"].startswith("Fetching the page — waiting for a worker")
    assert busy["revision"] != idle["revision"]
    block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="x")
    assert client.get(url).json()["stage"] == "blocked"


def test_viewers_read_the_page_without_decision_buttons(client, editor, viewer):
    kb = build_kb(editor)
    candidate(kb.prices)
    client.force_login(viewer)
    text = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Version 2 waits for a decision" in text
    for button in ("Approve version", "Fetch Price list now", "Block Price list", "Request changes"):
        assert button not in text


def test_desk_templates_have_no_safe_filter_inline_script_or_handler():
    offenders = []
    for path in DESK_TEMPLATES.rglob("*.html"):
        text = path.read_text()
        if "|safe" in text or "mark_safe" in text or "{% autoescape off" in text:
            offenders.append(f"{path.name}: safe")
        if re.search(r"<script(?![^>]*\bsrc=)", text):
            offenders.append(f"{path.name}: inline script")
        if re.search(r"\son[a-z]+\s*=", text):
            offenders.append(f"{path.name}: inline event handler")
    assert not offenders, offenders


def test_bulk_recheck_follows_its_jobs_on_a_page_that_updates_itself(client, editor, run_jobs, demo_shop):
    ids = [source_register(actor=editor, url=f"{demo_shop}{path}", fetch=False).pk for path in ("/returns", "/warranty")]
    client.force_login(editor)
    response = client.post(reverse("admin:sources_source_changelist"), {"action": "refetch", "_selected_action": ids})
    assert response.status_code == 302 and "/admin/desk/work/" in response.url
    page = client.get(response.url)
    text = page.content.decode()
    assert "Progress of 2 fetch(s)" in text and "0 of 2 fetch(s) done" in text and "2 waiting for a worker" in text
    assert "data-desk-status-url" in text
    status_url = reverse("admin:desk-work-status") + "?" + response.url.split("?", 1)[1]
    before = client.get(status_url).json()
    assert before["running"] is True
    run_jobs()  # a real worker fetches both demo pages
    after = client.get(status_url).json()
    assert after["running"] is False and after["revision"] != before["revision"]
    assert after["message"].startswith("2 of 2 fetch(s) done")


def test_superusers_get_a_link_to_the_job_queues(client, superuser, editor):
    client.force_login(editor)
    assert "Job queues (django-rq)" not in client.get(reverse("admin:desk-incidents")).content.decode()
    client.force_login(superuser)
    text = client.get(reverse("admin:desk-incidents")).content.decode()
    assert "Job queues (django-rq)" in text
    assert client.get(reverse("admin:django_rq_home")).status_code == 200


def test_verify_again_follows_the_verifications(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    response = client.post(reverse("admin:claims_answer_changelist"), {"action": "verify_again", "_selected_action": [kb.answer.pk]})
    assert response.status_code == 302 and "kind=verify" in response.url
    text = client.get(response.url).content.decode()
    assert "Progress of 1 verification(s)" in text and "0 of 1 verification(s) done" in text
