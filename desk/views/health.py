"""The link-health page: counts per state over time, evidence status, the redirect proposals queue."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.decorators import permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from citecheck.errors import Conflict, ServiceError
from desk.charts import STATE_COLOURS, link_state_bars
from sources.models import EditorialTask, TaskKind, TaskStatus
from sources.selectors import link_health_summary
from sources.services import canonical_proposal_decide


@permission_required("sources.view_source")
def link_health(request: HttpRequest) -> HttpResponse:
    summary = link_health_summary(days=14)
    proposals = EditorialTask.objects.filter(kind=TaskKind.CANONICAL_CHANGE, status=TaskStatus.OPEN).select_related("source")[:100]
    return render(request, "desk/link_health.html", {
        **admin.site.each_context(request),  # the desk's navigation: user, logout, theme
        "summary": summary, "bars": link_state_bars(summary),
        "legend": [(label, STATE_COLOURS.get(state, "#999")) for state, label in zip(summary.states, summary.labels, strict=True)],
        "proposals": proposals, "title": "Link health",
    })


@require_POST
@permission_required("sources.change_source")
def proposal_decide(request: HttpRequest, task_id: int) -> HttpResponse:
    accept = request.POST.get("decision") == "accept"
    try:
        canonical_proposal_decide(actor=request.user, task_id=task_id, accept=accept, reason=request.POST.get("reason", ""))
        messages.success(request, "Proposal accepted: the canonical URL changed." if accept else "Proposal rejected.")
    except Conflict as exc:
        # The new URL is already another source: the desk page offers merge into / point at it.
        messages.warning(request, exc.message)
        return redirect("admin:desk-task-decide", task_id)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("link-health")
