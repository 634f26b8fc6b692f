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
- Extraction: the extract job's service (`version_extract`, with its deadline child and database
  writes) against bare `trafilatura.extract` on the same pages (../shared/data/extraction-eval).

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
import json, logging, os, time
from pathlib import Path
import trafilatura
from django.db import connection
import citecheck.extract
from sources.models import Source, SourceVersion
from sources.services.versioning import version_extract
from citecheck.extract import warm_up
logging.disable(logging.WARNING)
pages = sorted(Path({data!r}).glob("*.html"))[:{count}]
bodies = [p.read_bytes() for p in pages]
ids = []
for n, body in enumerate(bodies):
    url = f"https://e{{n}}.example.org/"
    s = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=f"e{{n}}.example.org", stage="fetched")
    ids.append(SourceVersion.objects.create(source=s, number=1, content_hash=str(n), content_type="text/html",
                                            body_compressed=SourceVersion.compress(body)).pk)
warm_up()
def extractor_cpu():
    # CPU seconds of the live extractor process (it is not reaped, so RUSAGE_CHILDREN misses it).
    fields = Path(f"/proc/{{citecheck.extract._extractor.process.pid}}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
for body in bodies[:5]:
    trafilatura.extract(body, include_tables=True)
t, c = time.perf_counter(), time.process_time()
for body in bodies:
    trafilatura.extract(body, include_tables=True)
bare, bare_cpu = time.perf_counter() - t, time.process_time() - c
# The split: wall time inside extract_passages (the extractor process's round trip) and queries.
spent = [0.0]
queries = [0]
measured = citecheck.extract.extract_passages
def timed(*args, **kwargs):
    t0 = time.perf_counter()
    try:
        return measured(*args, **kwargs)
    finally:
        spent[0] += time.perf_counter() - t0
def counted(execute, sql, params, many, context):
    queries[0] += 1
    return execute(sql, params, many, context)
citecheck.extract.extract_passages = timed
pid = citecheck.extract._extractor.process.pid
t, c, e = time.perf_counter(), time.process_time(), extractor_cpu()
with connection.execute_wrapper(counted):
    for pk in ids:
        version_extract(version_id=pk)
job, job_cpu = time.perf_counter() - t, time.process_time() - c
same = citecheck.extract._extractor.process.pid == pid
job_cpu += extractor_cpu() - e if same else float("nan")
n = len(ids)
print(json.dumps({{"pages": n, "bare": n / bare, "job": n / job, "bare_cpu": n / bare_cpu, "job_cpu": n / job_cpu,
                  "extract_ms": 1000 * spent[0] / n, "rest_ms": 1000 * (job - spent[0]) / n, "bare_ms": 1000 * bare / n,
                  "queries": queries[0] / n}}))
"""


def extraction(pg: PgCluster, pages: int) -> dict[str, float] | None:
    if not DATA.is_dir():
        return None
    env = app_env(database_url=fresh_db(pg, "rel_extract"), redis_url="redis://127.0.0.1:1/0", CITECHECK_REDIS_SEND_TIMEOUT="0.05")
    return json.loads(django_run(env, EXTRACT.format(data=str(DATA), count=pages), timeout=900).strip().splitlines()[-1])


def extraction_table(ext: dict[str, float] | None) -> str:
    if not ext:
        return "Extraction: skipped (../shared/data/extraction-eval is absent)."
    ratio, cpu_ratio = ext["bare"] / ext["job"], ext["bare_cpu"] / ext["job_cpu"]
    verdict = "met" if ratio <= 1.5 else "**missed**"
    return "\n".join([
        f"Extraction on {ext['pages']:.0f} pages of ../shared/data/extraction-eval, one process, against the benchmark's "
        "own PostgreSQL (fsync off) on this shared 2-core machine:",
        "",
        "| path | pages/s (wall) | vs bare | pages per CPU second | vs bare |",
        "|---|---:|---:|---:|---:|",
        f"| bare `trafilatura.extract` | {ext['bare']:.1f} | 1.00x | {ext['bare_cpu']:.1f} | 1.00x |",
        f"| the extract job's service (`version_extract`: extractor process, passages, versions, audit, work request) | "
        f"{ext['job']:.1f} | {ratio:.2f}x (goal <= 1.5x: {verdict}) | {ext['job_cpu']:.1f} | {cpu_ratio:.2f}x |",
        "",
        f"Where a page's time goes in the service (wall, per page): {ext['extract_ms']:.1f} ms in `extract_passages` (the round trip "
        f"to the long-lived extractor process: trafilatura plus our headings, anchors, date, passages), {ext['rest_ms']:.1f} ms "
        f"in the rest of the service ({ext['queries']:.0f} queries besides BEGIN and COMMIT, mostly waiting on PostgreSQL); bare trafilatura "
        f"{ext['bare_ms']:.1f} ms. CPU seconds are this process's plus the extractor process's; PostgreSQL's are not in them.",
    ])


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
