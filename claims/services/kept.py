"""The kept verification history behind the overview's rate chart: `VerificationDay` rows moved
in the transaction that verifies an answer; and the kept counts of answers that may need a person
per hour (`AnswerFlaggedHour`, moved by database triggers). See `sources.services.kept` for the
queue's kept state and the rebuild."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from claims.models import ANSWER_MAY_NEED_A_PERSON, Answer, AnswerFlaggedHour, AnswerState, VerificationDay

VERIFIED_STATES = (AnswerState.SUPPORTED, AnswerState.PARTLY_SUPPORTED)


def _day_delta(at: datetime | None, state: str, sign: int, counts: Counter[tuple[date, str]]) -> None:
    if at is None:
        return
    day = timezone.localtime(at).date()
    counts[(day, "answers")] += sign
    if state in VERIFIED_STATES:
        counts[(day, "verified")] += sign


def verification_day_move(*, before_at: datetime | None, before_state: str, after_at: datetime | None, after_state: str) -> None:
    """An answer's last verification moved from (before_at, before_state) to (after_at,
    after_state): take it out of its old day's counts and into the new one's. Call in the
    transaction that saves the answer."""
    counts: Counter[tuple[date, str]] = Counter()
    _day_delta(before_at, before_state, -1, counts)
    _day_delta(after_at, after_state, +1, counts)
    days = sorted({day for day, _ in counts})
    rows = [(day, counts[(day, "answers")], counts[(day, "verified")]) for day in days]
    rows = [row for row in rows if row[1] or row[2]]
    if not rows:
        return
    table = connection.ops.quote_name(VerificationDay._meta.db_table)
    params: list[Any] = [value for row in rows for value in row]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (day, answers, verified) VALUES {', '.join(['(%s, %s, %s)'] * len(rows))} "  # noqa: S608 - model's table
            f"ON CONFLICT (day) DO UPDATE SET answers = {table}.answers + excluded.answers, verified = {table}.verified + excluded.verified",
            params,
        )


def _recounted() -> dict[date, tuple[int, int]]:
    rows = (
        Answer.objects.filter(verified_at__isnull=False).annotate(day=TruncDate("verified_at")).values("day")
        .annotate(total=Count("*"), verified=Count("pk", filter=Q(state__in=VERIFIED_STATES))).order_by()
    )
    return {row["day"]: (row["total"], row["verified"]) for row in rows}


def _flagged_hours_recounted() -> dict[int, int]:
    hours: Counter[int] = Counter()
    for at in Answer.objects.filter(ANSWER_MAY_NEED_A_PERSON).values_list("received_at", flat=True).iterator(chunk_size=5000):
        hours[AnswerFlaggedHour.hour_of(at)] += 1
    return dict(hours)


def verification_kept_differences() -> list[tuple[str, str, object, object]]:
    """(what, key, kept, recounted) for every day whose kept counts differ from a recount, and for
    every hour whose kept count of answers that may need a person differs."""
    recounted = _recounted()
    kept = {day: (n, v) for day, n, v in VerificationDay.objects.values_list("day", "answers", "verified")}
    found: list[tuple[str, str, object, object]] = [
        ("VerificationDay", str(day), kept.get(day, (0, 0)), recounted.get(day, (0, 0)))
        for day in sorted(set(recounted) | set(kept)) if kept.get(day, (0, 0)) != recounted.get(day, (0, 0))]
    hours = _flagged_hours_recounted()
    kept_hours = dict(AnswerFlaggedHour.objects.values_list("hour").annotate(n=Sum("answers")).values_list("hour", "n").order_by())
    found += [("AnswerFlaggedHour", str(hour), kept_hours.get(hour, 0), hours.get(hour, 0))
              for hour in sorted(set(hours) | set(kept_hours)) if kept_hours.get(hour, 0) != hours.get(hour, 0)]
    return found


def verification_kept_rebuild() -> None:
    with transaction.atomic():
        VerificationDay.objects.all().delete()
        VerificationDay.objects.bulk_create([VerificationDay(day=day, answers=n, verified=v) for day, (n, v) in sorted(_recounted().items())])
        flagged_hours_rebuild()


def flagged_hours_rebuild() -> None:
    """Write the kept hours of answers that may need a person from a recount."""
    with transaction.atomic():
        AnswerFlaggedHour.objects.all().delete()
        AnswerFlaggedHour.objects.bulk_create([AnswerFlaggedHour(hour=hour, answers=n) for hour, n in sorted(_flagged_hours_recounted().items())],
                                              batch_size=1000)
