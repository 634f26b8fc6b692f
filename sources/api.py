from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from citecheck.errors import NotFound, PermissionRefused
from citecheck_site.api import api_view, json_body
from reviews.services import block_apply
from sources.models import Source
from sources.selectors import export_passages, safe_link
from sources.services import source_refetch, source_register, version_activate


def _source_json(source: Source) -> dict[str, object]:
    return {
        "id": source.pk, "url": source.canonical_url, "title": source.title, "domain": source.domain,
        "stage": source.stage, "link_state": source.link_state, "evidence_status": source.evidence_status,
        "live_page_changed": source.live_page_changed, "is_blocked": source.is_blocked, "priority": source.priority,
        "risk_level": source.risk_level,
        "versions": [
            {"id": v.pk, "number": v.number, "is_active": v.is_active, "extraction_status": v.extraction_status, "diff": v.diff_summary}
            for v in source.versions.order_by("-number")
        ],
    }


@api_view(methods=("GET",))
def passages(request: HttpRequest) -> JsonResponse:
    """The active, unblocked passages for the bot's retrieval index (keyset-paginated by id)."""
    if not request.user.has_perm("sources.view_passageversion"):
        raise PermissionRefused("this needs the Viewer role")
    after = int(request.GET.get("after", "0") or 0)
    limit = max(1, min(1000, int(request.GET.get("limit", "200") or 200)))
    rows = list(export_passages().filter(pk__gt=after).order_by("pk")[:limit])
    items = [
        {
            "id": pv.pk, "source_id": pv.passage.source_id, "heading_path": pv.passage.heading_path, "anchor": pv.passage.anchor,
            "text": pv.text, "fingerprint": pv.fingerprint, "link": safe_link(pv),
            "temporarily_unverified": pv.passage.source.evidence_status == "temporarily_unverified",
            "priority": pv.passage.source.priority,
        }
        for pv in rows
    ]
    return JsonResponse({"passages": items, "next_after": rows[-1].pk if len(rows) == limit else None})


@api_view(methods=("POST",))
def sources_create(request: HttpRequest) -> JsonResponse:
    data = json_body(request)
    text = {k: str(data.get(k) or "") for k in ("title", "document_type", "language", "owner", "priority", "risk_level")}
    source = source_register(
        actor=request.user, url=str(data.get("url") or ""), title=text["title"], document_type=text["document_type"],
        language=text["language"], owner=text["owner"], priority=text["priority"], risk_level=text["risk_level"],
    )
    return JsonResponse(_source_json(source), status=201)


@api_view(methods=("GET",))
def source_detail(request: HttpRequest, source_id: int) -> JsonResponse:
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        raise NotFound(f"no source {source_id}")
    return JsonResponse(_source_json(source))


@api_view(methods=("POST",))
def source_fetch_now(request: HttpRequest, source_id: int) -> JsonResponse:
    source_refetch(actor=request.user, source_id=source_id)
    return JsonResponse({"queued": True}, status=202)


@api_view(methods=("POST",))
def version_activate_view(request: HttpRequest, version_id: int) -> JsonResponse:
    data = json_body(request)
    version = version_activate(
        actor=request.user, version_id=version_id, reason=str(data.get("reason") or ""),
        emergency_override=data.get("emergency_override") is True,
    )
    return JsonResponse({"id": version.pk, "is_active": version.is_active})


@api_view(methods=("POST",))
def blocks_create(request: HttpRequest) -> JsonResponse:
    data = json_body(request)
    switch, affected = block_apply(
        actor=request.user, target=str(data.get("target") or ""), reason=str(data.get("reason") or ""),
        source_id=data.get("source_id"), domain=str(data.get("domain") or ""), passage_id=data.get("passage_id"),
    )
    return JsonResponse({"id": switch.pk, "affected_answers": affected}, status=201)
