"""One per-host limit across all workers (issue 14, point 6)."""

from __future__ import annotations

import asyncio
import subprocess
import time

import pytest

from dispatch.limiter import RedisHostLimiter
from tests.faults.pages import CountingServer
from tests.faults.services import PYTHON, REPO, AppProcess, app_env, django_run, seed_sources, wait_for


def test_the_shared_limit_counts_hosts_and_registrable_domains_and_expires(redis_conn):
    limiter = RedisHostLimiter(redis_conn, host_limit=2, domain_limits={"example.org": 3}, ttl=1)
    a1, a2 = limiter.try_acquire("a.example.org"), limiter.try_acquire("a.example.org")
    assert a1 and a2
    assert limiter.try_acquire("a.example.org") is None, "host limit 2"
    b1 = limiter.try_acquire("b.example.org")
    assert b1 and limiter.try_acquire("b.example.org") is None, "domain limit 3 over a. and b."
    assert limiter.try_acquire("other.net"), "other domains are not affected"
    limiter.release_now("a.example.org", a1)
    assert limiter.try_acquire("b.example.org"), "a released slot is free again"
    time.sleep(1.2)
    assert limiter.try_acquire("a.example.org"), "slots of a process that died expire"


def test_waiting_for_a_slot_is_bounded(redis_conn):
    limiter = RedisHostLimiter(redis_conn, host_limit=1, ttl=30)
    assert limiter.try_acquire("busy.example")
    started = time.monotonic()
    assert asyncio.run(limiter.acquire("busy.example", max_wait=0.3)) is None
    assert time.monotonic() - started < 20  # gave up, long before the held slot's 30 s expiry


_MAX = "from sources.models import FetchResult; print(FetchResult.objects.count())"


def _burst(env: dict[str, str], site: CountingServer, count: int) -> int:
    """4 forking workers fetch `count` sources while 2 `check_links --all` run; returns the
    most connections the site saw at once."""
    seed_sources(env, base=site.base, count=count)
    workers = [AppProcess.worker(env, "--queues", "fetch", "--no-scheduler", name=f"lim{n}") for n in range(4)]
    try:
        django_run(env, "from sources.services import source_schedule_due_checks as s; print(s())")
        checks = [subprocess.Popen([PYTHON, "manage.py", "check_links", "--all"], cwd=REPO, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for _ in range(2)]
        for proc in checks:
            out = proc.communicate(timeout=240)[0]
            assert proc.returncode == 0, out
        wait_for(lambda: int(django_run(env, _MAX).split()[-1]) >= 3 * count, timeout=240, interval=1, what="every fetch and check")
    finally:
        for w in workers:
            w.stop()
    return site.max_active["127.0.0.1"]


@pytest.mark.slow
def test_four_workers_and_two_batch_checks_keep_one_limit_per_host(pg, own_redis):
    limit, count = 2, 30
    results = {}
    for shared in ("true", "false"):
        name = f"limit_{shared}"
        pg.sql(f"CREATE DATABASE {name} TEMPLATE tmpl")
        site = CountingServer(delay=0.25)
        try:
            env = app_env(database_url=pg.url(name), redis_url=own_redis.url, CITECHECK_FETCH_HOST_CONCURRENCY=str(limit),
                          CITECHECK_FETCH_SHARED_LIMIT=shared)
            results[shared] = _burst(env, site, count)
        finally:
            site.close()
            pg.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    print(f"most connections at once to one host: {results['true']} with the shared limit, {results['false']} without (limit {limit})")
    assert results["true"] <= limit, "the limit holds for the whole fleet"
    assert results["false"] > limit, "control: without the shared limit each process has its own (the test can fail)"
