"""Extract a fetched version into passages, diff it against the active version, flag dependants."""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from citecheck.extraction import ExtractionResult, PendingExtraction, extract_submit
from citecheck_site.bulk import rows_update
from claims.services import claims_reverify_for_passages, reverification_flag
from dispatch.services import DATABASE_ERRORS, work_request_many
from reviews.audit import audit_record_many
from sources.models import (
    ChangeKind,
    ExtractionStatus,
    Passage,
    PassageVersion,
    SourceVersion,
    Stage,
    VersionPassage,
)
from sources.services.kept import queue_state_refresh
from sources.services.stages import source_transition, walk_entries

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


def _base_candidates() -> QuerySet[SourceVersion]:
    """The versions an outer version (``OuterRef``) is diffed against: the active one, else the
    latest extracted one before it; the active one sorts first, then the highest number."""
    return (
        SourceVersion.objects.filter(
            Q(is_active=True) | Q(number__lt=OuterRef("number"), extraction_status=ExtractionStatus.OK),
            source=OuterRef("source_id"),
        )
        .exclude(pk=OuterRef("pk"))
        .order_by("-is_active", "-number")
    )


@dataclass
class _Started:
    """A version whose page is with the extractor (`pending`), or that needs no extraction."""

    version_id: int
    version: SourceVersion | None  # None: the version is gone
    pending: PendingExtraction | None = None  # None: gone, or already extracted


def _versions_to_extract(version_ids: list[int]) -> dict[int, SourceVersion]:
    """The versions with what extraction needs (body, content type, URL), in one query."""
    return {
        version.pk: version
        for version in SourceVersion.objects.select_related("source")
        .only("id", "extraction_status", "content_type", "body_compressed", "source__canonical_url")
        .filter(pk__in=version_ids)
    }


def _extraction_start(version_id: int, version: SourceVersion | None) -> _Started:
    """Hand a version's page to the extractor process (returns at once); `version` as read by
    `_versions_to_extract` (None: it is gone)."""
    if version is None:
        logger.info("extract.gone", extra={"version_id": version_id})
        return _Started(version_id, None)
    if version.extraction_status != ExtractionStatus.PENDING:
        return _Started(version_id, version)
    pending = extract_submit(
        version.body,
        content_type=version.content_type,
        url=version.source.canonical_url,
        max_chars=settings.CITECHECK_PASSAGE_MAX_CHARS,
        deadline_seconds=settings.CITECHECK_EXTRACT_DEADLINE,
        memory_limit_mb=settings.CITECHECK_EXTRACT_MEMORY_MB or None,
    )
    return _Started(version_id, version, pending)


def version_extract(*, version_id: int) -> SourceVersion | None:
    """Run the extraction for one version (idempotent: an extracted version is left alone)."""
    started = _extraction_start(version_id, _versions_to_extract([version_id]).get(version_id))
    if started.pending is None:
        return started.version
    return _extraction_store(version_id, started.pending.result())


def versions_extract(
    *,
    version_id: int,
    take_next: Callable[[], list[int]],
    finished: Callable[[int, Exception | None], None],
    store_every: int = 4,
) -> None:
    """Extract `version_id`, then the versions `take_next()` names (a few at a time) until it
    names none, as a pipeline: the extractor process works on the next page while this process
    stores the pages before it, `store_every` pages to a transaction (fewer, larger writes).

    `finished(version_id, error)` is called once per page after its transaction, with the
    exception that page's reading or storing raised (the other pages go on) or None; a group
    that cannot be stored together is stored one page at a time, each with its own outcome. A
    database error (the connection is lost) or an interruption (the job's timeout) stops the
    whole batch.
    """
    group: list[tuple[SourceVersion, ExtractionResult]] = []

    def store_group() -> None:
        items, group[:] = [(version.pk, result) for version, result in group], []
        if len(items) > 1:
            try:
                _extraction_store_many(items)
            except DATABASE_ERRORS:
                raise
            except Exception:  # one of them cannot go with the others: one by one, below
                logger.info("extract.group_split", extra={"version_ids": [pk for pk, _ in items]}, exc_info=True)
            else:
                for pk, _ in items:
                    finished(pk, None)
                return
        for pk, result in items:
            error: Exception | None = None
            try:
                _extraction_store(pk, result)
            except DATABASE_ERRORS:
                raise
            except Exception as exc:
                error = exc
            finished(pk, error)

    ahead: deque[tuple[int, SourceVersion | None]] = deque()  # taken, read, not handed over yet

    def read_ahead() -> bool:
        ids = take_next()
        found = _versions_to_extract(ids) if ids else {}
        ahead.extend((pk, found.get(pk)) for pk in ids)
        return bool(ids)

    current: _Started | None = _extraction_start(version_id, _versions_to_extract([version_id]).get(version_id))
    while current is not None:
        upcoming: _Started | None = None
        try:
            result = current.pending.result() if current.pending is not None else None
            while upcoming is None and (ahead or read_ahead()):
                next_id, next_version = ahead.popleft()
                try:
                    upcoming = _extraction_start(next_id, next_version)
                except DATABASE_ERRORS:
                    raise
                except Exception as exc:  # that page's problem, reported on its request
                    finished(next_id, exc)
            version = current.version
            if result is None or version is None:
                finished(current.version_id, None)  # gone, or extracted already
            else:
                alone = result.status != ExtractionStatus.OK  # a failed extraction is recorded on its own
                if alone or any(other.source_id == version.source_id for other, _ in group):
                    store_group()  # (a source's versions are diffed one after the other)
                group.append((version, result))
                if alone or len(group) >= store_every or upcoming is None:
                    store_group()
        except BaseException:
            if upcoming is not None and upcoming.pending is not None:
                upcoming.pending.close()
            raise
        current = upcoming


class _Locked(NamedTuple):
    version: SourceVersion
    base_id: int | None  # the version it is diffed against
    base_active: bool | None
    has_passages: bool  # whether its source has any passages yet
    replaces_candidate: bool  # a version newer than the active one waits for review before it


def _locked_versions(version_ids: list[int]) -> list[_Locked]:
    """The versions, locked with their sources and read again (the body, read before, is not
    needed twice), with what the diff needs in the same query: the comparison base and whether
    the source has passages yet."""
    base = _base_candidates()
    found = (
        SourceVersion.objects.select_for_update()
        .select_related("source")
        .defer("body_compressed")
        .annotate(
            base_id=Subquery(base.values("pk")[:1]),
            base_active=Subquery(base.values("is_active")[:1]),
            has_passages=Exists(Passage.objects.filter(source=OuterRef("source_id"))),
            replaces_candidate=Exists(SourceVersion.objects.filter(
                source=OuterRef("source_id"), number__lt=OuterRef("number"), is_active=False,
                number__gt=Subquery(SourceVersion.objects.filter(source=OuterRef(OuterRef("source_id")), is_active=True).values("number")[:1]),
            )),
        )
        .filter(pk__in=version_ids)
        .order_by("pk")
    )
    return [_Locked(version, version.base_id, version.base_active, version.has_passages, version.replaces_candidate) for version in found]


def _extraction_store(version_id: int, result: ExtractionResult) -> SourceVersion:
    """Store an extraction's outcome: passages, diff, stages, the tests' work request."""
    status = result.status if result.status in ExtractionStatus.values else ExtractionStatus.ERROR
    if status == ExtractionStatus.OK:
        return _extraction_store_many([(version_id, result)])[version_id]
    with transaction.atomic():
        version = _locked_versions([version_id])[0].version
        if version.extraction_status != ExtractionStatus.PENDING:
            return version
        version.extraction_status = status
        version.extraction = _extraction_metadata(result)
        version.save(update_fields=["extraction_status", "extraction"])
        source_transition(source=version.source, to=Stage.NEEDS_REVIEW, actor=None, reason=f"extraction {status}: {result.error or ''}".strip())
        queue_state_refresh(source_ids=[version.source_id])
    return version


def _extraction_metadata(result: ExtractionResult) -> dict[str, Any]:
    return {"title": result.title or "", "date": result.date or "", "passages": len(result.passages), "error": result.error or ""}


def _extraction_store_many(items: list[tuple[int, ExtractionResult]]) -> dict[int, SourceVersion]:
    """Store successful extractions of versions of different sources in one transaction, with
    one write per table for all of them: passages, diffs, stages and audit, the tests' work
    requests. Returns the versions by id (a version extracted meanwhile is left as it is).
    Raises IllegalTransition (writing nothing) when a source cannot move on."""
    if any(result.status != ExtractionStatus.OK for _, result in items):
        raise ValueError("only successful extractions are stored together; see _extraction_store")
    results = dict(items)
    with transaction.atomic():
        locked = _locked_versions(list(results))
        stored = {row.version.pk: row.version for row in locked}
        plans: list[_Plan] = []
        audits: list[Any] = []
        for version, base_id, base_active, has_passages, replaces_candidate in locked:
            if version.extraction_status != ExtractionStatus.PENDING:
                continue
            result = results[version.pk]
            plan = _plan_passages(version=version, passages=result.passages, base_id=base_id, known=has_passages)
            plan.replaces_candidate = bool(replaces_candidate)
            plans.append(plan)
            version.extraction_status = ExtractionStatus.OK
            version.extraction = _extraction_metadata(result)
            version.compared_to_id = base_id
            version.diff_summary = plan.summary
            source = version.source
            if result.title and not source.title:
                source.title = result.title[:500]
            if result.date:
                source.displayed_date = str(result.date)[:64]  # the page's own date: recency in quality scores
            if base_active and (plan.summary["changed"] or plan.summary["added"] or plan.summary["removed"]):
                source.live_page_changed = True
            steps = [(Stage.EXTRACTED, f"{len(result.passages)} passages"), (Stage.VERSIONED, _describe(plan.summary))]
            audits.extend(walk_entries(source=source, steps=steps, actor=None))
        if not plans:
            return stored
        _write_plans(plans)
        done = [plan.version for plan in plans]
        rows_update(done, ["extraction_status", "extraction", "compared_to", "diff_summary"])
        rows_update([version.source for version in done], ["stage", "title", "displayed_date", "live_page_changed"])
        audit_record_many(audits)
        queue_state_refresh(source_ids=[version.source_id for version in done])
        work_request_many(
            job="reviews.run_tests", queue="judge", items=[({"version_id": version.pk}, f"tests:{version.pk}") for version in done]
        )
    for plan in plans:
        logger.info("extract.done", extra={"version_id": plan.version.pk, "summary": plan.summary})
    return stored


def _describe(summary: dict[str, int]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in summary.items() if count)


@dataclass
class _Plan:
    """What storing one version's passages writes (see `_plan_passages`)."""

    version: SourceVersion
    summary: dict[str, int]
    fresh: list[Passage]
    moved: list[Passage]
    new_texts: list[PassageVersion]
    seen_again: list[PassageVersion]
    members: list[VersionPassage]
    flagged: list[PassageVersion]
    replaces_candidate: bool = False


def _plan_passages(*, version: SourceVersion, passages: list[Any], base_id: int | None, known: bool) -> _Plan:
    """Work out a version's passages against the source's (`known`: whether it has any yet; on a
    first import it has none, and nothing is read) and the comparison base's, writing nothing."""
    source = version.source
    now = timezone.now()
    keys = passage_keys(passages)
    existing = {p.key: p for p in Passage.objects.filter(source=source, key__in=keys)} if known else {}
    base_members: dict[int, PassageVersion] = {}
    changed_old: list[PassageVersion] = []
    if base_id is not None:
        for member in VersionPassage.objects.filter(source_version_id=base_id).exclude(change_kind=ChangeKind.REMOVED).select_related("passage_version"):
            base_members[member.passage_version.passage_id] = member.passage_version
    # The texts the source's existing passages already had, in one read (new passages have none).
    known_ids = [existing[key].pk for key in keys if key in existing]
    known_texts = {
        (pv.passage_id, pv.fingerprint): pv
        for pv in PassageVersion.objects.filter(
            passage_id__in=known_ids, fingerprint__in={extracted.fingerprint for extracted in passages}
        )
    } if known_ids else {}
    headings = [_heading_path(extracted.heading_path) for extracted in passages]
    fresh: list[Passage] = []
    for ordinal, (key, extracted, heading) in enumerate(zip(keys, passages, headings, strict=True)):
        if key not in existing:
            existing[key] = Passage(source=source, key=key, heading_path=heading[:1000], anchor=str(extracted.anchor or "")[:300], ordinal=ordinal)
            fresh.append(existing[key])
    summary = {kind: 0 for kind in ChangeKind.values}
    seen_passages: set[int] = set()
    rows: list[tuple[int, PassageVersion, str, PassageVersion | None]] = []
    new_texts: list[PassageVersion] = []
    seen_again: list[PassageVersion] = []
    moved: list[Passage] = []
    for ordinal, (key, extracted, heading) in enumerate(zip(keys, passages, headings, strict=True)):
        passage = existing[key]
        anchor = str(extracted.anchor or "")[:300]
        if passage.pk is not None:
            if passage.ordinal != ordinal or passage.anchor != anchor:
                passage.ordinal, passage.anchor = ordinal, anchor
                moved.append(passage)
            seen_passages.add(passage.pk)
        old = base_members.get(passage.pk) if passage.pk is not None else None
        if old is None:
            kind = ChangeKind.ADDED
        elif old.fingerprint == extracted.fingerprint:
            kind = ChangeKind.UNCHANGED
        else:
            kind = ChangeKind.CHANGED
            changed_old.append(old)
        pv = known_texts.get((passage.pk, extracted.fingerprint)) if passage.pk is not None else None
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
        else:
            seen_again.append(pv)
        summary[kind] += 1
        rows.append((ordinal, pv, kind, old))
    members = [
        VersionPassage(source_version=version, passage_version=pv, ordinal=ordinal, change_kind=kind, previous=old if kind == ChangeKind.CHANGED else None)
        for ordinal, pv, kind, old in rows
    ]
    removed = [pv for pid, pv in base_members.items() if pid not in seen_passages]
    for offset, old in enumerate(removed):
        members.append(VersionPassage(source_version=version, passage_version=old, ordinal=len(passages) + offset, change_kind=ChangeKind.REMOVED, previous=old))
    summary[ChangeKind.REMOVED] = len(removed)
    return _Plan(version=version, summary=summary, fresh=fresh, moved=moved, new_texts=new_texts, seen_again=seen_again,
                 members=members, flagged=changed_old + removed)


def _write_plans(plans: list[_Plan]) -> None:
    """Write the planned passages of several versions: one INSERT (or UPDATE) per table for all."""
    now = timezone.now()
    Passage.objects.bulk_create([passage for plan in plans for passage in plan.fresh])
    moved = [passage for plan in plans for passage in plan.moved]
    if moved:
        Passage.objects.bulk_update(moved, ["ordinal", "anchor"])
    PassageVersion.objects.bulk_create([pv for plan in plans for pv in plan.new_texts])
    seen_again = [pv.pk for plan in plans for pv in plan.seen_again]
    if seen_again:
        PassageVersion.objects.filter(pk__in=seen_again).update(last_seen_at=now)
    VersionPassage.objects.bulk_create([member for plan in plans for member in plan.members])
    for plan in plans:
        version = plan.version
        if plan.flagged:
            reverification_flag(passage_versions=plan.flagged, reason=f"{version.source} v{version.number} changed the page")
    # A version that replaces one still waiting for review moves evidence too: what that one made
    # "outdated" (a newer text awaiting review) may be the active text again in this one.
    replacing = {plan.version.source_id for plan in plans if plan.replaces_candidate}
    if replacing:
        claims_reverify_for_passages(passage_ids=Passage.objects.filter(source_id__in=replacing).values_list("pk", flat=True),
                                     reason="a new version replaces the one waiting for review")
