"""Keep a new batch of dev pairs apart from the held-out set (issue 24, item 5), without showing it.

Reads a JSONL file of new pairs (``claim``, ``passage``, ...) and drops, in place, every pair that shares a
normalised sentence (case, accents, spaces and punctuation folded) with ``bench/data/shop_heldout.jsonl``:
its claim, or any sentence of its passage. Only counts are printed, never a held-out sentence or which pair
was dropped, so whoever writes dev pairs stays blind to the held-out set.

Usage: .venv/bin/python bench/heldout_overlap.py NEW_PAIRS.jsonl [--check]   (--check: count, do not write)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

HELDOUT = Path(__file__).resolve().parent / "data" / "shop_heldout.jsonl"
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def normalised(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(re.findall(r"\w+", folded))


def sentences(row: dict) -> set[str]:
    parts = [row["claim"], *_SENTENCE_END.split(row["passage"])]
    return {n for n in (normalised(p) for p in parts) if n}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("pairs", type=Path)
    parser.add_argument("--check", action="store_true", help="count only; leave the file as it is")
    args = parser.parse_args()
    held: set[str] = set()
    for line in HELDOUT.read_text(encoding="utf-8").splitlines():
        if line.strip():
            held |= sentences(json.loads(line))
    rows = [json.loads(line) for line in args.pairs.read_text(encoding="utf-8").splitlines() if line.strip()]
    kept = [row for row in rows if not (sentences(row) & held)]
    print(f"{len(rows)} pairs read, {len(rows) - len(kept)} share a sentence with the held-out set, {len(kept)} kept")
    if not args.check and len(kept) != len(rows):
        args.pairs.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in kept), encoding="utf-8")
    sys.exit(0)


if __name__ == "__main__":
    main()
