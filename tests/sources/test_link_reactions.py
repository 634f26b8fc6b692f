"""Link-health reactions (PRODUCT.md table) on a real local server whose answers the test sets."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings
from django.utils import timezone

from citecheck.errors import IllegalTransition
from citecheck.linkcheck import LinkCheckResult, LinkState
from dispatch.models import WorkRequest, WorkStatus
from reviews.models import AuditLog, TestPair
from sources.models import (
    CheckTimes,
    DomainPolicy,
    EditorialTask,
    EvidenceStatus,
    FetchResult,
    Source,
    SourceVersion,
    TaskKind,
    TaskStatus,
)
from sources.selectors import export_passages
from sources.services import (
    canonical_proposal_decide,
    fetch_record,
    source_refetch,
    source_register,
    source_schedule_due_checks,
    version_activate,
)
from tests.routeserver import RouteServer

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = b"<html><head><title>Terms</title></head><body><main><h1>Terms</h1><p>Refunds are paid within 10 working days of receiving the item.</p></main></body></html>"


Site = RouteServer

@pytest.fixture
def site():
    s = Site()
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01,
                           CITECHECK_DEAD_AFTER_FAILURES=3, CITECHECK_DEAD_AFTER_HOURS=48):
        yield s
    s.server.shutdown()
    s.server.server_close()


def _active_source(site, editor, approver, run_jobs, path="/terms") -> Source:
    site.routes[path] = (200, {}, PAGE)
    source = source_register(actor=editor, url=site.base + path, priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=source).pk)
    assert export_passages().filter(passage__source=source).exists()
    return source


def test_404_suspends_evidence_at_once_and_a_later_success_brings_it_back(site, editor, approver, run_jobs):
    source = _active_source(site, editor, approver, run_jobs)
    site.routes["/terms"] = (404, {}, b"gone")
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    source.refresh_from_db()
    assert (source.link_state, source.evidence_status) == ("not_found", EvidenceStatus.SUSPENDED)
    assert not export_passages().filter(passage__source=source).exists(), "suspended evidence leaves the export at once"
    assert not EditorialTask.objects.filter(kind=TaskKind.FIND_REPLACEMENT).exists(), "one failure never declares a page dead"

    site.routes["/terms"] = (200, {}, PAGE)
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    source.refresh_from_db()
    assert source.evidence_status == EvidenceStatus.VERIFIED
    assert export_passages().filter(passage__source=source).exists()


def test_dead_only_after_repeated_failures_over_time(site, editor, approver, run_jobs):
    source = _active_source(site, editor, approver, run_jobs)
    TestPair.objects.create(source=source, claim="Refunds are paid within 10 working days.")
    start = timezone.now()
    gone = LinkCheckResult(url=source.canonical_url, state=LinkState.GONE, status_code=410)
    for day, expected in ((0, EvidenceStatus.SUSPENDED), (1, EvidenceStatus.SUSPENDED), (2, EvidenceStatus.DEAD)):
        fetch_record(source_id=source.pk, result=gone, now=start + timedelta(days=day, minutes=1))
        source.refresh_from_db()
        assert source.evidence_status == expected, f"day {day}"
    task = EditorialTask.objects.get(source=source, kind=TaskKind.FIND_REPLACEMENT)
    assert task.data["test_pairs"] == list(source.test_pairs.values_list("pk", flat=True))

    # Three failures within an hour are not "over time": no dead declaration.
    other = _active_source(site, editor, approver, run_jobs, path="/other")
    for minute in range(3):
        fetch_record(source_id=other.pk, result=LinkCheckResult(url=other.canonical_url, state=LinkState.NOT_FOUND, status_code=404), now=start + timedelta(minutes=minute))
    other.refresh_from_db()
    assert other.evidence_status == EvidenceStatus.SUSPENDED


def test_server_error_marks_evidence_temporarily_unverified_and_retries_honouring_retry_after(site, editor, approver, run_jobs):
    source = _active_source(site, editor, approver, run_jobs)
    site.routes["/terms"] = (503, {"Retry-After": "7200"}, b"busy")
    with override_settings(CITECHECK_RETRY_AFTER_CAP=600):
        source_refetch(actor=editor, source_id=source.pk)
        before = timezone.now()
        run_jobs()
    source.refresh_from_db()
    assert source.evidence_status == EvidenceStatus.TEMPORARILY_UNVERIFIED
    retry = WorkRequest.objects.get(job="sources.fetch_source", status=WorkStatus.PENDING)
    wait = (retry.not_before - before).total_seconds()
    assert 590 <= wait <= 610, "Retry-After (2 h) is honoured but capped at 10 minutes"
    fetch = FetchResult.objects.filter(source=source).first()
    assert (fetch.link_state, fetch.status_code, fetch.retry_after_seconds) == ("server_error", 503, 7200)


def test_permanent_redirect_opens_a_proposal_that_an_editor_accepts_or_rejects(site, editor, editor2, approver, run_jobs):
    site.routes["/new-terms"] = (200, {}, PAGE)
    site.routes["/terms"] = (301, {"Location": "/new-terms"}, b"")
    source = source_register(actor=editor, url=site.base + "/terms")
    run_jobs()
    task = EditorialTask.objects.get(source=source, kind=TaskKind.CANONICAL_CHANGE)
    assert task.proposed_url == site.base + "/new-terms"
    source.refresh_from_db()
    assert source.canonical_url == site.base + "/terms", "nothing changes until an editor decides"

    canonical_proposal_decide(actor=editor2, task_id=task.pk, accept=True, reason="moved for good")
    source.refresh_from_db()
    assert source.canonical_url == site.base + "/new-terms"
    change = AuditLog.objects.get(action="canonical_change")
    assert change.data == {"old_url": site.base + "/terms", "new_url": site.base + "/new-terms"}, "the old URL stays in history"
    with pytest.raises(IllegalTransition):
        canonical_proposal_decide(actor=editor2, task_id=task.pk, accept=False)

    site.routes["/faq"] = (308, {"Location": "/faq-2"}, b"")
    site.routes["/faq-2"] = (200, {}, PAGE)
    other = source_register(actor=editor, url=site.base + "/faq")
    run_jobs()
    proposal = EditorialTask.objects.get(source=other, kind=TaskKind.CANONICAL_CHANGE)
    canonical_proposal_decide(actor=editor2, task_id=proposal.pk, accept=False, reason="temporary campaign")
    other.refresh_from_db()
    assert other.canonical_url == site.base + "/faq"
    assert EditorialTask.objects.get(pk=proposal.pk).status == TaskStatus.REJECTED


def test_temporary_redirect_keeps_the_url_and_notes_the_target(site, editor, run_jobs):
    site.routes["/promo"] = (302, {"Location": "/landing"}, b"")
    site.routes["/landing"] = (200, {}, PAGE)
    source = source_register(actor=editor, url=site.base + "/promo")
    run_jobs()
    fetch = FetchResult.objects.get(source=source)
    assert fetch.link_state == "redirect_temporary"
    assert "/landing" in fetch.note
    assert fetch.redirects == [{"url": site.base + "/promo", "status": 302}]
    assert not EditorialTask.objects.filter(source=source).exists()


def test_link_health_page_counts_states_and_decides_proposals(site, client, editor, editor2, django_assert_max_num_queries, run_jobs):
    site.routes["/a"] = (200, {}, PAGE)
    site.routes["/b"] = (200, {}, PAGE)
    site.routes["/moved"] = (301, {"Location": "/b"}, b"")
    for path in ("/a", "/moved", "/missing", "/missing-too"):
        source_register(actor=editor, url=site.base + path)
    run_jobs()
    client.force_login(editor2)
    with django_assert_max_num_queries(12):
        page = client.get("/health/").content.decode()
    assert "not found</a></td><td>2</td>" in page.replace("\n", "")
    assert site.base + "/moved" in page and "Accept" in page
    task = EditorialTask.objects.get(kind=TaskKind.CANONICAL_CHANGE)
    response = client.post(f"/health/proposals/{task.pk}", {"decision": "accept", "reason": "ok"})
    assert response.status_code == 302
    assert EditorialTask.objects.get(pk=task.pk).status == TaskStatus.ACCEPTED


def test_link_health_page_needs_a_login(client, db):
    assert client.get("/health/").status_code == 302


def test_robots_txt_is_consulted_only_when_the_domain_policy_asks(site, editor, run_jobs):
    site.routes["/private/terms"] = (200, {}, PAGE)
    site.routes["/robots.txt"] = (200, {"Content-Type": "text/plain"}, b"User-agent: *\nDisallow: /private/\n")
    source = source_register(actor=editor, url=site.base + "/private/terms")
    run_jobs()
    assert FetchResult.objects.get(source=source).link_state == "ok"
    assert "/robots.txt" not in site.hits, "robots.txt is not consulted by default"

    DomainPolicy.objects.create(domain=source.domain, respect_robots=True)
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    fetch = FetchResult.objects.filter(source=source).first()
    assert (fetch.link_state, fetch.error) == ("blocked", "disallowed for Citecheck by the site's robots.txt")
    assert site.hits.count("/private/terms") == 1, "the disallowed page was not fetched again"


def test_a_due_source_is_never_queued_twice(site, editor, run_jobs):
    site.routes["/terms"] = (200, {}, PAGE)
    source = source_register(actor=editor, url=site.base + "/terms")
    run_jobs()
    CheckTimes.objects.filter(source=source).update(next_check_at=timezone.now() - timedelta(minutes=1))
    source_schedule_due_checks()
    source_schedule_due_checks()
    assert WorkRequest.objects.filter(job="sources.fetch_source", status__in=["pending", "queued"]).count() == 1
    run_jobs()
    assert CheckTimes.objects.get(source=source).next_check_at > timezone.now() + timedelta(days=6), "normal risk: re-checked weekly"


def test_check_links_command_checks_many_and_writes_their_states(site, editor):

    site.routes["/ok"] = (200, {}, PAGE)
    site.routes["/moved"] = (301, {"Location": "/ok"}, b"")
    ids = [source_register(actor=editor, url=site.base + p, fetch=False).pk for p in ("/ok", "/moved", "/gone-page")]
    out = StringIO()
    call_command("check_links", "--source", *map(str, ids), stdout=out)
    assert out.getvalue().strip() == "not_found: 1, ok: 1, redirect_permanent: 1"
    states = dict(Source.objects.values_list("canonical_url", "link_state"))
    assert states[site.base + "/gone-page"] == "not_found"
    assert Source.objects.get(canonical_url=site.base + "/gone-page").evidence_status == EvidenceStatus.SUSPENDED
    assert FetchResult.objects.count() == 3
    assert CheckTimes.objects.filter(source_id__in=ids, next_check_at__isnull=False).count() == 3
