"""Reads for the desk's overview: link states over time, verification rate over time, and the
size of the work queue by category and age. Aggregate queries only: the number of queries does
not depend on the number of rows.

The queue categories and their counts are the review queue's own (`reviews.selectors.queue`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.utils import timezone

from claims.models import AnswerState, VerificationDay
from reviews.selectors.queue import queue_ages

AGE_BUCKETS = (("day", "under a day"), ("week", "1 to 7 days"), ("older", "over 7 days"))
VERIFIED_STATES = (AnswerState.SUPPORTED, AnswerState.PARTLY_SUPPORTED)


@dataclass(frozen=True)
class QueueRow:
    key: str
    label: str
    ages: tuple[int, int, int]  # under a day, 1-7 days, older
    link: str  # under the admin root: the review queue filtered to this category

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


def queue_by_category(*, now: datetime | None = None) -> list[QueueRow]:
    """What waits for a person, per category of the review queue (the same rows and counts the
    queue shows), split by how long it has waited; each links to the queue filtered to it."""
    return [
        QueueRow(category, label[:1].upper() + label[1:], ages, f"desk/queue/?category={category}")
        for category, label, ages in queue_ages(now=now)
    ]


def verification_rate_by_day(*, days: int = 14, now: datetime | None = None) -> list[RateDay]:
    """Per day (of an answer's last verification): answers verified, and how many came out
    supported or partly supported. Reads the kept `VerificationDay` rows (moved in the
    transaction that verifies an answer): at most `days` rows, whatever the number of answers."""
    now = now or timezone.now()
    first = timezone.localtime(now).date() - timedelta(days=days - 1)
    per_day: dict[date, tuple[int, int]] = {first + timedelta(days=i): (0, 0) for i in range(days)}
    for day, verified, total in VerificationDay.objects.filter(day__gte=first, day__lte=first + timedelta(days=days - 1)).values_list(
            "day", "verified", "answers"):
        per_day[day] = (verified, total)
    return [RateDay(day, verified, total) for day, (verified, total) in sorted(per_day.items())]
