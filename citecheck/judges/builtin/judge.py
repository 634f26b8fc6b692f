"""Scoring of the built-in judge: the facts of a claim combined into one verdict."""

from __future__ import annotations

from typing import Any

from citecheck.judges import Verdict, validate_verdict
from citecheck.judges.builtin.analysis import _analyse_claim, _analyse_passage
from citecheck.judges.builtin.authorship import extract_authorship
from citecheck.judges.builtin.polarity import _merge_polarity, _polarity_compatible
from citecheck.judges.builtin.rules import (
    CONTRADICTED,
    SUPPORTED,
    _Fact,
    _judge_quantity,
    _judge_statement,
    _quantity_signature,
    _span,
)
from citecheck.judges.builtin.tokens import _IMPLIED, detect_language

BUILTIN_VERSION = "builtin-1"
HEURISTIC_PREFIX = "[heuristic] "
JUDGE_NAME = "builtin"


class BuiltinJudge:
    """The default judge: rules over the passage's own words; no model, no network."""

    name = JUDGE_NAME
    model = "rules"
    prompt_version = BUILTIN_VERSION

    def __init__(self, **config: Any) -> None:
        if config:
            raise TypeError(f"the builtin judge takes no configuration (got {sorted(config)})")

    def judge(self, claim: str, passage: str) -> Verdict:
        verdict = self._judge(claim, passage)
        return validate_verdict(verdict, passage)

    def _verdict(self, status: str, rationale: str, span: str | None = None,
                 span_start: int | None = None) -> Verdict:
        return Verdict(
            status=status, span=span, rationale=HEURISTIC_PREFIX + rationale, judge=self.name,
            model=self.model, prompt_version=self.prompt_version, heuristic=True, span_start=span_start,
        )

    def _judge(self, claim: str, passage: str) -> Verdict:
        if not passage.strip():
            return self._verdict("unavailable", "the passage is empty: there is nothing to check against")
        if not claim.strip():
            return self._verdict("unsupported", "the claim is empty")
        lang = detect_language(claim + " " + passage[:600])
        page = _analyse_passage(passage, lang)
        if page.navigation:
            return self._verdict("unsupported", "the passage is navigation or menu text only, not evidence")
        stated = _analyse_claim(claim, lang)
        claim_words = set(stated.all_words)
        facts: list[_Fact] = []
        for part in stated.parts:
            segments = [stated.segments[k] for k in part]
            part_key = set().union(*(s.own for s in segments)) if segments else set()
            part_pol = _merge_polarity([s.polarity for s in segments])
            quantities = [(s, q) for s in segments for q in s.quantities]
            if quantities:
                for segment, q in quantities:
                    # A claim segment with a subject of its own is judged by its own words;
                    # a gapped one ("... and the last on 1 May") by the words it inherits.
                    key = set(segment.own) if len(segment.own) >= 2 else segment.key
                    key = key or part_key or set(claim_words)
                    # "costs" belongs to the price, not to the duration in the same segment.
                    for other in segment.quantities:
                        if other is not q:
                            key -= _IMPLIED[lang].get(other.dim, frozenset())
                    facts.append(_judge_quantity(q, key, claim_words, part_pol, page, lang))
            elif part_key:
                facts.append(_judge_statement(part_key, part_pol, page, lang))
        if not facts:
            return self._verdict("unsupported", "the claim holds nothing the passage could back")
        contradicted = [f for f in facts if f.outcome == CONTRADICTED]
        supported = [f for f in facts if f.outcome == SUPPORTED]
        if contradicted:
            status, chosen = "contradicted", contradicted
        elif len(supported) == len(facts):
            status, chosen = "supported", supported
        elif supported:
            status, chosen = "partly_supported", supported
        else:
            notes = "; ".join(dict.fromkeys(f.note for f in facts))
            return self._verdict("unsupported", notes)
        span, start = _span(passage, page, chosen)
        notes = "; ".join(dict.fromkeys(f.note for f in (contradicted or facts)))
        if span is None:
            return self._verdict("unsupported", notes)
        return self._verdict(status, notes, span, start)

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
