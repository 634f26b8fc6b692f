"""The worker lends one database connection to its work-horses in turn (dispatch/queues.py,
CitecheckWorker): a horse that leaves it mid-query must not hand a half-read session to the
next job. Real forking worker, the tests' own PostgreSQL cluster."""

from __future__ import annotations

import json

import psycopg
import pytest

from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, app_env, django_run, seed_sources, wait_for

pytestmark = pytest.mark.slow

_STATE = """
import json
from django.db.models import Count
from dispatch.models import WorkRequest
from sources.models import FetchResult
rows = WorkRequest.objects.filter(job="sources.fetch_source")
print(json.dumps({
    "done": rows.filter(status="done").count(),
    "failed": list(rows.filter(status="failed").values_list("error", flat=True)),
    "fetches": sorted(FetchResult.objects.values("source_id").annotate(n=Count("id")).values_list("n", flat=True)),
}))
"""


def test_a_job_timed_out_in_the_middle_of_a_query_leaves_the_next_jobs_a_clean_connection(pg, pg_db, own_redis):
    """The first source's row is locked by another session, so its fetch job waits inside a
    query until the fetch queue's 3 s timeout cuts the job off there (failed, with that reason).
    The session it leaves behind still has that query running: the worker must not lend it to
    the next horse. The four other sources are then checked normally, once each."""
    site = CountingServer()
    env = app_env(database_url=pg_db, redis_url=own_redis.url, CITECHECK_QUEUE_TIMEOUT_FETCH="3")
    seed_sources(env, base=site.base, count=5)
    django_run(env, "from sources.services import source_schedule_due_checks as s; print(s())")  # five jobs in Redis
    locker = psycopg.connect(pg_db, autocommit=False, connect_timeout=10)
    worker = None
    try:
        row = locker.execute("SELECT (kwargs->>'source_id')::int FROM dispatch_workrequest ORDER BY id LIMIT 1").fetchone()
        assert row is not None
        locker.execute("SELECT id FROM sources_source WHERE id = %s FOR UPDATE", [row[0]])
        worker = AppProcess.worker(env, "--queues", "fetch", "--no-scheduler", name="lender")
        state = wait_for(lambda: (s := json.loads(django_run(env, _STATE).strip().splitlines()[-1]))["done"] == 4 and s,
                         timeout=120, interval=1, what="the other four sources checked after the first was cut off")
        output = worker.output()
        assert len(state["failed"]) == 1 and "timeout" in state["failed"][0], state
        assert state["fetches"] == [1, 1, 1, 1], "each of the others checked once, the cut-off one not at all"
        assert sum(site.paths.values()) == 5
        assert "worker.database_connection_dropped" in output, "the session left mid-query was not lent again"
        assert worker.alive(), output[-3000:]
    finally:
        locker.close()
        if worker is not None:
            worker.stop()
        site.close()
