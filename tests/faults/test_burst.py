"""Bursts (issue 14, point 7): thousands of re-checks queued at once on two workers complete with
every source consistent, per-host limits respected, and no job lost or duplicated.
Size: CITECHECK_BURST_SIZE (2,000 by default, so CI stays within minutes; the bench runs 10,000)."""

from __future__ import annotations

import os

import pytest

from tests.faults.burst import run_burst

pytestmark = pytest.mark.slow


def test_a_burst_of_rechecks_on_two_workers_loses_and_duplicates_nothing(pg_db, own_redis):
    count = int(os.environ.get("CITECHECK_BURST_SIZE", "2000"))
    result = run_burst(database_url=pg_db, redis_url=own_redis.url, count=count, workers=2, host_limit=4)
    counts = result.counts
    print(f"{count} re-checks on 2 workers in {result.seconds:.0f}s ({result.jobs_per_second:.1f} jobs/s); {counts}")
    assert counts["queued"] == count and counts["requests_per_source_over_1"] == 0
    assert counts["done"] + counts["failed_with_reason"] == count, "queued = finished + failed with a reason"
    assert result.lost == 0 and result.duplicated == 0
    assert result.page_fetches == count, "each page fetched once"
    assert counts["fetch_results"] == count and counts["fetches_not_on_latest_version"] == 0
    assert counts["versions"] == count and counts["extract_requests"] == 0, "unchanged pages make no new version"
    assert counts["inconsistent_sources"] == 0
    assert result.max_per_host <= 4
    assert counts["sends"] == count, "each request sent to Redis once"
