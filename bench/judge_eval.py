"""Scoring the judges on real, human-labelled text (issue 13): data loading and metrics.

Shared by ``bench/bench_judge.py`` (the figures in bench/README.md) and ``bench/fit_judge.py`` (fits
the built-in judge's combiner). The data is read in place from ``../shared/data/judge-eval/`` and
never copied into the repository; :func:`shared_data_dir` returns None when it is absent.

- HealthVer dev: one row per claim/passage pair, 3 labels (supported, contradicted, unsupported).
- WiCE dev: several chunks per claim; as the authors do, a claim is scored by its most supportive
  chunk (supported > partly_supported > anything else), on 3 labels (supported, partly_supported,
  unsupported; a ``contradicted`` verdict counts as ``unsupported`` there, WiCE has no such class).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEALTHVER = "healthver_dev.jsonl"
WICE = "wice_claim_oraclechunk_dev.jsonl"
NEGATIVE = ("contradicted", "unsupported")
_RANK = {"supported": 2, "partly_supported": 1}


def shared_data_dir() -> Path | None:
    """``../shared/data/judge-eval`` next to the repository, or None when it is absent."""
    path = ROOT.parent / "shared" / "data" / "judge-eval"
    return path if (path / HEALTHVER).is_file() and (path / WICE).is_file() else None


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def own_pairs() -> list[dict[str, Any]]:
    rows = read_jsonl(ROOT / "bench" / "data" / "judge_pairs.jsonl")
    return [{**row, "label": row["expected"], "group": row["id"]} for row in rows]


def healthver() -> list[dict[str, Any]]:
    data = shared_data_dir()
    assert data is not None
    return [{**row, "group": row["claim"]} for row in read_jsonl(data / HEALTHVER)]


def wice() -> list[dict[str, Any]]:
    data = shared_data_dir()
    assert data is not None
    return [{**row, "group": row["claim"]} for row in read_jsonl(data / WICE)]


@dataclass(frozen=True, slots=True)
class Scored:
    """One scored item: the gold label, the predicted status and whether it was confident."""

    gold: str
    got: str
    confident: bool


def claim_level(rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, str]]) -> list[Scored]:
    """WiCE: one item per claim, the most supportive chunk's verdict (and its confidence)."""
    by_claim: dict[str, list[tuple[str, str, str]]] = {}
    for row, (status, confidence) in zip(rows, verdicts, strict=True):
        by_claim.setdefault(row["claim"], []).append((row["label"], status, confidence))
    out = []
    for items in by_claim.values():
        gold = max((label for label, _, _ in items), key=lambda s: _RANK.get(s, 0))
        gold = gold if gold in _RANK else "unsupported"
        _, status, confidence = max(items, key=lambda item: (_RANK.get(item[1], 0), item[2] != "low"))
        status = status if status in _RANK else "unsupported"
        out.append(Scored(gold, status, confidence != "low"))
    return out


def pair_level(rows: Sequence[dict[str, Any]], verdicts: Sequence[tuple[str, str]]) -> list[Scored]:
    return [Scored(row["label"], status, confidence != "low") for row, (status, confidence) in zip(rows, verdicts, strict=True)]


def metrics(items: Sequence[Scored], labels: Iterable[str] | None = None) -> dict[str, Any]:
    """accuracy, macro-F1 over ``labels`` (default: the gold labels present), per-label precision and
    recall, false-support rate, supported precision, coverage and accuracy on the covered items."""
    labels = list(labels) if labels is not None else sorted({item.gold for item in items})
    n = len(items)
    correct = sum(item.gold == item.got for item in items)
    per: dict[str, tuple[float, float, int]] = {}
    f1s = []
    for label in labels:
        tp = sum(1 for item in items if item.got == label and item.gold == label)
        predicted = sum(1 for item in items if item.got == label)
        actual = sum(1 for item in items if item.gold == label)
        precision = tp / predicted if predicted else float("nan")
        recall = tp / actual if actual else float("nan")
        per[label] = (precision, recall, actual)
        f1s.append(0.0 if not tp else 2 * precision * recall / (precision + recall))
    negatives = [item for item in items if item.gold in NEGATIVE]
    false_support = sum(1 for item in negatives if item.got == "supported")
    said_supported = [item for item in items if item.got == "supported"]
    covered = [item for item in items if item.confident]
    return {
        "n": n,
        "accuracy": correct / n if n else 0.0,
        "macro_f1": sum(f1s) / len(f1s) if f1s else 0.0,
        "per_label": per,
        "false_support": false_support / len(negatives) if negatives else 0.0,
        "false_support_count": false_support,
        "negatives": len(negatives),
        "supported_right": (sum(1 for item in said_supported if item.gold == "supported") / len(said_supported)
                            if said_supported else float("nan")),
        "said_supported": len(said_supported),
        "coverage": len(covered) / n if n else 0.0,
        "covered_accuracy": (sum(item.gold == item.got for item in covered) / len(covered)) if covered else float("nan"),
    }


def evaluate(judge_fn: Callable[[str, str], tuple[str, str]], rows: Sequence[dict[str, Any]], *,
             claim_scored: bool) -> dict[str, Any]:
    """Run ``judge_fn(claim, passage) -> (status, confidence)`` over ``rows`` and score it."""
    verdicts = [judge_fn(row["claim"], row["passage"]) for row in rows]
    items = claim_level(rows, verdicts) if claim_scored else pair_level(rows, verdicts)
    return metrics(items)
