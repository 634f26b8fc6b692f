"""Recording fetches, one or many: the one path from a link check's result to a FetchResult, the
link-health reactions and a new SourceVersion where the body changed.

`fetch_records_bulk` records (source, check result) pairs one chunk at a time in one transaction,
with a fixed number of queries for the common case (a page that answered as before);
`fetch_record` is the same path with one pair, and `source_fetch` checks one source and records it:

- the chunk's sources are locked and read in one query, their FetchResults inserted in one;
- the latest version's hash of every source that sent a body is read in one query; only a body
  that differs gets a new SourceVersion (and its extraction request), through `_version_for`;
- a plain `ok` on verified evidence changes nothing but the check times, which live in their
  own narrow table, so those rows are moved with one UPDATE (the wide source row is not
  written); every other source (a first fetch, a redirect, a failure, a recovery, a new body)
  goes through the full reactions of `_react`.

`links_check_bulk` checks many sources' links with the checker's event loop in a background
thread (`iter_check_urls`), so the database writes of one chunk overlap the fetching of the next.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import JSONField, OuterRef, Subquery
from django.utils import timezone
from psycopg import sql

from citecheck.fingerprint import content_hash
from citecheck.linkcheck import LinkCheckResult, iter_check_urls
from citecheck.linkcheck import LinkState as CheckState
from citecheck.urlnorm import registrable_domain
from sources.models import (
    REACHABLE_LINK_STATES,
    CheckTimes,
    DomainPolicy,
    EvidenceStatus,
    FetchResult,
    LinkState,
    Source,
    SourceVersion,
    Stage,
)
from sources.services.fetch import _page_title, _react, _version_for, check_urls, link_config, robots_allows
from sources.services.kept import link_state_days_add, queue_state_refresh

logger = logging.getLogger(__name__)

# Sources per transaction. Large enough that the fixed queries of a chunk are cheap per source,
# small enough that locks are short and a failure loses little.
BULK_CHUNK = 1000
# `links_check_bulk` writes at least this often, so the last chunk left when fetching ends is
# small (its write is the only one that cannot overlap fetching).
FLUSH_SECONDS = 0.25

def source_fetch(*, source_id: int, attempt: int = 1) -> FetchResult | None:
    """Fetch a source's page (one attempt), record it and react. Returns None if the source is gone."""
    source = Source.objects.filter(pk=source_id).first()
    if source is None:
        logger.info("fetch.gone", extra={"source_id": source_id})
        return None
    # The domain of the URL about to be fetched, not only the stored one (older rows may differ).
    domains = {source.domain, registrable_domain(source.canonical_url)}
    if source.is_blocked or DomainPolicy.objects.filter(domain__in=domains, is_blocked=True).exists():
        logger.info("fetch.skipped_blocked", extra={"source_id": source_id})
        return None
    if DomainPolicy.objects.filter(domain=source.domain, respect_robots=True).exists() and not robots_allows(source.canonical_url):
        result = LinkCheckResult(url=source.canonical_url, state=CheckState.BLOCKED, error="disallowed for Citecheck by the site's robots.txt")
    else:
        [result] = check_urls([source.canonical_url], keep_body=True, domains=[source.domain])
    return fetch_record(source_id=source_id, result=result, attempt=attempt)


def fetch_record(*, source_id: int, result: LinkCheckResult, attempt: int = 1, now: datetime | None = None) -> FetchResult | None:
    """Record one check: `fetch_records_bulk` with one pair. None if the source is gone."""
    [fetch_id] = fetch_records_bulk(pairs=[(source_id, result)], attempt=attempt, now=now)
    return FetchResult.objects.get(pk=fetch_id) if fetch_id is not None else None


def fetch_records_bulk(
    *,
    pairs: Sequence[tuple[int, LinkCheckResult]],
    attempt: int = 1,
    now: datetime | None = None,
    chunk: int = BULK_CHUNK,
) -> list[int | None]:
    """Record many check results as `fetch_record` records one: a FetchResult each, the link-health
    reactions, and a new SourceVersion only where the body changed.

    Returns the new FetchResults' ids in the order of `pairs` (None where the source is gone).
    A source that appears twice is recorded twice, in order, in separate transactions.
    """
    recorded: list[int | None] = []
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
    if connection.vendor == "postgresql":
        # One array parameter instead of a thousand: psycopg binds on the client and parses
        # every placeholder, which costs more than the query itself at this size.
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT DISTINCT ON (source_id) source_id, id, content_hash FROM {connection.ops.quote_name(SourceVersion._meta.db_table)} "
                "WHERE source_id = ANY(%s) ORDER BY source_id, number DESC",
                [list(source_ids)],
            )
            return {source_id: (pk, digest) for source_id, pk, digest in cursor.fetchall()}
    newest = SourceVersion.objects.filter(source_id=OuterRef("source_id")).order_by("-number").values("number")[:1]
    latest = SourceVersion.objects.filter(source_id__in=source_ids, number=Subquery(newest))
    return {source_id: (pk, digest) for source_id, pk, digest in latest.values_list("source_id", "pk", "content_hash")}


def _touch_plain_ok(candidates: list[int], *, now: datetime) -> set[int]:
    """Move the check times of every candidate (an `ok` whose body, if any, is unchanged) whose
    source already reads `ok` with verified evidence and no failures, and return the ids it moved.

    For those sources `_react` would change nothing but the check times, and those live in their
    own narrow table (CheckTimes): one UPDATE of that table does the work and the wide source
    row is not written. The condition on the source sits in the UPDATE itself, so a source
    changed meanwhile by someone else, or one without check times yet, is left to the full
    reactions. Raw SQL for UPDATE ... FROM and RETURNING (PostgreSQL, SQLite 3.35+), which
    Django's `update()` lacks.
    """
    if not candidates:
        return set()
    adapt = connection.ops.adapt_datetimefield_value
    quote = connection.ops.quote_name
    recheck = settings.CITECHECK_RECHECK_HOURS
    params: list[Any] = [adapt(now), adapt(now)]
    for risk_level, hours in recheck.items():
        params += [risk_level, adapt(now + timedelta(hours=hours))]
    params.append(adapt(now + timedelta(hours=168)))
    if connection.vendor == "postgresql":  # one array parameter (see latest_version_hashes)
        params.append(list(candidates))
        among = "= ANY(%s)"
    else:
        params += candidates
        among = f"IN ({', '.join(['%s'] * len(candidates))})"
    params += [str(LinkState.OK), str(EvidenceStatus.VERIFIED), str(Stage.REGISTERED)]
    times, sources = quote(CheckTimes._meta.db_table), quote(Source._meta.db_table)
    statement = (
        f"UPDATE {times} SET last_checked_at = %s, last_ok_at = %s, "
        f"next_check_at = CASE s.risk_level {' '.join('WHEN %s THEN %s' for _ in recheck)} ELSE %s END "
        f"FROM {sources} s WHERE s.id = {times}.source_id AND {times}.source_id {among} "
        "AND s.link_state = %s AND s.evidence_status = %s AND s.consecutive_failures = 0 "
        f"AND s.first_failure_at IS NULL AND s.stage <> %s RETURNING {times}.source_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return {pk for (pk,) in cursor.fetchall()}


def _fetch_values(result: LinkCheckResult, *, source_id: int, requested_url: str, attempt: int, now: datetime) -> dict[str, Any]:
    """A FetchResult's fields (by attname) for one check, exactly as `fetch_record` fills them."""
    return {
        "source_id": source_id,
        "requested_url": requested_url,
        "redirects": [hop.to_json() for hop in result.redirects],
        "final_url": result.final_url or "",
        "status_code": result.status_code,
        "link_state": str(result.state),
        "note": (result.error or "") if result.state in REACHABLE_LINK_STATES or result.soft_404 else "",
        "content_type": result.content_type or "",
        "bytes": result.bytes,
        "etag": result.etag or "",
        "last_modified": result.last_modified or "",
        "elapsed_ms": result.elapsed_ms,
        "retry_after_seconds": result.retry_after,
        "error": "" if result.state in REACHABLE_LINK_STATES else (result.error or ""),
        "attempt": attempt,
        "fetched_at": now,
    }


def _record_chunk(batch: list[tuple[int, LinkCheckResult]], *, attempt: int, now: datetime) -> list[int | None]:
    bodies: dict[int, bytes] = {}
    rows: dict[int, dict[str, Any]] = {}
    for pk, result in batch:
        # The URL actually checked (normally the source's canonical URL).
        rows[pk] = values = _fetch_values(result, source_id=pk, requested_url=result.url, attempt=attempt, now=now)
        body = result.body if result.is_success else None
        if body is not None:
            values["content_hash"] = content_hash(body)
            values["displayed_title"] = _page_title(body) if "html" in values["content_type"] else ""
            bodies[pk] = body
    with transaction.atomic():
        latest = latest_version_hashes(list(bodies))
        changed: set[int] = set()
        for pk in bodies:
            known = latest.get(pk)
            if known is not None and known[1] == rows[pk]["content_hash"]:
                rows[pk]["version_id"] = known[0]  # unchanged: only the FetchResult is new
            else:
                changed.add(pk)
        plain = _touch_plain_ok([pk for pk, result in batch if result.state == LinkState.OK and pk not in changed], now=now)
        # Everyone else gets the full reactions, locked in id order as `fetch_record` locks.
        others = Source.objects.select_for_update(of=("self",)).select_related("check_times").filter(pk__in=[pk for pk, _ in batch if pk not in plain]).order_by("pk")
        sources = {source.pk: source for source in others}
        recorded = [pk for pk, _ in batch if pk in plain or pk in sources]
        _insert_fetch_results([rows[pk] for pk in recorded])
        for pk in recorded:
            if pk in plain:
                continue
            fetch = FetchResult(**rows[pk])
            fetch._state.adding = False
            _react(source=sources[pk], fetch=fetch, now=now)
            if pk in changed:
                fetch.version = _version_for(source=sources[pk], fetch=fetch, body=bodies[pk])
                fetch.save(update_fields=["version"])
        queue_state_refresh(source_ids=[pk for pk in recorded if pk not in plain])
    logger.info(
        "fetch.bulk_done",
        extra={"fetches": len(recorded), "new_versions": len(changed & set(recorded)), "reactions": len(recorded) - len(plain)},
    )
    return [rows[pk]["id"] if pk in plain or pk in sources else None for pk, _ in batch]


def _insert_fetch_results(rows: list[dict[str, Any]]) -> None:
    """Insert FetchResults given as field values by attname; sets each row's "id".

    On PostgreSQL: ids drawn from the table's sequence in one query, rows sent with COPY (a
    tenth of the time of Django's bulk INSERT with client-side parameter binding). Elsewhere:
    `bulk_create`.
    """
    if not rows:
        return
    link_state_days_add((values["fetched_at"], values["link_state"]) for values in rows)
    fields = [f for f in FetchResult._meta.concrete_fields if not f.primary_key]
    if connection.vendor != "postgresql":
        created = FetchResult.objects.bulk_create([FetchResult(**values) for values in rows])
        for values, fetch in zip(rows, created, strict=True):
            values["id"] = fetch.pk
        return

    table = FetchResult._meta.db_table
    defaults = {f.attname: f.get_default() for f in fields}
    # JSON goes as its text; everything else is adapted by psycopg itself.
    encode = {f.attname: json.dumps for f in fields if isinstance(f, JSONField)}
    with connection.cursor() as cursor:
        cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, len(rows)])
        for values, (pk,) in zip(rows, cursor.fetchall(), strict=True):
            values["id"] = pk
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(table), sql.SQL(", ").join([sql.Identifier(str(f.column)) for f in [FetchResult._meta.pk, *fields]])
        )
        names = [f.attname for f in fields]
        with cursor.cursor.copy(statement) as copy:
            for values in rows:
                record = [values["id"]]
                for name in names:
                    value = values.get(name, defaults[name])
                    record.append(encode[name](value) if name in encode else value)
                copy.write_row(record)


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
