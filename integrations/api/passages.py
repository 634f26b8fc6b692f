"""GET /passages (full export and change feed) and POST /check-citations."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from ninja import Query, Router
from pydantic import Field

from citecheck.errors import InvalidInput
from claims.citations import citations_check
from integrations.api.auth import ApiAuth, optional_identity
from integrations.api.errors import ApiError, throttled
from integrations.api.schemas import CheckCitationsIn, ErrorOut, PassagePage, Strict
from integrations.selectors import export_changes, export_items_public, export_page, parse_as_of, parse_changed_since
from integrations.throttle import client_address, rate_take
from reviews.audit import permission_require

router = Router(tags=["evidence"])


class PassageQuery(Strict):
    model_config = {"extra": "forbid", "strict": False}
    cursor: str | None = Field(None, max_length=200, description="`next_cursor` of the previous page of a full export.")
    changed_since: str | None = Field(None, max_length=200, description="A `sync_cursor`/`next_cursor` of the feed, or an ISO 8601 time with offset.")
    limit: int = Field(200, ge=1, description="Items per page (at most CITECHECK_API_PAGE_MAX, 1000 by default).")
    after: int | None = Field(None, ge=0, le=2**63 - 1, description="Deprecated: the previous API's passage-version id to continue after (not with `as_of`).")
    as_of: str | None = Field(None, max_length=64, description=(
        "An ISO 8601 time with offset: the full export exactly as it was at that moment (same fields and paging, plus `as_of`; "
        "in the order of the activations then, not by passage-version id); "
        "a passage version blocked since keeps its ids and fields with `blocked_now: true` and no text, URL or link. "
        "400 when it is before the history is complete (the message says from when)."))


@router.get(
    "/passages", operation_id="listPassages", auth=ApiAuth("read_evidence"), response={200: PassagePage, 304: None, 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 429: ErrorOut},
    summary="Export the citable passages (full sync), or what changed since a cursor (incremental sync with tombstones) — token scope: read_evidence",
)
def passages(request: HttpRequest, query: Query[PassageQuery]) -> Any:
    """Without `changed_since`: every active, unblocked passage version, page by page (follow
    `next_cursor`); keep the first page's `sync_cursor`. With `changed_since`: additions and
    changes as passage objects and everything that left the export as tombstones (reason,
    replacement id). With `as_of`: the full export as it was at that moment (the next pages'
    cursors carry the moment). Listings carry an ETag; send it back as If-None-Match to get 304."""
    unknown = sorted(set(request.GET) - set(PassageQuery.model_fields))
    if unknown:
        raise InvalidInput(f"unknown query parameter(s): {', '.join(unknown)}", field=unknown[0])
    permission_require(actor=request.user, perm="sources.view_passageversion", action="passages_export")
    if query.limit > settings.CITECHECK_API_PAGE_MAX:
        raise InvalidInput(f"limit: at most {settings.CITECHECK_API_PAGE_MAX}", field="limit")
    if query.cursor and query.changed_since:
        raise InvalidInput("cursor: give either cursor (full export) or changed_since (change feed)", field="cursor")
    if query.as_of and query.changed_since:
        raise InvalidInput("as_of: give either as_of (the full export at a time) or changed_since (the change feed)", field="as_of")
    with transaction.atomic():
        if query.changed_since:
            page = export_changes(since=parse_changed_since(query.changed_since), limit=query.limit)
        else:
            as_of = parse_as_of(query.as_of) if query.as_of and not query.cursor else None
            page = export_page(cursor=query.cursor, limit=query.limit, after=query.after, as_of=as_of)
            if page.as_of is not None:
                page.items = export_items_public(page.items)
    body = json.dumps(page.to_json(), ensure_ascii=False).encode()
    etag = f'"{hashlib.sha256(body).hexdigest()[:32]}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@router.post(
    "/check-citations", operation_id="checkCitations", auth=None, response={200: dict[str, Any], 400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 413: ErrorOut, 429: ErrorOut},
    summary="Mechanical citation check of a model answer against sources (no database writes); anonymous callers are rate-limited per address",
)
def check_citations(request: HttpRequest, payload: CheckCitationsIn) -> Any:
    """Anonymous callers send the sources inline (text or a JSON array). With passage-version
    ids as sources (registry mode) the caller must be authenticated with read permission; a
    blocked passage is reported as blocked and its text is neither matched nor shown. The answer
    limits of POST /answers apply to every caller, and inline sources have a size limit
    (CITECHECK_CHECK_SOURCES_MAX_CHARS); anonymous callers get CITECHECK_ANON_RATE_PER_MINUTE
    checks a minute per client address (429 + Retry-After after that)."""

    sources = payload.sources
    user = None
    registry = isinstance(sources, list) and bool(sources) and all(isinstance(i, int) and not isinstance(i, bool) for i in sources)
    if registry:
        user = optional_identity(request)
        if user is None:
            raise ApiError(401, "unauthenticated", "Passage-version ids as sources need a token with read_evidence or a desk login; "
                           "anonymous callers send the sources' text inline.", "sources", {"WWW-Authenticate": 'Bearer realm="citecheck"'})
        permission_require(actor=user, perm="sources.view_passageversion", action="check_citations_registry")
        if any(int(i) < 1 or int(i) > 2**63 - 1 for i in sources):
            raise InvalidInput("sources: passage-version ids are positive 64-bit integers", field="sources")
    user = optional_identity(request) if not registry else user
    if user is None:
        wait = rate_take(subject=f"anon-check:{client_address(request)}", limit=settings.CITECHECK_ANON_RATE_PER_MINUTE)
        if wait:
            raise throttled(wait, f"Anonymous citation checks are limited to {settings.CITECHECK_ANON_RATE_PER_MINUTE} a minute per address; "
                            "send a token for more.")
    may_read = user is not None and user.has_perm("sources.view_passageversion")
    return citations_check(sources=sources, answer=payload.answer, registry_access=may_read)
