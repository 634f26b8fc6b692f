"""Bursts (issue 14, point 7): 10,000 re-checks queued at once on two workers complete with
every source consistent, per-host limits respected, and no job lost or duplicated.
Size: CITECHECK_BURST_SIZE; CI (.ci/run) sets 10,000, a local run defaults to 2,000 (about two
minutes instead of eight). And a first import of never-fetched sources, fetched, extracted and
versioned: CITECHECK_IMPORT_SIZE; CI sets 2,000 (about two minutes), a local run defaults to 150."""

from __future__ import annotations

import json
import os
import time

import pytest

from tests.faults.burst import run_burst
from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, app_env, django_run, seed_sources, wait_for

pytestmark = pytest.mark.slow


def test_a_burst_of_rechecks_on_two_workers_loses_and_duplicates_nothing(pg_db, own_redis):
    count = int(os.environ.get("CITECHECK_BURST_SIZE", "2000"))
    result = run_burst(database_url=pg_db, redis_url=own_redis.url, count=count, workers=2, host_limit=4)
    counts = result.counts
    print(f"{count} re-checks on 2 workers in {result.seconds:.0f}s ({result.jobs_per_second:.1f} jobs/s); "
          f"CPU s {result.cpu_seconds}; {counts}")
    assert counts["queued"] == count and counts["requests_per_source_over_1"] == 0
    assert counts["done"] + counts["failed_with_reason"] == count, "queued = finished + failed with a reason"
    assert result.lost == 0 and result.duplicated == 0
    assert result.page_fetches == count, "each page fetched once"
    assert counts["fetch_results"] == count and counts["fetches_not_on_latest_version"] == 0
    assert counts["versions"] == count and counts["extract_requests"] == 0, "unchanged pages make no new version"
    assert counts["inconsistent_sources"] == 0
    assert result.max_per_host <= 4
    assert counts["sends"] == count, "each request sent to Redis once"


_IMPORTED = """
import json
from django.db.models import Count
from dispatch.models import WorkRequest
from sources.models import Passage, Source, SourceVersion
print(json.dumps({
    "extracted": SourceVersion.objects.filter(extraction_status="ok").count(),
    "versions": SourceVersion.objects.count(),
    "sources_with_two_versions": SourceVersion.objects.values("source_id").annotate(n=Count("id")).filter(n__gt=1).count(),
    "unversioned": Source.objects.exclude(stage="versioned").count(),
    "passages": Passage.objects.count(),
    "failed": WorkRequest.objects.filter(status="failed").count(),
}))
"""


def test_a_first_import_is_fetched_extracted_and_versioned_by_the_scheduler_alone(pg_db, own_redis):
    """Imported sources have never been fetched (no next check set): the scheduler picks them
    all up, and two workers fetch, extract and version every one, once."""


    count = int(os.environ.get("CITECHECK_IMPORT_SIZE", "150"))
    site = CountingServer()
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    seed_sources(env, base=site.base, count=count, due=False)
    started = time.monotonic()
    workers = [AppProcess.worker(env, "--queues", "fetch,extract,default", "--interval", "1", name="import-sched"),
               AppProcess.worker(env, "--queues", "fetch,extract", "--no-scheduler", name="import-2")]
    try:
        state = wait_for(lambda: (s := json.loads(django_run(env, _IMPORTED).strip().splitlines()[-1]))["extracted"] >= count and s,
                         timeout=900, interval=2, what=f"{count} imported sources versioned")
        seconds = time.monotonic() - started
        print(f"first import of {count}: fetched, extracted and versioned in {seconds:.0f}s ({count / seconds:.1f} sources/s on 2 workers)")
        assert (state["versions"], state["sources_with_two_versions"], state["unversioned"], state["failed"]) == (count, 0, 0, 0)
        assert state["passages"] >= count
        assert sum(site.paths.values()) == count
    finally:
        for w in workers:
            w.stop()
        site.close()
