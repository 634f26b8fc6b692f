"""Scoring of the built-in judge: the rules first, then the learned combiner over paraphrase features.

1. Empty passage -> ``unavailable``; navigation text -> ``unsupported``.
2. The rules (:func:`rules.judge_by_rules`) decide first when they can: a contradicted quantity,
   date, negation, modal or party makes the claim ``contradicted`` (never supported); every part
   found in the passage's own words -> ``supported`` (or ``partly_supported``). Their verdicts are
   ``high`` confidence: on the project's own pairs they are right 98% of the time.
3. Otherwise the combiner (:mod:`combiner`) weighs the paraphrase features (:mod:`paraphrase`):
   informativeness-weighted overlap with the best-aligned sentence window, numbers, negation,
   hedging, antonyms. A status is given only above its threshold; below every threshold the
   verdict is ``unsupported`` with ``confidence="low"`` and the rationale "the built-in judge
   could not decide": a guess is never passed off as a finding.
"""

from __future__ import annotations

from typing import Any

from citecheck.judges import Verdict, validate_verdict
from citecheck.judges.builtin.analysis import _analyse_claim, _analyse_passage
from citecheck.judges.builtin.authorship import extract_authorship
from citecheck.judges.builtin.backing import span_states_claim
from citecheck.judges.builtin.combiner import CONTRARY_FEATURES, LONG_PASSAGE, MIN_ALIGNED, load_combiner, settle
from citecheck.judges.builtin.paraphrase import FEATURE_NAMES, excerpt, features
from citecheck.judges.builtin.polarity import _merge_polarity, _polarity_compatible
from citecheck.judges.builtin.rules import RuleOutcome, _quantity_signature, judge_by_rules
from citecheck.judges.builtin.words import detect_language

BUILTIN_VERSION = "builtin-2"
HEURISTIC_PREFIX = "[heuristic] "
JUDGE_NAME = "builtin"
UNDECIDED = "the built-in judge could not decide"
# What an editor can check when the combiner says "contradicted" (one of these is always there).
_SIGNS = (
    ("neg_xor", "a negation on one side only"),
    ("antonym", "an opposite word"),
    ("null_best", "a finding of no effect"),
    ("null_claim", "the claim denies an effect"),
    ("num_missing", "a number of the claim is not in the passage"),
)
_NUM_MISSING = FEATURE_NAMES.index("num_missing")
_WCOV = FEATURE_NAMES.index("wcov_best")
_CONTRARY = [FEATURE_NAMES.index(name) for name in CONTRARY_FEATURES]


class BuiltinJudge:
    """The default judge: rules, then a learned combiner over the passage's words; no model, no network."""

    name = JUDGE_NAME
    model = "rules+lr"
    prompt_version = BUILTIN_VERSION

    def __init__(self, **config: Any) -> None:
        if config:
            raise TypeError(f"the builtin judge takes no configuration (got {sorted(config)})")

    def judge(self, claim: str, passage: str) -> Verdict:
        verdict = validate_verdict(self._judge(claim, passage), passage)
        if verdict.status == "supported" and verdict.span:
            # One rule for every path (rules, combiner, long pages): the span itself states the claim.
            lacking = span_states_claim(claim, verdict.span, detect_language(claim + " " + passage[:600]))
            if lacking is not None:
                return self._verdict("unsupported", f"{UNDECIDED}: a sentence matches the claim, but {lacking}",
                                     confidence="low")
        return verdict

    def _verdict(self, status: str, rationale: str, span: str | None = None,
                 span_start: int | None = None, confidence: str = "high") -> Verdict:
        return Verdict(
            status=status, span=span, rationale=HEURISTIC_PREFIX + rationale, judge=self.name,
            model=self.model, prompt_version=self.prompt_version, heuristic=True, span_start=span_start,
            confidence=confidence,
        )

    def _judge(self, claim: str, passage: str) -> Verdict:
        if not passage.strip():
            return self._verdict("unavailable", "the passage is empty: there is nothing to check against")
        if not claim.strip():
            return self._verdict("unsupported", "the claim is empty")
        lang = detect_language(claim + " " + passage[:600])
        window = excerpt(claim, passage, lang) if len(passage) > LONG_PASSAGE else None
        rule = judge_by_rules(claim, passage, lang, window=window)
        if rule.navigation:
            return self._verdict(rule.status, rule.note)
        if rule.status != "unsupported" and len(passage) <= LONG_PASSAGE:  # the rules decided; no need to weigh
            decision = settle(rule.status, None, {}, numbers_ok=True, long=False)
            return self._verdict(rule.status, rule.note, rule.span, rule.start, confidence=decision.confidence)
        return self._combined(claim, passage, lang, rule)

    def _combined(self, claim: str, passage: str, lang: str, rule: RuleOutcome) -> Verdict:
        # A short passage was analysed whole for the rules (cached): its numbers are read already.
        numbers = _analyse_passage(passage, lang).numbers if len(passage) <= LONG_PASSAGE else None
        values, best = features(claim, passage, lang, rule.status, numbers)
        combiner = load_combiner()
        probs = combiner.probabilities(values)
        decision = settle(rule.status, probs, combiner.thresholds, numbers_ok=values[_NUM_MISSING] == 0.0,
                          long=len(passage) > LONG_PASSAGE, aligned=values[_WCOV] >= MIN_ALIGNED,
                          contrary=any(values[k] for k in _CONTRARY))
        cover = f"its best sentence holds {values[_WCOV]:.0%} of the claim's informative words"
        odds = f"p={probs[decision.status]:.2f}" if decision.status in probs else ""
        if rule.status != "unsupported" and rule.span is not None:
            if decision.status == rule.status:
                return self._verdict(rule.status, rule.note, rule.span, rule.start, confidence=decision.confidence)
            return self._verdict(decision.status, f"every word of the claim is on this long page, but the "
                                 f"combiner does not find it stated ({odds}): {rule.note}", rule.span, rule.start,
                                 confidence=decision.confidence)
        if decision.confidence == "low":
            return self._verdict("unsupported", f"{UNDECIDED}: {cover} (p(unsupported)={probs['unsupported']:.2f}); "
                                 f"the rules found no part stated in the passage's own words ({rule.note})",
                                 confidence="low")
        if decision.status == "unsupported":
            return self._verdict("unsupported", f"the passage does not state this: {cover} ({odds})",
                                 confidence=decision.confidence)
        span = passage[best.start : best.end]
        stripped = span.strip()
        start = best.start + span.index(stripped) if stripped else best.start
        what = {
            "supported": "says this in other words",
            "partly_supported": "says part of this",
            "contradicted": "says otherwise",
        }[decision.status]
        if decision.status == "contradicted":
            signs = [text for name, text in _SIGNS if values[FEATURE_NAMES.index(name)]]
            what += f" ({', '.join(signs)})"
        return self._verdict(decision.status, f"the passage {what}: {cover} ({odds})", stripped or None,
                             start, confidence=decision.confidence)

    def equivalent(self, claim_a: str, claim_b: str) -> bool:
        """True when both claims have the same content words (Jaccard >= 0.7), the same
        quantities and the same polarity: used to deduplicate claims across sources."""
        lang = detect_language(claim_a + " " + claim_b)
        a, b = _analyse_claim(claim_a, lang), _analyse_claim(claim_b, lang)
        words_a, words_b = set(a.all_words), set(b.all_words)
        if not words_a or not words_b:
            return claim_a.strip().lower() == claim_b.strip().lower()
        jaccard = len(words_a & words_b) / len(words_a | words_b)
        if jaccard < 0.7:
            return False
        qa = sorted(_quantity_signature(q) for s in a.segments for q in s.quantities)
        qb = sorted(_quantity_signature(q) for s in b.segments for q in s.quantities)
        if qa != qb:
            return False
        pa = _merge_polarity([s.polarity for s in a.segments])
        pb = _merge_polarity([s.polarity for s in b.segments])
        return _polarity_compatible(pa, pb) and pa.modal == pb.modal

    def authorship(self, page_text: str) -> dict[str, Any]:
        return extract_authorship(page_text)


class RulesJudge(BuiltinJudge):
    """The rules alone (the built-in judge before the combiner): the baseline the benchmark compares with."""

    model = "rules"
    prompt_version = "builtin-1"

    def _judge(self, claim: str, passage: str) -> Verdict:
        if not passage.strip():
            return self._verdict("unavailable", "the passage is empty: there is nothing to check against")
        if not claim.strip():
            return self._verdict("unsupported", "the claim is empty")
        rule = judge_by_rules(claim, passage, detect_language(claim + " " + passage[:600]))
        return self._verdict(rule.status, rule.note, rule.span, rule.start)
