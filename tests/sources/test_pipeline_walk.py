"""The whole walk of a source on a real local page, with a real RQ worker and real Redis."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import transaction

from citecheck.errors import IllegalTransition, PermissionRefused
from reviews.models import AuditLog
from sources.models import (
    ChangeKind,
    EvidenceStatus,
    FetchResult,
    Passage,
    PassageVersion,
    Source,
    SourceVersion,
    Stage,
    VersionPassage,
)
from sources.selectors import export_passages
from sources.services import fetch_request, source_refetch, source_register, version_activate, version_extract

pytestmark = pytest.mark.django_db(transaction=True)


def test_register_fetch_extract_version_test_activate(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/delivery"), priority="primary")
    assert source.stage == Stage.REGISTERED
    run_jobs()
    source.refresh_from_db()
    assert source.stage == Stage.TESTED
    assert source.evidence_status == EvidenceStatus.VERIFIED
    version = SourceVersion.objects.get(source=source)
    assert version.extraction_status == "ok"
    headings = list(Passage.objects.filter(source=source).values_list("heading_path", flat=True))
    assert "Delivery terms > Express delivery" in headings
    texts = " ".join(PassageVersion.objects.filter(passage__source=source).values_list("text", flat=True))
    assert "1 to 2 working days and costs £9.95" in texts
    assert "cookies" not in texts and "newsletter" not in texts  # banner and footer are not evidence
    assert source.displayed_date == "2026-11-02", "the page's own date is recorded"
    assert export_passages().count() == 0, "nothing is exported before activation"

    version_activate(actor=approver, version_id=version.pk, reason="checked")
    source.refresh_from_db()
    assert source.stage == Stage.ACTIVE
    exported = list(export_passages())
    assert {pv.passage.heading_path for pv in exported} >= {"Delivery terms > Express delivery"}
    actions = list(AuditLog.objects.filter(object_id=str(source.pk), object_type="sources.source").values_list("to_state", flat=True))
    assert Stage.ACTIVE in actions


def test_content_change_yields_exactly_the_changed_passages(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"), priority="primary")
    run_jobs()
    first = SourceVersion.objects.get(source=source)
    version_activate(actor=approver, version_id=first.pk)
    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    second = SourceVersion.objects.filter(source=source).order_by("-number").first()
    assert second.number == 2
    kinds = dict(VersionPassage.objects.filter(source_version=second).values_list("passage_version__passage__heading_path", "change_kind"))
    assert kinds["Price list > Tents"] == ChangeKind.CHANGED
    assert kinds["Price list > Sleeping bags"] == ChangeKind.UNCHANGED
    assert kinds["Price list > Stoves"] == ChangeKind.ADDED
    assert second.diff_summary == {"added": 1, "changed": 1, "unchanged": 1, "removed": 0}
    source.refresh_from_db()
    assert source.live_page_changed
    first.refresh_from_db()
    assert first.is_active, "the previous version stays active until a new one is approved"

    # A, B, A: the live page is back to the active version (issue 20): no third version, nothing to
    # approve, "live page changed" no longer holds; the fetch is recorded against the active version.
    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    assert SourceVersion.objects.filter(source=source).order_by("-number").first().number == 2
    assert FetchResult.objects.filter(source=source).order_by("-fetched_at", "-id").first().version_id == first.pk
    source.refresh_from_db()
    assert not source.live_page_changed


def test_jobs_are_idempotent(shop, editor, run_jobs):

    source = source_register(actor=editor, url=shop.url("/warranty"))
    run_jobs()
    counts = (SourceVersion.objects.count(), Passage.objects.count(), PassageVersion.objects.count())
    with transaction.atomic():
        fetch_request(source=source)
    run_jobs()
    version_extract(version_id=SourceVersion.objects.get().pk)
    assert (SourceVersion.objects.count(), Passage.objects.count(), PassageVersion.objects.count()) == counts
    assert FetchResult.objects.filter(source=source).count() == 2, "every fetch is recorded"


def test_registrant_cannot_activate_and_viewer_cannot_approve(shop, editor, approver, viewer, run_jobs):
    editor.groups.add(Group.objects.get(name="Approver"))
    source = source_register(actor=editor, url=shop.url("/returns"))
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    with pytest.raises(PermissionRefused, match="four-eyes"):
        version_activate(actor=editor, version_id=version.pk)
    with pytest.raises(PermissionRefused):
        version_activate(actor=viewer, version_id=version.pk)
    version.refresh_from_db()
    assert not version.is_active
    refusals = AuditLog.objects.filter(allowed=False, action="version_activate")
    assert {r.actor_name for r in refusals} == {"editor", "viewer"}


def test_missing_page_is_suspended_not_activated(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/discontinued"))
    run_jobs()
    source.refresh_from_db()
    assert source.link_state == "not_found"
    assert source.evidence_status == EvidenceStatus.SUSPENDED
    assert source.stage == Stage.REGISTERED
    assert not SourceVersion.objects.filter(source=source).exists()


def test_activation_before_testing_is_an_illegal_transition(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/requirements"))
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    version.test_runs.all().delete()
    with pytest.raises(IllegalTransition, match="not been tested"):
        version_activate(actor=approver, version_id=version.pk)
    assert not Source.objects.get(pk=source.pk).stage == Stage.ACTIVE
