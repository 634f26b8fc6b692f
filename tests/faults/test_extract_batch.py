"""The extract job takes queued extractions along (issue 14, point 7: extraction throughput):
one job run does many pages, pipelined, each request ending on its own row, and a worker that
dies in the middle of such a run loses none of the pages it had taken."""

from __future__ import annotations

import json
import time

import pytest
import redis

from tests.faults.services import AppProcess, app_env, django_run, wait_for

# Versions awaiting extraction, each with its extract request sent to Redis on commit, as the
# fetch job leaves them. `slow` pages are large enough to keep the extractor busy for seconds.
_SEED = """
from django.db import transaction
from dispatch.services import work_request
from sources.models import CheckTimes, Source, SourceVersion
kinds, bad_at = {kinds!r}, {bad_at!r}
def page(n, kind):
    if kind == "empty":
        return b"<html><body><nav><a href='/'>Home</a></nav></body></html>"
    if kind == "slow":
        sections = "".join(f"<section id='s{{k}}'><p>{{'Orders over 50 EUR ship free. ' * 8}}</p></section>" for k in range(30000))
        return f"<html><body><main><article>{{sections}}</article></main></body></html>".encode()
    return (f"<html><head><title>Shop {{n}}</title></head><body><main><h1>Delivery at shop {{n}}</h1>"
            f"<p>Standard delivery to shop {{n}} customers takes three to five working days within the country.</p>"
            f"<h2>Returns</h2><p>Shop {{n}} accepts returns within 30 days of delivery, in the original packaging.</p>"
            f"</main></body></html>").encode()
with transaction.atomic():
    for n, kind in enumerate(kinds):
        if n == bad_at:
            work_request(job="sources.extract_version", kwargs={{"version_id": "not-a-number"}}, queue="extract",
                         dedupe_key="extract:bad")
        url = f"https://shop{{n}}.example.org/delivery"
        stage = "blocked" if kind == "blocked" else "fetched"  # blocked by an approver while it waited
        source = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=f"shop{{n}}.example.org", stage=stage)
        CheckTimes.objects.create(source=source)
        version = SourceVersion.objects.create(source=source, number=1, content_hash=str(n), content_type="text/html",
                                               body_compressed=SourceVersion.compress(page(n, kind)))
        work_request(job="sources.extract_version", kwargs={{"version_id": version.pk}}, queue="extract",
                     dedupe_key=f"extract:{{version.pk}}")
"""

_STATE = """
import json
from django.db.models import Count
from dispatch.models import WorkRequest
from sources.models import Passage, PassageVersion, SourceVersion, VersionPassage
rows = WorkRequest.objects.filter(job="sources.extract_version").order_by("id")
print(json.dumps({
    "rows": list(rows.values("id", "kwargs", "status", "attempts", "deaths", "carried_by", "message", "error")),
    "extracted": SourceVersion.objects.filter(extraction_status="ok").count(),
    "stages": sorted(set(SourceVersion.objects.values_list("source__stage", flat=True))),
    "passages": sorted(Passage.objects.values("source_id").annotate(n=Count("id")).values_list("n", flat=True)),
    "texts_per_passage": sorted(set(PassageVersion.objects.values("passage_id").annotate(n=Count("id")).values_list("n", flat=True))),
    "members_per_version": sorted(VersionPassage.objects.values("source_version_id").annotate(n=Count("id")).values_list("n", flat=True)),
    "tests_requested": WorkRequest.objects.filter(job="reviews.run_tests").count(),
}))
"""


def _state(env: dict[str, str]) -> dict:
    return json.loads(django_run(env, _STATE).strip().splitlines()[-1])


@pytest.mark.slow  # long (a worker or the whole demo): make test-slow, to keep make test short (issue 25)
def test_one_extract_job_does_the_queued_pages_each_request_ending_on_its_own(pg_db, own_redis):
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    django_run(env, _SEED.format(kinds=["plain"] * 8, bad_at=4))
    conn = redis.Redis.from_url(own_redis.url)
    assert conn.llen("rq:queue:extract") == 9, "nine extract jobs are waiting"
    worker = AppProcess.worker(env, "--queues", "extract", "--burst", "--no-scheduler", name="extract-batch")
    try:
        wait_for(lambda: not worker.alive(), timeout=120, what="the burst worker to finish the extract queue")
    finally:
        worker.stop()
    state = _state(env)
    rows = state["rows"]
    carrier = rows[0]
    assert carrier["status"] == "done" and carrier["carried_by"] is None, carrier
    # Every other request was taken along by the first job's run and ended on its own row.
    assert [row["carried_by"] for row in rows[1:]] == [carrier["id"]] * 8, rows
    bad = [row for row in rows if row["kwargs"] == {"version_id": "not-a-number"}]
    assert len(bad) == 1 and bad[0]["status"] == "failed" and "not a version to extract" in bad[0]["error"], bad
    assert {row["status"] for row in rows if row not in bad} == {"done"}, rows
    assert all(row["attempts"] == 1 for row in rows), "each request ran once"
    # The pages: all extracted once, moved on to the tests, nothing written twice.
    assert state["extracted"] == 8 and state["stages"] == ["versioned"], state
    assert state["passages"] == [2] * 8 and state["texts_per_passage"] == [1] and state["members_per_version"] == [2] * 8, state
    assert state["tests_requested"] == 8
    # The taken-along jobs were withdrawn from Redis: RQ ran one job, not nine that skip.
    assert conn.llen("rq:queue:extract") == 0
    assert "work.skip" not in worker.output(), worker.output()[-3000:]
    assert conn.zcard("rq:finished:extract") == 1, "one job run did all nine"


@pytest.mark.slow  # long (a worker or the whole demo): make test-slow, to keep make test short (issue 25)
def test_a_page_whose_worker_died_runs_alone(pg_db, own_redis):
    """A request that comes back after its worker died (it may be the page that kills workers)
    takes nothing along, and is never taken along: the next one takes the rest."""
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    django_run(env, _SEED.format(kinds=["plain"] * 5, bad_at=None))
    django_run(env, "from dispatch.models import WorkRequest as W; W.objects.filter(pk=W.objects.order_by('id')[0].pk).update(deaths=1)")
    worker = AppProcess.worker(env, "--queues", "extract", "--burst", "--no-scheduler", name="extract-died")
    try:
        wait_for(lambda: not worker.alive(), timeout=120, what="the burst worker to finish the extract queue")
    finally:
        worker.stop()
    rows = _state(env)["rows"]
    assert [row["status"] for row in rows] == ["done"] * 5, rows
    assert [row["carried_by"] for row in rows] == [None, None, rows[1]["id"], rows[1]["id"], rows[1]["id"]], rows


@pytest.mark.slow  # long (a worker or the whole demo): make test-slow, to keep make test short (issue 25)
def test_a_page_that_cannot_be_stored_with_the_others_is_stored_on_its_own(pg_db, own_redis):
    """Pages are stored a few to a transaction; one whose source cannot move on (blocked while it
    waited) fails alone with the reason, an empty page is recorded as such, the rest are stored."""
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    kinds = ["plain", "plain", "blocked", "plain", "empty", "plain", "plain"]
    django_run(env, _SEED.format(kinds=kinds, bad_at=None))
    worker = AppProcess.worker(env, "--queues", "extract", "--burst", "--no-scheduler", name="extract-split")
    try:
        wait_for(lambda: not worker.alive(), timeout=120, what="the burst worker to finish the extract queue")
    finally:
        worker.stop()
    state = json.loads(django_run(env, _STATE + _PER_VERSION).strip().splitlines()[-1])
    rows, versions = state["rows"], state["versions"]
    assert [row["carried_by"] for row in rows[1:]] == [rows[0]["id"]] * 6, rows
    assert rows[2]["status"] == "failed" and "is blocked; it cannot go to extracted" in rows[2]["error"], rows[2]
    assert {row["status"] for n, row in enumerate(rows) if n != 2} == {"done"}, rows
    assert [v["extraction_status"] for v in versions] == ["ok", "ok", "pending", "ok", "empty", "ok", "ok"], versions
    assert [v["stage"] for v in versions] == ["versioned", "versioned", "blocked", "versioned", "needs_review", "versioned", "versioned"]
    assert [v["passages"] for v in versions] == [2, 2, 0, 2, 0, 2, 2]


_PER_VERSION = """
print(json.dumps({
    "rows": list(rows.values("id", "status", "carried_by", "error")),
    "versions": [{"extraction_status": v.extraction_status, "stage": v.source.stage, "passages": v.members.count()}
                 for v in SourceVersion.objects.select_related("source").order_by("id")],
}))
"""


@pytest.mark.slow
def test_a_worker_killed_in_the_middle_of_a_batch_loses_none_of_the_pages_it_took(pg_db, own_redis):
    interval, grace = 1, 4
    env = app_env(database_url=pg_db, redis_url=own_redis.url, CITECHECK_JOB_MONITORING_INTERVAL=str(interval),
                  CITECHECK_HEARTBEAT_GRACE=str(grace))
    kinds = ["plain", "plain", "slow", "plain", "plain", "plain"]
    django_run(env, _SEED.format(kinds=kinds, bad_at=None))
    doomed = AppProcess.worker(env, "--queues", "extract", "--no-scheduler", name="doomed-extract")
    survivor = None
    try:
        def slow_page_taken_along() -> bool:
            rows = _state(env)["rows"]
            return rows[2]["status"] == "running" and rows[2]["carried_by"] == rows[0]["id"]

        wait_for(slow_page_taken_along, timeout=60, interval=0.3, what="the slow page to be taken along by the first job")
        doomed.kill()  # the run began with the first page, heartbeats ago
        killed_at = time.monotonic()
        survivor = AppProcess.worker(env, "--queues", "extract,default", "--interval", "1", name="survivor-extract")

        def settled() -> dict | None:
            state = _state(env)
            return state if all(row["status"] == "done" for row in state["rows"]) and state["extracted"] == 6 else None

        state = wait_for(settled, timeout=180, interval=1, what="all six pages extracted after the kill")
        recovered_after = time.monotonic() - killed_at
        print(f"all pages done {recovered_after:.1f}s after the kill (heartbeat interval {interval}s + grace {grace}s)")
        rows = state["rows"]
        # The slow page and the pages waiting behind it in the dead run came back with one death
        # each and then ran on their own (a page stored just before the kill may come back too,
        # and finds its version extracted: nothing below is stored twice).
        died = [row for row in rows if row["deaths"]]
        assert rows[2] in died and all(row["deaths"] == 1 for row in died), rows
        assert all("worker" in row["message"] for row in died), [row["message"] for row in died]
        assert recovered_after < interval + grace + 60, "back within the heartbeat expiry, not the queue timeout"
        assert all(row["error"] == "" for row in rows)
        assert state["texts_per_passage"] == [1] and len(state["members_per_version"]) == 6, "no page stored twice"
        assert redis.Redis.from_url(own_redis.url).zcard("rq:failed:extract") == 0, "no stale failed-registry entry"
        assert survivor.alive()
    finally:
        doomed.stop()
        if survivor is not None:
            survivor.stop()
