"""Reads for the desk's overview: link states over time, verification rate over time, and the
size of the work queue by category and age. Aggregate queries only: the number of queries does
not depend on the number of rows.

The queue categories are counted here from the models (a small stand-in until the review queue's
own selector can give the same counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncDate
from django.utils import timezone

from claims.models import Answer, AnswerState
from reviews.models import TestRun, TestRunStatus
from sources.models import EditorialTask, EvidenceStatus, Source, SourceVersion, Stage, TaskKind, TaskStatus

AGE_BUCKETS = (("day", "under a day"), ("week", "1 to 7 days"), ("older", "over 7 days"))
STUCK_AFTER = timedelta(hours=1)
VERIFIED_STATES = (AnswerState.SUPPORTED, AnswerState.PARTLY_SUPPORTED)


@dataclass(frozen=True)
class QueueRow:
    key: str
    label: str
    ages: tuple[int, int, int]  # under a day, 1-7 days, older
    link: str  # admin changelist query, e.g. "sources/source/?live_page_changed__exact=1"

    @property
    def total(self) -> int:
        return sum(self.ages)


@dataclass(frozen=True)
class RateDay:
    day: date
    verified: int
    total: int

    @property
    def rate(self) -> float | None:
        return self.verified / self.total if self.total else None


def _ages(queryset: QuerySet[Any], field: str, now: datetime) -> tuple[int, int, int]:
    day, week = now - timedelta(days=1), now - timedelta(days=7)
    counts = queryset.aggregate(
        day=Count("pk", filter=Q(**{f"{field}__gte": day})),
        week=Count("pk", filter=Q(**{f"{field}__lt": day, f"{field}__gte": week})),
        older=Count("pk", filter=Q(**{f"{field}__lt": week}) | Q(**{f"{field}__isnull": True})),
    )
    return counts["day"], counts["week"], counts["older"]


def queue_by_category(*, now: datetime | None = None) -> list[QueueRow]:
    """What waits for a person, per category, split by how long it has waited."""
    now = now or timezone.now()
    rows = [
        QueueRow("approval", "Versions waiting for approval", _ages(
            SourceVersion.objects.filter(is_active=False, activated_at__isnull=True, tested_at__isnull=False,
                                         source__stage__in=[Stage.TESTED, Stage.NEEDS_REVIEW]), "tested_at", now),
            "sources/sourceversion/?is_active__exact=0"),
        QueueRow("failed_pairs", "Versions whose golden pairs failed", _ages(
            TestRun.objects.filter(status=TestRunStatus.FAILED, source_version__is_active=False, source_version__activated_at__isnull=True),
            "started_at", now), "reviews/testrun/?status__exact=failed"),
        QueueRow("changed", "Changed pages to review", _ages(
            Source.objects.filter(live_page_changed=True), "check_times__last_checked_at", now), "sources/source/?live_page_changed__exact=1"),
        QueueRow("missing", "Dead or missing links", _ages(
            Source.objects.filter(evidence_status__in=[EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD]), "first_failure_at", now),
            "sources/source/?evidence_status__in=suspended,dead"),
    ]
    tasks = EditorialTask.objects.filter(status=TaskStatus.OPEN)
    day, week = now - timedelta(days=1), now - timedelta(days=7)
    per_kind = {
        row["kind"]: (row["day"], row["week"], row["older"])
        for row in tasks.values("kind").annotate(
            day=Count("pk", filter=Q(opened_at__gte=day)),
            week=Count("pk", filter=Q(opened_at__lt=day, opened_at__gte=week)),
            older=Count("pk", filter=Q(opened_at__lt=week)),
        )
    }
    for kind in (TaskKind.FIND_REPLACEMENT, TaskKind.CANONICAL_CHANGE, TaskKind.EDITORIAL_ATTENTION, TaskKind.REVIEW_CHANGE):
        rows.append(QueueRow(f"task_{kind}", f"Open tasks: {TaskKind(kind).label}", per_kind.get(kind, (0, 0, 0)),
                             f"sources/editorialtask/?status__exact=open&kind__exact={kind}"))
    rows += [
        QueueRow("conflicting", "Answers with contradicted or conflicting claims", _ages(
            Answer.objects.filter(state=AnswerState.CONFLICTING), "verified_at", now), "claims/answer/?state__exact=conflicting"),
        QueueRow("reverify", "Answers whose evidence changed", _ages(
            Answer.objects.filter(needs_reverification=True), "received_at", now), "claims/answer/?needs_reverification__exact=1"),
        QueueRow("stuck", "Sources stuck in a stage for over an hour", _ages(
            Source.objects.filter(stage__in=[Stage.REGISTERED, Stage.FETCHED, Stage.EXTRACTED, Stage.VERSIONED],
                                  registered_at__lt=now - STUCK_AFTER), "registered_at", now),
            "sources/source/?stage__exact=registered"),
    ]
    return rows


def verification_rate_by_day(*, days: int = 14, now: datetime | None = None) -> list[RateDay]:
    """Per day (of verification): answers verified, and how many came out supported or partly
    supported. One aggregate query over a datetime range (uses the index on verified_at)."""
    now = now or timezone.now()
    start = (now - timedelta(days=days - 1)).replace(hour=0, minute=0, second=0, microsecond=0)
    per_day: dict[date, list[int]] = {(start + timedelta(days=i)).date(): [0, 0] for i in range(days)}
    rows = (
        Answer.objects.filter(verified_at__gte=start, verified_at__lt=now + timedelta(seconds=1))
        .annotate(day=TruncDate("verified_at")).values("day")
        .annotate(total=Count("*"), verified=Count("state", filter=Q(state__in=VERIFIED_STATES)))
    )
    for row in rows:
        per_day.setdefault(row["day"], [0, 0])
        per_day[row["day"]] = [row["verified"], row["total"]]
    return [RateDay(day, verified, total) for day, (verified, total) in sorted(per_day.items())]
