"""Failing golden pairs block activation until waived; four eyes; two approvers; rollback."""

from __future__ import annotations

import pytest

from citecheck.errors import IllegalTransition, PermissionRefused
from reviews import testpairs
from reviews.models import Approval, AuditLog, TestResult, TestRun, TestRunStatus
from sources import services
from sources.models import SourceVersion, Stage
from sources.services import source_refetch, source_register, version_activate, version_rollback

pytestmark = pytest.mark.django_db(transaction=True)

TENT_PAIR = '[{"claim": "The Ridge 2 tent costs £149.", "expected_status": "supported", "expected_heading": "Price list > Tents", "expected_quote": "£149"}]'


def _latest(source) -> SourceVersion:
    return SourceVersion.objects.filter(source=source).order_by("-number").first()


def _price_change(shop, source, editor, run_jobs) -> SourceVersion:
    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    return _latest(source)


def test_failing_pair_blocks_activation_until_an_approver_waives_it(shop, editor, approver, approver2, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"))
    run_jobs()
    first = _latest(source)
    version_activate(actor=approver, version_id=first.pk, reason="prices checked")
    report = testpairs.testpairs_import(actor=editor, source_id=source.pk, text=TENT_PAIR)
    assert report["created"] == 1

    second = _price_change(shop, source, editor, run_jobs)
    assert second.number == 2
    run = TestRun.objects.get(source_version=second)
    assert run.status == TestRunStatus.FAILED and run.failed_count == 1
    result = TestResult.objects.get(run=run)
    assert not result.passed
    assert result.passage_found
    assert result.quote_found is False, "the quoted old price is gone from the new version"

    with pytest.raises(IllegalTransition, match="failing test pair"):
        version_activate(actor=approver2, version_id=second.pk)
    second.refresh_from_db()
    first.refresh_from_db()
    assert not second.is_active and first.is_active, "the previous version stays live"

    with pytest.raises(IllegalTransition, match="reason"):
        services.testresult_waive(actor=approver, result_id=result.pk, reason="   ")
    with pytest.raises(PermissionRefused):
        services.testresult_waive(actor=editor, result_id=result.pk, reason="I think it is fine")
    result.refresh_from_db()
    assert not result.waived
    assert AuditLog.objects.filter(action="testresult_waive", allowed=False, actor_name="editor").exists()

    services.testresult_waive(actor=approver, result_id=result.pk, reason="The price rose on 1 December; the golden pair will be updated.")
    result.refresh_from_db()
    assert result.waived and result.waived_by == approver
    run.refresh_from_db()
    assert run.status == TestRunStatus.WAIVED
    waiver = AuditLog.objects.get(action="testresult_waive", allowed=True)
    assert waiver.actor_name == "approver"
    assert "price rose" in waiver.reason
    assert waiver.object_id == str(second.pk)

    version_activate(actor=approver2, version_id=second.pk, reason="waived pair reviewed")
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.is_active and not first.is_active
    source.refresh_from_db()
    assert source.stage == Stage.ACTIVE
    assert not source.live_page_changed


def test_high_risk_source_needs_two_distinct_approvers(shop, editor, approver, approver2, run_jobs):
    source = source_register(actor=editor, url=shop.url("/delivery"), risk_level="high", priority="primary")
    run_jobs()
    version = _latest(source)

    version_activate(actor=approver, version_id=version.pk, reason="first look")
    version.refresh_from_db()
    source.refresh_from_db()
    assert not version.is_active, "one approval is not enough for a high-risk source"
    assert source.stage == Stage.TESTED
    with pytest.raises(IllegalTransition, match="You already approved version"):
        version_activate(actor=approver, version_id=version.pk, reason="me again")
    version.refresh_from_db()
    assert not version.is_active, "the same approver twice still counts once"
    assert Approval.objects.filter(source_version=version).count() == 1

    version_activate(actor=approver2, version_id=version.pk, reason="second pair of eyes")
    version.refresh_from_db()
    source.refresh_from_db()
    assert version.is_active
    assert source.stage == Stage.ACTIVE
    assert set(Approval.objects.filter(source_version=version).values_list("approver__username", flat=True)) == {"approver", "approver2"}


def test_rollback_restores_an_earlier_version_in_one_step(shop, editor, approver, approver2, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"), risk_level="high")
    run_jobs()
    first = _latest(source)
    for who in (approver, approver2):
        version_activate(actor=who, version_id=first.pk)
    second = _price_change(shop, source, editor, run_jobs)
    for who in (approver, approver2):
        version_activate(actor=who, version_id=second.pk)
    second.refresh_from_db()
    assert second.is_active

    with pytest.raises(IllegalTransition, match="reason"):
        version_rollback(actor=approver, version_id=first.pk, reason="")
    with pytest.raises(PermissionRefused):
        version_rollback(actor=editor, version_id=first.pk, reason="editors cannot roll back")

    version_rollback(actor=approver, version_id=first.pk, reason="the new price list was published by mistake")
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.is_active and not second.is_active
    assert SourceVersion.objects.filter(source=source, is_active=True).count() == 1
    entry = AuditLog.objects.get(action="version_rollback", object_type="sources.sourceversion", allowed=True)
    assert (entry.from_state, entry.to_state, entry.actor_name) == ("v2", "v1", "approver")
    assert "by mistake" in entry.reason
    with pytest.raises(IllegalTransition, match="earlier"):
        version_rollback(actor=approver, version_id=second.pk, reason="forward is not a rollback")


def test_superuser_override_of_four_eyes_is_audited(shop, superuser, run_jobs):
    source = source_register(actor=superuser, url=shop.url("/warranty"))
    run_jobs()
    version = _latest(source)

    with pytest.raises(PermissionRefused, match="emergency override"):
        version_activate(actor=superuser, version_id=version.pk, reason="incident: the warranty page must go live now")
    version_activate(actor=superuser, version_id=version.pk, reason="incident: the warranty page must go live now", emergency_override=True)
    version.refresh_from_db()
    assert version.is_active
    override = AuditLog.objects.get(action="four_eyes_override")
    assert override.actor_name == "root"
    assert override.object_id == str(version.pk)
    assert "incident" in override.reason
    assert Approval.objects.get(source_version=version).emergency_override
