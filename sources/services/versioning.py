"""Extract a fetched version into passages, diff it against the active version, flag dependants."""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from dispatch.services import work_request
from sources.models import (
    ChangeKind,
    ExtractionStatus,
    Passage,
    PassageVersion,
    SourceVersion,
    Stage,
    VersionPassage,
)
from sources.services.stages import source_transition, source_walk

logger = logging.getLogger(__name__)


def _heading_path(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " > ".join(str(part) for part in value if str(part).strip())
    return str(value or "")


def passage_keys(passages: list[Any]) -> list[str]:
    """Identity keys: heading path plus the passage's position within that section.

    An edited paragraph keeps its key (and so becomes `changed`); a new section adds keys.
    """
    seen: dict[str, int] = defaultdict(int)
    keys = []
    for passage in passages:
        path = _heading_path(passage.heading_path)
        keys.append(f"{path}#{seen[path]}"[:600])
        seen[path] += 1
    return keys


def comparison_base(version: SourceVersion) -> SourceVersion | None:
    """The version a new one is diffed against: the active one, else the latest extracted one
    (loaded with its id, number and is_active only)."""
    candidates = SourceVersion.objects.filter(
        Q(is_active=True) | Q(number__lt=version.number, extraction_status=ExtractionStatus.OK), source=version.source_id
    ).exclude(pk=version.pk)
    # One query for both: an active version sorts first, then the highest number.
    return candidates.only("id", "source_id", "number", "is_active").order_by("-is_active", "-number").first()


def version_extract(*, version_id: int) -> SourceVersion | None:
    """Run the extraction for one version (idempotent: an extracted version is left alone)."""
    from citecheck.extract import extract_passages

    version = SourceVersion.objects.select_related("source").filter(pk=version_id).first()
    if version is None:
        logger.info("extract.gone", extra={"version_id": version_id})
        return None
    if version.extraction_status != ExtractionStatus.PENDING:
        return version
    result = extract_passages(
        version.body,
        content_type=version.content_type,
        url=version.source.canonical_url,
        max_chars=settings.CITECHECK_PASSAGE_MAX_CHARS,
        deadline_seconds=settings.CITECHECK_EXTRACT_DEADLINE,
        memory_limit_mb=settings.CITECHECK_EXTRACT_MEMORY_MB or None,
    )
    status = result.status if result.status in ExtractionStatus.values else ExtractionStatus.ERROR
    with transaction.atomic():
        # Locked and read again (the body, read above, is not needed twice).
        version = SourceVersion.objects.select_for_update().select_related("source").defer("body_compressed").get(pk=version_id)
        if version.extraction_status != ExtractionStatus.PENDING:
            return version
        source = version.source
        version.extraction_status = status
        version.extraction = {
            "title": result.title or "",
            "date": result.date or "",
            "passages": len(result.passages),
            "error": result.error or "",
        }
        if status != ExtractionStatus.OK:
            version.save(update_fields=["extraction_status", "extraction"])
            source_transition(source=source, to=Stage.NEEDS_REVIEW, actor=None, reason=f"extraction {status}: {result.error or ''}".strip())
            return version
        base = comparison_base(version)
        summary = _store_passages(version=version, passages=result.passages, base=base)
        version.compared_to = base
        version.diff_summary = summary
        version.save(update_fields=["extraction_status", "extraction", "compared_to", "diff_summary"])
        if result.title and not source.title:
            source.title = result.title[:500]
        if result.date:
            source.displayed_date = str(result.date)[:64]  # the page's own date: recency in quality scores
        fields = ["title", "displayed_date"]
        if base is not None and base.is_active and (summary["changed"] or summary["added"] or summary["removed"]):
            source.live_page_changed = True
            fields.append("live_page_changed")
        steps = [(Stage.EXTRACTED, f"{len(result.passages)} passages"), (Stage.VERSIONED, _describe(summary))]
        source_walk(source=source, steps=steps, actor=None, fields=fields)
        work_request(job="reviews.run_tests", kwargs={"version_id": version.pk}, queue="judge", dedupe_key=f"tests:{version.pk}")
    logger.info("extract.done", extra={"version_id": version.pk, "summary": summary})
    return version


def _describe(summary: dict[str, int]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in summary.items() if count)


def _store_passages(*, version: SourceVersion, passages: list[Any], base: SourceVersion | None) -> dict[str, int]:
    source = version.source
    now = timezone.now()
    keys = passage_keys(passages)
    existing = {p.key: p for p in Passage.objects.filter(source=source, key__in=keys)}
    base_members: dict[int, PassageVersion] = {}
    changed_old: list[PassageVersion] = []
    if base is not None:
        for member in VersionPassage.objects.filter(source_version=base).exclude(change_kind=ChangeKind.REMOVED).select_related("passage_version"):
            base_members[member.passage_version.passage_id] = member.passage_version

    # Every new Passage and PassageVersion of the page in one INSERT each, the existing texts in
    # one read: a page costs a fixed number of queries, not a few per passage.
    headings = [_heading_path(extracted.heading_path) for extracted in passages]
    fresh = [
        Passage(source=source, key=key, heading_path=heading[:1000], anchor=str(extracted.anchor or "")[:300], ordinal=ordinal)
        for ordinal, (key, extracted, heading) in enumerate(zip(keys, passages, headings, strict=True))
        if key not in existing
    ]
    for passage in Passage.objects.bulk_create(fresh):
        existing[passage.key] = passage
    # A passage created just now has no texts yet: on a first import there is nothing to read.
    fresh_ids = {passage.pk for passage in fresh}
    known_ids = [existing[key].pk for key in keys if existing[key].pk not in fresh_ids]
    known_texts = {
        (pv.passage_id, pv.fingerprint): pv
        for pv in PassageVersion.objects.filter(
            passage_id__in=known_ids, fingerprint__in={extracted.fingerprint for extracted in passages}
        )
    } if known_ids else {}
    summary = {kind: 0 for kind in ChangeKind.values}
    seen_passages: set[int] = set()
    rows: list[tuple[int, PassageVersion, str, PassageVersion | None]] = []
    new_texts: list[PassageVersion] = []
    moved: list[Passage] = []
    for ordinal, (key, extracted, heading) in enumerate(zip(keys, passages, headings, strict=True)):
        passage = existing[key]
        anchor = str(extracted.anchor or "")[:300]
        if passage.ordinal != ordinal or passage.anchor != anchor:
            passage.ordinal, passage.anchor = ordinal, anchor
            moved.append(passage)
        seen_passages.add(passage.pk)
        old = base_members.get(passage.pk)
        if old is None:
            kind = ChangeKind.ADDED
        elif old.fingerprint == extracted.fingerprint:
            kind = ChangeKind.UNCHANGED
        else:
            kind = ChangeKind.CHANGED
            changed_old.append(old)
        pv = known_texts.get((passage.pk, extracted.fingerprint))
        if pv is None:
            pv = PassageVersion(
                passage=passage,
                text=extracted.text,
                fingerprint=extracted.fingerprint,
                section_heading=(heading.rsplit(" > ", 1)[-1])[:500],
                location={"page": extracted.page} if getattr(extracted, "page", None) else {},
                first_version=version,
                change_kind=kind if kind != ChangeKind.UNCHANGED else ChangeKind.ADDED,
                first_seen_at=now,
                last_seen_at=now,
            )
            new_texts.append(pv)
        summary[kind] += 1
        rows.append((ordinal, pv, kind, old))
    if moved:
        Passage.objects.bulk_update(moved, ["ordinal", "anchor"])
    new_ids = {id(pv) for pv in new_texts}
    seen_again = [pv.pk for _, pv, _, _ in rows if id(pv) not in new_ids]
    PassageVersion.objects.bulk_create(new_texts)
    if seen_again:
        PassageVersion.objects.filter(pk__in=seen_again).update(last_seen_at=now)
    members = [
        VersionPassage(source_version=version, passage_version=pv, ordinal=ordinal, change_kind=kind, previous=old if kind == ChangeKind.CHANGED else None)
        for ordinal, pv, kind, old in rows
    ]
    removed = [pv for pid, pv in base_members.items() if pid not in seen_passages]
    for offset, old in enumerate(removed):
        members.append(VersionPassage(source_version=version, passage_version=old, ordinal=len(passages) + offset, change_kind=ChangeKind.REMOVED, previous=old))
    summary[ChangeKind.REMOVED] = len(removed)
    VersionPassage.objects.bulk_create(members)
    if changed_old or removed:
        from claims.services import reverification_flag

        reverification_flag(passage_versions=changed_old + removed, reason=f"{source} v{version.number} changed the page")
    return summary
