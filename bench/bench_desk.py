"""Benchmark: the editorial desk's pages (the review queue, each of its categories, the overview,
/health/ and the other desk pages) through real HTTP, at scale 1.0 and 3.0, against main's code.

Run:  .venv/bin/python bench/bench_desk.py [--scales 1.0,3.0] [--runs 5] [--no-write] [--no-baseline]

For each scale: a copy of the template database made by `manage.py generate_bench_data --scale S`
(`citecheck_bench_tpl_s1`, `citecheck_bench_tpl_s3`; CITECHECK_BENCH_TEMPLATE_S1 / _S3 name others)
is migrated with this branch's code, `manage.py rebuild_kept_state` fills the kept state, then
VACUUM ANALYZE. gunicorn (2 workers x 4 threads, persistent connections: DATABASE_CONN_MAX_AGE=60)
serves it on a free 127.0.0.1 port with a Redis of its own (an embedded redis-server unless
CITECHECK_BENCH_REDIS is set). A client logs in through the login form as a superuser, keeps the
cookie, and requests each page once to warm up and then --runs times: the figure is the median
wall time seen by the client. The queries per page are counted in-process (Django test Client) on
the same database. With the baseline (default), the front door (queue and overview pages) is also
measured on a second copy of the template served by the code of --baseline-ref (default `main`,
unpacked with `git archive`), in the same run. Every database made here is dropped at the end.

Goals (issue 22): every desk page < 150 ms at 3.0 and at most 1.2x its time at 1.0, with the same
query count. Writes its section (`<!-- bench:desk:... -->`) of bench/README.md unless --no-write.
Skips with a message when PostgreSQL is unreachable; a scale whose template is absent is skipped
with a note.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchdb import (  # noqa: E402
    ROOT,
    baseline_code,
    database_exists,
    gunicorn,
    loadavg,
    own_redis,
    postgres_problem,
    template_copy,
    template_name,
    write_section,
)

SECTION = "desk"
GOAL_MS = 150.0
GROWTH = 1.2
USER, PASSWORD = "bench-desk-root", "bench-desk-password"
CATEGORIES = ["failed_pairs", "approval", "changes_requested", "changed_page", "dead_link", "redirect", "answer", "judge_error",
              "low_confidence", "stuck"]


def front_door() -> list[tuple[str, str]]:
    """The pages issue 22 is about: the queue (landing page and each category), overview, /health/."""
    return [("review queue (landing page)", "/admin/"),
            *[(f"review queue: {c}", f"/admin/desk/queue/?category={c}") for c in CATEGORIES],
            ("overview", "/admin/sources/source/overview/"), ("/health/", "/health/")]


def other_pages() -> list[tuple[str, str]]:
    """The other desk pages, with ids chosen from the data (needs Django set up)."""
    from django.urls import reverse

    from claims.models import Answer
    from sources.models import Source

    source = Source.objects.filter(live_page_changed=True).order_by("pk").first() or Source.objects.order_by("pk").first()
    answer = Answer.objects.order_by("pk").first()
    assert source is not None and answer is not None
    sources = reverse("admin:sources_source_changelist")
    pvs = reverse("admin:sources_passageversion_changelist")
    audit = reverse("admin:reviews_auditlog_changelist")
    return [
        ("source page", reverse("admin:sources_source_change", args=[source.pk])),
        ("Source list", sources),
        ("Source list, filtered", sources + "?stage__exact=active&link_state__exact=ok"),
        ("PassageVersion list", pvs),
        ("answer trace", reverse("admin:desk-trace", args=[answer.pk])),
        ("Answer list", reverse("admin:claims_answer_changelist")),
        ("audit log", audit),
    ]


# --- child processes: Django set up on one database -------------------------------------------

def child_prepare(rebuild: bool) -> dict[str, Any]:
    """Migrate, fill the kept state, make the superuser, analyse; return the data's size."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    started = time.monotonic()
    if rebuild:
        call_command("rebuild_kept_state", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    rebuild_s = time.monotonic() - started
    if not User.objects.filter(username=USER).exists():
        User.objects.create_superuser(USER, password=PASSWORD)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SELECT (SELECT count(*) FROM sources_source), (SELECT count(*) FROM sources_passageversion), "
                       "(SELECT count(*) FROM claims_answer)")
        sources, pvs, answers = cursor.fetchone()
    return {"sources": sources, "passage_versions": pvs, "answers": answers, "rebuild_s": rebuild_s}


def child_queries(urls: list[str], with_others: bool) -> dict[str, Any]:
    """Queries per page (Django test Client, in-process), and the other pages' URLs."""
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    others = other_pages() if with_others else []
    client = Client()
    client.force_login(User.objects.get(username=USER))
    counts = {}
    for url in urls + [u for _, u in others]:
        client.get(url)
        with CaptureQueriesContext(connection) as captured:
            client.get(url)
        counts[url] = len(captured.captured_queries)
    return {"queries": counts, "others": others}


def run_child(code_dir: Path, database_url: str, redis_url: str, what: str, *args: str) -> dict[str, Any]:
    env = bench_env(database_url, redis_url)
    env["PYTHONPATH"] = str(code_dir)  # the code measured: this branch or the baseline's unpacked copy
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", what, *args], cwd=code_dir, env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed in {code_dir}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the parent: databases, servers, HTTP ---------------------------------------------------

def bench_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "CITECHECK_", "DATABASE_"))}
    # Nothing of the caller's Django, Citecheck or database settings leaks in: only what is set here.
    env.update({
        "DATABASE_URL": database_url, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "citecheck_site.settings",
        "DATABASE_CONN_MAX_AGE": "60", "CITECHECK_PLAIN_STATIC": "true", "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECRET_KEY": "bench-desk-not-secret-" + "x" * 40, "LOG_LEVEL": "WARNING", "DEBUG": "false",
    })
    return env


def logged_in(base: str) -> Any:
    """A requests session logged in through the login form (CSRF token from the page, cookie kept)."""
    import requests

    session = requests.Session()
    page = session.get(base + "/admin/login/?next=/admin/", timeout=30)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, "no CSRF token on the login page"
    done = session.post(base + "/admin/login/?next=/admin/", data={"csrfmiddlewaretoken": token.group(1), "username": USER,
                        "password": PASSWORD, "next": "/admin/"}, headers={"Referer": base + "/admin/login/"}, timeout=60)
    assert done.ok and "sessionid" in session.cookies, f"login failed: HTTP {done.status_code}"
    return session


def measure(session: Any, base: str, pages: list[tuple[str, str]], runs: int) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, url in pages:
        first = session.get(base + url, timeout=120)  # warm-up
        if first.status_code != 200 or "/admin/login/" in first.url:
            out[name] = {"url": url, "error": f"HTTP {first.status_code}"}
            continue
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            session.get(base + url, timeout=120)
            times.append((time.perf_counter() - started) * 1000)
        out[name] = {"url": url, "ms": statistics.median(times)}
    return out


def one_scale(scale: float, runs: int, baseline_ref: str | None, redis_url: str) -> dict[str, Any]:
    template = template_name(scale)
    if not database_exists(template):
        return {"scale": scale, "skipped": f"template database {template} is absent (make it with generate_bench_data --scale {scale:g})"}
    tag = str(scale).replace(".", "_")
    report: dict[str, Any] = {"scale": scale, "template": template, "load_before": loadavg()}
    with template_copy(template, f"bench_desk_{tag}") as url:
        report["data"] = run_child(ROOT, url, redis_url, "prepare", "--rebuild")
        queries = run_child(ROOT, url, redis_url, "queries", "--with-others", *[u for _, u in front_door()])
        pages = front_door() + [tuple(p) for p in queries["others"]]
        report["queries"] = queries["queries"]
        with gunicorn(ROOT, bench_env(url, redis_url)) as port:
            base = f"http://127.0.0.1:{port}"
            report["pages"] = measure(logged_in(base), base, pages, runs)  # type: ignore[arg-type]
    if baseline_ref:
        with baseline_code(baseline_ref) as code, template_copy(template, f"bench_desk_base_{tag}") as url:
            run_child(code, url, redis_url, "prepare")
            report["base_queries"] = run_child(code, url, redis_url, "queries", *[u for _, u in front_door()])["queries"]
            with gunicorn(code, bench_env(url, redis_url)) as port:
                base = f"http://127.0.0.1:{port}"
                report["base_pages"] = measure(logged_in(base), base, front_door(), runs)
    report["load_after"] = loadavg()
    return report


def table(reports: list[dict[str, Any]], baseline_ref: str | None) -> tuple[str, list[str]]:
    done = [r for r in reports if "pages" in r]
    lo = next((r for r in done if r["scale"] == 1.0), done[0] if done else None)
    hi = next((r for r in done if r["scale"] == 3.0), done[-1] if done else None)
    misses: list[str] = []
    cols = " | ".join(f"ms at {r['scale']:g} | queries at {r['scale']:g}" for r in done)
    base_cols = " | ".join(f"{baseline_ref} ms at {r['scale']:g}" for r in done if "base_pages" in r)
    lines = [f"| page | {cols} | ratio {hi['scale']:g}/{lo['scale']:g} |" + (f" {base_cols} |" if base_cols else "") + " goal |" if lo and hi else "",
             "|---|" + "---:|---:|" * len(done) + "---:|" + ("---:|" * sum(1 for r in done if "base_pages" in r)) + "---|"]
    for name, _ in [(n, u) for n, u in done[0]["pages"].items()] if done else []:
        cells, ok = [], True
        for r in done:
            row = r["pages"].get(name, {})
            if "ms" not in row:
                cells += [row.get("error", "—"), "—"]
                ok = False
                continue
            cells += [f"{row['ms']:.0f}", str(r["queries"].get(row["url"], "?"))]
        assert lo is not None and hi is not None
        a, b = lo["pages"].get(name, {}), hi["pages"].get(name, {})
        ratio = b["ms"] / a["ms"] if "ms" in a and "ms" in b and a["ms"] else None
        qa, qb = lo["queries"].get(a.get("url")), hi["queries"].get(b.get("url"))
        reasons = []
        if "ms" in b and b["ms"] >= GOAL_MS:
            reasons.append(f"{b['ms']:.0f} ms at {hi['scale']:g}")
        if ratio is not None and lo is not hi and ratio > GROWTH:
            reasons.append(f"{ratio:.2f}x")
        if qa != qb:
            reasons.append(f"queries {qa} → {qb}")
        base = [f"{r['base_pages'][name]['ms']:.0f}" if "ms" in r["base_pages"].get(name, {}) else "—" for r in done if "base_pages" in r]
        verdict = "met" if ok and not reasons else "MISSED (" + ", ".join(reasons or ["error"]) + ")"
        if verdict != "met":
            misses.append(f"{name}: {verdict}")
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {f'{ratio:.2f}' if ratio else '—'} |" + (" " + " | ".join(base) + " |" if base else "")
                     + f" {verdict} |")
    return "\n".join(lines), misses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", default="1.0,3.0", help="comma-separated scales whose templates to measure (default 1.0,3.0)")
    parser.add_argument("--runs", type=int, default=5, help="requests per page after the warm-up; the median is reported (default 5)")
    parser.add_argument("--no-write", action="store_true", help="measure and print, without rewriting bench/README.md")
    parser.add_argument("--no-baseline", action="store_true", help="do not measure the baseline code")
    parser.add_argument("--baseline-ref", default="main", help="git ref of the baseline code (default main)")
    parser.add_argument("--child", choices=["prepare", "queries"], help=argparse.SUPPRESS)
    parser.add_argument("--rebuild", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--with-others", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("urls", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "prepare":
        print(json.dumps(child_prepare(args.rebuild)))
        return 0
    if args.child == "queries":
        print(json.dumps(child_queries(args.urls, args.with_others)))
        return 0
    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}")
        return 0
    baseline_ref = None if args.no_baseline else args.baseline_ref
    reports = []
    with own_redis() as redis_url:
        for scale in [float(s) for s in args.scales.split(",") if s.strip()]:
            print(f"--- scale {scale:g} (load {loadavg()})", flush=True)
            report = one_scale(scale, args.runs, baseline_ref, redis_url)
            print(json.dumps(report, indent=1), flush=True)
            reports.append(report)
    if not any("pages" in r for r in reports):
        print("skipped: " + "; ".join(r.get("skipped", "") for r in reports))
        return 0
    body, misses = table(reports, baseline_ref)
    print(body)
    data = "; ".join(f"scale {r['scale']:g}: {r['data']['sources']:,} sources, {r['data']['passage_versions']:,} passage versions, "
                     f"{r['data']['answers']:,} answers (copy of `{r['template']}`, kept state rebuilt in {r['data']['rebuild_s']:.0f} s), "
                     f"load average {r['load_before']} before, {r['load_after']} after" for r in reports if "data" in r)
    skipped = "".join(f" Scale {r['scale']:g} skipped: {r['skipped']}." for r in reports if "skipped" in r)
    notes = (
        f"PostgreSQL 127.0.0.1; gunicorn 2 workers x 4 threads (DATABASE_CONN_MAX_AGE=60) on a free 127.0.0.1 port with its own "
        f"Redis; a client logged in through the login form as a superuser; median of {args.runs} requests after one warm-up, wall "
        f"time seen by the client. Queries per page counted in-process (Django test Client) on the same database. Data: {data}.{skipped}"
        + (f" The `{baseline_ref}` columns: the front door served by `{baseline_ref}`'s code (git archive) on another copy of "
           "the same template, in the same run." if baseline_ref else "")
        + " The machine (2 cores) is shared with other work: milliseconds are rough, query counts exact. Goals (issue 22): < 150 ms "
        "at 3.0, at most 1.2x the time at 1.0, the same query count."
    )
    summary = ("\n\nEvery goal met." if not misses else "\n\nMissed:\n" + "\n".join(f"- {m}" for m in misses))
    loads = [float(r[key].split()[0]) for r in reports if "data" in r for key in ("load_before", "load_after")]
    if misses and loads and max(loads) > 3:
        summary += (f"\n\nThe load average was {min(loads):.1f}–{max(loads):.1f} on {os.cpu_count()} cores (the issue's figures were taken "
                    "at 1–3): absolute times are inflated by waiting for a core; the ratio between the scales and the baseline "
                    "columns, measured in the same run, are the comparable figures.")
    if not args.no_write:
        command = "python bench/bench_desk.py" + (f" --scales {args.scales}" if args.scales != "1.0,3.0" else "") + (
            f" --runs {args.runs}" if args.runs != 5 else "") + (" --no-baseline" if args.no_baseline else "")
        write_section(SECTION, notes + "\n\n" + body + summary, command, title="Editorial desk pages (bench_desk.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
