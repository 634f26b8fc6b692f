"""A database outage that a job survives by waiting is not a death (issue 25, point 5): only a
process that dies counts towards CITECHECK_WORK_MAX_DEATHS. The cluster is stopped for longer
than a job's reconnect tries while fetches run; every fetch ends done, none with a death."""

from __future__ import annotations

import json
import time

import pytest

from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, app_env, django_run, seed_sources, wait_for

pytestmark = pytest.mark.slow

_STATE = """
import json
from dispatch.models import WorkRequest
rows = WorkRequest.objects.filter(job="sources.fetch_source")
print(json.dumps({
    "done": rows.filter(status="done").count(),
    "failed": list(rows.filter(status="failed").values_list("error", flat=True)),
    "deaths": list(rows.filter(deaths__gt=0).values_list("pk", "deaths", "message")),
    "messages": sorted(set(WorkRequest.objects.exclude(message="").values_list("message", flat=True))),
}))
"""


def _state(env: dict[str, str]) -> dict:
    return json.loads(django_run(env, _STATE).strip().splitlines()[-1])


def test_a_database_outage_longer_than_the_reconnect_tries_is_not_a_death(pg, pg_db, own_redis):
    site = CountingServer(delay=3.0)
    # Two tries a second apart: the outage below outlasts them, as a 10 s PostgreSQL restart
    # outlasted the default ten.
    env = app_env(database_url=pg_db, redis_url=own_redis.url, CITECHECK_DB_RECONNECT_TRIES="2", CITECHECK_WORK_MAX_DEATHS="1")
    seed_sources(env, base=site.base, count=3)
    worker = AppProcess.worker(env, "--queues", "fetch,extract,default", "--interval", "1", name="outage")
    try:
        wait_for(lambda: sum(site.active.values()) > 0, timeout=120, interval=0.05, what="a fetch under way")
        pg.stop()
        try:
            time.sleep(8)  # the page answers after 3 s; then the job's two reconnect tries run out
            assert worker.alive(), worker.output()[-2000:]
        finally:
            pg.start()
        state = wait_for(lambda: (s := _state(env))["done"] == 3 and s, timeout=240, interval=1, what="every fetch done")
        assert state["failed"] == [], state
        # With CITECHECK_WORK_MAX_DEATHS=1 a single counted death would have failed the work.
        assert state["deaths"] == [], state
        assert any("database outage" in message and "not a death" in message for message in state["messages"]), state
        assert worker.alive()
    finally:
        worker.stop()
        site.close()
