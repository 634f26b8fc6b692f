"""Exactly-once scheduling (issue 14, point 4): any number of schedulers and relays running at
once queue each due source once per interval, and commands print what they actually did."""

from __future__ import annotations

import re
import subprocess
import time
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from dispatch.models import WorkRequest, WorkStatus
from sources.models import CheckTimes, Source
from sources.services import source_register, source_schedule_due_checks
from tests.faults.pages import CountingServer
from tests.faults.services import PYTHON, REPO, AppProcess, app_env, django_run, seed_sources, wait_for


def _source(n: int, next_check_at: datetime | None = None) -> Source:
    url = f"https://example.org/page/{n}"
    source = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain="example.org")
    CheckTimes.objects.create(source=source, next_check_at=next_check_at)  # as `source_register` makes it
    return source


@pytest.mark.django_db(transaction=True)
def test_never_fetched_and_due_sources_are_queued_once_and_the_command_says_how_many(redis_conn):
    never = _source(1)  # registered without a fetch: next_check_at is NULL
    due = _source(2, next_check_at=timezone.now() - timedelta(minutes=5))
    _source(3, next_check_at=timezone.now() + timedelta(days=1))  # not due
    out = StringIO()
    call_command("run_due_checks", stdout=out)
    assert out.getvalue().splitlines()[0] == "queued 2 due check(s)"
    queued = WorkRequest.objects.filter(job="sources.fetch_source")
    assert sorted(row.kwargs["source_id"] for row in queued) == sorted([never.pk, due.pk])
    out = StringIO()
    call_command("run_due_checks", stdout=out)
    assert out.getvalue().splitlines()[0] == "queued 0 due check(s)", "claimed sources are not queued again"
    assert queued.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_source_whose_fetch_was_lost_is_due_again_after_its_lease(redis_conn, settings):
    """A fetch that never completed (its request failed for an infrastructure reason) makes the
    source due again when the claim's lease runs out: nothing is left unscheduled for ever."""

    settings.CITECHECK_SCHEDULE_LEASE_SECONDS = 60
    _source(1)
    assert source_schedule_due_checks() == 1
    WorkRequest.objects.filter(job="sources.fetch_source").update(status=WorkStatus.FAILED, error="OperationalError")
    assert source_schedule_due_checks() == 0, "within the lease"
    assert source_schedule_due_checks(now=timezone.now() + timedelta(seconds=61)) == 1
    assert WorkRequest.objects.filter(job="sources.fetch_source", status=WorkStatus.PENDING).count() + WorkRequest.objects.filter(
        job="sources.fetch_source", status=WorkStatus.QUEUED
    ).count() == 1


_COUNTS = """
from dispatch.models import WorkRequest
from sources.models import FetchResult, Source
from django.db.models import Count, Sum
rows = WorkRequest.objects.filter(job="sources.fetch_source")
per = rows.values("kwargs__source_id").annotate(n=Count("id")).filter(n__gt=1).count()
fetch_per = FetchResult.objects.values("source_id").annotate(n=Count("id")).filter(n__gt=1).count()
print(rows.count(), rows.filter(status="done").count(), per, FetchResult.objects.count(), fetch_per,
      rows.aggregate(s=Sum("send_attempts"))["s"] or 0, Source.objects.filter(check_times__last_checked_at__isnull=True).count())
"""


@pytest.mark.slow
def test_concurrent_schedulers_and_relays_book_each_due_source_once(pg_db, own_redis):
    """On PostgreSQL: 3 schedulers and 2 relays in separate processes, each run repeatedly while
    2 forking workers fetch, over 400 due sources: every source is fetched exactly once, each
    request is sent to Redis once, and the schedulers' printed counts add up to what was queued."""
    count = 400
    site = CountingServer()
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    workers = []
    try:
        seed_sources(env, base=site.base, count=count)
        workers = [AppProcess.worker(env, "--no-scheduler", "--queues", "fetch", name=f"w{n}") for n in range(2)]
        loops = []
        for n in range(3):
            loops.append(subprocess.Popen(
                ["bash", "-c", f"for i in 1 2 3 4 5 6; do {PYTHON} manage.py run_due_checks; done"],
                cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        for n in range(2):
            loops.append(subprocess.Popen(
                ["bash", "-c", f"for i in 1 2 3 4 5 6; do {PYTHON} manage.py relay_outbox; sleep 0.5; done"],
                cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        outputs = [proc.communicate(timeout=240)[0] for proc in loops]
        queued = sum(int(m) for out in outputs[:3] for m in re.findall(r"queued (\d+) due check", out))

        def all_done() -> list[int] | None:
            numbers = [int(x) for x in django_run(env, _COUNTS).split()]
            return numbers if numbers[1] == numbers[0] == count else None

        total, done, doubled, fetches, fetched_twice, sends, unchecked = wait_for(all_done, timeout=180, interval=2, what="all fetches done")
        assert queued == count, f"the schedulers printed {queued} queued in all, for {count} due sources"
        assert (total, doubled) == (count, 0), "one fetch request per source"
        assert (fetches, fetched_twice, unchecked) == (count, 0, 0), "every source fetched exactly once"
        assert sum(site.paths.values()) == count and max(site.paths.values()) == 1, "the site saw each page once"
        assert sends == count, f"each request was sent to Redis once ({sends} sends for {count} requests)"
        assert all(w.alive() for w in workers)
    finally:
        for w in workers:
            w.stop()
        site.close()
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
def test_a_source_registered_without_a_fetch_is_due_for_the_scheduler(redis_conn, editor):
    """Registration makes the source's check times (never checked), so the scheduler, which
    reads only that table, picks up a source whose first fetch was never asked for or was lost."""

    source = source_register(actor=editor, url="https://example.org/never", fetch=False)
    assert CheckTimes.objects.filter(source=source, next_check_at__isnull=True, last_checked_at__isnull=True).exists()
    assert source_schedule_due_checks() == 1
    assert [row.kwargs["source_id"] for row in WorkRequest.objects.filter(job="sources.fetch_source")] == [source.pk]
