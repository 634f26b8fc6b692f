"""Desk page "Evidence at a moment": the knowledge base as the bot could cite it at a chosen
time, per source against now, and the export of that moment as a download."""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone

from citecheck.errors import InvalidInput
from desk.moment import evidence_moment
from desk.views.common import int_or_none, render_desk
from desk.views.trace import desk_moment
from integrations.selectors import export_page
from sources.selectors import as_of_check, history_complete_from

EXPORT_PAGE = 1000


def evidence_moment_page(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm("sources.view_source"):
        raise PermissionDenied
    raw = (request.GET.get("at") or "").strip()
    error = ""
    moment = None
    if raw:
        try:
            moment = as_of_check(desk_moment(raw), field="at")
        except InvalidInput as exc:
            error = exc.message
    data = evidence_moment(at=moment, page=request.GET.get("page"), source_id=int_or_none(request.GET.get("source"))) if moment else None
    return render_desk(
        request, "desk/evidence_moment.html", "Evidence at a moment",
        at_raw=raw, error=error, data=data, complete_from=history_complete_from() if data is None else data.history_complete_from,
        now=timezone.now(), source_param=request.GET.get("source") or "",
    )


def evidence_moment_export(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    """The export exactly as GET /api/v1/passages?as_of= gives it, as JSON lines to download."""
    if not request.user.has_perm("sources.view_passageversion"):
        raise PermissionDenied
    try:
        moment = as_of_check(desk_moment(request.GET.get("at") or ""), field="at")
    except InvalidInput as exc:
        return HttpResponse(exc.message, status=400, content_type="text/plain; charset=utf-8")

    def lines() -> Iterator[str]:
        page = export_page(cursor=None, limit=EXPORT_PAGE, as_of=moment)
        while True:
            for item in page.items:
                yield json.dumps(item, ensure_ascii=False) + "\n"
            if page.next_cursor is None:
                return
            page = export_page(cursor=page.next_cursor, limit=EXPORT_PAGE)

    response = StreamingHttpResponse(lines(), content_type="application/x-ndjson; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="citecheck-export-{moment:%Y%m%dT%H%M%S%z}.jsonl"'
    return response
