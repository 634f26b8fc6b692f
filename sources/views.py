"""The link-health page: counts per state over time, evidence status, the redirect proposals queue."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from citecheck.errors import Conflict, ServiceError
from sources.models import EditorialTask, TaskKind, TaskStatus
from sources.selectors import link_health_summary
from sources.services import canonical_proposal_decide

# One colour per state for the chart; the table next to it carries the same numbers in words.
STATE_COLOURS = {
    "ok": "#2a7a2a", "redirect_permanent": "#4a7bb7", "redirect_temporary": "#8fb3de", "not_found": "#ba2121",
    "gone": "#7a1010", "rate_limited": "#d98b00", "server_error": "#e0a030", "client_error": "#b05ca0",
    "timeout": "#8a8a8a", "connection_error": "#5a5a5a", "redirect_loop": "#6a3d9a", "too_large": "#b15928",
    "blocked": "#000000", "invalid_url": "#cab2d6",
}


@permission_required("sources.view_source")
def link_health(request: HttpRequest) -> HttpResponse:
    summary = link_health_summary(days=14)
    states = summary.states
    tallest = max([total for _, _, total in summary.days] + [1])
    bars = []
    for index, (day, counts, total) in enumerate(summary.days):
        y = 120.0
        segments = []
        for state, count in zip(states, counts, strict=True):
            if count:
                height = 110.0 * count / tallest
                y -= height
                segments.append({"y": round(y, 1), "height": round(height, 1), "colour": STATE_COLOURS.get(state, "#999"), "title": f"{day}: {count} {state}"})
        bars.append({"x": 10 + index * 28, "segments": segments, "label": day.strftime("%d"), "total": total})
    proposals = EditorialTask.objects.filter(kind=TaskKind.CANONICAL_CHANGE, status=TaskStatus.OPEN).select_related("source")[:100]
    return render(request, "sources/link_health.html", {
        "summary": summary, "bars": bars, "legend": [(s, STATE_COLOURS.get(s, "#999")) for s in states],
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
