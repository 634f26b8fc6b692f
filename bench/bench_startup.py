"""Start-up of the commands that need no database ("in about a second"): the speed goal the
tests used to assert against a wall clock (tests/startup.py), measured here instead.

Each command runs with DATABASE_URL and REDIS_URL pointing at refused ports, as the tests run it;
the baseline is a bare `manage.py version` (settings and apps loaded, nothing else) measured in
the same run, interleaved, so a busy machine slows both alike. Medians of N runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import readme

ROOT = Path(__file__).resolve().parent.parent
SECTION = "startup"
COMMANDS = {
    "manage.py version (baseline)": ["version"],
    "check_url 'not a url' --json": ["check_url", "not a url at all", "--json"],
    "judge_claim --claim … --passage-file …": ["judge_claim", "--claim", "Child tickets cost €12.", "--passage-file", "{passage}"],
}


def _env() -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "REDIS_URL": "redis://127.0.0.1:1/0"}


def run(repeats: int) -> str:
    passage = ROOT / "var" / "bench-passage.txt"
    passage.parent.mkdir(parents=True, exist_ok=True)
    passage.write_text("Adult tickets cost €15. Child tickets cost €9.", encoding="utf-8")
    samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(repeats):
        for name, args in COMMANDS.items():
            argv = [sys.executable, "manage.py", *(a.format(passage=passage) for a in args)]
            started = time.monotonic()
            subprocess.run(argv, cwd=ROOT, env=_env(), capture_output=True, timeout=120)
            samples[name].append(time.monotonic() - started)
    base = statistics.median(samples["manage.py version (baseline)"])
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    rows = ["| command | median s | ratio to a bare start | goal |", "|---|---|---|---|"]
    for name, values in samples.items():
        median = statistics.median(values)
        goal = "reference" if name.startswith("manage.py version") else ("met" if median <= 2 * base + 1.0 else "NOT met") + " (<= 2x a bare start + 1 s)"
        rows.append(f"| `{name}` | {median:.2f} | {median / base:.2f}x | {goal} |")
    return "\n".join(rows) + f"\n\nMedians of {repeats} interleaved runs; load average {load} during the run; 2 CPUs shared.\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    table = run(args.repeats)
    print(table)
    if not args.no_write:
        readme.write_section(SECTION, table, ".venv/bin/python bench/bench_startup.py" + (f" --repeats {args.repeats}" if args.repeats != 5 else ""),
                             title="start-up of the commands without a database")


if __name__ == "__main__":
    main()
