"""Issue 11 item 2: the fields that govern review change only through `source_update`.

The attack: approver 1 approves a high-risk version (1 of 2), the risk level is lowered in the
admin change form, and approver 1's second click activates it with one approval.
"""

from __future__ import annotations

import pytest

from citecheck.errors import InvalidInput, PermissionRefused
from reviews.models import Approval, AuditLog
from reviews.services import block_apply
from sources.models import DomainPolicy, EditorialTask, Source, SourceVersion, TaskKind
from sources.services import canonical_proposal_decide, source_refetch, source_register, source_update, version_activate

from .conftest import PAGE

pytestmark = pytest.mark.django_db(transaction=True)


def _tested_source(hosts, editor, run_jobs, *, risk_level: str) -> tuple[Source, SourceVersion]:
    site = hosts("127.0.0.1")
    site.routes["/terms"] = (200, {}, PAGE)
    site.routes["/faq"] = (200, {}, PAGE.replace(b"10 working", b"14 working"))
    source = source_register(actor=editor, url=site.base + "/terms", risk_level=risk_level, priority="primary")
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    assert version.test_runs.exists(), "the version is tested: submitted for approval"
    source.site = site  # type: ignore[attr-defined]
    return source, version


def test_lowering_the_risk_after_one_approval_does_not_let_that_approver_activate(hosts, client, editor, approver, approver2, run_jobs):
    source, version = _tested_source(hosts, editor, run_jobs, risk_level="high")
    assert version.approvals_required == 2, "fixed when the version was submitted for approval"
    version_activate(actor=approver, version_id=version.pk)
    version.refresh_from_db()
    assert not version.is_active

    # The admin change form no longer edits the risk level (the attack as it was done).
    client.force_login(editor)
    form = client.get(f"/admin/sources/source/{source.pk}/change/").content.decode()
    assert 'name="risk_level"' not in form and 'name="url"' not in form and 'name="priority"' not in form and 'name="owner"' not in form
    client.post(f"/admin/sources/source/{source.pk}/change/", {"risk_level": "low", "title": "x", "document_type": "webpage", "language": "en"})
    source.refresh_from_db()
    assert source.risk_level == "high"

    # An Editor may not lower it at all; an Approver may, with a reason, audited.
    with pytest.raises(PermissionRefused):
        source_update(actor=editor, source_id=source.pk, risk_level="low", reason="not that risky")
    source_update(actor=approver, source_id=source.pk, risk_level="low", reason="reviewed: not that risky")
    source.refresh_from_db()
    assert source.risk_level == "low"
    row = AuditLog.objects.get(action="source_update", object_id=str(source.pk))
    assert (row.from_state, row.to_state, row.reason, row.actor) == ("high", "low", "reviewed: not that risky", approver)
    assert row.data["field"] == "risk_level"
    assert AuditLog.objects.filter(action="source_risk_lower", allowed=False, actor=editor).exists(), "the editor's attempt is on record"

    # The second click of the same approver: refused (they lowered the risk), still 1 of 2.
    with pytest.raises(PermissionRefused, match="lowered"):
        version_activate(actor=approver, version_id=version.pk)
    version.refresh_from_db()
    assert not version.is_active and version.approvals_required == 2
    version_activate(actor=approver2, version_id=version.pk)
    version.refresh_from_db()
    assert version.is_active, "a second, different approver activates it"


def test_a_new_version_after_a_lowering_needs_another_approver(hosts, editor, approver, approver2, run_jobs):
    source, version = _tested_source(hosts, editor, run_jobs, risk_level="high")
    source_update(actor=approver, source_id=source.pk, risk_level="normal", reason="downgraded")
    source.site.routes["/terms"] = (200, {}, PAGE.replace(b"10 working", b"12 working"))  # type: ignore[attr-defined]
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    newer = SourceVersion.objects.filter(source=source).order_by("-number").first()
    assert newer.pk != version.pk and newer.approvals_required == 1
    with pytest.raises(PermissionRefused):
        version_activate(actor=approver, version_id=newer.pk)
    version_activate(actor=approver2, version_id=newer.pk)
    newer.refresh_from_db()
    assert newer.is_active


def test_raising_the_risk_or_moving_the_url_drops_pending_approvals(hosts, editor, approver, approver2, run_jobs):
    source, version = _tested_source(hosts, editor, run_jobs, risk_level="high")
    version_activate(actor=approver, version_id=version.pk)
    assert Approval.objects.filter(source_version=version).count() == 1
    source_update(actor=editor, source_id=source.pk, url=source.site.base + "/faq", reason="the terms moved")  # type: ignore[attr-defined]
    assert not Approval.objects.filter(source_version=version).exists(), "approvals of the old page are dropped"
    source.refresh_from_db()
    assert source.canonical_url.endswith("/faq") and source.domain == "127.0.0.1"
    assert AuditLog.objects.filter(action="approvals_dropped", object_id=str(version.pk)).exists()

    normal, pending = _tested_source(hosts, editor, run_jobs, risk_level="normal")
    assert pending.approvals_required == 1
    source_update(actor=editor, source_id=normal.pk, risk_level="high", reason="legal text")
    pending.refresh_from_db()
    assert pending.approvals_required == 2, "a stricter rule applies at once to versions waiting for approval"
    version_activate(actor=approver, version_id=pending.pk)
    pending.refresh_from_db()
    assert not pending.is_active


def test_a_url_change_is_checked_like_a_registration(hosts, client, editor, run_jobs):
    source, _ = _tested_source(hosts, editor, run_jobs, risk_level="normal")
    before = source.canonical_url
    for bad in ("ftp://example.com/x", "javascript:alert(1)", "http://exa mple.com/"):
        with pytest.raises(InvalidInput):
            source_update(actor=editor, source_id=source.pk, url=bad, reason="typo")
    source_update(actor=editor, source_id=source.pk, url="https://user:pw@example.org/terms", reason="new home")
    source.refresh_from_db()
    assert (source.url, source.canonical_url, source.domain) == ("https://example.org/terms", "https://example.org/terms", "example.org")
    assert before != source.canonical_url

    # The admin's "Change risk / priority / URL / owner" page goes through the same service.
    client.force_login(editor)
    page = client.get(f"/admin/sources/source/{source.pk}/governance/")
    assert page.status_code == 200 and 'name="reason"' in page.content.decode()
    refused = client.post(f"/admin/sources/source/{source.pk}/governance/", {
        "risk_level": source.risk_level, "priority": source.priority, "owner": "", "url": "ftp://example.com/x", "reason": "try"})
    assert refused.status_code == 200 and "only http and https" in refused.content.decode()
    no_reason = client.post(f"/admin/sources/source/{source.pk}/governance/", {
        "risk_level": source.risk_level, "priority": source.priority, "owner": "Legal", "url": source.url, "reason": ""})
    assert no_reason.status_code == 200
    done = client.post(f"/admin/sources/source/{source.pk}/governance/", {
        "risk_level": source.risk_level, "priority": "supplementary", "owner": "Legal", "url": source.url, "reason": "handover"})
    assert done.status_code == 302
    source.refresh_from_db()
    assert (source.owner, source.priority) == ("Legal", "supplementary")
    assert AuditLog.objects.filter(action="source_update", reason="handover").count() == 2, "one row per field changed"


def test_a_blocked_domain_policy_cannot_be_renamed_in_the_admin(client, editor, approver):
    block_apply(actor=approver, target="domain", domain="evil.example", reason="hostile")
    policy = DomainPolicy.objects.get(domain="evil.example")
    client.force_login(editor)
    client.post(f"/admin/sources/domainpolicy/{policy.pk}/change/", {
        "domain": "harmless.example", "quality_tier": 0, "allowed_for_links": "on", "min_request_gap_ms": 0,
        "max_concurrent_requests": 0, "notes": ""})
    policy.refresh_from_db()
    assert (policy.domain, policy.is_blocked) == ("evil.example", True)


def test_the_governance_page_keeps_an_accepted_canonical_url(hosts, client, editor, editor2, run_jobs):
    site = hosts("127.0.0.1")
    site.routes["/new"] = (200, {}, PAGE)
    site.routes["/old"] = (301, {"Location": "/new"}, b"")
    source = source_register(actor=editor, url=site.base + "/old")
    run_jobs()
    task = EditorialTask.objects.get(source=source, kind=TaskKind.CANONICAL_CHANGE)
    canonical_proposal_decide(actor=editor2, task_id=task.pk, accept=True, reason="moved")
    client.force_login(editor)
    page = client.get(f"/admin/sources/source/{source.pk}/governance/").content.decode()
    assert f'value="{site.base}/new"' in page
    client.post(f"/admin/sources/source/{source.pk}/governance/", {
        "risk_level": "normal", "priority": "supplementary", "owner": "Legal", "url": site.base + "/new", "reason": "owner named"})
    source.refresh_from_db()
    assert (source.owner, source.canonical_url) == ("Legal", site.base + "/new")


def test_domain_policy_changes_in_the_admin_are_normalised_and_audited(client, editor, viewer):
    client.force_login(editor)
    form = {"domain": "https://News.Example.co.uk/x", "quality_tier": 2, "allowed_for_links": "on", "min_request_gap_ms": 0,
            "max_concurrent_requests": 0, "notes": ""}
    assert client.post("/admin/sources/domainpolicy/add/", form).status_code == 302
    policy = DomainPolicy.objects.get()
    assert policy.domain == "example.co.uk" and policy.quality_tier == 2
    client.post(f"/admin/sources/domainpolicy/{policy.pk}/change/", {**form, "allowed_for_links": ""})
    policy.refresh_from_db()
    assert policy.allowed_for_links is False
    row = AuditLog.objects.get(action="domain_policy_save", data__field="allowed_for_links")
    assert (row.actor, row.from_state, row.to_state) == (editor, "True", "False")
    client.force_login(viewer)
    client.post(f"/admin/sources/domainpolicy/{policy.pk}/change/", {**form, "allowed_for_links": "on"})
    policy.refresh_from_db()
    assert policy.allowed_for_links is False
