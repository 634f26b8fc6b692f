"""Benchmark: link checks with their state writes to PostgreSQL, against the checker alone.

Run:  .venv/bin/python bench/bench_linkhealth_db.py [--runs 3] [--no-write]

The loopback test server of bench_linkcheck.py (its own process; 20 addresses 127.0.0.2-21,
answers after 50 ms; realistic mix: most 200, some 301/302, some 404, a few slow) and 2,000
sources pointing at it, in a throw-away PostgreSQL database (created and dropped here). The
sources start as they are between two rechecks: active, evidence verified, last check ok.
In the same run, with the same limits (64 at once, 8 per host; CITECHECK_FETCH_ALLOW_NETWORKS
=127.0.0.0/8 opens the loopback addresses):

- the checker alone: `citecheck.linkcheck.check_urls` over the sources' URLs with the checker
  configuration `links_check` uses, results discarded;
- `links_check(source_ids=...)` (`sources.services`, the batched path of sources.services.record.py
  that `manage.py check_links` runs), writing every result.

Each writing run must add one FetchResult per source. Before every run the sources are put back
in their starting state and the open tasks removed (untimed, with VACUUM ANALYZE, as
autovacuum would between rounds). One warm-up round, then --runs rounds, paths interleaved;
medians. Skips with a message when PostgreSQL is unreachable. Writes its section
(`<!-- bench:linkhealth_db:... -->`) into bench/README.md unless --no-write.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_linkcheck import CONCURRENCY, HOST_CONCURRENCY, HOSTS, LATENCY, N_URLS, control, free_port, make_urls, serve  # noqa: E402
from benchdb import django_on, postgres_problem, throwaway_database, write_section  # noqa: E402

SECTION = "linkhealth_db"
GOAL_RATIO = 0.8


def seed(urls: list[str]) -> list[int]:
    from urllib.parse import urlsplit

    from django.utils import timezone

    from sources.models import CheckTimes, EvidenceStatus, LinkState, Source, Stage

    earlier = timezone.now() - timedelta(days=8)
    risks = ["high", "normal", "normal", "low"]
    created = Source.objects.bulk_create(
        [
            Source(url=url, canonical_url=url, normalized_url=url, domain=urlsplit(url).hostname or "", stage=Stage.ACTIVE,
                   risk_level=risks[i % 4], link_state=LinkState.OK, evidence_status=EvidenceStatus.VERIFIED)
            for i, url in enumerate(urls)
        ]
    )
    CheckTimes.objects.bulk_create(
        [CheckTimes(source=source, last_checked_at=earlier, last_ok_at=earlier, next_check_at=earlier) for source in created]
    )
    return [source.pk for source in created]


def reset() -> None:
    """Back to the state between two rechecks (untimed)."""
    from django.db import connection
    from django.utils import timezone

    from sources.models import CheckTimes, EditorialTask, EvidenceStatus, LinkState, Source

    earlier = timezone.now() - timedelta(days=8)
    EditorialTask.objects.all().delete()
    Source.objects.update(link_state=LinkState.OK, evidence_status=EvidenceStatus.VERIFIED, consecutive_failures=0,
                          first_failure_at=None)
    CheckTimes.objects.update(last_checked_at=earlier, last_ok_at=earlier, next_check_at=earlier)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")


def checker_alone(ids: list[int]) -> Counter[str]:
    from citecheck.linkcheck import check_urls
    from sources.models import Source
    from sources.services.fetch import link_config

    rows = list(Source.objects.filter(pk__in=ids).values_list("canonical_url", "domain"))
    config = link_config(keep_body=False, domains={domain for _url, domain in rows})
    counts: Counter[str] = Counter()

    def discard(result: object) -> None:
        counts[str(result.state)] += 1  # type: ignore[attr-defined]

    check_urls([url for url, _domain in rows], config, on_result=discard)
    return counts


def links_check_batched(ids: list[int]) -> Counter[str]:
    from sources.services import links_check

    return Counter(links_check(source_ids=ids))


PATHS: dict[str, tuple[str, Callable[[list[int]], Counter[str]], bool]] = {
    "checker": ("checker alone (`check_urls`, results discarded)", checker_alone, False),
    "links_check": ("`links_check` (what `check_links` runs) writing to PostgreSQL", links_check_batched, True),
}


def report(times: dict[str, list[float]], runs: int, counts: Counter[str], server: dict[str, object], failures: dict[str, str]) -> str:
    base = N_URLS / statistics.median(times["checker"])
    mix = ", ".join(f"{state} {n:,}" for state, n in counts.most_common())
    lines = [
        f"{N_URLS:,} sources on 20 loopback hosts (127.0.0.2-21), server latency {LATENCY * 1000:.0f} ms (slow ones 200 ms), "
        f"{CONCURRENCY} at once, {HOST_CONCURRENCY} per host; results: {mix}. PostgreSQL on 127.0.0.1, throw-away database; "
        f"sources start active and verified; median of {runs} runs after one warm-up, paths interleaved; {os.cpu_count()} CPUs. "
        "Time: the whole call, from reading the sources to the last write committed.",
        "",
        "| path | URLs/s | time | vs checker alone | goal |",
        "|---|---:|---:|---:|---|",
    ]
    for key, (label, _func, writes) in PATHS.items():
        if key in failures:
            lines.append(f"| {label} | fails | | | {failures[key][:160]} |")
            continue
        median = statistics.median(times[key])
        rate = N_URLS / median
        ratio = rate / base
        goal = f">= {GOAL_RATIO:g}x: {'met' if ratio >= GOAL_RATIO else '**missed**'}" if writes else ""
        lines.append(f"| {label} | {rate:,.0f} | {median:.2f} s | {ratio:.2f}x | {goal} |")
    lines += [
        "",
        f"Server, last run: {server.get('requests')} requests, at most {server.get('max_in_flight')} in flight "
        f"({server.get('max_per_host')} per host). `links_check` runs the checker's event loop in a background thread "
        "(`iter_check_urls`) and records each chunk (up to 1,000 results, or what arrived within 0.25 s) with "
        "`fetch_records_bulk`: one transaction, the FetchResults sent with COPY, one conditional UPDATE of the narrow check-times table (CheckTimes) for the sources whose "
        "plain `ok` changes nothing but their check times, the full reactions (`_react`) for the others.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    args = parser.parse_args()

    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}; this benchmark needs PostgreSQL (set CITECHECK_BENCH_PG to another server)")
        return 0
    port, control_port = free_port(), free_port()
    context = multiprocessing.get_context("spawn")
    ready = context.Event()
    server = context.Process(target=serve, args=(port, control_port, ready), daemon=True)
    server.start()
    try:
        if not ready.wait(30):
            raise SystemExit("benchmark server did not start")
        urls, _requests = make_urls(port)
        assert {u.split("/")[2].split(":")[0] for u in urls} <= set(HOSTS)
        with throwaway_database("citecheck_bench_linkhealth") as url:
            django_on(url, CITECHECK_FETCH_ALLOW_NETWORKS="127.0.0.0/8")
            logging.disable(logging.INFO)
            from sources.models import FetchResult

            ids = seed(urls)
            times: dict[str, list[float]] = {key: [] for key in PATHS}
            failures: dict[str, str] = {}
            counts: Counter[str] = Counter()
            for round_number in range(args.runs + 1):
                for key, (_label, func, writes) in PATHS.items():
                    if key in failures:
                        continue
                    reset()
                    before = FetchResult.objects.count()
                    control(control_port, "/reset")
                    started = time.perf_counter()
                    try:
                        result_counts = func(ids)
                    except Exception as exc:  # reported in the table: a path that fails has no rate
                        failures[key] = f"{type(exc).__name__}: {exc}"
                        print(f"{key} failed: {failures[key]}", file=sys.stderr)
                        continue
                    elapsed = time.perf_counter() - started
                    counts = result_counts
                    if writes and FetchResult.objects.count() - before != len(ids):
                        raise SystemExit(f"{key}: {FetchResult.objects.count() - before} FetchResults for {len(ids)} sources")
                    if sum(counts.values()) != len(ids):
                        raise SystemExit(f"{key}: {sum(counts.values())} results for {len(ids)} sources")
                    label = "warm-up" if round_number == 0 else f"run {round_number}"
                    print(f"{label} {key}: {len(ids) / elapsed:,.0f} URLs/s ({elapsed:.2f} s) {dict(counts)}", file=sys.stderr)
                    if round_number:
                        times[key].append(elapsed)
            stats = control(control_port, "/stats")
            table = report(times, args.runs, counts, stats, failures)
    finally:
        server.terminate()
        server.join(5)
    print(table)
    if not args.no_write:
        command = ".venv/bin/python bench/bench_linkhealth_db.py" + (f" --runs {args.runs}" if args.runs != 3 else "")
        write_section(SECTION, table, command)
        print("\nwritten to bench/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
