"""Sources (register one or many, read, re-check), version activation, and blocks."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router, Status

from citecheck.errors import InvalidInput, NotFound, ServiceError
from dispatch.selectors import work_status
from integrations.api.auth import ApiAuth
from integrations.api.schemas import (
    ActivateIn,
    BlockIn,
    BlockOut,
    BulkOut,
    ErrorOut,
    LiftIn,
    Queued,
    SourceIn,
    SourceOut,
    SourcesBulkIn,
    VersionOut,
)
from reviews.audit import permission_require
from reviews.models import BlockSwitch
from reviews.services import block_apply, block_lift
from sources.models import Passage, PassageVersion, Source
from sources.selectors import source_detail as source_detail_data
from sources.selectors import source_json
from sources.services import source_refetch, source_register, sources_register_many, version_activate

router = Router()  # tags per endpoint: "sources" or "blocks"
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 429: ErrorOut}
MAX_ID = 2**63 - 1


def _id(value: int, field: str) -> int:
    if value < 1 or value > MAX_ID:
        raise InvalidInput(f"{field}: not an id", field=field)
    return value


def _desk_user(request: HttpRequest) -> bool:
    """A desk session (not a token): block reasons are for desk users only."""
    return getattr(request, "api_token", None) is None


def _register_fields(row: SourceIn) -> dict[str, Any]:
    return {"url": row.url, "title": row.title, "document_type": row.document_type, "language": row.language,
            "owner": row.owner, "priority": row.priority, "risk_level": row.risk_level}


@router.post("/sources", operation_id="registerSource", tags=["sources"], auth=ApiAuth("manage_sources"), response={201: SourceOut, **ERRORS}, summary="Register one source — token scope: manage_sources")
def sources_create(request: HttpRequest, payload: SourceIn) -> Any:
    source = source_register(actor=request.user, **_register_fields(payload))
    return Status(201, source_json(source))


@router.post("/sources/bulk", operation_id="registerSources", tags=["sources"], auth=ApiAuth("manage_sources"), response={200: BulkOut, **ERRORS},
             summary="Register many sources; one result per row (rows that fail do not stop the others) — token scope: manage_sources")
def sources_bulk(request: HttpRequest, payload: SourcesBulkIn) -> Any:
    results = sources_register_many(actor=request.user, rows=[_register_fields(row) for row in payload.sources])
    rows = [
        {"row": n, "ok": False, "source_id": None,
         "error": {"code": r.code, "message": r.message, "field": f"sources[{n}].{r.field}" if r.field else f"sources[{n}]"}}
        if isinstance(r, ServiceError) else {"row": n, "ok": True, "source_id": r.pk, "error": None}
        for n, r in enumerate(results)
    ]
    created = sum(1 for r in rows if r["ok"])
    return {"created": created, "failed": len(rows) - created, "rows": rows}


@router.get("/sources/{source_id}", operation_id="getSource", tags=["sources"], auth=ApiAuth("read_evidence", "manage_sources"), response={200: SourceOut, **ERRORS},
            summary="One source with its stages, versions and link history — token scope: read_evidence or manage_sources")
def source_detail(request: HttpRequest, source_id: int) -> Any:
    permission_require(actor=request.user, perm="sources.view_source", action="source_read")
    return source_detail_data(source_id=_id(source_id, "source_id"), show_block_reasons=_desk_user(request))


@router.post("/sources/{source_id}/fetch", operation_id="fetchSource", tags=["sources"], auth=ApiAuth("manage_sources"), response={202: Queued, **ERRORS}, summary="Re-check a source now — token scope: manage_sources")
def source_fetch_now(request: HttpRequest, source_id: int) -> Any:
    source_refetch(actor=request.user, source_id=_id(source_id, "source_id"))
    # After commit: "queued" once Redis took the job, "delayed" (with the message) when it did not.
    return Status(202, {"queued": True, "source_id": source_id, "work": work_status("source", source_id)})


@router.post("/versions/{version_id}/activate", operation_id="activateVersion", tags=["sources"], auth=ApiAuth("manage_sources"), response={200: VersionOut, **ERRORS},
             summary="Approve / activate a tested source version (Approver role; two approvers for high-risk sources) — token scope: manage_sources")
def version_activate_view(request: HttpRequest, version_id: int, payload: ActivateIn) -> Any:
    version = version_activate(actor=request.user, version_id=_id(version_id, "version_id"), reason=payload.reason,
                               emergency_override=payload.emergency_override)
    return {"source_version_id": version.pk, "is_active": version.is_active}


def _block_json(switch: Any, affected: list[int] | None = None, *, show_reason: bool = True) -> dict[str, Any]:
    return {
        "block_id": switch.pk, "target": switch.target, "source_id": switch.source_id, "domain": switch.domain,
        "passage_id": switch.passage_id, "reason": switch.reason if show_reason else "", "blocked_at": switch.blocked_at.isoformat(),
        "lifted_at": switch.lifted_at.isoformat() if switch.lifted_at else None, "affected_answers": affected,
    }


@router.post("/blocks", operation_id="createBlock", tags=["blocks"], auth=ApiAuth("block"), response={201: BlockOut, **ERRORS},
             summary="Block a source, a domain, a passage or (the passage of) a passage version at once — token scope: block")
def blocks_create(request: HttpRequest, payload: BlockIn) -> Any:
    """`target` names what is blocked and which id field is required: `source` → source_id,
    `domain` → domain, `passage` → passage_id (stable), `passage_version` → passage_version_id
    (blocks its passage across versions). Lists the answers that cited the blocked evidence."""

    needed = {"source": "source_id", "domain": "domain", "passage": "passage_id", "passage_version": "passage_version_id"}[payload.target]
    if not getattr(payload, needed):
        raise InvalidInput(f"{needed}: required when target is {payload.target}", field=needed)
    model: Any
    model, value = {"source_id": (Source, payload.source_id), "passage_id": (Passage, payload.passage_id),
                    "passage_version_id": (PassageVersion, payload.passage_version_id)}.get(needed, (None, None))
    if model is not None and not model.objects.filter(pk=value).exists():
        raise NotFound(f"{needed}: no such id {value}", field=needed)
    target = "passage" if payload.target == "passage_version" else payload.target
    switch, affected = block_apply(actor=request.user, target=target, reason=payload.reason, source_id=payload.source_id,
                                   domain=payload.domain, passage_id=payload.passage_id, passage_version_id=payload.passage_version_id)
    return Status(201, _block_json(switch, affected))


@router.get("/blocks", operation_id="listBlocks", tags=["blocks"], auth=ApiAuth("block", "read_evidence"), response={200: list[BlockOut], **ERRORS}, summary="The active blocks — token scope: block or read_evidence")
def blocks_list(request: HttpRequest) -> Any:
    permission_require(actor=request.user, perm="reviews.view_blockswitch", action="blocks_read")
    # A token sees the reasons of the blocks its own service user applied; the others are for desk users.
    desk = _desk_user(request)
    return [_block_json(s, show_reason=desk or s.blocked_by_id == request.user.pk)
            for s in BlockSwitch.objects.filter(lifted_at__isnull=True).order_by("-blocked_at", "-id")[:1000]]


@router.post("/blocks/{block_id}/lift", operation_id="liftBlock", tags=["blocks"], auth=ApiAuth("block"), response={200: BlockOut, **ERRORS},
             summary="Lift a block (Approver role): the evidence comes back at once — token scope: block")
def block_lift_view(request: HttpRequest, block_id: int, payload: LiftIn) -> Any:
    switch = block_lift(actor=request.user, switch_id=_id(block_id, "block_id"), reason=payload.reason)
    return _block_json(switch)
