"""No work is lost to the database (issue 14, point 2), on a PostgreSQL cluster of the test's own:
connections terminated in the middle of jobs, and the whole cluster stopped and started."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, PgCluster, app_env, django_run, free_port, manage, seed_sources, wait_for

pytestmark = pytest.mark.slow

_STATE = """
import json
from dispatch.models import WorkRequest
from sources.models import FetchResult, Source, SourceVersion
from django.db.models import Count
rows = WorkRequest.objects.filter(job="sources.fetch_source")
print(json.dumps({
    "requests": rows.count(),
    "done": rows.filter(status="done").count(),
    "failed": list(rows.filter(status="failed").values_list("error", flat=True)),
    "retried": rows.filter(attempts__gt=1).count(),
    "messages": sorted(set(rows.exclude(message="").values_list("message", flat=True)))[:5],
    "unfetched": Source.objects.filter(fetches__isnull=True).count(),
    "ok_sources": Source.objects.filter(link_state="ok").count(),
    "double_versions": SourceVersion.objects.values("source_id").annotate(n=Count("id")).filter(n__gt=1).count(),
}))
"""


def _state(env: dict[str, str]) -> dict:
    return json.loads(django_run(env, _STATE).strip().splitlines()[-1])


def _terminate(pg: PgCluster, db: str) -> int:
    rows = pg.sql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{db}' AND pid <> pg_backend_pid()")
    return len(rows)


def test_jobs_whose_connection_is_terminated_are_retried_not_failed(pg, pg_db, own_redis):
    """pg_terminate_backend on the workers' connections while 6 slow fetches run: every fetch
    ends done (none `failed` with "terminating connection"), each source once versioned."""
    db = pg_db.rsplit("/", 1)[1]
    site = CountingServer(delay=2.5)
    env = app_env(database_url=pg_db, redis_url=own_redis.url)
    seed_sources(env, base=site.base, count=6)
    workers = [
        AppProcess.worker(env, "--queues", "fetch", "--interval", "1", name="sched"),
        AppProcess.worker(env, "--queues", "fetch", "--no-scheduler", name="w2"),
    ]
    try:
        terminated = 0
        deadline = time.monotonic() + 60
        rounds = 0
        while rounds < 4 and time.monotonic() < deadline:
            if sum(site.active.values()) > 0:
                time.sleep(0.5)  # the jobs hold their connections while the page is slow
                terminated += _terminate(pg, db)
                rounds += 1
                time.sleep(1.5)
            else:
                time.sleep(0.05)
        assert rounds == 4 and terminated > 0, "the fault was injected"
        state = wait_for(lambda: (s := _state(env))["done"] == 6 and s, timeout=120, interval=1, what="all fetches done")
        assert state["failed"] == [], "a lost connection never fails the work"
        assert state["retried"] >= 1 and any("database connection lost" in m for m in state["messages"]), state
        assert (state["unfetched"], state["ok_sources"], state["double_versions"]) == (0, 6, 0)
        assert all(w.alive() for w in workers), "the workers survived"
    finally:
        for w in workers:
            w.stop()
        site.close()


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - 127.0.0.1
            return response.status, response.headers.get("Content-Type", ""), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Content-Type", ""), exc.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


urllib.request.install_opener(urllib.request.build_opener(_NoRedirect))


def test_web_answers_503_while_the_database_is_away_and_everything_recovers_by_itself(pg, pg_db, own_redis):
    """The cluster is stopped: the admin answers a plain 503 page and the API a JSON 503 (never a
    500), the worker stays up; once the cluster is back the web answers again without a restart
    and the worker runs new work."""
    site = CountingServer()
    port = free_port()
    env = app_env(database_url=pg_db, redis_url=own_redis.url, DATABASE_CONN_MAX_AGE="60")
    token = manage(env, "shell", "-c", (
        "from django.contrib.auth.models import User; from integrations.models import Integration; "
        "from integrations.services import token_create; ops = User.objects.create_superuser('ops', '', 'ops-pw'); "
        "i = Integration.objects.create(name='ops', user=ops); print(token_create(actor=None, integration_id=i.pk, scopes=['read_evidence'])[1])"
    )).strip().splitlines()[-1]
    web = AppProcess.web(env, port)
    worker = AppProcess.worker(env, "--queues", "fetch,extract,default", "--interval", "1", name="worker")
    base = f"http://127.0.0.1:{port}"
    admin = (f"{base}/admin/", {"Cookie": "sessionid=abcdefghijklmnopqrstuvwxyz012345"})
    api = (f"{base}/api/v1/passages", {"Authorization": f"Bearer {token}"})
    try:
        wait_for(lambda: _get(*admin)[0] == 302, timeout=30, what="web up")
        assert _get(*api)[0] == 200
        pg.stop()
        try:
            codes = []
            for _ in range(5):
                for url, headers in (admin, api):
                    status, ctype, body = _get(url, headers)
                    codes.append(status)
                    assert status == 503, (url, status, body[:300])
                    if "/api/" in url:
                        assert ctype.startswith("application/json")
                        assert json.loads(body)["error"]["code"] == "database_unavailable"
                    else:
                        assert ctype.startswith("text/html") and "briefly unavailable" in body
                time.sleep(0.3)
            assert worker.alive() and web.alive()
        finally:
            stopped = time.monotonic()
            pg.start()
        wait_for(lambda: _get(*admin)[0] == 302 and _get(*api)[0] == 200, timeout=30, interval=0.2, what="web recovered")
        print(f"web recovered {time.monotonic() - stopped:.1f}s after the database came back")
        seed_sources(env, base=site.base, count=3)
        wait_for(lambda: sum(site.hits.values()) >= 3, timeout=60, interval=0.5, what="the surviving worker fetches new work")
        assert worker.alive()
    finally:
        web.stop()
        worker.stop()
        site.close()
