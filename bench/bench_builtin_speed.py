"""Speed of the built-in judge against a baseline revision, measured in the same run (issue 24).

Two sets of real pairs, read in place from ../shared/data/judge-eval: HealthVer dev (1,917 short
pairs, passages of about 200 characters) and WiCE dev (1,043 chunks of about 1,500 characters). Every
per-passage and per-claim cache of the judge is cleared before each pair, so each pair is judged
as if its passage were new (no memo of an identical pair or passage stands in for judging); the
per-word caches (stems, word weights) stay warm after a first pass, as in a long-running worker.

The baseline (``--baseline REV``, default the commit before the speed work) is exported with
``git archive`` into a temporary folder and run in its own process, alternating with the working
tree's code, ``--repeats`` times each; medians are reported. The verdicts of both are scored on the
same pairs (accuracy, macro-F1, false support) and compared one by one.

Usage: .venv/bin/python bench/bench_builtin_speed.py [--baseline REV] [--repeats N] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
BASELINE = "5938a95"  # main when issue 24 began, before any of its speed work (later main commits: see bench/README.md)
SECTION = "builtin_speed"
GOALS = {"HealthVer dev": 2000, "WiCE dev": 200}
# Per-passage and per-claim caches, by module and name (names missing in one revision are skipped).
PASSAGE_CACHES = {
    "citecheck.judges.builtin.analysis": ("_analyse_passage", "_passage_sentences"),
    "citecheck.judges.builtin.paraphrase": ("_passage", "_passage_numbers"),
}
CLAIM_CACHES = {
    "citecheck.judges.builtin.analysis": ("_analyse_claim",),
    "citecheck.judges.builtin.paraphrase": ("_read",),
}


def worker(repeats: int) -> None:
    """Run inside the code under test (cwd = its root): time the judge, print JSON."""
    import importlib

    sys.path.insert(0, os.getcwd())
    sys.path.insert(0, str(BENCH))
    import judge_eval as je

    from citecheck.judges.builtin import BuiltinJudge

    def found(table: dict[str, tuple[str, ...]]) -> list[Any]:
        return [getattr(importlib.import_module(m), n) for m, names in table.items()
                for n in names if hasattr(importlib.import_module(m), n)]

    passage_caches, claim_caches = found(PASSAGE_CACHES), found(CLAIM_CACHES)
    every = passage_caches + claim_caches

    def clear(caches: list[Any] = every) -> None:
        for cache in caches:
            cache.cache_clear()

    judge = BuiltinJudge()
    out: dict[str, Any] = {}
    for name, rows in (("HealthVer dev", je.healthver()), ("WiCE dev", je.wice())):
        pairs = [(r["claim"], r["passage"]) for r in rows]
        verdicts = []
        for claim, passage in pairs:  # first pass: warms the word caches, gives the verdicts
            clear()
            v = judge.judge(claim, passage)
            verdicts.append([v.status, v.confidence, v.span])
        rates, claims_kept = [], []
        for _ in range(repeats):
            for caches, into in ((every, rates), (passage_caches, claims_kept)):
                clear()
                started = time.process_time()
                for claim, passage in pairs:
                    clear(caches)
                    judge.judge(claim, passage)
                into.append(len(pairs) / (time.process_time() - started))
        out[name] = {"rates": rates, "claims_kept": claims_kept, "verdicts": verdicts}
    print(json.dumps(out))


def run_worker(root: Path, repeats: int) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--repeats", str(repeats)],
                          cwd=root, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(root)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(rev: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", "--format=tar", rev, "citecheck"], cwd=ROOT, capture_output=True,
                             check=True).stdout
    tar_path = into / "baseline.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"git revision to compare with (default {BASELINE})")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes per process (default 3)")
    parser.add_argument("--rounds", type=int, default=2, help="processes of each code, alternating (default 2)")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.repeats)
        return
    sys.path.insert(0, str(BENCH))
    import judge_eval as je
    import readme

    if je.shared_data_dir() is None:
        raise SystemExit("../shared/data/judge-eval is absent: nothing to measure on")
    load_before = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    results: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
    with tempfile.TemporaryDirectory() as tmp:
        export(args.baseline, Path(tmp))
        for _ in range(args.rounds):
            results["baseline"].append(run_worker(Path(tmp), args.repeats))
            results["current"].append(run_worker(ROOT, args.repeats))
    load_after = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = {"HealthVer dev": je.healthver(), "WiCE dev": je.wice()}
    lines = [f"Baseline: `{args.baseline}` (the code before the speed work), exported with `git archive` and run in "
             f"its own process, alternating with the working tree, {args.rounds} processes × {args.repeats} timed "
             f"passes each; pairs per CPU-second of one process, median; word caches (stems, word weights) warm, as "
             f"in a long-running worker. Load average (1/5/15) before {load_before}, after "
             f"{load_after}, on this shared 2-core machine.", "",
             "Two ways of clearing: *all new* clears the passage's and the claim's caches before every pair; *claims "
             "kept* clears only the passage's, as when one answer's claim is judged against its several passages "
             "(each HealthVer claim has about 8 passages, each WiCE claim about 3). No passage is ever reused.", "",
             "| set | pairs | caches cleared | baseline pairs/s | now pairs/s | ratio | goal | verdicts changed | accuracy before → now | macro-F1 before → now | false support before → now |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, data in rows.items():
        before_v = results["baseline"][0][name]["verdicts"]
        now_v = results["current"][0][name]["verdicts"]
        changed = sum(1 for a, b in zip(before_v, now_v, strict=True) if a != b)
        claims = name.startswith("WiCE")
        scored = []
        for verdicts in (before_v, now_v):
            pairs = [(v[0], v[1]) for v in verdicts]
            items = je.claim_level(data, pairs) if claims else je.pair_level(data, pairs)
            scored.append(je.metrics(items))
        goal = GOALS[name]
        for mode, label in (("rates", "all new"), ("claims_kept", "claims kept")):
            base = statistics.median(r for run in results["baseline"] for r in run[name][mode])
            now = statistics.median(r for run in results["current"] for r in run[name][mode])
            lines.append(f"| {name} | {len(data)} | {label} | {base:,.0f} | {now:,.0f} | {now / base:.2f} | ≥ {goal:,}: "
                         f"{'met' if now >= goal else '**missed**'} | {changed} | {scored[0]['accuracy']:.3f} → "
                         f"{scored[1]['accuracy']:.3f} | {scored[0]['macro_f1']:.3f} → {scored[1]['macro_f1']:.3f} | "
                         f"{scored[0]['false_support']:.3f} → {scored[1]['false_support']:.3f} |")
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        readme.write_section(SECTION, body, "bench/bench_builtin_speed.py", title="built-in judge speed (issue 24)")


if __name__ == "__main__":
    main()
