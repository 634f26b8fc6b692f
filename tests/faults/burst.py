"""A burst of re-checks on real forking workers, counted: shared by tests/faults/test_burst.py
(10,000 in CI) and bench/bench_reliability.py (1, 2 and 4 workers; size configurable).

N already-fetched sources spread over four local hosts (127.0.0.1-4, one counting server each)
are all due at once; `run_due_checks` queues them all, then W forking workers (plus one relay)
work the queue. Counted afterwards: requests queued, finished, failed with a reason, lost (no
outcome), duplicated (a page fetched twice, or two FetchResults for one source); every source's
state (link state, check times, latest version) and the most connections any host saw at once.

While the workers run, progress is read with one SQL count on a connection of the test's own:
starting a Django process every poll would take a good share of the two cores the workers need.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from tests.faults.pages import CountingServer
from tests.faults.services import AppProcess, app_env, django_run, wait_for

HOSTS = ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4")

SEED = """
import hashlib
from datetime import timedelta
from django.utils import timezone
from citecheck.fingerprint import content_hash
from sources.models import CheckTimes, Source, SourceVersion
from tests.faults.pages import article
bases, count = {bases!r}, {count}
now = timezone.now()
sources = []
for n in range(count):
    base = bases[n % len(bases)]
    url = f"{{base}}/p/{{n}}"
    sources.append(Source(url=url, canonical_url=url, normalized_url=url, domain=base.split("//")[1].split(":")[0],
                          stage="fetched", link_state="ok", evidence_status="verified"))
Source.objects.bulk_create(sources, batch_size=2000)
CheckTimes.objects.bulk_create([CheckTimes(source=s, last_checked_at=now - timedelta(days=8), last_ok_at=now - timedelta(days=8),
                                           next_check_at=now - timedelta(minutes=1)) for s in sources], batch_size=2000)
versions = [SourceVersion(source=s, number=1, content_hash=content_hash(article(f"/p/{{n}}")), content_type="text/html",
                          body_compressed=b"", extraction_status="ok") for n, s in enumerate(Source.objects.order_by("pk"))]
SourceVersion.objects.bulk_create(versions, batch_size=2000)
print(Source.objects.count())
"""

COUNT = """
import json
from datetime import timedelta
from django.db.models import Count, F, Max
from django.utils import timezone
from dispatch.models import WorkRequest
from sources.models import FetchResult, Source, SourceVersion
rows = WorkRequest.objects.filter(job="sources.fetch_source")
fetch_dups = FetchResult.objects.values("source_id").annotate(n=Count("id")).filter(n__gt=1).count()
latest = dict(SourceVersion.objects.values("source_id").annotate(m=Max("id")).values_list("source_id", "m"))
off_version = sum(1 for sid, vid in FetchResult.objects.values_list("source_id", "version_id") if latest.get(sid) != vid)
soon = timezone.now() + timedelta(days=6)
print(json.dumps({{
    "queued": rows.count(),
    "done": rows.filter(status="done").count(),
    "failed_with_reason": rows.filter(status="failed").exclude(error="").count(),
    "unfinished": rows.filter(status__in=["pending", "queued", "running"]).count(),
    "requests_per_source_over_1": rows.values("kwargs__source_id").annotate(n=Count("id")).filter(n__gt=1).count(),
    "fetch_results": FetchResult.objects.count(),
    "sources_fetched_twice": fetch_dups,
    "fetches_not_on_latest_version": off_version,
    "versions": SourceVersion.objects.count(),
    "inconsistent_sources": Source.objects.exclude(link_state="ok").count()
        + Source.objects.filter(check_times__next_check_at__lt=soon).count()
        + Source.objects.exclude(evidence_status="verified").count(),
    "extract_requests": WorkRequest.objects.filter(job="sources.extract_version").count(),
    "sends": sum(rows.values_list("send_attempts", flat=True)),
}}))
"""


@dataclass
class BurstResult:
    count: int
    workers: int
    seconds: float
    counts: dict[str, Any]
    max_per_host: int
    page_fetches: int
    pages_fetched_twice: int
    cpu_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def jobs_per_second(self) -> float:
        return self.count / self.seconds

    @property
    def lost(self) -> int:
        return self.count - self.counts["done"] - self.counts["failed_with_reason"]

    @property
    def duplicated(self) -> int:
        return self.pages_fetched_twice + self.counts["sources_fetched_twice"]


UNFINISHED_SQL = (
    "SELECT count(*) FROM dispatch_workrequest WHERE job = 'sources.fetch_source' AND status IN ('pending', 'queued', 'running')"
)


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes and of their children they reaped (RQ's work-horses)."""

    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
    return total / tick


def run_burst(
    *, database_url: str, redis_url: str, count: int, workers: int, host_limit: int = 8, timeout: float | None = None
) -> BurstResult:
    """Seed, queue and work `count` re-checks; `timeout` (default 300 s + 0.15 s a re-check, so
    10,000 get 30 minutes) bounds the wait for the workers."""
    timeout = timeout if timeout is not None else 300 + 0.15 * count
    servers = [CountingServer(host=host, delay=0.02) for host in HOSTS]
    env = app_env(database_url=database_url, redis_url=redis_url, CITECHECK_FETCH_HOST_CONCURRENCY=str(host_limit))
    procs: list[AppProcess] = []
    try:
        django_run(env, SEED.format(bases=[s.base for s in servers], count=count), timeout=300 + 0.06 * count)
        queued = 0
        for _ in range(count // 5000 + 3):
            out = django_run(env, "from sources.services import source_schedule_due_checks as s; print(s(limit=5000))",
                             timeout=600)
            step = int(out.split()[-1])
            queued += step
            if step == 0:
                break
        assert queued == count, f"queued {queued} of {count}"
        started = time.monotonic()
        procs = [AppProcess.worker(env, "--queues", "fetch", "--no-scheduler", name=f"burst{n}") for n in range(workers)]
        procs.append(AppProcess.worker(env, "--queues", "default", "--interval", "2", name="relay"))
        with psycopg.connect(database_url, autocommit=True, connect_timeout=10) as db:
            def finished() -> bool:
                row = db.execute(UNFINISHED_SQL).fetchone()
                return row is not None and row[0] == 0

            wait_for(finished, timeout=timeout, interval=1, what=f"{count} re-checks on {workers} workers")
        seconds = time.monotonic() - started
        cpu = {"workers (with their work-horses)": _cpu_seconds([p.proc.pid for p in procs[:-1]]),
               "relay": _cpu_seconds([procs[-1].proc.pid])}
        counts = json.loads(django_run(env, COUNT.format(), timeout=600).strip().splitlines()[-1])
        hits = [n for server in servers for n in server.paths.values()]
        return BurstResult(
            count=count, workers=workers, seconds=seconds, counts=counts,
            max_per_host=max(server.max_active[server.base.split("//")[1].split(":")[0]] for server in servers),
            page_fetches=sum(hits), pages_fetched_twice=sum(1 for n in hits if n > 1), cpu_seconds=cpu,
        )
    finally:
        for proc in procs:
            proc.stop()
        for server in servers:
            server.close()
