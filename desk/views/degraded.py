"""Degraded mode from the desk: block with a preview, lift with a reason, the incident switches
and the incidents page."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from citecheck.errors import ServiceError
from desk.forms import BlockForm, ReasonForm, SwitchForm
from desk.views.common import render_desk
from reviews.models import BlockSwitch
from reviews.selectors.degraded import block_impact, incident_label, incidents_active, incidents_lifted, site_switch_state
from reviews.services import block_apply, block_lift, site_switch_set
from reviews.services.degraded import block_target_resolve


def _target_kwargs(data: dict[str, object]) -> dict[str, object]:
    return {
        "target": data.get("target") or "",
        "source_id": data.get("source_id"),
        "domain": str(data.get("domain") or ""),
        "passage_id": data.get("passage_id"),
        "passage_version_id": data.get("passage_version_id"),
    }


def block_page(request: HttpRequest) -> HttpResponse:
    """Step 1 (GET, or POST without `confirm`): name the target and see what it affects.
    Step 2 (POST with `confirm`): apply the block."""
    data = request.POST if request.method == "POST" else request.GET
    form = BlockForm(data or None)
    impact = None
    if form.is_bound and form.is_valid():
        kwargs = _target_kwargs(form.cleaned_data)
        try:
            ref = block_target_resolve(**kwargs)  # type: ignore[arg-type]
            impact = block_impact(ref=ref)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        if impact is not None and request.method == "POST" and request.POST.get("confirm") == "yes":
            try:
                switch, affected = block_apply(actor=request.user, reason=form.cleaned_data["reason"] or "", **kwargs)  # type: ignore[arg-type]
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                cited = f"{len(affected)} answer(s) cited this evidence and are listed below." if affected else "No answer cited this evidence."
                messages.success(request, f"Blocked {impact.ref.label}. {impact.exported_count} passage(s) left the export at once. {cited}")
                return redirect(f"{reverse('admin:desk-incidents')}#block-{switch.pk}")
    return render_desk(request, "desk/block.html", "Block evidence", form=form, impact=impact,
                       can_block=request.user.has_perm("sources.block_source"))


def block_lift_page(request: HttpRequest, switch_id: int) -> HttpResponse:
    switch = get_object_or_404(BlockSwitch.objects.select_related("source", "passage", "passage__source", "blocked_by"), pk=switch_id)
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            block_lift(actor=request.user, switch_id=switch.pk, reason=form.cleaned_data["reason"])
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Unblocked: {incident_label(switch)}. Its evidence is back in the export and the checks.")
            return redirect("admin:desk-incidents")
    return render_desk(request, "desk/block_lift.html", "Lift a block", switch=switch, what=incident_label(switch), form=form,
                       can_lift=request.user.has_perm("sources.approve_source"))


@require_POST
def switches_set(request: HttpRequest) -> HttpResponse:
    form = SwitchForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say why the incident switches change; nothing was changed.")
        return redirect(f"{reverse('admin:desk-incidents')}#switches")
    try:
        switch = site_switch_set(actor=request.user, reason=form.cleaned_data["reason"],
                                 pause_activations=form.cleaned_data["pause_activations"], primary_only=form.cleaned_data["primary_only"])
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        state = []
        state.append("activations are paused" if switch.pause_activations else "activations are allowed")
        state.append("only primary sources count as evidence" if switch.primary_only else "all sources count as evidence")
        messages.success(request, f"Incident switches saved: {' and '.join(state)}.")
    return redirect(f"{reverse('admin:desk-incidents')}#switches")


def incidents_page(request: HttpRequest) -> HttpResponse:
    lifted = Paginator(incidents_lifted(), 25).get_page(request.GET.get("page"))
    switches = site_switch_state()
    return render_desk(
        request, "desk/incidents.html", "Incidents and blocks",
        incidents=incidents_active(), lifted=lifted, switches=switches,
        switch_form=SwitchForm(initial={"pause_activations": switches["pause_activations"], "primary_only": switches["primary_only"]}),
        can_block=request.user.has_perm("sources.block_source"), can_lift=request.user.has_perm("sources.approve_source"),
    )
