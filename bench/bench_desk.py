"""Benchmark: the editorial desk's pages on PostgreSQL at 1/10 of the data and at full size.

Run:  .venv/bin/python bench/bench_desk.py [--scales 0.1,1.0] [--runs 7] [--no-write]

For each scale, in a child process of its own (Django is set up once per process): a throw-away
PostgreSQL database (created and dropped here), migrated, filled by `generate_bench_data --scale S`
(at 1.0: 10,000 sources, 200,000 passage versions, 150,000 fetches, 50,000 answers with 250,000
claims, citations and judgements, 100,000 audit rows), then VACUUM ANALYZE. Each page is requested
with Django's test Client as a logged-in superuser: one warm-up, then --runs requests; the figure
is the median server-side time (the whole request through middleware, views and templates) and
the number of queries. Pages that are not built yet (review queue, incidents) are skipped with a
note. Goal: every page under 300 ms at the median, and the same query count at both scales.
Skips with a message when PostgreSQL is unreachable. Writes its section
(`<!-- bench:desk:... -->`) into bench/README.md unless --no-write.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdb import django_on, postgres_problem, throwaway_database, write_section  # noqa: E402

SECTION = "desk"
GOAL_MS = 300.0
# URL names the review-queue and incidents work may add; measured when present.
OPTIONAL_PAGES = {
    "review queue": ["admin:desk-queue", "admin:desk-review-queue", "admin:review-queue"],
    "incidents page": ["admin:desk-incidents", "admin:incidents"],
}


def pages() -> list[tuple[str, str]]:
    """(name, URL) of every page measured, chosen from the generated data."""
    from django.urls import NoReverseMatch, reverse

    from claims.models import Answer
    from sources.models import Source

    source = Source.objects.filter(live_page_changed=True).order_by("pk").first() or Source.objects.order_by("pk").first()
    answer = Answer.objects.order_by("pk").first()
    assert source is not None and answer is not None
    found: list[tuple[str, str]] = []
    for name, candidates in OPTIONAL_PAGES.items():
        for candidate in candidates:
            try:
                found.append((name, reverse(candidate)))
                break
            except NoReverseMatch:
                continue
    sources = reverse("admin:sources_source_changelist")
    pvs = reverse("admin:sources_passageversion_changelist")
    audit = reverse("admin:reviews_auditlog_changelist")
    return found + [
        ("source page", reverse("admin:sources_source_change", args=[source.pk])),
        ("Source list", sources),
        ("Source list, filtered", sources + "?stage__exact=active&link_state__exact=ok"),
        ("Source list, searched (title)", sources + "?q=Price+list"),
        ("Source list, searched (domain)", sources + f"?q={source.domain}"),
        ("PassageVersion list", pvs),
        ("PassageVersion list, filtered", pvs + "?change_kind__exact=changed"),
        ("PassageVersion list, searched (phrase)", pvs + "?q=Reference+12345."),
        ("PassageVersion list, searched (two common words)", pvs + "?q=damaged+courier"),
        ("PassageVersion list, searched (id)", pvs + "?q=12345"),
        ("answer trace", reverse("admin:desk-trace", args=[answer.pk])),
        ("Answer list", reverse("admin:claims_answer_changelist")),
        ("Citation list", reverse("admin:claims_citation_changelist")),
        ("audit log", audit),
        ("audit log, filtered", audit + "?action=version_activate"),
        ("audit log, searched", audit + "?q=bench-editor"),
        ("overview", reverse("admin:desk-overview")),
        ("/health/", reverse("link-health")),
    ]


def measure(runs: int) -> list[dict[str, Any]]:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    user = User.objects.create_superuser("bench-root", password="x")
    client = Client()
    client.force_login(user)
    results = []
    for name, url in pages():
        response = client.get(url)  # warm-up
        if response.status_code != 200:
            results.append({"page": name, "url": url, "error": f"HTTP {response.status_code}"})
            continue
        times, queries = [], []
        for _ in range(runs):
            with CaptureQueriesContext(connection) as captured:
                started = time.perf_counter()
                client.get(url)
                times.append((time.perf_counter() - started) * 1000)
            queries.append(len(captured.captured_queries))
        results.append({"page": name, "url": url, "median_ms": statistics.median(times), "queries": max(queries)})
    return results


def child(scale: float, runs: int) -> dict[str, Any]:
    with throwaway_database("i9b_bench_desk") as url:
        os.environ["CITECHECK_PLAIN_STATIC"] = "true"  # no collectstatic manifest in a benchmark
        django_on(url)
        from django.core.management import call_command
        from django.db import connection

        started = time.monotonic()
        call_command("generate_bench_data", "--scale", str(scale), verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        load_s = time.monotonic() - started
        from sources.models import PassageVersion, Source

        counts = {"sources": Source.objects.count(), "passage_versions": PassageVersion.objects.count()}
        return {"scale": scale, "load_s": load_s, "counts": counts, "pages": measure(runs)}


def table(reports: list[dict[str, Any]]) -> str:
    scales = [r["scale"] for r in reports]
    by_page: dict[str, dict[float, dict[str, Any]]] = {}
    for report in reports:
        for row in report["pages"]:
            by_page.setdefault(row["page"], {})[report["scale"]] = row
    head = "| page | " + " | ".join(f"ms at {s:g} | queries at {s:g}" for s in scales) + " | goal (< 300 ms, flat queries) |"
    lines = [head, "|---|" + "---:|---:|" * len(scales) + "---|"]
    for page, rows in by_page.items():
        cells = []
        ok = True
        for s in scales:
            row = rows.get(s)
            if row is None or "error" in row:
                cells += [row["error"] if row else "—", "—"]
                ok = False
                continue
            cells += [f"{row['median_ms']:.0f}", str(row["queries"])]
            ok = ok and row["median_ms"] < GOAL_MS
        # Flat: never more queries at a larger scale (unfiltered lists drop their COUNT for the estimate).
        counts = [rows[s]["queries"] for s in scales if s in rows and "queries" in rows[s]]
        flat = all(later <= earlier for earlier, later in zip(counts, counts[1:], strict=False))
        lines.append(f"| {page} | " + " | ".join(cells) + f" | {'met' if ok and flat else 'NOT met'}{'' if flat else ' (queries grow)'} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--scales", default="0.1,1.0")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.runs)))
        return 0
    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}")
        return 0
    reports = []
    for scale in [float(s) for s in args.scales.split(",") if s.strip()]:
        print(f"--- scale {scale:g}", flush=True)
        done = subprocess.run([sys.executable, __file__, "--child", str(scale), "--runs", str(args.runs)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(done.stderr[-3000:], file=sys.stderr)
            return 1
        report = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"loaded {report['counts']} in {report['load_s']:.0f} s", flush=True)
        reports.append(report)
    body = table(reports)
    print(body)
    loads = "; ".join(f"scale {r['scale']:g}: {r['counts']['sources']:,} sources, {r['counts']['passage_versions']:,} passage versions, "
                      f"generated and analysed in {r['load_s']:.0f} s" for r in reports)
    notes = (
        f"PostgreSQL 127.0.0.1, Django test Client as a logged-in superuser, median of {args.runs} requests after one warm-up, "
        f"server-side time of the whole request. Data: `manage.py generate_bench_data --scale S` ({loads}). "
        "The machine (2 cores) is shared with other work, so milliseconds are rough; query counts are exact. "
        "Pages not built on this branch (review queue, incidents page) are absent from the table."
    )
    if not args.no_write:
        command = "python bench/bench_desk.py" + (f" --scales {args.scales}" if args.scales != "0.1,1.0" else "") + (f" --runs {args.runs}" if args.runs != 7 else "")
        write_section(SECTION, notes + "\n\n" + body, command, title="Editorial desk pages (bench_desk.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
