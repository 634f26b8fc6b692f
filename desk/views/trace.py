"""Desk pages for tracing an answer: the trace itself, and the form / "where is this used?" list.

Thin: they parse the request, call `claims.selectors`, and render templates. Read-only, so the
Viewer role (which may view answers) can use them; they offer no action.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from citecheck.errors import InvalidInput, NotFound
from claims.models import Answer, Citation
from claims.selectors import answer_moments, answer_trace
from desk.selectors import answer_status
from dispatch.selectors import work_status
from sources.models import PassageVersion

ANSWERS_PER_PAGE = 50


def _can_read(request: HttpRequest) -> None:
    if not request.user.has_perm("claims.view_answer"):
        raise PermissionDenied


def _int(value: str | None) -> int | None:
    value = (value or "").strip().lstrip("#")
    return int(value) if value.isdigit() else None


def _dates(value: Any) -> Any:
    """The trace's ISO timestamps (keys `at` and ending in `_at`) as datetimes, for the template to format."""
    if isinstance(value, list):
        return [_dates(v) for v in value]
    if isinstance(value, dict):
        return {k: (datetime.fromisoformat(v) if (k == "at" or k.endswith("_at")) and isinstance(v, str) else _dates(v)) for k, v in value.items()}
    return value


def with_pieces(trace: dict[str, Any]) -> dict[str, Any]:
    """A display copy of the trace: datetimes for timestamps, and the text before, in and after
    the backing span of each passage version, so that the template marks the span with three
    auto-escaped pieces (never by marking text safe)."""
    trace = _dates(trace)
    for claim in trace["claims"]:
        for entry in claim["evidence"]:
            pv = entry["passage_version"]
            if pv is None:
                continue
            start, end, text = pv["span_start"], pv["span_end"], pv["text"]
            if start is None or end is None:
                pv["pieces"] = (text, "", "")
            else:
                pv["pieces"] = (text[:start], text[start:end], text[end:])
    return trace


def desk_moment(value: str) -> datetime:
    """A moment typed on a desk page: ISO 8601 with offset, or the browser's date-time picker
    value (no offset: the desk's time zone). Raises InvalidInput for anything else."""
    try:
        moment = parse_datetime(value.strip())
    except ValueError as exc:
        raise InvalidInput(f"Not a time: {exc}", field="as_of") from exc
    if moment is None:
        raise InvalidInput("Give a date and time, e.g. 2026-03-03 09:00.", field="as_of")
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def trace_view(request: HttpRequest, answer_id: int, *, site: admin.AdminSite) -> HttpResponse:
    """The trace; with `?as_of=given` (as it was given), a moment, or nothing (now), each piece
    of evidence also shows how it stood at that moment."""
    _can_read(request)
    page = _int(request.GET.get("page")) or 1
    as_of_param = (request.GET.get("as_of") or "").strip()
    error = ""
    try:
        moment: datetime | str | None = "given" if as_of_param == "given" else (desk_moment(as_of_param) if as_of_param else None)
        trace = with_pieces(answer_trace(answer_id=answer_id, page=page, as_of=moment))
    except NotFound as exc:
        raise Http404(exc.message) from exc
    except InvalidInput as exc:
        error = exc.message
        trace = with_pieces(answer_trace(answer_id=answer_id, page=page))
    answer = Answer.objects.only("id", "received_at").get(pk=answer_id)
    context = {
        **site.each_context(request), "title": f"Trace of answer {answer_id}", "trace": trace,
        "opts": Answer._meta, "page_numbers": range(1, trace["claims_page"]["pages"] + 1),
        "moments": _dates(answer_moments(answer=answer)), "as_of_param": as_of_param, "as_of_error": error,
        "point_in_time": trace.get("point_in_time"),
        "work": work_status("answer", answer_id), "status": answer_status(answer_id=answer_id) or {},
        "status_url": reverse("admin:desk-answer-status", args=[answer_id]),
    }
    return TemplateResponse(request, "desk/trace.html", context)


def trace_status(request: HttpRequest, answer_id: int) -> JsonResponse:
    """The answer's live state, polled by its trace page so that it follows re-verification."""
    if not request.user.has_perm("claims.view_answer"):
        return JsonResponse({"error": {"code": "permission_denied", "message": "This needs the Viewer role."}}, status=403)
    status = answer_status(answer_id=answer_id)
    if status is None:
        return JsonResponse({"error": {"code": "not_found", "message": "There is no such answer."}}, status=404)
    return JsonResponse(status)


def trace_find_view(request: HttpRequest, *, site: admin.AdminSite) -> HttpResponse:
    """Paste an answer id, or see every answer that cites a passage version or passage."""
    _can_read(request)
    error = ""
    answer_id = _int(request.GET.get("answer"))
    if answer_id is not None:
        if Answer.objects.filter(pk=answer_id).exists():
            return redirect("admin:desk-trace", answer_id)
        error = f"There is no answer {answer_id}. Answer ids are shown on the answers list and returned by the API."
    elif request.GET.get("answer"):
        error = "An answer id is a number, e.g. 42."
    pv_id, passage_id = _int(request.GET.get("passage_version")), _int(request.GET.get("passage"))
    subject: PassageVersion | None = None
    uses = None
    if pv_id is not None or passage_id is not None:
        if pv_id is not None:
            citations = Citation.objects.filter(passage_version_id=pv_id)
            subject = PassageVersion.objects.select_related("passage__source").filter(pk=pv_id).first()
        else:
            citations = Citation.objects.filter(passage_version__passage_id=passage_id or 0)
            subject = PassageVersion.objects.select_related("passage__source").filter(passage_id=passage_id or 0).order_by("-id").first()
        answers = (
            Answer.objects.filter(pk__in=citations.values("claim__answer_id"))
            .only("id", "question", "answer_text", "state", "received_at", "verified_at").order_by("-received_at", "-id")
        )
        uses = Paginator(answers, ANSWERS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        **site.each_context(request), "title": "Trace an answer", "opts": Answer._meta, "error": error,
        "subject": subject, "uses": uses, "passage_version_id": pv_id, "passage_id": passage_id,
    }
    return TemplateResponse(request, "desk/trace_find.html", context)
