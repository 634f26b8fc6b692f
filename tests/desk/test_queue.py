"""The review queue: the landing page of Editors and Approvers, most urgent first, flat queries."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from claims.models import Answer, AnswerState
from claims.services.kept import verification_day_move
from dispatch.models import WorkRequest, WorkStatus
from reviews.models import AuditLog, ReviewAssignment, ReviewComment
from reviews.selectors.queue import LANDING_ITEMS, QueueCategory, QueueFilters, review_queue
from reviews.services import block_apply
from sources.models import EditorialTask, EvidenceStatus, Source, TaskKind
from sources.services import source_register
from sources.services.kept import link_state_days_add
from tests.desk.kb import _source, build_kb, candidate

pytestmark = pytest.mark.django_db


def _titles(response) -> list[str]:
    return [i.title for i in response.context["queue"].items]


def _populate(editor, n: int, start: int = 0) -> None:
    """n sources of each kind that needs a person."""
    for i in range(start, start + n):
        s, _ = _source(editor, f"https://a{i}.example.org/p", f"Waiting {i}", {"W > A": f"Item {i} costs £{i}."})
        candidate(s)
        f, _ = _source(editor, f"https://b{i}.example.org/p", f"Failing {i}", {"F > A": f"Thing {i} weighs {i} kg."})
        candidate(f, failing=True)
        d, _ = _source(editor, f"https://c{i}.example.org/p", f"Missing {i}", {"M > A": f"Page {i}."})
        Source.objects.filter(pk=d.pk).update(evidence_status=EvidenceStatus.SUSPENDED, link_state="not_found")
        EditorialTask.objects.create(source=d, kind=TaskKind.CANONICAL_CHANGE, proposed_url=f"https://c{i}.example.org/new")


def test_editors_land_on_the_queue_with_counts_and_the_most_urgent_first(client, editor):
    kb = build_kb(editor)
    v2 = candidate(kb.prices, failing=True)
    Source.objects.filter(pk=kb.delivery.pk).update(risk_level="high")
    v3 = candidate(kb.delivery)
    Answer.objects.filter(pk=kb.answer.pk).update(state=AnswerState.OUTDATED)
    client.force_login(editor)
    response = client.get(reverse("admin:index"))
    text = response.content.decode()
    assert "item(s) need a person" in text
    titles = _titles(response)
    answer_title = next(t for t in titles if t.startswith(f"Answer {kb.answer.pk}:"))
    # High-risk approval first, then failing golden pairs, then the answer to verify again.
    assert titles.index(f"Approve Delivery terms — version {v3.number}") < titles.index(f"Golden pairs failed: Price list — version {v2.number}") < titles.index(answer_title)
    counts = {code: n for code, _, n in response.context["queue"].counts}
    assert counts["failed_pairs"] == 1 and counts["approval"] == 1 and counts["answer"] == 1
    assert "0 of 2 approvals" in text, "approvals so far / needed for a high-risk source"
    assert reverse("admin:desk-models") in text, "the model index is one click away"


def test_viewers_keep_the_model_index(client, viewer):
    client.force_login(viewer)
    response = client.get(reverse("admin:index"))
    text = response.content.decode()
    assert "item(s) need a person" not in text
    assert response.context["app_list"], "viewers see the records they may read"
    assert reverse("admin:sources_source_changelist") in text


def test_filters_by_owner_domain_risk_and_language(editor):
    kb = build_kb(editor)
    candidate(kb.prices)
    candidate(kb.delivery)
    Source.objects.filter(pk=kb.delivery.pk).update(owner="Logistics team", risk_level="high", language="de")
    by_owner = review_queue(filters=QueueFilters(owner="logistics"))
    assert {i.title for i in by_owner.items} == {"Approve Delivery terms — version 2"}
    assert {i.title for i in review_queue(filters=QueueFilters(domain="example.org")).items} == {"Approve Price list — version 2"}
    assert {i.title for i in review_queue(filters=QueueFilters(risk="high")).items} == {"Approve Delivery terms — version 2"}
    assert "Approve Delivery terms — version 2" in {i.title for i in review_queue(filters=QueueFilters(language="de")).items}


def test_blocked_sources_leave_the_approval_queue(editor):
    kb = build_kb(editor)
    candidate(kb.prices)
    block_apply(actor=editor, target="domain", domain="example.org", reason="incident")
    assert not [i for i in review_queue(filters=QueueFilters()).items if i.category == "approval"]


def test_assign_with_due_date_overdue_stands_out_and_assigned_to_me(client, editor, editor2):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    candidate(kb.delivery)
    key = f"approval:sources.sourceversion:{v2.pk}"
    client.force_login(editor)
    yesterday = (timezone.localdate() - timedelta(days=1)).isoformat()
    response = client.post(reverse("admin:desk-item-assign"), {"item": key, "assignee": editor2.pk, "due_date": yesterday, "next": "/admin/"}, follow=True)
    assert f"Assigned to editor2, due {yesterday}." in " ".join(str(m) for m in response.context["messages"])
    assert ReviewAssignment.objects.get(item_key=key).assignee == editor2
    audit = AuditLog.objects.get(action="review_assign")
    assert (audit.object_id, audit.to_state, audit.data["due_date"]) == (key, "editor2", yesterday)
    text = response.content.decode()
    assert "overdue" in text
    assert _titles(response)[0] == "Approve Price list — version 2", "overdue items come first"
    client.force_login(editor2)
    mine = client.get(reverse("admin:desk-queue"), {"assignee": "me"})
    assert _titles(mine) == ["Approve Price list — version 2"]
    assert "Assigned to me" in mine.content.decode()


def test_comment_thread_is_kept_and_audited(client, editor, viewer):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    key = f"approval:sources.sourceversion:{v2.pk}"
    client.force_login(editor)
    client.post(reverse("admin:desk-item-comment"), {"item": key, "text": "Checked the tent price with the shop."})
    client.post(reverse("admin:desk-item-comment"), {"item": key, "text": "<b>Second</b> look tomorrow."})
    thread = client.get(reverse("admin:desk-item-thread"), {"item": key}).content.decode()
    assert "Checked the tent price with the shop." in thread and "&lt;b&gt;Second&lt;/b&gt;" in thread
    assert ReviewComment.objects.filter(item_key=key).count() == 2
    assert AuditLog.objects.filter(action="review_comment", object_id=key).count() == 2
    queue = client.get(reverse("admin:index")).content.decode()
    assert "2 comment(s) on Approve Price list" in queue
    client.force_login(viewer)
    client.post(reverse("admin:desk-item-comment"), {"item": key, "text": "me too"})
    assert ReviewComment.objects.filter(item_key=key).count() == 2
    assert AuditLog.objects.filter(action="review_comment", allowed=False, actor_name="viewer").exists()


def test_queue_queries_do_not_grow_with_rows(client, editor, django_assert_max_num_queries):
    client.force_login(editor)
    used = []
    for start, n in ((0, 1), (1, 6)):
        _populate(editor, n, start)
        client.get(reverse("admin:index"))  # warm the session and permission caches
        with django_assert_max_num_queries(40), CaptureQueriesContext(connection) as ctx:
            response = client.get(reverse("admin:index"))
        used.append(len(ctx.captured_queries))
        assert len(response.context["queue"].items) >= 4 * n
    assert used[0] == used[1], f"queries grew with the rows: {used}"


def test_failed_jobs_and_stuck_sources_need_a_person(client, editor):
    stuck = source_register(actor=editor, url="https://stuck.example.org/p", title="Stuck page", fetch=False)
    Source.objects.filter(pk=stuck.pk).update(registered_at=timezone.now() - timedelta(hours=3))
    WorkRequest.objects.create(job="claims.verify_answer", kwargs={"answer_id": 1}, queue="judge", status=WorkStatus.FAILED,
                               finished_at=timezone.now(), error="JudgeUnavailable: the LLM endpoint answered 503")
    client.force_login(editor)
    titles = _titles(client.get(reverse("admin:index")))
    assert "Stuck at “registered”: Stuck page" in titles
    failed = next(t for t in titles if t.startswith("Verifying an answer failed"))
    assert failed
    text = client.get(reverse("admin:desk-queue"), {"category": "judge_error"}).content.decode()
    assert "the LLM endpoint answered 503" in text and "Stuck page" not in text


def test_the_thread_page_names_its_item_and_keeps_the_reader_there(client, editor):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    client.force_login(editor)
    queue = client.get(reverse("admin:index")).content.decode()
    link = next(part for part in queue.split('href="')[1:] if part.startswith(reverse("admin:desk-item-thread"))).split('"')[0].replace("&amp;", "&")
    page = client.get(link).content.decode()
    assert "Comments on “Approve Price list — version 2”" in page
    assert f'href="{reverse("admin:desk-source", args=[kb.prices.pk])}?version={v2.number}"' in page
    response = client.post(reverse("admin:desk-item-comment"), {"item": f"approval:sources.sourceversion:{v2.pk}", "text": "ok", "next": link})
    assert response.status_code == 302 and response.url == link


def _more_rows(editor, n: int, start: int) -> None:
    """n more of everything the front door reads: sources of each kind in the queue (`_populate`),
    troubled answers, a day of fetches and of verifications."""
    _populate(editor, n, start)
    now = timezone.now()
    answers = Answer.objects.bulk_create([
        Answer(raw_response=f"Claim {i}.", answer_text=f"Claim {i}.", state=AnswerState.CONTRADICTED if i % 2 else AnswerState.OUTDATED, verified_at=now)
        for i in range(start, start + n)
    ])
    for answer in answers:
        verification_day_move(before_at=None, before_state="", after_at=now, after_state=answer.state)
    link_state_days_add([(now - timedelta(days=i % 14), "ok" if i % 3 else "not_found") for i in range(start, start + n)])


FRONT_DOOR = [("queue", "admin:index", ""), *[(f"queue: {c}", "admin:desk-queue", f"?category={c}") for c in QueueCategory.values],
              ("overview", "admin:desk-overview", ""), ("/health/", "link-health", "")]


def test_the_front_doors_queries_do_not_grow_with_the_rows(client, editor):
    """The queue (landing page and each category), the overview and /health/ make the same number
    of queries with 3 and with 30 items of each kind: they read kept state and pages, not rows."""
    client.force_login(editor)
    used: dict[str, list[int]] = {name: [] for name, _, _ in FRONT_DOOR}
    for start, n in ((0, 3), (3, 27)):
        _more_rows(editor, n, start)
        for name, url_name, query in FRONT_DOOR:
            url = reverse(url_name) + query
            client.get(url)  # warm the session and permission caches
            with CaptureQueriesContext(connection) as ctx:
                response = client.get(url)
            assert response.status_code == 200, name
            used[name].append(len(ctx.captured_queries))
        counts = {code: total for code, _, total in review_queue(filters=QueueFilters()).counts}
        assert counts["approval"] == counts["failed_pairs"] == counts["redirect"] == start + n
        assert counts["answer"] == start + n + 0
    landing = client.get(reverse("admin:index"))
    assert len(landing.context["queue"].items) == LANDING_ITEMS, "the landing page is a page of the most urgent items"
    assert "most urgent items are shown" in landing.content.decode()
    assert len(client.get(reverse("admin:desk-queue") + "?category=approval").context["queue"].items) == 30, "a category lists its own"
    grew = {name: n for name, n in used.items() if n[0] != n[1]}
    assert not grew, f"queries grew with the rows: {grew}"
    assert max(n[1] for n in used.values()) <= 40, used
