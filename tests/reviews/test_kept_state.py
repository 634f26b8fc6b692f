"""The kept state behind the review queue, the overview and /health/ (issue 22) equals a fresh
recount after every step of the pipeline, through the real services, a real RQ worker and a real
HTTP server: register, fetch, extract, golden pairs (failing, waived), approve, answers, a changed
page, the link going down and coming back, blocks of a source and of a domain, changes requested.
`manage.py rebuild_kept_state --check` agrees, and it finds and repairs planted differences."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from claims.models import AnswerFlaggedHour, VerificationDay
from claims.services import answer_submit
from reviews import testpairs
from reviews.models import TestResult
from reviews.selectors.overview import verification_rate_by_day
from reviews.selectors.queue import QueueCategory, QueueFilters, review_queue
from reviews.services import block_apply, block_lift
from sources.models import LinkStateDay, PassageVersion, Source, SourceStateCount, SourceVersion
from sources.selectors import link_health_summary
from sources.services import activation, source_refetch, source_register, source_update, version_activate
from sources.services.activation import version_request_changes
from sources.services.kept import kept_state_differences
from tests.routeserver import RouteServer

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><main><article>
<h1>{title}</h1>
<h2 id="tents">Tents</h2><p>The Ridge 2 tent costs £{tent} and weighs 2.1 kg.</p>
<h2 id="bags">Sleeping bags</h2><p>The Summit sleeping bag costs £{bag} and is rated to minus 5 °C.</p>
</article></main></body></html>"""
PAIR = ('[{"claim": "The Ridge 2 tent costs £149.", "expected_status": "supported", "expected_heading": "{title} > Tents", '
        '"expected_quote": "costs £149"}]')


@pytest.fixture
def site() -> Iterator[RouteServer]:
    server = RouteServer()
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_RETRY_BASE_SECONDS=0.01):
        yield server
    server.close()


def _page(site: RouteServer, path: str, title: str, tent: int, bag: int = 89) -> None:
    site.routes[path] = (200, {}, PAGE.format(title=title, tent=tent, bag=bag).encode())


def _queue(category: str) -> set[int]:
    items = review_queue(filters=QueueFilters(category=category), per_category=500).items
    return {int(i.key.rsplit(":", 1)[1]) for i in items if i.category == category}


def _check_command() -> str:
    out = io.StringIO()
    call_command("rebuild_kept_state", "--check", stdout=out)
    return out.getvalue()


def test_the_kept_state_equals_a_recount_after_every_step_of_the_pipeline(site, editor, approver, approver2, run_jobs: Callable[[], int]):
    steps: list[str] = []

    def step(name: str) -> None:
        run_jobs()
        assert kept_state_differences() == [], f"after {name}: the kept state differs from a recount"
        steps.append(name)

    _page(site, "/prices", "Price list", 149)
    _page(site, "/terms", "Delivery terms", 149)
    prices = source_register(actor=editor, url=site.base + "/prices", priority="primary")
    terms = source_register(actor=editor, url=site.base + "/terms", priority="primary")
    step("register, fetch and extract")
    first = SourceVersion.objects.get(source=prices, number=1)
    assert _queue(QueueCategory.APPROVAL) >= {first.pk}, "a tested first version waits for approval"
    version_activate(actor=approver, version_id=first.pk, reason="checked")
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=terms, number=1).pk, reason="checked")
    step("approve")
    assert _queue(QueueCategory.APPROVAL) == set()
    assert testpairs.testpairs_import(actor=editor, source_id=prices.pk, text=PAIR.replace("{title}", "Price list"))["created"] == 1

    _page(site, "/prices", "Price list", 169)  # the golden pair now fails
    source_refetch(actor=editor, source_id=prices.pk)
    step("the page changes: a new version with a failing golden pair")
    second = SourceVersion.objects.get(source=prices, number=2)
    assert _queue(QueueCategory.FAILED_PAIRS) == {second.pk}
    failing = TestResult.objects.get(run__source_version=second, passed=False)
    activation.testresult_waive(actor=approver, result_id=failing.pk, reason="the price rose on purpose")
    step("waive the failing pair")
    assert _queue(QueueCategory.FAILED_PAIRS) == set() and _queue(QueueCategory.APPROVAL) == {second.pk}

    pv = PassageVersion.objects.filter(passage__source=terms, text__contains="Ridge").first()
    assert pv is not None
    answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1].", passage_version_ids=[pv.pk])
    answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £999 [1].", passage_version_ids=[pv.pk])
    step("answers arrive and are verified")
    assert sum(day.total for day in verification_rate_by_day(days=14)) == 2

    version_request_changes(actor=approver2, version_id=second.pk, reason="check the tent price")
    step("changes requested")
    assert _queue(QueueCategory.APPROVAL) == set()

    site.routes["/terms"] = (404, {}, b"gone")
    source_refetch(actor=editor, source_id=terms.pk)
    step("the link goes down")
    assert dict((s, n) for s, _, n in link_health_summary(days=14).now).get("not_found") == 1
    _page(site, "/terms", "Delivery terms", 159)
    source_refetch(actor=editor, source_id=terms.pk)
    step("the link comes back with a changed page")
    assert _queue(QueueCategory.APPROVAL) == {SourceVersion.objects.get(source=terms, number=2).pk}

    switch, _ = block_apply(actor=editor, target="source", source_id=terms.pk, reason="disputed")
    step("block a source")
    assert _queue(QueueCategory.APPROVAL) == set()
    block_lift(actor=approver, switch_id=switch.pk, reason="fine")
    step("lift the block")
    domain_switch, _ = block_apply(actor=editor, target="domain", domain=Source.objects.get(pk=terms.pk).domain, reason="whole site disputed")
    step("block the domain")
    assert _queue(QueueCategory.APPROVAL) == set()
    source_update(actor=approver, source_id=terms.pk, url=site.base.replace("127.0.0.1", "localhost") + "/terms", reason="moved")
    step("the source moves out of the blocked domain")
    assert _queue(QueueCategory.APPROVAL) == {SourceVersion.objects.get(source=terms, number=2).pk}
    block_lift(actor=approver, switch_id=domain_switch.pk, reason="fine")
    step("lift the domain block")
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=terms, number=2).pk, reason="checked")
    step("approve the changed page")

    assert "equals a fresh recount" in _check_command()
    assert LinkStateDay.objects.exists() and VerificationDay.objects.exists()
    assert len(steps) == 14


def test_the_rebuild_command_reports_every_difference_and_repairs_it(site, editor, approver, run_jobs):
    _page(site, "/prices", "Price list", 149)
    source = source_register(actor=editor, url=site.base + "/prices", priority="primary")
    run_jobs()
    waiting = SourceVersion.objects.get(source=source, number=1)
    assert waiting.queue_kind == "approval"
    # Plant one difference of each kind, as a bug or a hand edit would.
    SourceVersion.objects.filter(pk=waiting.pk).update(queue_kind="")
    Source.objects.filter(pk=source.pk).update(queue_page_changed=True)
    LinkStateDay.objects.update(fetches=0)
    VerificationDay.objects.create(day="2020-01-01", answers=3, verified=1)
    SourceStateCount.objects.filter(kind="link_state", state="ok").update(sources=7)
    AnswerFlaggedHour.objects.create(hour=400_000, answers=2)
    assert _queue(QueueCategory.APPROVAL) == set(), "the queue reads the kept state"
    assert {s: n for s, _, n in link_health_summary(days=14).now}["ok"] == 7, "/health/ reads the kept counts"

    with pytest.raises(CommandError, match="6 difference"):
        _check_command()
    out = io.StringIO()
    call_command("rebuild_kept_state", stdout=out)
    report = out.getvalue()
    assert f"SourceVersion.queue_kind {waiting.pk}: kept '', recounted 'approval'" in report
    assert f"Source.queue_page_changed {source.pk}: kept True, recounted False" in report
    assert "LinkStateDay" in report and "VerificationDay 2020-01-01" in report
    assert "SourceStateCount link_state ok: kept 7, recounted 1" in report and "AnswerFlaggedHour 400000: kept 2, recounted 0" in report
    assert "6 difference(s) fixed" in report
    assert {s: n for s, _, n in link_health_summary(days=14).now} == {"ok": 1}
    assert "equals a fresh recount" in _check_command()
    assert _queue(QueueCategory.APPROVAL) == {waiting.pk}
