"""Decision buttons: each POST calls one service and reports back in a sentence."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from citecheck.errors import ServiceError
from desk.views.common import render_desk, safe_next
from reviews.models import ApprovalDecision, TestResult
from sources.models import EditorialTask, SourceVersion, TaskKind
from sources.selectors import version_approvals_required
from sources.services import (
    canonical_proposal_decide,
    source_refetch,
    testresult_waive,
    version_activate,
    version_retest,
    version_rollback,
)
from sources.services.activation import version_request_changes
from sources.services.fetch import proposal_existing_source


def _back(request: HttpRequest, source_id: int) -> HttpResponse:
    return redirect(safe_next(request, reverse("admin:desk-source", args=[source_id])))


@require_POST
def source_refetch_view(request: HttpRequest, source_id: int) -> HttpResponse:
    try:
        source_refetch(actor=request.user, source_id=source_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "A fresh fetch is queued. This page shows its progress and updates itself.")
    return _back(request, source_id)


@require_POST
def version_decide(request: HttpRequest, version_id: int) -> HttpResponse:
    version = get_object_or_404(SourceVersion.objects.select_related("source").defer("body_compressed"), pk=version_id)
    decision = request.POST.get("decision", "")
    reason = request.POST.get("reason", "").strip()
    override = request.POST.get("emergency_override") == "yes"
    name = f"version {version.number} of {version.source}"
    try:
        if decision == "approve":
            result = version_activate(actor=request.user, version_id=version.pk, reason=reason, emergency_override=override)
            if result.is_active:
                messages.success(request, f"Approved: {name} is now active and its passages are in the export.")
            else:
                count = result.approvals.filter(decision=ApprovalDecision.APPROVE).count()
                needed = version_approvals_required(result)
                messages.success(request, f"Your approval of {name} is recorded ({count} of {needed}); a second approver must approve it before it goes live.")
        elif decision == "request_changes":
            version_request_changes(actor=request.user, version_id=version.pk, reason=reason)
            messages.success(request, f"Sent {name} back to the editor with your reason; it stays inactive.")
        elif decision == "rollback":
            version_rollback(actor=request.user, version_id=version.pk, reason=reason, emergency_override=override)
            messages.success(request, f"Rolled back: {name} is active again.")
        elif decision == "retest":
            version_retest(actor=request.user, version_id=version.pk)
            messages.success(request, f"The golden pairs of {name} run again; this page shows the result when it is ready.")
            # Back to this version's pairs, not to the page's default version (a newer one waiting
            # for review would hide the run that was asked for).
            page = reverse("admin:desk-source", args=[version.source_id])
            return redirect(safe_next(request, f"{page}?version={version.number}#pairs-h"))
        else:
            messages.error(request, "Choose a decision: approve, request changes, roll back or run the golden pairs again.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    return _back(request, version.source_id)


@require_POST
def result_waive(request: HttpRequest, result_id: int) -> HttpResponse:
    result = get_object_or_404(TestResult.objects.select_related("run__source_version", "pair"), pk=result_id)
    try:
        testresult_waive(actor=request.user, result_id=result.pk, reason=request.POST.get("reason", ""))
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Waived the failing golden pair “{result.pair.claim[:80]}” for version {result.run.source_version.number}, with your reason.")
    return _back(request, result.run.source_version.source_id)


def task_decide(request: HttpRequest, task_id: int) -> HttpResponse:
    """Accept or reject a redirect proposal. When the new URL is already another source, the
    page offers to merge this source into it or point this source at it."""
    task = get_object_or_404(EditorialTask.objects.select_related("source"), pk=task_id, kind=TaskKind.CANONICAL_CHANGE)
    existing = proposal_existing_source(task)
    if request.method == "POST":
        decision = request.POST.get("decision", "")
        reason = request.POST.get("reason", "").strip()
        try:
            if decision == "reject":
                canonical_proposal_decide(actor=request.user, task_id=task.pk, accept=False, reason=reason)
                messages.success(request, f"Rejected the proposal; {task.source} keeps {task.source.canonical_url}.")
            elif decision in ("accept", "merge", "point"):
                canonical_proposal_decide(actor=request.user, task_id=task.pk, accept=True, reason=reason,
                                          existing=decision if decision != "accept" else "")
                if decision == "merge" and existing is not None:
                    messages.success(request, f"Merged {task.source} into {existing}: its golden pairs moved there and it is blocked as a duplicate.")
                elif decision == "point" and existing is not None:
                    messages.success(request, f"{task.source} now points at {existing}, which already has this page.")
                else:
                    messages.success(request, f"Accepted: {task.source} now lives at {task.proposed_url}; the old URL stays in its history.")
            else:
                messages.error(request, "Choose accept or reject.")
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            return _back(request, task.source_id)
    return render_desk(request, "desk/task_decide.html", "Redirect proposal", task=task, existing=existing)
