"""A dead worker's job comes back quickly (issue 14, point 5): SIGKILL of a real forking worker
(and its work-horse) in the middle of a fetch."""

from __future__ import annotations

import json
import time

import pytest
import redis

from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, app_env, django_run, seed_sources, wait_for

pytestmark = pytest.mark.slow

_STATE = """
import json
from dispatch.models import WorkRequest
from sources.models import FetchResult, Passage, Source, SourceVersion
from django.db.models import Count
rows = WorkRequest.objects.filter(job="sources.fetch_source")
print(json.dumps({
    "done": rows.filter(status="done").count(),
    "deaths": list(rows.filter(deaths__gt=0).values_list("deaths", "message", "status")),
    "failed": list(WorkRequest.objects.filter(status="failed").values_list("error", flat=True)),
    "fetches": list(FetchResult.objects.values("source_id").annotate(n=Count("id")).values_list("n", flat=True)),
    "versions": list(SourceVersion.objects.values("source_id").annotate(n=Count("id")).values_list("n", flat=True)),
    "passages": sorted(Passage.objects.values("source_id").annotate(n=Count("id")).values_list("n", flat=True)),
    "extracted": SourceVersion.objects.filter(extraction_status="ok").count(),
    "rows": list(WorkRequest.objects.order_by("id").values_list("id", "job", "status", "attempts", "deaths", "message")),
}))
"""


def test_a_killed_workers_fetch_is_run_again_soon_without_duplicates(pg_db, own_redis):
    interval, grace = 1, 4
    site = CountingServer(first_delay=15)  # the first fetch hangs: the worker dies in it
    env = app_env(database_url=pg_db, redis_url=own_redis.url, CITECHECK_JOB_MONITORING_INTERVAL=str(interval),
                  CITECHECK_HEARTBEAT_GRACE=str(grace), CITECHECK_FETCH_TIMEOUT="60")
    seed_sources(env, base=site.base, count=3)
    doomed = AppProcess.worker(env, "--queues", "fetch", "--interval", "1", name="doomed")
    survivor = None
    try:
        wait_for(lambda: sum(site.active.values()) >= 1, timeout=60, what="the doomed worker to be fetching")
        time.sleep(interval * 2 + 0.5)  # a heartbeat or two were sent
        doomed.kill()
        killed_at = time.monotonic()
        survivor = AppProcess.worker(env, "--queues", "fetch,extract", "--interval", "1", name="survivor")

        def settled() -> dict | None:
            state = json.loads(django_run(env, _STATE).strip().splitlines()[-1])
            return state if state["done"] == 3 and state["extracted"] == 3 else None

        state = wait_for(settled, timeout=120, interval=1, what="all three fetched and extracted")
        recovered_after = time.monotonic() - killed_at
        print(f"the killed worker's job was done {recovered_after:.1f}s after the kill (heartbeat interval {interval}s + grace {grace}s)")
        assert "scheduler.failed" not in survivor.output(), survivor.output()[-3000:]
        assert recovered_after < interval + grace + 30, "back within the heartbeat expiry, not the 600 s queue timeout"
        assert [d[0] for d in state["deaths"]] == [1] and "worker stopped" in state["deaths"][0][1], state["deaths"]
        assert state["failed"] == []
        assert state["fetches"] == [1, 1, 1] and state["versions"] == [1, 1, 1], "no duplicate fetch record or version"
        assert len(set(state["passages"])) == 1, "the re-run source has the same passages as the others, none twice"
        conn = redis.Redis.from_url(own_redis.url)
        assert conn.zcard("rq:failed:fetch") == 0, "no stale failed-registry entry is left"
        assert survivor.alive()
    finally:
        doomed.stop()
        if survivor is not None:
            survivor.stop()
        site.close()
