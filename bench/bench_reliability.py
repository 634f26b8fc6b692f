"""Benchmark: reliability under load and faults (issue 14), on a PostgreSQL cluster and a
redis-server of its own (tests/faults/services.py), with real forking workers.

Run:  .venv/bin/python bench/bench_reliability.py [--size 1000] [--workers 1,2,4] [--big 10000] [--pages 150]
                                                  [--burst-only | --only extraction] [--no-write]

- Burst: --size already-fetched sources on four local hosts, all due at once, queued by
  `run_due_checks` and worked by 1, 2 and 4 forking workers (and --big of them on 2 workers, the
  size CI's burst test runs): jobs/s, share lost (no outcome) and share duplicated (a page
  fetched twice or two FetchResults for one source); goal 0 and 0. With --burst-only only the
  burst table (and its own "measured" line) is rewritten; the fault and extraction tables stay.
- Time to recover after each fault is removed: Redis stopped while work is requested (until
  that work is done once Redis is back), the database stopped (until the web answers again and
  new work runs), a worker SIGKILLed mid-job (until its job is done by another worker).
- Extraction: the extract job (as a work-horse runs it, on queued pages of a first import), one
  page per job and batched (taking the queued pages along, pipelined), against bare
  `trafilatura.extract` on the same pages (../shared/data/extraction-eval); wall and CPU.

Writes its sections (`<!-- bench:reliability:... -->`, and the extraction's own
`<!-- bench:reliability-extraction:... -->`) into bench/README.md unless --no-write; with
`--only extraction` only the extraction is measured and only its section is written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from readme import write_section  # noqa: E402

from tests.faults.burst import run_burst  # noqa: E402
from tests.faults.pages import CountingServer  # noqa: E402
from tests.faults.services import (  # noqa: E402
    AppProcess,
    PgCluster,
    RedisServer,
    app_env,
    django_run,
    free_port,
    manage,
    seed_sources,
    wait_for,
)

DATA = ROOT.parent / "shared" / "data" / "extraction-eval" / "pages"
DONE = "from dispatch.models import WorkRequest as W; print(W.objects.filter(job='sources.fetch_source', status='done').count())"


def _done(env: dict[str, str]) -> int:
    return int(django_run(env, DONE).split()[-1])


def fresh_db(pg: PgCluster, name: str) -> str:
    pg.sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    pg.sql(f"CREATE DATABASE {name} TEMPLATE tmpl")
    return pg.url(name)


def redis_outage(pg: PgCluster) -> float:
    site = CountingServer()
    redis_server = RedisServer().start()
    env = app_env(database_url=fresh_db(pg, "rel_redis"), redis_url=redis_server.url)
    worker = AppProcess.worker(env, "--queues", "fetch,default", "--interval", "1", name="rel-redis")
    try:
        time.sleep(3)
        redis_server.stop()
        seed_sources(env, base=site.base, count=20)
        manage(env, "run_due_checks")  # the sends fail: 20 requests wait in the outbox
        time.sleep(3)
        redis_server.start()
        back = time.monotonic()
        wait_for(lambda: _done(env) == 20, timeout=180, interval=0.25, what="work requested while Redis was away")
        return time.monotonic() - back
    finally:
        worker.stop()
        redis_server.close()
        site.close()


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": "sessionid=" + "a" * 32}), timeout=5) as r:  # noqa: S310
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def database_outage(pg: PgCluster) -> tuple[float, float]:
    site = CountingServer()
    redis_server = RedisServer().start()
    port = free_port()
    env = app_env(database_url=fresh_db(pg, "rel_db"), redis_url=redis_server.url, DATABASE_CONN_MAX_AGE="60")
    web = AppProcess.web(env, port)
    worker = AppProcess.worker(env, "--queues", "fetch,default", "--interval", "1", name="rel-db")
    try:
        wait_for(lambda: _status(f"http://127.0.0.1:{port}/admin/") in (200, 302), timeout=30, what="web up")
        pg.stop()
        time.sleep(5)
        pg.start()
        back = time.monotonic()
        wait_for(lambda: _status(f"http://127.0.0.1:{port}/admin/") in (200, 302), timeout=60, interval=0.1, what="web back")
        web_back = time.monotonic() - back
        seed_sources(env, base=site.base, count=5)
        wait_for(lambda: _done(env) == 5, timeout=120, interval=0.25, what="new work after the restart")
        return web_back, time.monotonic() - back
    finally:
        web.stop()
        worker.stop()
        redis_server.close()
        site.close()


def worker_kill(pg: PgCluster) -> float:
    site = CountingServer(first_delay=30)
    redis_server = RedisServer().start()
    env = app_env(database_url=fresh_db(pg, "rel_kill"), redis_url=redis_server.url, CITECHECK_FETCH_TIMEOUT="60")
    doomed = AppProcess.worker(env, "--queues", "fetch", "--interval", "1", name="rel-doomed")
    survivor = None
    try:
        seed_sources(env, base=site.base, count=1)
        wait_for(lambda: sum(site.active.values()) >= 1, timeout=60, what="the job to start")
        doomed.kill()
        killed = time.monotonic()
        survivor = AppProcess.worker(env, "--queues", "fetch", "--interval", "1", name="rel-survivor")
        wait_for(lambda: _done(env) == 1, timeout=300, interval=0.5, what="the killed job done elsewhere")
        return time.monotonic() - killed
    finally:
        doomed.stop()
        if survivor is not None:
            survivor.stop()
        redis_server.close()
        site.close()


EXTRACT = """
import json, logging, os, statistics, time
from pathlib import Path
import trafilatura
from django.db import connection, transaction
from django.test.utils import override_settings
import citecheck.extraction.process
from citecheck.extraction import warm_up
from dispatch.models import WorkRequest
from dispatch.services import work_request, work_run
from sources.models import CheckTimes, Source, SourceVersion
logging.disable(logging.WARNING)
pages = sorted(Path({data!r}).glob("*.html"))[:{count}]
bodies = [p.read_bytes() for p in pages]
made = [0]

def seed():
    # A first import's state: versions awaiting extraction, each with its extract request,
    # sent to Redis on commit (as the fetch job leaves them).
    rows = []
    with transaction.atomic():
        for body in bodies:
            made[0] += 1
            url = f"https://e{{made[0]}}.example.org/"
            s = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=f"e{{made[0]}}.example.org", stage="fetched")
            CheckTimes.objects.create(source=s)
            v = SourceVersion.objects.create(source=s, number=1, content_hash=str(made[0]), content_type="text/html",
                                             body_compressed=SourceVersion.compress(body))
            rows.append(work_request(job="sources.extract_version", kwargs={{"version_id": v.pk}}, queue="extract",
                                     dedupe_key=f"extract:{{v.pk}}").pk)
    return rows

def extractor_cpu():
    # CPU seconds of the live extractor process (it is not reaped, so RUSAGE_CHILDREN misses it).
    fields = Path(f"/proc/{{citecheck.extraction.process._extractor.process.pid}}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def bare():
    t, c = time.perf_counter(), time.process_time()
    for body in bodies:
        trafilatura.extract(body, include_tables=True)
    return time.perf_counter() - t, time.process_time() - c, 0

def jobs(batch):
    # The extract job as a work-horse runs it (`work_run`: claim, job, outcome), RQ's fork aside:
    # with batch 1 one job per page; with the default batch the first job takes the rest along.
    rows = seed()
    queries = [0]
    def counted(execute, sql, params, many, context):
        queries[0] += 1
        return execute(sql, params, many, context)
    # A fresh extractor process for each pass, so that it serves the whole pass (it retires after
    # 500 pages, and its successor's CPU would not be counted).
    citecheck.extraction.process._extractor_discard()
    warm_up()
    pid = citecheck.extraction.process._extractor.process.pid
    wall = cpu = 0.0
    e = extractor_cpu()
    waiting = WorkRequest.objects.filter(pk__in=rows, status="queued").order_by("id").values_list("pk", flat=True)
    with override_settings(CITECHECK_EXTRACT_BATCH=batch):
        while (pk := waiting.first()) is not None:  # what RQ would hand a horse next (not timed)
            t, c = time.perf_counter(), time.process_time()
            with connection.execute_wrapper(counted):
                work_run(work_request_id=pk)
            wall, cpu = wall + time.perf_counter() - t, cpu + time.process_time() - c
    cpu += extractor_cpu() - e if citecheck.extraction.process._extractor.process.pid == pid else float("nan")
    assert WorkRequest.objects.filter(pk__in=rows, status="done").count() == len(rows), "every request done"
    assert SourceVersion.objects.filter(extraction_status="pending").count() == 0
    return wall, cpu, queries[0]

warm_up()
for body in bodies[:5]:
    trafilatura.extract(body, include_tables=True)
jobs(1)  # warm-up pass (untimed)
runs = {{"bare": [], "one page per job": [], "batched": []}}
for _ in range({repeat}):
    runs["bare"].append(bare())
    runs["one page per job"].append(jobs(1))
    runs["batched"].append(jobs(50))
n = len(bodies)
out = {{"pages": n, "repeat": {repeat}}}
for name, measured in runs.items():
    out[name] = {{"wall": statistics.median(m[0] for m in measured) / n * 1000, "cpu": statistics.median(m[1] for m in measured) / n * 1000,
                 "queries": statistics.median(m[2] for m in measured) / n,
                 "wall_ratio": statistics.median(m[0] / b[0] for m, b in zip(measured, runs["bare"])),
                 "cpu_ratio": statistics.median(m[1] / b[1] for m, b in zip(measured, runs["bare"]))}}
print(json.dumps(out))
"""


def extraction(pg: PgCluster, pages: int, repeat: int = 5) -> dict[str, Any] | None:
    if not DATA.is_dir():
        return None
    redis_server = RedisServer().start()
    try:
        env = app_env(database_url=fresh_db(pg, "rel_extract"), redis_url=redis_server.url)
        code = EXTRACT.format(data=str(DATA), count=pages, repeat=repeat)
        return json.loads(django_run(env, code, timeout=1800).strip().splitlines()[-1])  # type: ignore[no-any-return]
    finally:
        redis_server.close()


def extraction_table(ext: dict[str, Any] | None) -> str:
    if not ext:
        return "Extraction: skipped (../shared/data/extraction-eval is absent)."
    batched = ext["batched"]
    verdict = "met" if batched["wall_ratio"] <= 1.5 else "**missed**"
    cpu_verdict = "met" if batched["cpu_ratio"] <= 1.5 else "**missed**"
    lines = [
        f"Extraction of {ext['pages']} pages of ../shared/data/extraction-eval, a first import's state (versions awaiting "
        "extraction, each with its queued extract request), against the benchmark's own PostgreSQL (fsync off) and "
        "redis-server on this shared 2-core machine. The job runs as a work-horse runs it (`work_run`: claim, job, outcome; "
        f"RQ's fork aside). Median of {ext['repeat']} interleaved passes after a warm-up pass; the ratios are medians of the "
        "per-pass ratios to the bare pass next to them. CPU is this process's plus the extractor process's "
        "(PostgreSQL's and Redis's are not in it).",
        "",
        "| path | ms per page (wall) | vs bare | CPU ms per page | vs bare | queries per page |",
        "|---|---:|---:|---:|---:|---:|",
        f"| bare `trafilatura.extract` | {ext['bare']['wall']:.1f} | 1.00x | {ext['bare']['cpu']:.1f} | 1.00x | 0 |",
    ]
    for name, label in (("one page per job", "extract job, one page per job (`CITECHECK_EXTRACT_BATCH=1`)"),
                        ("batched", "extract job taking the queued pages along, pipelined (default, batch 50)")):
        row = ext[name]
        goal = f" (goal <= 1.5x: {verdict})" if name == "batched" else ""
        cpu_goal = f" ({cpu_verdict})" if name == "batched" else ""
        lines.append(f"| {label} | {row['wall']:.1f} | {row['wall_ratio']:.2f}x{goal} | {row['cpu']:.1f} | "
                     f"{row['cpu_ratio']:.2f}x{cpu_goal} | {row['queries']:.1f} |")
    lines += [
        "",
        "Batched, the extractor process works on the next page while the job stores the last few, four to a transaction "
        "with one write per table (passages, versions, sources, audit, the tests' work requests; the taken requests' "
        "outcomes every four pages), so a page costs about the larger of the two, not their sum; the CPU column is what "
        "a page costs whichever process does it.",
    ]
    return "\n".join(lines)


BURST_HEADER = "| workers | re-checks | time | jobs/s | lost (goal 0) | duplicated (goal 0) | most connections to one host (limit 8) | inconsistent sources |"
BURST_MEASURED = "Burst table measured"


def burst_row(pg: PgCluster, *, size: int, workers: int) -> str:
    redis_server = RedisServer().start()
    try:
        result = run_burst(database_url=fresh_db(pg, f"rel_burst_{workers}"), redis_url=redis_server.url,
                           count=size, workers=workers, host_limit=8, timeout=3600)
    finally:
        redis_server.close()
    print(f"burst {size} on {workers} worker(s): {result.seconds:.0f} s, {result.jobs_per_second:.1f} jobs/s, lost {result.lost}, "
          f"duplicated {result.duplicated}, CPU s {result.cpu_seconds}", flush=True)
    return (f"| {workers} | {size:,} | {result.seconds:.0f} s | {result.jobs_per_second:.1f} | "
            f"{result.lost / size:.2%} | {result.duplicated / size:.2%} | {result.max_per_host} | "
            f"{result.counts['inconsistent_sources']} |")


def write_burst_table(rows: list[str], command: str) -> None:
    """Replace only the burst table of the reliability section (and its own "measured" line)."""
    from readme import README

    start, end = "<!-- bench:reliability:start -->", "<!-- bench:reliability:end -->"
    text = README.read_text(encoding="utf-8")
    before, _, rest = text.partition(start)
    section, _, after = rest.partition(end)
    lines = section.split("\n")
    at = lines.index(BURST_HEADER)
    stop = at + 2
    while stop < len(lines) and lines[stop].startswith("|"):
        stop += 1
    first = at - 2 if at >= 2 and lines[at - 2].startswith(BURST_MEASURED) else at
    measured = f"{BURST_MEASURED} {dt.date.today().isoformat()} with `{command}`."
    lines[first:stop] = [measured, "", BURST_HEADER, "|---:|---:|---:|---:|---:|---:|---:|---:|", *rows]
    README.write_text(before + start + "\n".join(lines) + end + after, encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--big", type=int, default=0, help="also a burst of this many on 2 workers")
    parser.add_argument("--pages", type=int, default=150)
    parser.add_argument("--only", choices=["extraction"], help="measure only this part (and write only its section)")
    parser.add_argument("--burst-only", action="store_true", help="rewrite only the burst table")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    try:
        pg = PgCluster().start()
    except BaseException as exc:  # pytest.skip raises outside pytest too
        print(f"skipped: {exc}")
        return 0
    rows, faults = [], []
    try:
        pg.sql("CREATE DATABASE tmpl")
        manage(app_env(database_url=pg.url("tmpl"), redis_url="redis://127.0.0.1:1/0"), "migrate", "-v", "0", timeout=600)
        cmd = " ".join([".venv/bin/python", "bench/bench_reliability.py", *sys.argv[1:]])
        if args.only is None:
            for workers in [int(w) for w in args.workers.split(",")]:
                rows.append(burst_row(pg, size=args.size, workers=workers))
            if args.big:
                rows.append(burst_row(pg, size=args.big, workers=2))
            if args.burst_only:
                print("\n".join(rows))
                if not args.no_write:
                    write_burst_table(rows, cmd)
                return 0
            redis_s = redis_outage(pg)
            faults.append(f"| Redis stopped while 20 fetches were requested | {redis_s:.1f} s until all 20 were done |")
            web_s, work_s = database_outage(pg)
            faults.append(f"| PostgreSQL stopped for 5 s (web + worker running) | web answers again after {web_s:.1f} s; new work done after {work_s:.1f} s |")
            kill_s = worker_kill(pg)
            faults.append(f"| a worker SIGKILLed mid-fetch (default heartbeat 30 s + grace 60 s) | {kill_s:.1f} s until another worker finished its job |")
            for line in faults:
                print(line, flush=True)
        ext = extraction(pg, args.pages)
    finally:
        pg.close()
    if args.only is None:
        body = [
            "Own PostgreSQL 15 cluster (fsync off) and redis-server; real forking `run_worker` processes; local page servers "
            "(four hosts, 20 ms per page); a shared 2-core machine with other work running, so absolute rates are low and noisy.",
            "",
            BURST_HEADER,
            "|---:|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "| fault, then removed | time to recover |",
            "|---|---|",
            *faults,
        ]
        print("\n".join(body))
        if not args.no_write:
            write_section("reliability", "\n".join(body), cmd, title="reliability (issue 14)")
    table = extraction_table(ext)
    print(table)
    if not args.no_write:
        write_section("reliability-extraction", table, cmd, title="reliability (issue 14): extraction throughput")
    return 0


if __name__ == "__main__":
    sys.exit(main())
