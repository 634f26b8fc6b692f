"""What the desk and the API say after evidence moves (issue 20, faults 1–4): a rollback and an
identical revert leave no false "outdated"; the queue lists every answer in trouble; the trace
names the block that targets the passage and the version that is active; one approvals rule."""

from __future__ import annotations

import pytest

from claims.models import Answer, AnswerState
from claims.services import answer_submit
from claims.tracing import answer_trace
from reviews.selectors.queue import QueueCategory, QueueFilters, review_queue
from reviews.services import block_apply
from sources.models import Passage, PassageVersion, SourceVersion
from sources.selectors import approvals_for_risk
from sources.services import source_refetch, source_register, source_update, version_activate, version_rollback
from tests.sources.pageserver import page_server

pytestmark = pytest.mark.django_db(transaction=True)


def _latest(source) -> SourceVersion:
    return SourceVersion.objects.filter(source=source).order_by("-number").first()


def _tent(source) -> PassageVersion:
    return PassageVersion.objects.get(memberships__source_version__source=source, memberships__source_version__is_active=True,
                                      text__contains="Ridge 2")


def _refetch(shop, source, editor, run_jobs) -> SourceVersion:
    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    return _latest(source)


def _answer_queue_ids() -> set[int]:
    queue = review_queue(filters=QueueFilters(category=QueueCategory.ANSWER))
    return {int(i.key.rsplit(":", 1)[1]) for i in queue.items if i.category == QueueCategory.ANSWER}


def test_rollback_then_identical_revert_ends_supported(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"), priority="primary")
    run_jobs()
    first = _latest(source)
    version_activate(actor=approver, version_id=first.pk, reason="prices checked")
    run_jobs()
    answer = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1].", passage_version_ids=[_tent(source).pk])
    run_jobs()
    assert Answer.objects.get(pk=answer.pk).state == AnswerState.SUPPORTED

    second = _refetch(shop, source, editor, run_jobs)
    version_activate(actor=approver, version_id=second.pk, reason="new prices")
    run_jobs()
    assert Answer.objects.get(pk=answer.pk).state == AnswerState.CONTRADICTED

    version_rollback(actor=approver, version_id=first.pk, reason="the shop says the new price is a mistake")
    run_jobs()
    rolled = Answer.objects.get(pk=answer.pk)
    if rolled.state == AnswerState.OUTDATED:
        assert answer.pk in _answer_queue_ids(), "an outdated answer needs a person: it is in the queue"
    trace = answer_trace(answer_id=answer.pk)
    for evidence in trace["claims"][0]["evidence"]:
        for change in evidence["changes"]:
            if change["kind"] == "newer_text":
                pytest.fail(f"after the rollback the trace points at the rolled-back text: {change['message']}")

    third = _refetch(shop, source, editor, run_jobs)  # the page is back to £149
    assert third.pk == second.pk, "a page equal to the active version makes no version to approve"
    run_jobs()
    final = Answer.objects.get(pk=answer.pk)
    assert final.state == AnswerState.SUPPORTED, (final.state, final.state_wording)
    assert answer.pk not in _answer_queue_ids()


def test_trace_names_only_the_block_that_targets_the_passage(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/delivery"), priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=_latest(source).pk, reason="ok")
    run_jobs()
    pvs = {pv.passage.heading_path: pv for pv in PassageVersion.objects.filter(
        memberships__source_version__source=source, memberships__source_version__is_active=True).select_related("passage")}
    express = next(pv for h, pv in pvs.items() if "Express" in h and "1 to 2" in pv.text)
    standard = next(pv for h, pv in pvs.items() if "Standard" in h)
    answer = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1].", passage_version_ids=[express.pk])
    run_jobs()
    block_apply(actor=editor, target="passage", passage_id=standard.passage_id, reason="Standard delivery price disputed")
    run_jobs()
    trace = answer_trace(answer_id=answer.pk)
    messages = [c["message"] for e in trace["claims"][0]["evidence"] for c in e["changes"]]
    assert not any("disputed" in m for m in messages), messages
    Passage.objects.get(pk=standard.passage_id)


def test_approvals_shown_are_the_ones_the_service_enforces(shop, editor, approver, approver2, superuser, client, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"), priority="primary", risk_level="high")
    run_jobs()
    version = _latest(source)
    assert version.approvals_required == approvals_for_risk("high") == 2
    version_activate(actor=approver, version_id=version.pk, reason="first look")
    source_update(actor=approver2, source_id=source.pk, risk_level="normal", reason="not so risky after all")
    version.refresh_from_db()
    queue = review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL))
    details = [i.detail for i in queue.items if i.category == QueueCategory.APPROVAL]
    assert details and details[0].startswith(f"1 of {version.approvals_required} approvals"), details
    client.force_login(superuser)
    page = client.get(f"/admin/desk/sources/{source.pk}/").content.decode()
    assert f"1 of {version.approvals_required}" in page or f"Approvals: 1 of {version.approvals_required}" in page


def test_a_fetch_equal_to_the_active_version_makes_no_version(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"), priority="primary")
    run_jobs()
    first = _latest(source)
    version_activate(actor=approver, version_id=first.pk, reason="prices checked")
    second = _refetch(shop, source, editor, run_jobs)
    version_activate(actor=approver, version_id=second.pk, reason="new prices")
    version_rollback(actor=approver, version_id=first.pk, reason="the new price is a mistake")
    run_jobs()
    source.refresh_from_db()
    assert source.live_page_changed, "v2 is newer than the active v1"

    after = _refetch(shop, source, editor, run_jobs)  # the shop reverts the page to what v1 says
    source.refresh_from_db()
    assert after.pk == second.pk, "no new version: the page equals the active version"
    assert not source.live_page_changed
    assert source.fetches.order_by("-fetched_at", "-id").first().version_id == first.pk, "the fetch is recorded against v1"
    assert not review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL)).items or all(
        f"version {first.number}" not in i.title for i in review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL)).items)


def test_a_page_back_to_an_older_version_is_marked_so(editor, approver, run_jobs, client, superuser):
    page = """<html><head><title>Prices</title></head><body><main><h2 id="t">Tents</h2><p>The Ridge 2 tent costs £{}.</p></main></body></html>"""
    with page_server() as site:
        source = source_register(actor=editor, url=site.url("/p"), priority="primary", fetch=False)
        for n, price in enumerate((149, 169, 179, 149), start=1):
            site.pages["/p"] = ("text/html", page.format(price).encode())
            source_refetch(actor=editor, source_id=source.pk)
            run_jobs()
            if n <= 2:
                version_activate(actor=approver, version_id=_latest(source).pk, reason="ok")
        newest = _latest(source)
        assert newest.number == 4 and not newest.is_active
        client.force_login(superuser)
        html = client.get(f"/admin/desk/sources/{source.pk}/").content.decode()
    assert "The live page is back to version 1" in html
