"""The kept state of the review queue and of the link-health history: written in the same
transaction as the change that moves it, so the desk reads a page of rows and a few counts by
index instead of recounting the whole backlog on every view.

- `SourceVersion.queue_kind` ("approval", "failed_pairs" or ""): `versions_waiting`'s answer.
- `Source.queue_page_changed`: `pages_changed_waiting`'s answer.
- `LinkStateDay`: fetch results per day and link state.
- `SourceStateCount`: sources per link state and per evidence status now (moved by database
  triggers, so no write path can forget it; see the model).

Every service that moves a version, a test run, an approval, a fetch, a block or a domain policy
calls `queue_state_refresh` for the sources it touched, inside its transaction. The rules stay in
`sources.selectors` (one rule, one place): the refresh applies them to the touched sources only.
`kept_state_rebuild` recounts everything from scratch and reports every difference
(`manage.py rebuild_kept_state`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import TruncDate
from django.utils import timezone

from claims.services.kept import verification_kept_differences, verification_kept_rebuild
from sources.models import FetchResult, LinkStateDay, Source, SourceStateCount, SourceVersion
from sources.selectors import VERSION_QUEUE_KIND, latest_test_run, pages_changed_waiting, version_queue_kinds, versions_waiting

STATE_COUNT_KINDS = ("link_state", "evidence_status")  # the fields `SourceStateCount` counts


def queue_state_refresh(*, source_ids: Iterable[int]) -> None:
    """Re-apply the queue's rules to the versions and pages of `source_ids` and write the answer.
    Call inside the transaction that changed them, after the change. The sources' rows are locked
    (in id order) first, so two transactions refreshing the same source read each other's
    committed changes instead of writing a stale answer last."""
    ids = sorted({int(pk) for pk in source_ids})
    if not ids:
        return
    # No savepoint: a failure here must fail the caller's whole change, never be caught and skipped.
    with transaction.atomic(savepoint=False):
        if connection.features.has_select_for_update:  # SQLite has one writer at a time anyway
            list(Source.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk").values_list("pk", flat=True))
        # One read per table: what is kept next to what the rule says now; then write what differs.
        versions = (
            SourceVersion.objects.filter(source_id__in=ids).filter(~Q(queue_kind="") | Q(is_active=False, extraction_status="ok"))
            .annotate(waits=Exists(versions_waiting(source_ids=ids).filter(pk=OuterRef("pk"))),
                      run_status=Subquery(latest_test_run().values("status")[:1]))
            .values_list("pk", "queue_kind", "waits", "run_status")
        )
        by_kind: dict[str, list[int]] = {}
        for pk, kept, waits, run_status in versions:
            kind = VERSION_QUEUE_KIND.get(run_status or "", "") if waits else ""
            if kind != kept:
                by_kind.setdefault(kind, []).append(pk)
        for kind, pks in by_kind.items():
            SourceVersion.objects.filter(pk__in=pks).update(queue_kind=kind)
        pages = Source.objects.filter(pk__in=ids).annotate(waits=Exists(pages_changed_waiting(source_ids=ids).filter(pk=OuterRef("pk"))))
        by_flag: dict[bool, list[int]] = {}
        for pk, kept_flag, waits in pages.values_list("pk", "queue_page_changed", "waits"):
            if bool(waits) != kept_flag:
                by_flag.setdefault(bool(waits), []).append(pk)
        for flag, pks in by_flag.items():
            Source.objects.filter(pk__in=pks).update(queue_page_changed=flag)


def _write_version_kinds(kinds: dict[int, str], scope: QuerySet[SourceVersion]) -> None:
    """Make the kept `queue_kind` of the versions in `scope` equal `kinds` (absent: ""), writing
    only the rows that differ."""
    current = dict(scope.exclude(queue_kind="").values_list("pk", "queue_kind"))
    by_kind: dict[str, list[int]] = {"": [pk for pk in current if pk not in kinds]}
    for pk, kind in kinds.items():
        if current.get(pk, "") != kind:
            by_kind.setdefault(kind, []).append(pk)
    for kind, pks in by_kind.items():
        for part in _chunks(pks):
            SourceVersion.objects.filter(pk__in=part).update(queue_kind=kind)


def _write_changed_pages(changed: set[int], scope: QuerySet[Source]) -> None:
    current = set(scope.filter(queue_page_changed=True).values_list("pk", flat=True))
    for flag, pks in ((False, sorted(current - changed)), (True, sorted(changed - current))):
        for part in _chunks(pks):
            Source.objects.filter(pk__in=part).update(queue_page_changed=flag)


def _chunks(pks: list[int], size: int = 500) -> Iterator[list[int]]:
    for i in range(0, len(pks), size):
        yield pks[i:i + size]


def link_state_days_add(fetches: Iterable[tuple[datetime, str]]) -> None:
    """Count fetch results (fetched at, link state) into their day's row, in the caller's
    transaction: one upsert per (day, state), whatever the number of fetches."""
    counts = Counter((timezone.localtime(at).date(), state) for at, state in fetches)
    if not counts:
        return
    table = connection.ops.quote_name(LinkStateDay._meta.db_table)
    placeholders = ", ".join(["(%s, %s, %s)"] * len(counts))
    params: list[Any] = []
    for (day, state), n in sorted(counts.items()):
        params.extend([day, state, n])
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (day, link_state, fetches) VALUES {placeholders} "  # noqa: S608 - table name from the model
            f"ON CONFLICT (day, link_state) DO UPDATE SET fetches = {table}.fetches + excluded.fetches",
            params,
        )


@dataclass(frozen=True)
class KeptDifference:
    """One place where the kept state and a fresh recount disagree."""

    what: str
    key: str
    kept: object
    recounted: object

    def __str__(self) -> str:
        return f"{self.what} {self.key}: kept {self.kept!r}, recounted {self.recounted!r}"


def source_kept_differences() -> list[KeptDifference]:
    """Every difference between the kept queue state and link-state days and a recount."""
    found: list[KeptDifference] = []
    expected = version_queue_kinds()
    kept = dict(SourceVersion.objects.exclude(queue_kind="").values_list("pk", "queue_kind"))
    for pk in sorted(set(expected) | set(kept)):
        if expected.get(pk, "") != kept.get(pk, ""):
            found.append(KeptDifference("SourceVersion.queue_kind", str(pk), kept.get(pk, ""), expected.get(pk, "")))
    changed = set(pages_changed_waiting().values_list("pk", flat=True))
    kept_changed = set(Source.objects.filter(queue_page_changed=True).values_list("pk", flat=True))
    for pk in sorted(changed ^ kept_changed):
        found.append(KeptDifference("Source.queue_page_changed", str(pk), pk in kept_changed, pk in changed))
    days = _link_state_days_recounted()
    kept_days = {(d, s): n for d, s, n in LinkStateDay.objects.values_list("day", "link_state", "fetches")}
    for key in sorted(set(days) | set(kept_days)):
        if days.get(key, 0) != kept_days.get(key, 0):
            found.append(KeptDifference("LinkStateDay", f"{key[0]} {key[1]}", kept_days.get(key, 0), days.get(key, 0)))
    counts = _state_counts_recounted()
    kept_counts = _state_counts_kept()
    for kind, state in sorted(set(counts) | set(kept_counts)):
        if counts.get((kind, state), 0) != kept_counts.get((kind, state), 0):
            found.append(KeptDifference("SourceStateCount", f"{kind} {state or '-'}", kept_counts.get((kind, state), 0), counts.get((kind, state), 0)))
    return found


def _state_counts_recounted() -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for kind in STATE_COUNT_KINDS:
        for state, n in Source.objects.values_list(kind).annotate(n=Count("pk")).values_list(kind, "n").order_by():
            counts[(kind, state)] = n
    return counts


def _state_counts_kept() -> dict[tuple[str, str], int]:
    return {(kind, state): n for kind, state, n in SourceStateCount.objects.values_list("kind", "state", "sources") if n}


def _link_state_days_recounted() -> dict[tuple[date, str], int]:
    rows = FetchResult.objects.annotate(day=TruncDate("fetched_at")).values("day", "link_state").annotate(n=Count("*")).order_by()
    return {(row["day"], row["link_state"]): row["n"] for row in rows}


def source_kept_rebuild() -> None:
    """Write the kept queue state and link-state days from a recount (in one transaction)."""
    with transaction.atomic():
        _write_version_kinds(version_queue_kinds(), SourceVersion.objects.all())
        _write_changed_pages(set(pages_changed_waiting().values_list("pk", flat=True)), Source.objects.all())
        LinkStateDay.objects.all().delete()
        LinkStateDay.objects.bulk_create(
            [LinkStateDay(day=day, link_state=state, fetches=n) for (day, state), n in sorted(_link_state_days_recounted().items())],
            batch_size=1000,
        )
        state_counts_rebuild()


def state_counts_rebuild() -> None:
    """Write the kept counts of sources per link state and evidence status from a recount."""
    with transaction.atomic():
        SourceStateCount.objects.all().delete()
        SourceStateCount.objects.bulk_create(
            [SourceStateCount(kind=kind, state=state, sources=n) for (kind, state), n in sorted(_state_counts_recounted().items())])


def kept_state_differences() -> list[KeptDifference]:
    """Every difference between all the kept state (the queue's versions and changed pages, the
    link-state days, the verification days) and a fresh recount. Empty when they agree."""
    return source_kept_differences() + [KeptDifference(*row) for row in verification_kept_differences()]


def kept_state_rebuild() -> list[KeptDifference]:
    """Recount all the kept state from scratch and write it; returns what differed before."""
    with transaction.atomic():
        found = kept_state_differences()
        source_kept_rebuild()
        verification_kept_rebuild()
    return found
