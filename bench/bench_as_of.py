"""The export as of a time against the live export, and the desk's point-in-time pages, on
PostgreSQL with `generate_bench_data` (10,000 sources, 200,000 passage versions at --scale 1.0).

Run:  .venv/bin/python bench/bench_as_of.py [--scale 1.0] [--runs 5] [--page-size 1000]
                                            [--database-url URL] [--no-write]

Without --database-url a throw-away database is created, migrated, filled and dropped; with it,
an existing database already filled by `manage.py generate_bench_data` is read (never written,
except one superuser for the desk pages, removed afterwards). In the same process and run:
- the live export (`export_page`, every page by cursor) and the export as of three moments (now,
  halfway through the generated history, and a tenth of the way in): passages/s over a full pass
  (median of --runs), the median time of the first and of the last page, and what the first and
  the last page's row query reads (shared buffers in EXPLAIN (ANALYZE, BUFFERS): a measure the
  machine's load does not move);
- the desk pages "Evidence at a moment" (first page of sources) and an answer's trace as it was
  given, with Django's test Client: median ms and queries.
Figures go into bench/README.md (section `as_of`) unless --no-write.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from contextlib import nullcontext
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import django_on, postgres_problem, throwaway_database, write_section  # noqa: E402


def full_pass(as_of: datetime | None, page_size: int) -> dict[str, Any]:
    from integrations.selectors import export_page

    page_times: list[float] = []
    items = 0
    started = time.perf_counter()
    cursor = last_cursor = None
    while True:
        t0 = time.perf_counter()
        page = export_page(cursor=cursor, limit=page_size, as_of=as_of if cursor is None else None)
        page_times.append(time.perf_counter() - t0)
        items += len(page.items)
        if page.next_cursor is None:
            break
        cursor = last_cursor = page.next_cursor
    total = time.perf_counter() - started
    return {"items": items, "seconds": total, "first": page_times[0], "last": page_times[-1], "pages": len(page_times),
            "last_cursor": last_cursor}


def page_buffers(as_of: datetime | None, cursor: str | None, page_size: int) -> int:
    """Shared buffers (hit + read) of one page's row query, from EXPLAIN (ANALYZE, BUFFERS)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from integrations.selectors import export_page

    with CaptureQueriesContext(connection) as captured:
        export_page(cursor=cursor, limit=page_size, as_of=as_of if cursor is None else None)
    rows_sql = max((q["sql"] for q in captured.captured_queries), key=len)
    with connection.cursor() as db:
        db.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) " + rows_sql)
        plan = "\n".join(row[0] for row in db.fetchall())
    top = next(line for line in plan.splitlines() if "Buffers:" in line)  # the top node's, which includes its children's
    return sum(int(n) for n in re.findall(r"(?:hit|read)=(\d+)", top))


def export_figures(label: str, as_of: datetime | None, runs: int, page_size: int) -> dict[str, Any]:
    full_pass(as_of, page_size)  # warm-up
    passes = [full_pass(as_of, page_size) for _ in range(runs)]
    items = {p["items"] for p in passes}
    assert len(items) == 1, f"{label}: the export changed between passes ({items})"
    return {
        "label": label, "items": passes[0]["items"], "pages": passes[0]["pages"],
        "per_s": statistics.median(p["items"] / p["seconds"] for p in passes),
        "first_ms": statistics.median(p["first"] for p in passes) * 1000, "last_ms": statistics.median(p["last"] for p in passes) * 1000,
        "first_buffers": page_buffers(as_of, None, page_size), "last_buffers": page_buffers(as_of, passes[0]["last_cursor"], page_size),
    }


def desk_figures(runs: int, moment: datetime) -> list[dict[str, Any]]:
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from claims.models import Answer

    user = User.objects.create_superuser(f"bench-as-of-{os.getpid()}", password="x")
    try:
        client = Client()
        client.force_login(user)
        answer = Answer.objects.order_by("id").values_list("pk", flat=True).first()
        pages = [("Evidence at a moment (50 sources)", reverse("admin:desk-evidence-moment"), {"at": moment.isoformat()})]
        if answer is not None:
            pages.append(("Trace as it was given", reverse("admin:desk-trace", args=[answer]), {"as_of": "given"}))
            pages.append(("Trace now (baseline)", reverse("admin:desk-trace", args=[answer]), {}))
        out = []
        for name, url, params in pages:
            assert client.get(url, params).status_code == 200, name
            times, queries = [], []
            for _ in range(runs):
                with CaptureQueriesContext(connection) as captured:
                    t0 = time.perf_counter()
                    client.get(url, params)
                    times.append((time.perf_counter() - t0) * 1000)
                queries.append(len(captured.captured_queries))
            out.append({"page": name, "median_ms": statistics.median(times), "queries": max(queries)})
        return out
    finally:
        user.delete()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--page-size", type=int, default=1000)
    parser.add_argument("--database-url", default="", help="an existing database filled by generate_bench_data (read only)")
    parser.add_argument("--no-write", action="store_true", help="print the figures, do not touch bench/README.md")
    args = parser.parse_args()
    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}")
        return 0
    context = nullcontext(args.database_url) if args.database_url else throwaway_database("i23_bench_as_of")
    with context as url:
        os.environ["CITECHECK_PLAIN_STATIC"] = "true"
        django_on(url)
        from django.core.management import call_command
        from django.db import connection
        from django.db.models import Max, Min
        from django.utils import timezone

        from sources.models import PassageVersion, Source, VersionPeriod

        if not args.database_url:
            call_command("generate_bench_data", "--scale", str(args.scale), verbosity=0)
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
        now = timezone.now()
        span = VersionPeriod.objects.aggregate(first=Min("active_from"), last=Max("active_from"))
        halfway = span["first"] + (span["last"] - span["first"]) / 2
        early = span["first"] + (span["last"] - span["first"]) / 10
        load_before = os.getloadavg()
        counts = f"{Source.objects.count():,} sources, {PassageVersion.objects.count():,} passage versions"
        rows = [export_figures("live export (baseline)", None, args.runs, args.page_size),
                export_figures("as of now", now, args.runs, args.page_size),
                export_figures("as of halfway through the history", halfway, args.runs, args.page_size),
                export_figures("as of a tenth of the way in", early, args.runs, args.page_size)]
        desk = desk_figures(args.runs, halfway)
    base = rows[0]["per_s"]
    lines = ["| export | passages | pages | passages/s | vs live | first page | last page | buffers read, first / last page | goal |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        goal = "baseline" if r is rows[0] else ("met" if r["per_s"] >= 5000 and r["last_ms"] <= r["first_ms"] * 1.5 else "not met")
        lines.append(f"| {r['label']} | {r['items']:,} | {r['pages']} | {r['per_s']:,.0f} | {r['per_s'] / base:.2f}x | "
                     f"{r['first_ms']:.1f} ms | {r['last_ms']:.1f} ms | {r['first_buffers']:,} / {r['last_buffers']:,} | {goal} |")
    lines += ["", "| desk page | median | queries | goal |", "|---|---:|---:|---|"]
    for d in desk:
        lines.append(f"| {d['page']} | {d['median_ms']:.0f} ms | {d['queries']} | {'< 300 ms: ' + ('met' if d['median_ms'] < 300 else 'not met')} |")
    load = os.getloadavg()
    body = (f"Data: `generate_bench_data --scale {args.scale:g}` ({counts}); pages of {args.page_size}; medians of {args.runs} full passes "
            f"after a warm-up, one process on the shared 2-core machine (load {load_before[0]:.1f} / {load_before[1]:.1f} / {load_before[2]:.1f} at the start, "
            f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} at the end). "
            "Goal: the export as of a time >= 5,000 passages/s with no growth from first to last page (last <= 1.5x first).\n\n"
            + "\n".join(lines))
    print(body)
    if not args.no_write:
        command = " ".join(["python bench/bench_as_of.py", *(arg for arg in sys.argv[1:] if arg != "--no-write")])
        write_section("as_of", body, command, title="export as of a time and evidence at a moment")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
