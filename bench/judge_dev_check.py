"""The built-in judge on the dev pairs only, for whoever tunes it (issue 24, item 5). Never reads the held-out set.

Prints accuracy and false supports of the own dev pairs (``bench/data/judge_pairs.jsonl``, split "dev"), per
batch (id prefix), the gold-against-verdict counts, and with ``--public`` the HealthVer dev and WiCE dev figures
(item 6; read in place from ../shared/data/judge-eval, skipped when absent). ``--save FILE`` keeps every dev
verdict, ``--diff FILE`` lists the dev pairs whose verdict changed since; ``--show gold>verdict ...`` prints the
wrong pairs of that kind (of ``--prefix``) with the judge's rationale.

Usage: .venv/bin/python bench/judge_dev_check.py [--prefix d10-] [--public] [--save F] [--diff F] [--show supported>unsupported]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import judge_eval as je  # noqa: E402

from citecheck.judges.builtin import BuiltinJudge  # noqa: E402

LABELS = ("supported", "partly_supported", "contradicted", "unsupported", "unavailable")


def batch(pair_id: str) -> str:
    return pair_id.split("-")[0] + "-" if "-" in pair_id else "first"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--prefix", default="", help="only these pairs in the counts and --show (an id prefix)")
    parser.add_argument("--public", action="store_true", help="HealthVer dev and WiCE dev too (item 6)")
    parser.add_argument("--save", type=Path, help="write every dev verdict to this JSON file")
    parser.add_argument("--diff", type=Path, help="list the dev verdicts changed since this JSON file")
    parser.add_argument("--show", nargs="*", help="print the wrong pairs of these kinds (gold>verdict; none: all)")
    args = parser.parse_args()
    judge = BuiltinJudge()
    rows = [row for row in je.own_pairs() if row.get("split") == "dev"]
    got = {row["id"]: judge.judge(row["claim"], row["passage"]) for row in rows}
    by_batch: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for row in rows:
        status = got[row["id"]].status
        counts = by_batch[batch(row["id"])]
        counts[0] += 1
        counts[1] += status == row["expected"]
        counts[2] += status == "supported" and row["expected"] != "supported"
    total = [sum(c[k] for c in by_batch.values()) for k in range(3)]
    print(f"own dev pairs: {total[0]}, accuracy {total[1] / total[0]:.3f}, false supports {total[2]}")
    for name, (n, right, false) in sorted(by_batch.items()):
        print(f"  {name:7} {n:4} accuracy {right / n:.3f}, false supports {false}")
    chosen = [row for row in rows if row["id"].startswith(args.prefix)]
    confusion = collections.Counter((row["expected"], got[row["id"]].status) for row in chosen)
    print(f"gold (rows) against verdict ({', '.join(LABELS)}), {args.prefix or 'all'}:")
    for gold in LABELS:
        if any(confusion[(gold, s)] for s in LABELS):
            print(f"  {gold:17}" + "".join(f"{confusion[(gold, s)]:6}" for s in LABELS))
    if args.show is not None:
        for row in chosen:
            verdict = got[row["id"]]
            kind = f"{row['expected']}>{verdict.status}"
            if verdict.status != row["expected"] and (not args.show or kind in args.show):
                print(f"\n## {row['id']} {row['language']} {kind} ({verdict.confidence})\nclaim: {row['claim']}\n"
                      f"passage: {row['passage']}\nrationale: {verdict.rationale}")
    if args.diff:
        before = json.loads(args.diff.read_text(encoding="utf-8"))
        gold = {row["id"]: row["expected"] for row in rows}
        changed = [(k, before[k], v.status) for k, v in got.items() if before.get(k, v.status) != v.status]
        print(f"changed since {args.diff}: {len(changed)}")
        for pair_id, old, new in changed:
            print(f"  {pair_id}: {old} -> {new} (gold {gold[pair_id]})")
    if args.save:
        args.save.write_text(json.dumps({k: v.status for k, v in got.items()}), encoding="utf-8")
    if args.public:
        if je.shared_data_dir() is None:
            print("HealthVer / WiCE: skipped, ../shared/data/judge-eval is absent on this machine")
            return
        for name, data, by_claim in (("HealthVer dev", je.healthver(), False), ("WiCE dev claims", je.wice(), True)):
            verdicts = [(v.status, v.confidence) for v in (judge.judge(r["claim"], r["passage"]) for r in data)]
            items = je.claim_level(data, verdicts) if by_claim else je.pair_level(data, verdicts)
            m = je.metrics(items)
            print(f"{name}: coverage {m['coverage']:.3f}, accuracy {m['accuracy']:.3f}, false support "
                  f"{m['false_support']:.3f} ({m['false_support_count']}/{m['negatives']}), supported precision "
                  f"{m['supported_right']:.3f} ({m['said_supported']})")


if __name__ == "__main__":
    main()
