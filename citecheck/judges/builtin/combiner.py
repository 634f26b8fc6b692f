"""The learned combiner of the built-in judge: a multinomial logistic regression over the paraphrase
features, and the decision rule that turns its probabilities into a verdict and a confidence.

The coefficients live in ``combiner.json`` next to this file, fitted by ``bench/fit_judge.py`` on the
two public dev sets (HealthVer, WiCE) and the project's own dev pairs, with thresholds chosen by
cross-validation grouped by claim. Inference is plain Python: a few hundred multiplications.
"""

from __future__ import annotations

import json
import math
import operator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from citecheck.judges.builtin.paraphrase import FEATURE_NAMES

CONTRARY_FEATURES = ("num_missing", "neg_xor", "null_best", "null_claim", "antonym")

__all__ = ["CONTRARY_FEATURES", "CLASSES", "LONG_PASSAGE", "MIN_ALIGNED", "Combiner", "Decision", "decide", "load_combiner", "settle"]

CLASSES: tuple[str, ...] = ("supported", "partly_supported", "contradicted", "unsupported")
COEFFICIENTS = Path(__file__).resolve().with_name("combiner.json")
# A passage longer than this is a page, not a statement: every word of a claim somewhere in it
# does not make the claim stated there.
LONG_PASSAGE = 600
# The share of a claim's informative words its best passage window must hold before the combiner
# may call the claim backed or contradicted there.
MIN_ALIGNED = 0.34

# Used when combiner.json is missing: thresholds so high that the combiner never decides, which
# leaves the rules alone (every undecided pair is an honest low-confidence ``unsupported``).
_NEUTRAL_THRESHOLDS = {"supported": 2.0, "partly_supported": 2.0, "contradicted": 2.0, "unsupported": 2.0,
                       "high": 2.0}


@dataclass(frozen=True, slots=True)
class Combiner:
    version: str
    weights: tuple[tuple[float, ...], ...]  # one row per class, one column per feature
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    thresholds: dict[str, float]

    def probabilities(self, values: list[float]) -> dict[str, float]:
        z = [(v - m) / s for v, m, s in zip(values, self.mean, self.scale, strict=True)]
        logits = [sum(map(operator.mul, row, z)) for row in self.weights]  # rows and z: one value per feature
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return {label: e / total for label, e in zip(CLASSES, exps, strict=True)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Combiner:
        if tuple(data["features"]) != FEATURE_NAMES or tuple(data["classes"]) != CLASSES:
            raise ValueError("combiner.json was fitted for other features: run bench/fit_judge.py")
        if any(len(row) != len(FEATURE_NAMES) for row in data["weights"]) or len(data["weights"]) != len(CLASSES):
            raise ValueError("combiner.json has a weight row of the wrong length: run bench/fit_judge.py")
        return cls(
            version=str(data["version"]),
            weights=tuple(tuple(float(w) for w in row) for row in data["weights"]),
            mean=tuple(float(v) for v in data["mean"]),
            scale=tuple(float(v) or 1.0 for v in data["scale"]),
            thresholds={key: float(value) for key, value in data["thresholds"].items()},
        )


@lru_cache(maxsize=1)
def load_combiner() -> Combiner:
    """The shipped combiner; a neutral one (never decides) when the file is absent or stale."""
    try:
        return Combiner.from_dict(json.loads(COEFFICIENTS.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError):
        n = len(FEATURE_NAMES)
        return Combiner("none", tuple((0.0,) * n for _ in CLASSES), (0.0,) * n, (1.0,) * n, dict(_NEUTRAL_THRESHOLDS))


@dataclass(frozen=True, slots=True)
class Decision:
    status: str
    confidence: str  # high | medium | low
    probability: float


def decide(probs: dict[str, float], thresholds: dict[str, float], *, numbers_ok: bool,
           aligned: bool = True, contrary: bool = True) -> Decision:
    """The verdict for the combiner's probabilities.

    A status is given only when its probability reaches its threshold (``supported`` first, then
    ``contradicted``, ``partly_supported``, ``unsupported``); a claim whose numbers the passage does
    not hold is never ``supported``; a claim no passage window is aligned with (``aligned`` False:
    less than a third of its informative words in the best window) is neither backed nor
    contradicted by it, so only ``unsupported`` is possible; ``contradicted`` needs a visible
    sign (``contrary``: one-sided negation, an antonym, a finding of no effect, a missing number).
    Nothing reaching its threshold -> ``unsupported`` with low
    confidence (the judge could not decide). Confidence is ``high`` at or above ``thresholds["high"]``.
    """
    high = thresholds.get("high", 0.8)
    order = ("supported", "contradicted", "partly_supported", "unsupported")
    for status in order:
        if status == "supported" and not numbers_ok:
            continue
        if status != "unsupported" and not aligned:
            continue
        if status == "contradicted" and not contrary:
            continue  # "says otherwise" needs a sign an editor can see: negation, antonym, no-effect, number
        p = probs[status]
        if p >= thresholds[status]:
            return Decision(status, "high" if p >= high else "medium", p)
    return Decision("unsupported", "low", probs["unsupported"])


def settle(rule_status: str, probs: dict[str, float] | None, thresholds: dict[str, float], *,
           numbers_ok: bool, long: bool, aligned: bool = True, contrary: bool = True) -> Decision:
    """The whole policy, from what the rules said and the combiner's probabilities.

    - rules ``supported`` -> supported, high; on a long passage only when the combiner agrees
      (else ``partly_supported``, medium: the words are there, not necessarily the statement);
    - rules ``contradicted`` -> contradicted, medium (a part is contradicted: never supported);
    - rules ``partly_supported`` -> partly_supported, medium;
    - rules ``unsupported`` -> the combiner decides (:func:`decide`).
    """
    if rule_status == "supported":
        if long and probs is not None and probs["supported"] < thresholds["supported"]:
            return Decision("partly_supported", "medium", probs["supported"])
        return Decision("supported", "high", 1.0)
    if rule_status in ("contradicted", "partly_supported"):
        return Decision(rule_status, "medium", 1.0)
    if rule_status != "unsupported" or probs is None:
        return Decision(rule_status, "high", 1.0)
    return decide(probs, thresholds, numbers_ok=numbers_ok, aligned=aligned, contrary=contrary)
