"""The relay re-sends only rows whose send is overdue, counted from the send attempt (issue 14,
points 4 and 6), and what `work_status` tells people."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from dispatch.models import WorkRequest, WorkStatus
from dispatch.selectors import work_status
from dispatch.services import outbox_relay, work_request

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_old_row_whose_send_was_just_attempted_is_not_sent_again(redis_conn):
    row = work_request(job="dispatch.ping", kwargs={})
    assert WorkRequest.objects.get(pk=row.pk).status == WorkStatus.QUEUED
    # A row from a long transaction: created long ago, sent just now but not yet marked queued.
    WorkRequest.objects.filter(pk=row.pk).update(status=WorkStatus.PENDING, created_at=timezone.now() - timedelta(minutes=5), last_sent_at=timezone.now())
    assert outbox_relay(min_age_seconds=2) == 0, "its send is not overdue"
    WorkRequest.objects.filter(pk=row.pk).update(last_sent_at=timezone.now() - timedelta(seconds=3))
    assert outbox_relay(min_age_seconds=2) == 1, "now it is"
    assert WorkRequest.objects.get(pk=row.pk).send_attempts == 2


def test_work_status_reports_each_state_in_words(redis_conn):
    row = work_request(job="dispatch.ping", kwargs={})
    assert work_status("work", row.pk)["state"] == "queued"
    WorkRequest.objects.filter(pk=row.pk).update(status=WorkStatus.RUNNING, progress=2, progress_total=5)
    assert work_status("work", row.pk)["message"] == "Running (2 of 5)."
    WorkRequest.objects.filter(pk=row.pk).update(status=WorkStatus.FAILED, error="Traceback...\nValueError: bad page")
    assert work_status("work", row.pk) | {"updated_at": None} == {
        "state": "failed", "message": "Failed: ValueError: bad page", "work_request_id": row.pk,
        "attempts": 0, "progress": 2, "progress_total": 5, "updated_at": None,
    }
    assert work_status("source", 987654) is None
