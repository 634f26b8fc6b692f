"""The source page: one screen for a source's stages, fetches, versions, passages, golden pairs,
citations and every decision, updating itself while work it started runs."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse

from desk.selectors import source_page as source_page_data
from desk.selectors import source_status as source_status_data
from desk.views.common import int_or_none, render_desk
from sources.services.fetch import proposal_existing_source


def source_page(request: HttpRequest, source_id: int) -> HttpResponse:
    if not request.user.has_perm("sources.view_source"):
        raise PermissionDenied
    data = source_page_data(source_id=source_id, version_number=int_or_none(request.GET.get("version")), fetch_page=request.GET.get("fetches") or 1)
    if data is None:
        raise Http404("There is no such source.")
    user = request.user
    own = data.source.registered_by_id == user.pk
    existing = {t.pk: proposal_existing_source(t) for t in data.tasks if t.proposed_url}
    shown = data.shown.version.number if data.shown is not None else None  # the poller follows it, however old
    status = source_status_data(source_id=source_id, version_number=shown) or {}
    status_url = reverse("admin:desk-source-status", args=[source_id]) + (f"?version={shown}" if shown is not None else "")
    return render_desk(
        request, "desk/source.html", str(data.source),
        page=data, status=status, status_url=status_url,
        can_approve=user.has_perm("sources.approve_source"), can_edit=user.has_perm("sources.change_source"),
        can_block=user.has_perm("sources.block_source"), own_registration=own, is_superuser=user.is_superuser,
        existing_for_task=existing,
    )


def source_status(request: HttpRequest, source_id: int) -> JsonResponse:
    if not request.user.has_perm("sources.view_source"):
        return JsonResponse({"error": {"code": "permission_denied", "message": "This needs the Viewer role."}}, status=403)
    status = source_status_data(source_id=source_id, version_number=int_or_none(request.GET.get("version")))
    if status is None:
        return JsonResponse({"error": {"code": "not_found", "message": "There is no such source."}}, status=404)
    return JsonResponse(status)
