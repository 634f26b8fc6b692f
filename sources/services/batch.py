"""Recording many fetches at once: the bulk counterparts of `fetch_record` and `links_check`.

`fetch_records_bulk` gives every (source, check result) pair exactly the outcome `fetch_record`
gives it, but one chunk at a time in one transaction and with a fixed number of queries for the
common case (a page that answered as before):

- the chunk's sources are locked and read in one query, their FetchResults inserted in one;
- the latest version's hash of every source that sent a body is read in one query; only a body
  that differs gets a new SourceVersion (and its extraction request), through `_version_for`;
- a plain `ok` on verified evidence changes nothing but the check times, so those sources are
  updated with one UPDATE per risk level; every other source (a first fetch, a redirect, a
  failure, a recovery, a new body) goes through the full reactions of `_react`.

`links_check_bulk` checks many sources' links with the checker's event loop in a background
thread (`iter_check_urls`), so the database writes of one chunk overlap the fetching of the next.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from citecheck.fingerprint import content_hash
from citecheck.linkcheck import LinkCheckResult, iter_check_urls
from sources.models import REACHABLE_LINK_STATES, EvidenceStatus, FetchResult, LinkState, Source, SourceVersion, Stage
from sources.services.fetch import _page_title, _react, _version_for, link_config

logger = logging.getLogger(__name__)

# Sources per transaction. Large enough that the fixed queries of a chunk are cheap per source,
# small enough that locks are short and a failure loses little.
BULK_CHUNK = 500
# `links_check_bulk` writes at least this often, so the last chunk left when fetching ends is
# small (its write is the only one that cannot overlap fetching).
FLUSH_SECONDS = 0.25

_STATE_FIELDS = ("pk", "canonical_url", "evidence_status", "consecutive_failures", "first_failure_at", "stage", "risk_level")


def fetch_records_bulk(
    *,
    pairs: Sequence[tuple[int, LinkCheckResult]],
    attempt: int = 1,
    now: datetime | None = None,
    chunk: int = BULK_CHUNK,
) -> list[FetchResult | None]:
    """Record many check results as `fetch_record` records one: a FetchResult each, the link-health
    reactions, and a new SourceVersion only where the body changed.

    Returns the FetchResults in the order of `pairs` (None where the source is gone). A source
    that appears twice is recorded twice, in order, in separate transactions.
    """
    recorded: list[FetchResult | None] = []
    for part in _chunks(pairs, chunk):
        recorded.extend(_record_chunk(part, attempt=attempt, now=now or timezone.now()))
    return recorded


def _chunks(pairs: Sequence[tuple[int, LinkCheckResult]], size: int) -> Iterator[list[tuple[int, LinkCheckResult]]]:
    """Chunks of at most `size` pairs, none holding the same source twice."""
    part: list[tuple[int, LinkCheckResult]] = []
    ids: set[int] = set()
    for pair in pairs:
        if len(part) >= size or pair[0] in ids:
            yield part
            part, ids = [], set()
        part.append(pair)
        ids.add(pair[0])
    if part:
        yield part


def latest_version_hashes(source_ids: Sequence[int]) -> dict[int, tuple[int, str]]:
    """{source id: (latest version id, its content hash)} for the given sources, in one query."""
    if not source_ids:
        return {}
    versions = SourceVersion.objects.filter(source_id__in=source_ids)
    if connection.vendor == "postgresql":
        latest = versions.order_by("source_id", "-number").distinct("source_id")
    else:
        newest = SourceVersion.objects.filter(source_id=OuterRef("source_id")).order_by("-number").values("number")[:1]
        latest = versions.filter(number=Subquery(newest))
    return {source_id: (pk, digest) for source_id, pk, digest in latest.values_list("source_id", "pk", "content_hash")}


def _is_plain_ok(result: LinkCheckResult, state: tuple[object, ...]) -> bool:
    """A plain `ok` on a source whose evidence is verified and not failing: `_react` would only
    move its check times, so a bulk UPDATE does the same."""
    _pk, _url, evidence, failures, first_failure, stage, _risk = state
    return (
        result.state == LinkState.OK
        and evidence == EvidenceStatus.VERIFIED
        and failures == 0
        and first_failure is None
        and stage != Stage.REGISTERED
    )


def _record_chunk(batch: list[tuple[int, LinkCheckResult]], *, attempt: int, now: datetime) -> list[FetchResult | None]:
    with transaction.atomic():
        ids = [pk for pk, _ in batch]
        # Lock in id order, as every chunk does, so two concurrent batches cannot deadlock.
        states = {
            row[0]: row
            for row in Source.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list(*_STATE_FIELDS)
        }
        bodies: dict[int, bytes] = {}
        rows: list[FetchResult | None] = []  # aligned with `batch`
        for pk, result in batch:
            state = states.get(pk)
            if state is None:
                rows.append(None)
                continue
            body = result.body if result.is_success else None
            fetch = FetchResult(
                source_id=pk,
                requested_url=state[1],
                redirects=[hop.to_json() for hop in result.redirects],
                final_url=result.final_url or "",
                status_code=result.status_code,
                link_state=str(result.state),
                note=(result.error or "") if result.state in REACHABLE_LINK_STATES or result.soft_404 else "",
                content_type=result.content_type or "",
                bytes=result.bytes,
                etag=result.etag or "",
                last_modified=result.last_modified or "",
                elapsed_ms=result.elapsed_ms,
                retry_after_seconds=result.retry_after,
                error="" if result.state in REACHABLE_LINK_STATES else (result.error or ""),
                attempt=attempt,
                fetched_at=now,
            )
            if body is not None:
                fetch.content_hash = content_hash(body)
                fetch.displayed_title = _page_title(body) if "html" in fetch.content_type else ""
                bodies[pk] = body
            rows.append(fetch)

        latest = latest_version_hashes(list(bodies))
        changed: set[int] = set()
        for row in rows:
            if row is None or row.source_id not in bodies:
                continue
            known = latest.get(row.source_id)
            if known is not None and known[1] == row.content_hash:
                row.version_id = known[0]  # unchanged: only the FetchResult is new
            else:
                changed.add(row.source_id)
        FetchResult.objects.bulk_create([row for row in rows if row is not None])

        plain: dict[str, list[int]] = {}
        react: list[FetchResult] = []
        for (pk, result), recorded in zip(batch, rows, strict=True):
            if recorded is None:
                continue
            if pk not in changed and _is_plain_ok(result, states[pk]):
                plain.setdefault(str(states[pk][6]), []).append(pk)
            else:
                react.append(recorded)
        for risk_level, group in plain.items():
            recheck = timedelta(hours=settings.CITECHECK_RECHECK_HOURS.get(risk_level, 168))
            Source.objects.filter(pk__in=group).update(
                link_state=LinkState.OK, last_checked_at=now, last_ok_at=now, next_check_at=now + recheck
            )
        if react:
            sources = Source.objects.in_bulk([fetch.source_id for fetch in react])
            for fetch in react:
                source = sources[fetch.source_id]
                _react(source=source, fetch=fetch, now=now)
                if fetch.source_id in changed:
                    fetch.version = _version_for(source=source, fetch=fetch, body=bodies[fetch.source_id])
                    fetch.save(update_fields=["version"])
    logger.info(
        "fetch.bulk_done",
        extra={"fetches": len(batch) - rows.count(None), "new_versions": len(changed), "reactions": len(react)},
    )
    return rows


def links_check_bulk(
    *,
    source_ids: Sequence[int],
    progress: Callable[[int, int], None] | None = None,
    chunk: int = BULK_CHUNK,
    flush_seconds: float = FLUSH_SECONDS,
) -> dict[str, int]:
    """Check many sources' links and record the results with `fetch_records_bulk`.

    The checker runs in a background event loop while this thread writes; a chunk is written
    when it is full or `flush_seconds` after the previous write. Transient failures are recorded
    (no retry here: the scheduler re-checks them soon). Returns counts per state.
    """
    by_url: dict[str, list[int]] = {}
    domains: set[str] = set()
    ids = list(source_ids)
    for start in range(0, len(ids), 5000):
        for pk, url, domain in Source.objects.filter(pk__in=ids[start:start + 5000]).values_list("pk", "canonical_url", "domain"):
            by_url.setdefault(url, []).append(pk)
            domains.add(domain)
    config = link_config(keep_body=False, domains=domains)
    counts: Counter[str] = Counter()
    pending: list[tuple[int, LinkCheckResult]] = []
    done = 0
    last_write = time.monotonic()
    for result in iter_check_urls(list(by_url), config):
        for pk in by_url.get(result.url, []):
            pending.append((pk, result))
            counts[str(result.state)] += 1
        done += 1
        if len(pending) >= chunk or (pending and time.monotonic() - last_write >= flush_seconds):
            fetch_records_bulk(pairs=pending, chunk=chunk)
            pending = []
            last_write = time.monotonic()
        if progress is not None:
            progress(done, len(by_url))
    if pending:
        fetch_records_bulk(pairs=pending, chunk=chunk)
    return dict(counts)
