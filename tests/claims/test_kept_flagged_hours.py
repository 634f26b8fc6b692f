"""The queue's answers are counted from kept hours (`AnswerFlaggedHour`) plus the rule's
time-dependent edges read by index. The counts and the overview's ages must equal the rule
(`answers_needing_a_person`) applied row by row, at any moment: inside and past the grace period,
at the hour and day boundaries. And every way an answer's row is written moves the kept hours."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from claims.models import Answer, AnswerFlaggedHour, AnswerState
from claims.services.reverify import answers_freshness_sweep
from reviews.selectors.queue import (
    QueueCategory,
    QueueFilters,
    answers_needing_a_person,
    answers_needing_a_person_count_sql,
    pending_grace,
    queue_ages,
    queue_counts,
    review_queue,
)
from sources.services.kept import kept_state_differences

pytestmark = pytest.mark.django_db(transaction=True)

AGES = [timedelta(minutes=m) for m in (1, 5, 14, 16, 40, 59, 61, 119)] + [
    timedelta(hours=h) for h in (3, 23)] + [timedelta(days=1) - timedelta(minutes=1), timedelta(days=1) + timedelta(minutes=1),
                                            timedelta(days=3), timedelta(days=7) - timedelta(minutes=2), timedelta(days=7, minutes=2),
                                            timedelta(days=30)]


def _hours_agree(step: str) -> None:
    differences = [str(d) for d in kept_state_differences() if d.what == "AnswerFlaggedHour"]
    assert differences == [], f"after {step}: {differences}"


def _plant(now: datetime) -> None:
    """Answers of every state at every age, some waiting for re-verification, some verified
    again recently (pending since their verification, not their arrival)."""
    rows = []
    for i, age in enumerate(AGES):
        for j, state in enumerate(AnswerState.values):
            rows.append(Answer(raw_response=f"{i}-{j}", answer_text=f"{i}-{j}", state=state, needs_reverification=(i + j) % 3 == 0))
    answers = Answer.objects.bulk_create(rows)
    for n, answer in enumerate(answers):  # received_at is set on insert: move it back, as time would
        age = AGES[n // len(AnswerState.values)]
        verified = now - age / 3 if n % 4 == 0 else None
        Answer.objects.filter(pk=answer.pk).update(received_at=now - age, verified_at=verified)


def _expected(now: datetime) -> tuple[int, tuple[int, int, int]]:
    received = list(answers_needing_a_person(now=now).values_list("received_at", flat=True))
    ages = [0, 0, 0]
    for at in received:
        ages[0 if at >= now - timedelta(days=1) else 1 if at >= now - timedelta(days=7) else 2] += 1
    return len(received), (ages[0], ages[1], ages[2])


def test_the_kept_counts_equal_the_rule_at_any_moment():
    now = timezone.now()
    _plant(now)
    _hours_agree("planting")
    grace = pending_grace()
    moments = [now, now + timedelta(minutes=1), now + grace, now + grace + timedelta(seconds=1), now + timedelta(minutes=50),
               now + timedelta(hours=1), now + timedelta(hours=2, minutes=30), now + timedelta(days=1), now + timedelta(days=6, hours=23),
               now + timedelta(days=8)]
    # and exact hour boundaries, where the kept hours and the read edges meet
    top = datetime.fromtimestamp((AnswerFlaggedHour.hour_of(now) + 1) * 3600, tz=now.tzinfo)
    moments += [top, top - timedelta(microseconds=1), top + timedelta(days=1), top + timedelta(days=7)]
    for moment in moments:
        total, ages = _expected(moment)
        kept = {c: a for c, _, a in queue_ages(now=moment)}[QueueCategory.ANSWER]
        assert kept == ages, f"at now+{moment - now}: kept ages {kept}, the rule {ages}"
        assert queue_counts([answers_needing_a_person_count_sql(now=moment)]) == [total], f"at now+{moment - now}"
    assert _expected(now)[0] < _expected(now + timedelta(days=8))[0], "time moves pending answers into the queue"
    counts = {code: n for code, _, n in review_queue(filters=QueueFilters()).counts}
    assert counts[QueueCategory.ANSWER] == answers_needing_a_person().count()


def test_every_write_path_of_an_answer_moves_the_kept_hours():
    answer = Answer.objects.create(raw_response="One.", answer_text="One.")
    _hours_agree("create (pending)")
    assert sum(AnswerFlaggedHour.objects.filter(hour=AnswerFlaggedHour.hour_of(answer.received_at)).values_list("answers", flat=True)) == 1

    answer.state = AnswerState.SUPPORTED
    answer.save()
    _hours_agree("save: supported leaves the count")
    assert not AnswerFlaggedHour.objects.filter(answers__gt=0).exists()

    others = Answer.objects.bulk_create([Answer(raw_response=f"{i}.", answer_text=f"{i}.", state=AnswerState.SUPPORTED,
                                                fresh_until=timezone.now() - timedelta(minutes=1)) for i in range(6)])
    _hours_agree("bulk_create of answers that need nobody")
    assert answers_freshness_sweep() == 6
    _hours_agree("the freshness sweep flags them for re-verification in one UPDATE")
    assert sum(AnswerFlaggedHour.objects.values_list("answers", flat=True)) == 6

    Answer.objects.filter(pk__in=[a.pk for a in others[:3]]).update(state=AnswerState.CONTRADICTED, needs_reverification=False)
    _hours_agree("a bulk update of state and flag")
    Answer.objects.filter(pk=others[0].pk).update(received_at=timezone.now() - timedelta(days=3))
    _hours_agree("received_at moved to another hour")
    with connection.cursor() as cursor:
        cursor.execute("UPDATE claims_answer SET state = %s WHERE id = %s", [AnswerState.OUTDATED, answer.pk])
    _hours_agree("a raw UPDATE")
    Answer.objects.filter(pk__in=[a.pk for a in others]).delete()
    _hours_agree("delete")
    assert sum(AnswerFlaggedHour.objects.values_list("answers", flat=True)) == 1
