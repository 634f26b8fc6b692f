"""Every decision from the page: one service each, sentences a person understands, audited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reviews.models import Approval, AuditLog, TestResult
from sources.models import EditorialTask, Source, SourceVersion, Stage, TaskKind, TaskStatus
from tests.desk.kb import _source as active_source
from tests.desk.kb import build_kb, candidate

pytestmark = pytest.mark.django_db


def _messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"]) if response.context else ""


def _decide(client, version, **data):
    return client.post(reverse("admin:desk-version-decide", args=[version.pk]), data, follow=True)


def test_approve_from_the_source_page_activates_and_says_so(client, editor, approver):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    client.force_login(approver)
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Version 2 waits for a decision" in page and "Approvals: 0 of 1" in page
    response = _decide(client, v2, decision="approve", reason="prices checked")
    assert "Approved: version 2 of Price list is now active" in _messages(response)
    v2.refresh_from_db()
    assert v2.is_active
    assert AuditLog.objects.filter(action="version_activate", actor_name="approver", object_id=str(v2.pk)).exists()


def test_an_editor_is_told_in_words_why_they_cannot_approve(client, editor):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    client.force_login(editor)
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Approve version 2" not in page, "no button the person cannot use"
    response = _decide(client, v2, decision="approve")
    assert "You (editor) cannot activate a version: that needs the Approver role." in _messages(response)
    assert not SourceVersion.objects.get(pk=v2.pk).is_active


def test_superuser_override_of_four_eyes_is_explicit_reasoned_and_audited(client, superuser):
    source, _ = active_source(superuser, "https://root.example.org/y", "Root terms", {"Root terms > A": "Returns are free within 30 days."})
    v2 = candidate(source)
    client.force_login(superuser)
    page = client.get(reverse("admin:desk-source", args=[source.pk])).content.decode()
    assert "Emergency override of the four-eyes rule" in page and "You registered this source" in page
    refused = _decide(client, v2, decision="approve", reason="")
    assert "You registered Root terms, so another approver must approve it" in _messages(refused)
    assert "emergency override" in _messages(refused)
    no_reason = _decide(client, v2, decision="approve", emergency_override="yes", reason=" ")
    assert "An emergency override needs a written reason." in _messages(no_reason)
    assert not SourceVersion.objects.get(pk=v2.pk).is_active
    done = _decide(client, v2, decision="approve", emergency_override="yes", reason="outage: nobody else on call")
    assert "is now active" in _messages(done)
    approval = Approval.objects.get(source_version=v2)
    assert approval.emergency_override
    override = AuditLog.objects.get(action="four_eyes_override")
    assert override.reason == "outage: nobody else on call" and override.actor_name == "root"


def test_request_changes_sends_the_version_back_with_a_reason(client, editor, approver):
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    client.force_login(approver)
    empty = _decide(client, v2, decision="request_changes", reason="")
    assert "Say what the editor should change." in _messages(empty)
    response = _decide(client, v2, decision="request_changes", reason="the tent price is missing its currency")
    assert "Sent version 2 of Price list back to the editor" in _messages(response)
    kb.prices.refresh_from_db()
    assert kb.prices.stage == Stage.NEEDS_REVIEW
    task = EditorialTask.objects.get(source=kb.prices, kind=TaskKind.REVIEW_CHANGE, status=TaskStatus.OPEN)
    assert "the tent price is missing its currency" in task.detail
    client.force_login(editor)
    queue = client.get(reverse("admin:index")).content.decode()
    assert "Changes requested: Price list" in queue
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Changes requested by approver" in page


def test_waive_from_the_page_needs_a_reason_and_shows_it_on_the_version(client, editor, approver):
    kb = build_kb(editor)
    v2 = candidate(kb.prices, failing=True)
    result = TestResult.objects.get(run__source_version=v2)
    client.force_login(approver)
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Waive this failing pair" in page
    refused = client.post(reverse("admin:desk-result-waive", args=[result.pk]), {"reason": ""}, follow=True)
    assert "A waiver needs a written reason." in _messages(refused)
    blocked = _decide(client, v2, decision="approve")
    assert "1 failing test pair(s); an approver must waive each with a reason first" in _messages(blocked)
    done = client.post(reverse("admin:desk-result-waive", args=[result.pk]), {"reason": "judge misreads the £ sign"}, follow=True)
    assert "Waived the failing golden pair" in _messages(done)
    page = done.content.decode()
    assert "Waived by approver: judge misreads the £ sign" in page
    assert "failed, waived" in page
    assert "is now active" in _messages(_decide(client, v2, decision="approve"))
    again = client.post(reverse("admin:desk-result-waive", args=[result.pk]), {"reason": "twice"}, follow=True)
    assert "already waived by approver: judge misreads the £ sign" in _messages(again)
    assert AuditLog.objects.filter(action="testresult_waive", allowed=True).count() == 1


def test_rollback_and_retest_from_the_page(client, editor, approver, approver2, viewer):
    kb = build_kb(editor)
    v1 = kb.prices.versions.get(number=1)
    v2 = candidate(kb.prices)
    client.force_login(approver)
    _decide(client, v2, decision="approve", reason="ok")
    # Roles build on each other (issue 25): an Approver may do what an Editor does, retests too.
    assert "The golden pairs of version 2 of Price list run again" in _messages(_decide(client, v2, decision="retest"))
    client.force_login(viewer)
    assert "You (viewer) cannot run the golden pairs again" in _messages(_decide(client, v2, decision="retest"))
    client.force_login(approver2)
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Roll back to version 1" in page
    assert "needs a reason" in _messages(_decide(client, v1, decision="rollback", reason=""))
    assert "Rolled back: version 1 of Price list is active again." in _messages(_decide(client, v1, decision="rollback", reason="v2 wrong"))
    v1.refresh_from_db()
    assert v1.is_active


def test_high_risk_needs_two_approvers_and_the_page_counts_them(client, editor, approver, approver2):
    kb = build_kb(editor)
    Source.objects.filter(pk=kb.prices.pk).update(risk_level="high")
    v2 = candidate(kb.prices)
    client.force_login(approver)
    first = _decide(client, v2, decision="approve", reason="looks right")
    assert "Your approval of version 2 of Price list is recorded (1 of 2)" in _messages(first)
    again = _decide(client, v2, decision="approve")
    assert "You already approved version 2; it needs another approver." in _messages(again)
    client.force_login(approver2)
    assert "is now active" in _messages(_decide(client, v2, decision="approve"))


def _proposal(source, url):
    return EditorialTask.objects.create(source=source, kind=TaskKind.CANONICAL_CHANGE, proposed_url=url, detail=f"{source.canonical_url} moved permanently to {url}")


def test_redirect_proposal_reject_asks_a_reason_and_accept_moves_the_url(client, editor):
    kb = build_kb(editor)
    task = _proposal(kb.prices, "https://shop.example.org/prices-2026")
    client.force_login(editor)
    page = client.get(reverse("admin:desk-task-decide", args=[task.pk])).content.decode()
    assert "Accept: Price list moves to https://shop.example.org/prices-2026" in page
    url = reverse("admin:desk-task-decide", args=[task.pk])
    assert "Say why the proposal is rejected." in _messages(client.post(url, {"decision": "reject", "reason": ""}, follow=True))
    done = client.post(url, {"decision": "accept", "reason": "moved for good"}, follow=True)
    assert "Accepted: Price list now lives at https://shop.example.org/prices-2026" in _messages(done)
    kb.prices.refresh_from_db()
    assert kb.prices.canonical_url == "https://shop.example.org/prices-2026"


@pytest.mark.parametrize("choice", ["merge", "point"])
def test_accepting_a_redirect_to_an_already_registered_url_offers_merge_or_point(client, editor, choice):
    kb = build_kb(editor)
    task = _proposal(kb.delivery, kb.prices.canonical_url)
    client.force_login(editor)
    url = reverse("admin:desk-task-decide", args=[task.pk])
    page = client.get(url).content.decode()
    assert "is already registered as" in page and "Merge Delivery terms into Price list" in page and "Point Delivery terms at Price list" in page
    plain = client.post(url, {"decision": "accept", "reason": ""}, follow=True)
    assert "Merge this source into it, or point this source at it." in _messages(plain), "no dead end: the choices are named"
    done = client.post(url, {"decision": choice, "reason": "same page"}, follow=True)
    task.refresh_from_db()
    kb.delivery.refresh_from_db()
    assert task.status == TaskStatus.ACCEPTED and task.data["existing_source"] == kb.prices.pk
    if choice == "merge":
        assert "Merged Delivery terms into Price list" in _messages(done)
        assert kb.delivery.is_blocked and "merged into source" in kb.delivery.blocked_reason
        assert AuditLog.objects.filter(action="source_merge", object_id=str(kb.delivery.pk)).exists()
    else:
        assert "Delivery terms now points at Price list" in _messages(done)
        assert not kb.delivery.is_blocked
        assert AuditLog.objects.get(action="canonical_point_existing").data["points_at"] == kb.prices.pk
