"""Benchmark: the integration API and the desk's passage search through real HTTP, at two sizes.

Run:  .venv/bin/python bench/bench_api.py [--scales 1.0,3.0] [--baseline main | --no-baseline]
      [--database-url URL] [--redis-url URL] [--no-write]

For each scale, in a throw-away PostgreSQL database of its own (a copy of the template
`citecheck_bench_tpl_s<N>` when the server has it, else filled by `generate_bench_data --scale S`;
created and dropped here; `--database-url` uses that database instead, and writes answers into
it), migrated with this checkout's code, with a throw-away redis-server of its own on a unix
socket (`--redis-url` to use another). This checkout is served by gunicorn, 2 workers x 4
threads, with persistent database connections (its production default); the baseline (`--baseline
REF`, default main: its tree from `git archive`) by a second gunicorn with the same settings,
on the same database, measured in turns with this checkout. Both run with the per-token rate
limit out of the way (CITECHECK_API_RATE_PER_MINUTE=1000000000): the figures are the code's.

Measured, from a load generator on 127.0.0.1 (threads, one keep-alive connection each):
- POST /api/v1/answers (5 citations, mechanical check included) at 1, 4 and 16 concurrent
  clients: median and p95 latency, answers/s in total (goal: median < 50 ms and >= 60 answers/s
  at 4 clients);
- the full export, GET /api/v1/passages?limit=1000 following next_cursor to the end: passages/s
  (goal >= 5,000/s at both sizes), first 5 vs last 5 pages (goal: no growth), and the export
  query's EXPLAIN ANALYZE at 0%, 95% and 99% of the keys (goal: the same plan to the last page);
- the desk's passage search (a logged-in superuser's session): a rare quoted phrase
  ("Reference <id>.") and a common one ("damaged courier", one text in 60), median of 5 after a
  warm-up (goal < 150 ms at 3.0).
Writes its section (`<!-- bench:api:... -->`) of bench/README.md with both sizes, the ratio 3.0 /
1.0 and the load average, unless --no-write. Skips with a message when PostgreSQL is unreachable.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
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
    throwaway_database,
    write_section,
)

SECTION = "api"
COMMAND = ".venv/bin/python bench/bench_api.py"
CLIENTS = (1, 4, 16)
GOAL_ANSWER_MS = 50.0
GOAL_ANSWERS_PER_S = 60.0
GOAL_EXPORT_PER_S = 5000.0
GOAL_SEARCH_MS = 150.0


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", default="1.0,3.0", help="comma-separated sizes for generate_bench_data (default 1.0,3.0)")
    parser.add_argument("--baseline", default="main", help="git ref measured alongside this checkout (default main)")
    parser.add_argument("--no-baseline", action="store_true", help="measure this checkout only")
    parser.add_argument("--database-url", help="use this PostgreSQL database (one scale; it gets answers written) instead of a throw-away copy")
    parser.add_argument("--redis-url", help="use this Redis instead of a throw-away redis-server")
    parser.add_argument("--rounds", type=int, default=2, help="turns of the POST /answers load per server and client count (default 2)")
    parser.add_argument("--no-write", action="store_true", help="print the figures; do not rewrite bench/README.md")
    args = parser.parse_args(argv)
    args.scale_list = [float(s) for s in args.scales.split(",") if s.strip()]
    if args.database_url and len(args.scale_list) != 1:
        parser.error("--database-url holds one size: give one --scales value with it")
    return args


# --- throw-away services -------------------------------------------------------------------


@contextmanager
def scale_database(scale: float, given: str | None, env: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(URL, where the data came from) of a database holding the data of `scale`, migrated with this
    checkout's code: a copy of the bench template when the server has it, else generated."""
    if given:
        yield given, "given with --database-url"
        return
    template = template_name(scale)
    copied = database_exists(template)
    with ExitStack() as stack:
        if copied:
            url = stack.enter_context(template_copy(template, f"bench_api_{str(scale).replace('.', '_')}"))
            origin = f"a copy of the template {template}"
        else:
            url = stack.enter_context(throwaway_database(f"bench_api_{str(scale).replace('.', '_')}"))
            origin = f"generate_bench_data --scale {scale:g}"
        manage({**env, "DATABASE_URL": url}, "migrate", "-v0")
        if not copied:
            manage({**env, "DATABASE_URL": url}, "generate_bench_data", "--scale", str(scale), timeout=7200)
        yield url, origin


def manage(env: dict[str, str], *args: str, cwd: Path = ROOT, timeout: float = 600) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


# --- what the servers are asked --------------------------------------------------------------

PREPARE = r"""
import json, django
django.setup()
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import Group, User
from django.contrib.sessions.backends.db import SessionStore
from integrations.models import Integration
from integrations.selectors import ROW_FIELDS, export_rows
from integrations.services import token_create
from reviews.roles import roles_sync
from sources.models import PassageVersion

roles_sync()
bot, _ = User.objects.get_or_create(username="bench-api-bot")
bot.groups.add(Group.objects.get(name="Editor"))
integration, _ = Integration.objects.get_or_create(name="bench-api", defaults={"user": bot})
_, token = token_create(actor=None, integration_id=integration.pk, scopes=["read_evidence", "submit_answers"])
root = User.objects.filter(username="bench-api-root").first() or User.objects.create_superuser("bench-api-root", password=None)
session = SessionStore()
session[SESSION_KEY], session[BACKEND_SESSION_KEY] = str(root.pk), "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = root.get_session_auth_hash()
session.create()
cited = list(export_rows(after=0).order_by("pk").values_list("pk", flat=True)[:5])
last = PassageVersion.objects.order_by("-pk").values_list("pk", flat=True).first()
print(json.dumps({"token": token, "session": session.session_key, "cited": cited, "rare_id": last - 7,
                  "passage_versions": PassageVersion.objects.count()}))
"""

# The export query's execution time at 0 / 95 / 99 % of the keys: this checkout's bound (a
# one-row subquery) and main's (two literals), on the same rows.
EXPLAIN = r"""
import json, django
django.setup()
from integrations.selectors import ROW_FIELDS, export_rows
from sources.models import PassageVersion
from sources.selectors import citable_filter

def best(qs):
    plans = [qs.explain(analyze=True) for _ in range(3)]
    times = [float(p.rsplit("Execution Time:", 1)[1].split("ms")[0]) for p in plans]
    return min(times), ("sort" if "Sort Key: sources_passageversion.id" in plans[0] else "ordered")

n = PassageVersion.objects.count()
out = {}
for share in (0.0, 0.95, 0.99):
    after = PassageVersion.objects.order_by("pk").values_list("pk", flat=True)[int(n * share)] if share else 0
    ours = export_rows(after=after).order_by("pk").values_list(*ROW_FIELDS)[:1000]
    literal = PassageVersion.objects.filter(citable_filter(), pk__gt=after, memberships__passage_version_id__gt=after).order_by("pk").values_list(*ROW_FIELDS)[:1000]
    out[str(share)] = {"subquery": best(ours), "literal": best(literal)}
print(json.dumps(out))
"""


def django_json(script: str, env: dict[str, str]) -> Any:
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"helper failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def request(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def answers_load(port: int, clients: int, payload: bytes, token: str) -> dict[str, Any]:
    """`clients` threads posting the same answer; returns latencies (s), wall time, errors."""
    per_client = max(15, 240 // clients)
    latencies: list[float] = []
    errors: list[int] = []
    lock = threading.Lock()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    start = threading.Barrier(clients + 1)

    def worker() -> None:
        # The connection is open and warm before the clock starts (a fresh worker's first request
        # on a freshly copied database can take long on a busy machine).
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        try:
            request(conn, "POST", "/api/v1/answers", payload, headers)
        finally:
            start.wait()
        for _ in range(per_client):
            began = time.perf_counter()
            try:
                status, _ = request(conn, "POST", "/api/v1/answers", payload, headers)
            except (OSError, http.client.HTTPException):
                status = 0
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            with lock:
                latencies.append(time.perf_counter() - began)
                if status != 202:
                    errors.append(status)
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    return {"latencies": latencies, "wall": time.perf_counter() - began, "errors": errors}


def full_export(port: int, token: str) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Authorization": f"Bearer {token}"}
    seen, cursor, times = 0, None, []
    began = time.perf_counter()
    while True:
        page_began = time.perf_counter()
        status, body = request(conn, "GET", "/api/v1/passages?limit=1000" + (f"&cursor={cursor}" if cursor else ""), None, headers)
        times.append(time.perf_counter() - page_began)
        if status != 200:
            raise SystemExit(f"export page answered {status}: {body[:300]!r}")
        page = json.loads(body)
        seen += len(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    wall = time.perf_counter() - began
    return {"passages": seen, "pages": len(times), "per_s": seen / wall, "first_ms": statistics.median(times[:5]) * 1000,
            "last_ms": statistics.median(times[-6:-1] if len(times) > 6 else times[-5:]) * 1000}


def search_ms(port: int, session: str, phrase: str) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    path = "/admin/sources/passageversion/?q=" + "+".join(phrase.split(" ")).replace('"', "%22")
    headers = {"Cookie": f"sessionid={session}"}
    status, body = request(conn, "GET", path, None, headers)
    if status != 200 or b"passage version" not in body:
        raise SystemExit(f"search {phrase!r} answered {status}")
    times = []
    for _ in range(5):
        began = time.perf_counter()
        request(conn, "GET", path, None, headers)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


# --- one scale --------------------------------------------------------------------------------


def measure_scale(scale: float, args: argparse.Namespace, baseline: Path | None, redis_url: str) -> dict[str, Any]:
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("CITECHECK_", "DATABASE_"))}
    base_env.update({"DJANGO_SETTINGS_MODULE": "citecheck_site.settings", "REDIS_URL": redis_url, "SECRET_KEY": secrets.token_urlsafe(40),
                     "CITECHECK_API_RATE_PER_MINUTE": "1000000000", "CITECHECK_PLAIN_STATIC": "true", "ALLOWED_HOSTS": "127.0.0.1,localhost"})
    with scale_database(scale, args.database_url, base_env) as (url, origin):
        env = {**base_env, "DATABASE_URL": url}
        print(f"scale {scale:g}: {origin}; load {loadavg()}", flush=True)
        prepared = django_json(PREPARE, env)
        explain = django_json(EXPLAIN, env)
        # Both servers with persistent connections (this checkout's production default; main's bench set it too).
        served = {"branch": ROOT} | ({"baseline": baseline} if baseline is not None else {})
        result: dict[str, Any] = {"scale": scale, "origin": origin, "load_start": loadavg(), "explain": explain,
                                  "passage_versions": prepared["passage_versions"]}
        with ExitStack() as stack:
            ports = {name: stack.enter_context(gunicorn(code, {**env, "DATABASE_CONN_MAX_AGE": "60"})) for name, code in served.items()}
            token, session = prepared["token"], prepared["session"]
            answer = " ".join(f"Section {n} says delivery takes {n + 1} working days [{k}]." for k, n in enumerate(range(5), start=1))
            payload = json.dumps({"answer": answer, "passage_version_ids": prepared["cited"], "question": "How long?"}).encode()
            for name, port in ports.items():  # warm both workers of each server
                answers_load(port, 2, payload, token)
            for clients in CLIENTS:
                for name, port in ports.items():
                    result.setdefault(name, {})[clients] = {"latencies": [], "wall": 0.0, "errors": [], "count": 0}
                for _ in range(args.rounds):
                    for name, port in ports.items():
                        run = answers_load(port, clients, payload, token)
                        slot = result[name][clients]
                        slot["latencies"] += run["latencies"]
                        slot["wall"] += run["wall"]
                        slot["errors"] += run["errors"]
                print(f"  POST /answers x{clients}: " + ", ".join(
                    f"{name} {statistics.median(result[name][clients]['latencies']) * 1000:.0f} ms" for name in ports), flush=True)
            for name, port in ports.items():
                result[name]["export"] = full_export(port, token)
                result[name]["search_rare"] = search_ms(port, session, f'"Reference {prepared["rare_id"]}."')
                result[name]["search_common"] = search_ms(port, session, '"damaged courier"')
                print(f"  {name}: export {result[name]['export']['per_s']:,.0f} passages/s; search rare "
                      f"{result[name]['search_rare']:.0f} ms, common {result[name]['search_common']:.0f} ms", flush=True)
        result["load_end"] = loadavg()
        return result


# --- the README section -------------------------------------------------------------------------


def _answers(slot: dict[str, Any]) -> tuple[float, float, float]:
    latencies = sorted(slot["latencies"])
    return statistics.median(latencies) * 1000, latencies[max(0, int(len(latencies) * 0.95) - 1)] * 1000, len(latencies) / slot["wall"]


def _verdict(ok: bool, why: str = "") -> str:
    return "met" if ok else f"**missed**{': ' + why if why else ''}"


def report(results: list[dict[str, Any]], baseline_ref: str | None) -> str:
    by_scale = {r["scale"]: r for r in results}
    scales = sorted(by_scale)
    big = scales[-1]
    head = "| measure | " + " | ".join(f"scale {s:g}" for s in scales)
    if len(scales) == 2:
        head += f" | ratio {scales[1]:g} / {scales[0]:g}"
    if baseline_ref:
        head += " | " + " | ".join(f"{baseline_ref} at {s:g}" for s in scales)
    head += " | goal |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]

    def row(label: str, value: Callable[[dict[str, Any]], float], fmt: str, goal: str) -> None:
        ours = [value(by_scale[s]["branch"]) for s in scales]
        cells = [fmt.format(v) for v in ours]
        if len(scales) == 2:
            cells.append(f"{ours[1] / ours[0]:.2f}x" if ours[0] else "—")
        if baseline_ref:
            cells += [fmt.format(value(by_scale[s]["baseline"])) for s in scales]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {goal} |")

    for clients in CLIENTS:
        row(f"POST /answers, {clients} client(s): median", lambda r, c=clients: _answers(r[c])[0], "{:.0f} ms",
            "< 50 ms" if clients == 4 else "")
        row(f"POST /answers, {clients} client(s): p95", lambda r, c=clients: _answers(r[c])[1], "{:.0f} ms", "")
        row(f"POST /answers, {clients} client(s): answers/s in total", lambda r, c=clients: _answers(r[c])[2], "{:.0f}",
            ">= 60/s" if clients == 4 else "")
    row("full export, pages of 1,000: passages/s", lambda r: r["export"]["per_s"], "{:,.0f}", ">= 5,000/s")
    row("full export: first 5 pages (median)", lambda r: r["export"]["first_ms"], "{:.0f} ms", "")
    row("full export: last 5 pages (median)", lambda r: r["export"]["last_ms"], "{:.0f} ms", "no growth")
    row('passage search, rare phrase ("Reference <id>.")', lambda r: r["search_rare"], "{:.0f} ms", "< 150 ms")
    row('passage search, common phrase ("damaged courier")', lambda r: r["search_common"], "{:.0f} ms", "< 150 ms")

    explain = ["| keys read before the page | " + " | ".join(f"subquery bound at {s:g} | literal bounds ({baseline_ref or 'main'}) at {s:g}" for s in scales) + " |",
               "|---|" + "---|---|" * len(scales)]
    for share in ("0.0", "0.95", "0.99"):
        cells = []
        for s in scales:
            e = by_scale[s]["explain"][share]
            cells += [f"{e['subquery'][0]:.1f} ms ({e['subquery'][1]})", f"{e['literal'][0]:.1f} ms ({e['literal'][1]})"]
        explain.append(f"| {float(share):.0%} | " + " | ".join(cells) + " |")

    goals = []
    at_big = by_scale[big]["branch"]
    median4, _, rate4 = _answers(at_big[4])
    goals.append(f"- POST /answers at 4 clients (scale {big:g}): median {median4:.0f} ms, {rate4:.0f} answers/s: "
                 f"median < 50 ms {_verdict(median4 < GOAL_ANSWER_MS, 'see the load average; the servers share 2 cores with the load generator')}, "
                 f">= 60/s {_verdict(rate4 >= GOAL_ANSWERS_PER_S, 'see the load average; the servers share 2 cores with the load generator')}.")
    export_ok = all(by_scale[s]["branch"]["export"]["per_s"] >= GOAL_EXPORT_PER_S for s in scales)
    goals.append(f"- Full export >= 5,000 passages/s at every size: {_verdict(export_ok)}. Last pages vs first at {big:g}: "
                 f"{at_big['export']['last_ms']:.0f} vs {at_big['export']['first_ms']:.0f} ms; the plan stays ordered to the last page: "
                 f"{_verdict(all(by_scale[s]['explain'][k]['subquery'][1] == 'ordered' for s in scales for k in ('0.0', '0.95', '0.99')))}.")
    for kind, label in (("search_rare", "rare"), ("search_common", "common")):
        goals.append(f"- Passage search, {label} phrase, at {big:g}: {at_big[kind]:.0f} ms: "
                     f"{_verdict(at_big[kind] < GOAL_SEARCH_MS, 'the whole page (the SQL is a part of it; see the load average)')}.")
    errors = {(r["scale"], name, c): r[name][c]["errors"][:3] for r in results for name in ("branch", "baseline") if name in r for c in CLIENTS if r[name][c]["errors"]}
    machine = (f"{os.cpu_count()} cores; load average (1, 5, 15 min) "
               + "; ".join(f"at {r['scale']:g}: {r['load_start']} before, {r['load_end']} after" for r in results) + ".")
    data = "; ".join(f"{r['scale']:g}: {r['passage_versions']:,} passage versions ({r['origin']})" for r in results)
    text = [
        f"This checkout{' and ' + baseline_ref + ' (its tree from git archive, its own gunicorn)' if baseline_ref else ''}, each served by "
        "gunicorn with 2 workers x 4 threads and persistent database connections, on the same PostgreSQL database per size, "
        "measured in turns through real HTTP from a load generator on 127.0.0.1; a throw-away redis-server; per-token rate limit "
        f"out of the way. Data: {data}. Machine: {machine}",
        "",
        *lines,
        "",
        "The export query itself (EXPLAIN ANALYZE, best of 3, page of 1,000; \"sort\" = the plan that reads and sorts everything after the cursor):",
        "",
        *explain,
        "",
        "Goals:",
        *goals,
    ]
    if errors:
        text += ["", f"Non-202 answers seen: {errors}"]
    return "\n".join(text)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    problem = postgres_problem()
    if problem:
        print(f"skipped: {problem}")
        return 0
    baseline_ref = None if args.no_baseline else args.baseline
    results = []
    with ExitStack() as stack:
        redis_url = stack.enter_context(own_redis(args.redis_url))
        baseline = stack.enter_context(baseline_code(baseline_ref)) if baseline_ref else None
        for scale in args.scale_list:
            results.append(measure_scale(scale, args, baseline, redis_url))
    text = report(results, baseline_ref)
    print(text)
    if not args.no_write:
        write_section(SECTION, text, COMMAND + (" " + " ".join(argv) if argv else ""), title="Integration API and passage search (bench/bench_api.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
