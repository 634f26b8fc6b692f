"""Redis can't hang the web (issue 14, point 3): a hung Redis (accepts, never answers) and a
redis-server stopped and started empty."""

from __future__ import annotations

import json
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from dispatch.models import WorkRequest, WorkStatus
from dispatch.queues import get_queue, make_worker
from dispatch.selectors import DELAYED_MESSAGE, work_status
from dispatch.services import outbox_relay, work_recover, work_request
from sources.models import FetchResult, Source
from tests.faults.pages import CountingServer
from tests.faults.services import HungServer, RedisServer
from tests.integrations.conftest import make_token

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hung():
    server = HungServer()
    with override_settings(REDIS_URL=server.url):
        yield server
    server.close()


@pytest.fixture
def site():
    server = CountingServer()
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"]):
        yield server
    server.close()


def test_registering_while_redis_hangs_is_quick_says_delayed_and_runs_once_redis_is_back(client, editor, hung, site):
    client.force_login(editor)
    started = time.monotonic()
    response = client.post(reverse("admin:sources_source_add"), {
        "url": site.base + "/terms", "document_type": "webpage", "language": "en", "priority": "supplementary", "risk_level": "normal",
    }, follow=True)
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    # What the request waited for Redis, measured by the hung server (each connection, from
    # accept to the client giving up), so a slow machine does not count against the deadline.
    waits = hung.waits()
    # The send deadline is 0.5 s; without it the socket's 30 s held the request. The caps sit far
    # from both, against a hang, so a busy machine cannot fail them.
    assert waits and max(waits) < 10, f"the request held a connection to the hung Redis for {waits}s"
    assert elapsed < 20, f"the request took {elapsed:.1f}s (a hung Redis used to hold it for 30 s)"
    assert DELAYED_MESSAGE in response.content.decode(), "the editor is told the check is delayed"
    assert hung.accepted, "the request did try the hung Redis"
    source = Source.objects.get()
    assert work_status(source)["state"] == "delayed"
    row = WorkRequest.objects.get(job="sources.fetch_source")
    assert row.status == WorkStatus.PENDING and row.send_error

    redis_server = RedisServer().start()
    try:
        with override_settings(REDIS_URL=redis_server.url):
            assert outbox_relay(min_age_seconds=0) == 1, "the relay sends the work the request could not"
            assert work_status("source", source.pk)["state"] == "queued"
            make_worker(fork=False, names=("fetch",)).work(burst=True, logging_level="WARNING")
        assert work_status(source) | {"updated_at": None} == {
            "state": "done", "message": "Done.", "work_request_id": row.pk, "attempts": 1, "progress": 0, "progress_total": 0, "updated_at": None,
        }
        assert FetchResult.objects.filter(source=source, link_state="ok").count() == 1
        assert site.paths["/terms"] == 1
    finally:
        redis_server.close()


def test_the_relay_waits_on_a_hung_redis_once_per_pass_not_once_per_row(hung):
    """20 requests wait in the outbox while Redis hangs: a relay pass sends them together, so it
    gives up after one send deadline (not 20), and they all keep the reason; once Redis is back,
    one pass sends them all, oldest first."""
    rows = WorkRequest.objects.bulk_create(WorkRequest(job="dispatch.ping", kwargs={"note": str(n)}, queue="default") for n in range(20))
    started = time.monotonic()
    assert outbox_relay(min_age_seconds=0, recover=False) == 0
    elapsed = time.monotonic() - started
    assert elapsed < 20, f"the relay pass took {elapsed:.1f}s against a hung Redis (20 deadlines of 0.5 s would be 10 s)"
    assert len(hung.waits()) == 1, "one connection to the hung Redis, for all 20"
    assert set(WorkRequest.objects.values_list("status", flat=True)) == {WorkStatus.PENDING}
    assert all(WorkRequest.objects.values_list("send_error", flat=True)), "each row says why it is not queued"

    redis_server = RedisServer().start()
    try:
        with override_settings(REDIS_URL=redis_server.url):
            assert outbox_relay(min_age_seconds=0, recover=False) == 20
            assert get_queue("default").job_ids == [f"work-{row.pk}" for row in sorted(rows, key=lambda row: row.pk)]
    finally:
        redis_server.close()


def test_the_api_answers_quickly_while_redis_hangs(client, editor, hung, site):
    auth = "Bearer " + make_token(editor)
    started = time.monotonic()
    response = client.post("/api/v1/sources", json.dumps({"url": site.base + "/faq"}), content_type="application/json", HTTP_AUTHORIZATION=auth)
    elapsed = time.monotonic() - started
    assert response.status_code == 201, response.content
    waits = hung.waits()
    assert waits and max(waits) < 10, f"the API held a connection to the hung Redis for {waits}s"
    assert elapsed < 20, f"the API took {elapsed:.1f}s (a hung Redis used to hold it for 30 s)"
    assert work_status("source", response.json()["source_id"])["state"] == "delayed"


def test_a_redis_that_comes_back_empty_loses_nothing_the_outbox_holds(settings):
    """10 pieces of work queued, the redis-server stopped (nothing saved) and started empty:
    the relay finds the lost jobs, sends them again, and each runs exactly once."""
    settings.CITECHECK_LOST_AFTER_SECONDS = 0
    server = RedisServer().start()
    try:
        with override_settings(REDIS_URL=server.url):
            rows = [work_request(job="dispatch.ping", kwargs={"note": str(n)}) for n in range(10)]
            assert WorkRequest.objects.filter(status=WorkStatus.QUEUED).count() == 10
            server.stop()
            pending = work_request(job="dispatch.ping", kwargs={"note": "while away"})  # Redis away: stays pending
            server.start()  # empty
            assert work_recover() == 10
            assert outbox_relay(min_age_seconds=0) == 11
            make_worker(fork=False, names=("default",)).work(burst=True, logging_level="WARNING")
        done = WorkRequest.objects.filter(pk__in=[r.pk for r in [*rows, pending]])
        assert sorted(done.values_list("status", flat=True)) == ["done"] * 11
        assert set(done.values_list("attempts", flat=True)) == {1}, "no piece of work ran twice"
    finally:
        server.close()
