"""Registering sources one by one and in bulk (CSV, JSON, search-result datasets)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.dateparse import parse_datetime

from citecheck.errors import Conflict, InvalidInput, ServiceError
from citecheck.rowfile import rows_parse
from citecheck.urlnorm import InvalidURL, normalize_url, registrable_domain, strip_credentials
from dispatch.services import work_request, work_request_many
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from sources.models import CheckTimes, DocumentType, Priority, Provenance, RiskLevel, SearchHit, Source

logger = logging.getLogger(__name__)


def fetch_request(*, source: Source) -> None:
    """Ask a worker to fetch `source` (deduplicated: never queued twice)."""
    work_request(job="sources.fetch_source", kwargs={"source_id": source.pk}, queue="fetch", dedupe_key=f"fetch:{source.pk}")


def fetch_requests(*, source_ids: list[int]) -> int:
    """Ask for a fetch of each source, as `fetch_request` does, in one INSERT; returns how many
    were queued (a source whose fetch is already waiting is not queued again)."""
    items = [({"source_id": pk}, f"fetch:{pk}") for pk in source_ids]
    return len(work_request_many(job="sources.fetch_source", queue="fetch", items=items))


def source_url_fields(url: str) -> dict[str, str]:
    """The URL fields of a source for `url`: credentials stripped from the URL as given, the
    normalised URL as canonical URL and unique key, and the domain recomputed from it. Every
    service that sets a source's URL uses this, so `domain` always matches the URL rendered."""
    try:
        normalized = normalize_url(url)
    except InvalidURL as exc:
        raise InvalidInput(f"invalid_url: {exc}", field="url") from exc
    return {
        "url": strip_credentials(url)[:2048],
        **canonical_url_fields(normalized),
    }


def canonical_url_fields(normalized: str) -> dict[str, str]:
    """canonical_url, normalized_url and the domain computed from them (for a normalised URL)."""
    return {"canonical_url": normalized, "normalized_url": normalized, "domain": registrable_domain(normalized)}


def _choice(value: str, choices: type[Any], field_name: str, default: str) -> str:
    value = (value or "").strip().lower() or default
    if value not in choices.values:
        raise InvalidInput(f"{field_name} must be one of {', '.join(choices.values)} (got {value!r})", field=field_name)
    return value


def source_register(
    *,
    actor: Actor,
    url: str,
    title: str = "",
    document_type: str = "",
    language: str = "",
    owner: str = "",
    priority: str = "",
    risk_level: str = "",
    provenance: str = Provenance.MANUAL,
    search_hit: dict[str, Any] | None = None,
    fetch: bool = True,
) -> Source:
    """Register a URL as a source and ask for its first fetch.

    Refuses invalid URLs and duplicates (the error names the existing source).
    """
    permission_require(actor=actor, perm="sources.add_source", action="source_register")
    url_fields = source_url_fields(url)
    normalized = url_fields["normalized_url"]
    values = {
        "document_type": _choice(document_type, DocumentType, "document_type", DocumentType.WEBPAGE),
        "priority": _choice(priority, Priority, "priority", Priority.SUPPLEMENTARY),
        "risk_level": _choice(risk_level, RiskLevel, "risk_level", RiskLevel.NORMAL),
    }
    with transaction.atomic():
        existing = Source.objects.filter(normalized_url=normalized).first()
        if existing is not None:
            raise Conflict(f"{normalized} is already registered as source {existing.pk} ({existing}).", field="url")
        source = Source.objects.create(
            **url_fields,
            title=title.strip()[:500],
            language=(language or "en").strip()[:16],
            owner=owner.strip()[:200],
            provenance=provenance,
            registered_by=user_or_none(actor),
            **values,
        )
        CheckTimes.objects.create(source=source)  # never checked: due at once
        if search_hit:
            SearchHit.objects.create(source=source, **search_hit)
        audit_record(actor=actor, action="source_register", obj=source, to_state=source.stage)
        if fetch:
            fetch_request(source=source)
    logger.info("source.registered", extra={"source_id": source.pk, "url": normalized})
    return source


# --- bulk import ---------------------------------------------------------------------------

SEARCH_FIELDS = {"runId", "engine", "executedQuery", "rank", "canonicalUrl"}


@dataclass
class ImportReport:
    created: list[int] = field(default_factory=list)
    duplicates: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[dict[str, Any]] = field(default_factory=list)
    skipped_sponsored: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "created": len(self.created),
            "duplicate": len(self.duplicates),
            "invalid": len(self.invalid),
            "skipped_sponsored": self.skipped_sponsored,
            "created_ids": self.created,
            "rejected": self.duplicates + self.invalid,
        }


def parse_import(text: str) -> list[dict[str, Any]]:
    """Rows from a JSON array (or {"results": [...]}/JSON lines) or a CSV with a header row."""
    return rows_parse(text, noun="import", list_keys=("results", "rows", "sources"), columns=("url", "canonicalUrl"))


def _truthy(value: Any) -> bool:
    return str(value).strip().lower() in {"1", "true", "yes", "y"}


def _int_or_none(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _search_hit(row: dict[str, Any]) -> dict[str, Any]:
    observed = row.get("observedAt")
    observed_at: datetime | None = parse_datetime(str(observed)) if observed else None
    return {
        "run_id": str(row.get("runId") or "")[:200],
        "engine": str(row.get("engine") or "")[:100],
        "executed_query": str(row.get("executedQuery") or ""),
        "rank": _int_or_none(row.get("rank")),
        "rank_on_page": _int_or_none(row.get("rankOnPage")),
        "title": str(row.get("title") or "")[:500],
        "result_domain": str(row.get("resultDomain") or "")[:253],
        "snippet": str(row.get("snippet") or ""),
        "is_sponsored": _truthy(row.get("isSponsored")),
        "observed_at": observed_at,
    }


def sources_register_many(*, actor: Actor, rows: list[dict[str, Any]]) -> list[Source | ServiceError]:
    """Register each row (the keyword arguments of `source_register`); a row that fails writes
    nothing and stands in the result as its error, the others are registered. One permission
    check for all rows."""
    if len(rows) > settings.CITECHECK_API_BULK_MAX:
        raise InvalidInput(f"sources: {len(rows)} rows; the limit is {settings.CITECHECK_API_BULK_MAX}", field="sources")
    permission_require(actor=actor, perm="sources.add_source", action="source_register")
    results: list[Source | ServiceError] = []
    with transaction.atomic():
        for row in rows:
            try:
                with transaction.atomic():
                    results.append(source_register(actor=actor, **row))
            except ServiceError as exc:
                results.append(exc)
    return results


def sources_import(*, actor: Actor, text: str, include_sponsored: bool = False, fetch: bool = True) -> ImportReport:
    """Register every row it can; a rejected row writes nothing and gets a reason in the report."""
    permission_require(actor=actor, perm="sources.add_source", action="sources_import")
    rows = parse_import(text)
    if len(rows) > settings.CITECHECK_IMPORT_MAX_ROWS:
        raise InvalidInput(f"file: {len(rows)} rows; the limit is {settings.CITECHECK_IMPORT_MAX_ROWS} per import (split the file)", field="file")
    report = ImportReport()
    for number, row in enumerate(rows, start=1):
        is_search = bool(SEARCH_FIELDS & set(row))
        url = str(row.get("canonicalUrl") or row.get("url") or "").strip()
        hit = _search_hit(row) if is_search else None
        if hit and hit["is_sponsored"] and not include_sponsored:
            report.skipped_sponsored += 1
            continue
        try:
            source = source_register(
                actor=actor,
                url=url,
                title=str(row.get("title") or ""),
                document_type=str(row.get("document_type") or row.get("type") or ""),
                language=str(row.get("language") or ""),
                owner=str(row.get("owner") or ""),
                priority=str(row.get("priority") or ""),
                risk_level=str(row.get("risk_level") or row.get("risk") or ""),
                provenance=Provenance.SEARCH_RESULT if is_search else Provenance.IMPORT,
                search_hit=hit,
                fetch=fetch,
            )
        except Conflict as exc:
            report.duplicates.append({"row": number, "url": url, "reason": exc.message})
        except InvalidInput as exc:
            report.invalid.append({"row": number, "url": url, "reason": exc.message})
        else:
            report.created.append(source.pk)
    return report
