"""The built-in judge on its own ground and its abstention (issue 24, items 5 and 6).

Item 5: accuracy and false support of the built-in judge on the held-out shop and public-service set
``bench/data/shop_heldout.jsonl`` (English, Polish, Lithuanian; written before any judge was run on it),
per language and per label; the dev pairs it was developed on (``bench/data/judge_pairs.jsonl``) in the
same run. The first blind run is recorded below (:data:`FIRST_BLIND_RUN`) and printed as it was.

Item 6: on HealthVer dev and WiCE dev (read in place from ../shared/data/judge-eval, skipped when absent):
coverage (verdicts not marked low-confidence), accuracy, macro-F1, false support and supported precision.

``--baseline REV`` scores a revision's judge on the same sets in a separate process (``git archive`` into a
temporary folder), so both rows come from one run.

Usage: .venv/bin/python bench/bench_own_ground.py [--baseline REV] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import judge_eval as je  # noqa: E402
import readme  # noqa: E402

HELDOUT = BENCH / "data" / "shop_heldout.jsonl"
SECTION = "own_ground"
LANGUAGES = ("en", "pl", "lt")
GOAL_ACCURACY = 0.90
GOAL_FALSE_SUPPORT = 0.05
GOAL_SUPPORTED_PRECISION = 0.90
# The first run of the built-in judge on the held-out set, before any change made for item 5
# (commit c0ee3e7, the set's own commit; the judge was main's 440d615), 2026-12-02 02:52 UTC, load 4.6.
FIRST_BLIND_RUN = {
    "all": (269, 0.625, 12, 170),
    "en": (89, 0.697, 4, 59),
    "pl": (88, 0.580, 3, 53),
    "lt": (92, 0.598, 5, 58),
}


def worker(shared: str) -> None:
    """Run inside the code under test (cwd = its root): every verdict of the sets, as JSON. ``shared``:
    the judge-eval folder ("" when absent), passed in because a baseline runs from a temporary folder."""
    sys.path.insert(0, os.getcwd())
    from citecheck.judges.builtin import BuiltinJudge

    judge = BuiltinJudge()
    sets: dict[str, list[dict[str, Any]]] = {"heldout": je.read_jsonl(HELDOUT), "dev": je.own_pairs()}
    if shared:
        sets["healthver"] = je.read_jsonl(Path(shared) / je.HEALTHVER)
        sets["wice"] = je.read_jsonl(Path(shared) / je.WICE)
    out = {}
    for name, rows in sets.items():
        verdicts = [judge.judge(row["claim"], row["passage"]) for row in rows]
        out[name] = [(v.status, v.confidence) for v in verdicts]
    print(json.dumps(out))


def verdicts_of(root: Path) -> dict[str, list[tuple[str, str]]]:
    shared = je.shared_data_dir()
    done = subprocess.run([sys.executable, str(root / "bench" / "bench_own_ground.py"), "--worker", str(shared or "")],
                          cwd=root,
                          capture_output=True, text=True, check=True)
    return {name: [tuple(v) for v in items] for name, items in json.loads(done.stdout.splitlines()[-1]).items()}


def export(rev: str, into: Path) -> None:
    archive = into / "src.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), rev], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    # the baseline is scored on this tree's data, which may be newer than the revision's
    (into / "bench" / "data").mkdir(parents=True, exist_ok=True)
    for name in ("shop_heldout.jsonl", "judge_pairs.jsonl"):
        (into / "bench" / "data" / name).write_bytes((BENCH / "data" / name).read_bytes())
    for name in ("bench_own_ground.py", "judge_eval.py", "readme.py"):
        (into / "bench" / name).write_bytes((BENCH / name).read_bytes())


def _pairs(rows: list[dict[str, Any]], verdicts: list[tuple[str, str]]) -> dict[str, Any]:
    items = [je.Scored(str(row.get("label") or row["expected"]), status, confidence != "low")
             for row, (status, confidence) in zip(rows, verdicts, strict=True)]
    metrics = je.metrics(items)
    # false support counts every pair whose gold label is not "supported" and the verdict is
    metrics["false_support_any"] = sum(1 for i in items if i.got == "supported" and i.gold != "supported")
    return metrics


def _f(value: float) -> str:
    return "–" if value != value else f"{value:.3f}"


def own_ground_rows(label: str, verdicts: dict[str, list[tuple[str, str]]]) -> list[str]:
    held = je.read_jsonl(HELDOUT)
    dev = je.own_pairs()
    lines = []
    for name, rows, got in (("held-out", held, verdicts["heldout"]), ("dev pairs", dev, verdicts["dev"])):
        m = _pairs(rows, got)
        met = "met" if m["accuracy"] >= GOAL_ACCURACY and m["false_support_any"] == 0 else "**missed**"
        goal = f"accuracy >= {GOAL_ACCURACY}, no false support: {met}" if name == "held-out" else ""
        lines.append(f"| {label} | {name}, all | {m['n']} | {_f(m['accuracy'])} | {m['false_support_any']} | {goal} |")
        if name == "held-out":
            for lang in LANGUAGES:
                sel = [i for i, row in enumerate(rows) if row["language"] == lang]
                ml = _pairs([rows[i] for i in sel], [got[i] for i in sel])
                lines.append(f"| {label} | {name}, {lang} | {ml['n']} | {_f(ml['accuracy'])} | {ml['false_support_any']} | |")
    return lines


STATUSES = ("supported", "partly_supported", "contradicted", "unsupported")


def confusion_rows(label: str, got: list[tuple[str, str]]) -> list[str]:
    """Gold label against verdict on the held-out set: counts only, no pair is named."""
    held = je.read_jsonl(HELDOUT)
    counts: dict[tuple[str, str], int] = {}
    for row, (status, _confidence) in zip(held, got, strict=True):
        key = (row["expected"], status)
        counts[key] = counts.get(key, 0) + 1
    return [f"| {label} | {gold} | " + " | ".join(str(counts.get((gold, s), 0)) for s in STATUSES) + " |"
            for gold in STATUSES]


def abstention_rows(label: str, verdicts: dict[str, list[tuple[str, str]]]) -> list[str]:
    if "healthver" not in verdicts:
        return []
    lines = []
    for name, rows, claim_scored in (("HealthVer dev", je.healthver(), False), ("WiCE dev (claims)", je.wice(), True)):
        got = verdicts["healthver" if name.startswith("Health") else "wice"]
        items = je.claim_level(rows, got) if claim_scored else je.pair_level(rows, got)
        m = je.metrics(items)
        ok = m["false_support"] <= GOAL_FALSE_SUPPORT and m["supported_right"] == m["supported_right"] \
            and m["supported_right"] >= GOAL_SUPPORTED_PRECISION
        lines.append(
            f"| {label} | {name} | {m['n']} | {_f(m['coverage'])} | {_f(m['accuracy'])} | {_f(m['macro_f1'])} "
            f"| {_f(m['false_support'])} ({m['false_support_count']}/{m['negatives']}) "
            f"| {_f(m['supported_right'])} ({m['said_supported']}) | {'met' if ok else '**missed**'} |")
    return lines


def run(baseline: str | None) -> str:
    ours = verdicts_of(ROOT)
    theirs = None
    if baseline:
        with tempfile.TemporaryDirectory() as tmp:
            export(baseline, Path(tmp))
            theirs = verdicts_of(Path(tmp))
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"] * 3
    held = je.read_jsonl(HELDOUT)
    counts = {label: sum(1 for row in held if row["expected"] == label) for label in
              ("supported", "contradicted", "unsupported", "partly_supported")}
    lines = [
        f"Load average at the end of the run: {' '.join(load)}.",
        "",
        f"### Item 5: shop and public-service text (held-out `bench/data/shop_heldout.jsonl`, {len(held)} pairs)",
        "",
        "The held-out set was written by hand before any judge was run on it and committed on its own "
        "(c0ee3e7): 30 passages of shop, delivery, returns, warranty, opening-hours and public-service text, "
        f"{', '.join(f'{n} {label}' for label, n in counts.items())}; "
        + ", ".join(f"{sum(1 for r in held if r['language'] == lang)} {lang}" for lang in LANGUAGES)
        + ". No sentence of it is in the dev pairs. False support = pairs whose gold label is not `supported` "
        "that the judge calls `supported`.",
        "",
        "| judge | pairs | n | accuracy | false support | goal |",
        "|---|---|---|---|---|---|",
    ]
    for key, (n, acc, fs, _neg) in FIRST_BLIND_RUN.items():
        part = "held-out, all" if key == "all" else f"held-out, {key}"
        goal = "accuracy >= 0.9, no false support: **missed**" if key == "all" else ""
        lines.append(f"| first blind run (recorded, main 440d615) | {part} | {n} | {acc:.3f} | {fs} | {goal} |")
    if theirs is not None:
        lines += own_ground_rows(f"main ({baseline}), this run", theirs)
    lines += own_ground_rows("this branch", ours)
    lines += [
        "",
        "Held-out, gold label (rows) against verdict (columns), counts:",
        "",
        "| judge | gold | " + " | ".join(STATUSES) + " |",
        "|---|---|" + "---|" * len(STATUSES),
    ]
    if theirs is not None:
        lines += confusion_rows(f"main ({baseline})", theirs["heldout"])
    lines += confusion_rows("this branch", ours["heldout"])
    lines += [
        "",
        "### Item 6: honest abstention on real text (HealthVer dev pairs, WiCE dev claims)",
        "",
        "Coverage = share of verdicts not marked low-confidence (the rest a cascade sends to the LLM); "
        "supported precision = share of `supported` verdicts that are right (number of them).",
        "",
        "| judge | data | items | coverage | accuracy | macro-F1 | false support | supported precision (n) "
        f"| goal: false support <= {GOAL_FALSE_SUPPORT}, supported precision >= {GOAL_SUPPORTED_PRECISION} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    if theirs is not None:
        lines += abstention_rows(f"main ({baseline})", theirs)
    lines += abstention_rows("this branch", ours)
    if "healthver" not in ours:
        lines.append("Skipped: ../shared/data/judge-eval is absent on this machine.")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--baseline", default=None, help="a git revision to score in the same run (e.g. main)")
    parser.add_argument("--no-write", action="store_true", help="print only, do not update bench/README.md")
    parser.add_argument("--worker", nargs="?", const="", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker)
        return
    body = run(args.baseline)
    print(body)
    if not args.no_write:
        command = ".venv/bin/python bench/bench_own_ground.py" + (f" --baseline {args.baseline}" if args.baseline else "")
        readme.write_section(SECTION, body, command, title="built-in judge on its own ground and its abstention (issue 24, items 5-6)")


if __name__ == "__main__":
    main()
