"""Progress of long work started from a page for many objects (bulk re-check, re-verify, import)."""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from desk.selectors import WORK_KINDS, WORK_NOUNS, work_batch
from desk.views.common import render_desk, safe_next

MAX_IDS = 1000


def work_url(*, kind: str, ids: list[int], back: str = "") -> str:
    """Where a bulk action sends the person to follow the work it started."""
    query = {"kind": kind, "ids": ",".join(str(i) for i in ids[:MAX_IDS]), "since": (timezone.now() - timedelta(seconds=5)).isoformat()}
    if back:
        query["next"] = back
    return f"{reverse('admin:desk-work')}?{urlencode(query)}"


def _parse(request: HttpRequest) -> tuple[str, list[int], datetime]:
    kind = request.GET.get("kind", "")
    if kind not in WORK_KINDS:
        kind = "fetch"
    ids = [int(p) for p in request.GET.get("ids", "").split(",") if p.strip().isdigit()][:MAX_IDS]
    since = parse_datetime(request.GET.get("since", "")) or (timezone.now() - timedelta(hours=1))
    return kind, ids, since


def work_page(request: HttpRequest) -> HttpResponse:
    kind, ids, since = _parse(request)
    status = work_batch(kind=kind, ids=ids, since=since)
    status_url = f"{reverse('admin:desk-work-status')}?{request.GET.urlencode()}"
    return render_desk(request, "desk/work.html", f"Progress of {len(ids)} {WORK_NOUNS[kind]}(s)", status=status,
                       status_url=status_url, back=safe_next(request, reverse("admin:index")), kind=kind)


def work_status(request: HttpRequest) -> JsonResponse:
    kind, ids, since = _parse(request)
    return JsonResponse(work_batch(kind=kind, ids=ids, since=since))
