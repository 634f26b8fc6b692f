"""The cascade judge: the built-in judge first, the LLM judge only where the built-in one is unsure.

A built-in verdict with ``confidence="low"`` (the built-in judge could not decide) is sent to the
LLM judge; every other built-in verdict stands, so the LLM is asked only where it is needed. When
the LLM fails (``Verdict.error`` set), that failure is returned, not the built-in guess: the claim
stays pending and is asked again later. ``asked`` and ``judged`` count the share sent on.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from citecheck.judges import Judge, Verdict

__all__ = ["CascadeJudge"]


class CascadeJudge:
    name = "cascade"

    def __init__(self, first: Judge, second: Judge) -> None:
        self.first = first
        self.second = second
        self.model = f"{first.model}>{second.model}"
        self.prompt_version = f"{first.prompt_version}>{second.prompt_version}"
        self.judged = 0
        self.asked = 0
        self._lock = threading.Lock()

    @property
    def asked_share(self) -> float:
        """The share of judged pairs the LLM was asked about."""
        return self.asked / self.judged if self.judged else 0.0

    def judge(self, claim: str, passage: str) -> Verdict:
        verdict = self.first.judge(claim, passage)
        unsure = verdict.confidence == "low"
        with self._lock:
            self.judged += 1
            self.asked += unsure
        if not unsure:
            return verdict
        second = self.second.judge(claim, passage)
        note = f" (the built-in judge could not decide: {verdict.rationale})"
        return dataclasses.replace(second, rationale=(second.rationale + note)[:2000])

    def equivalent(self, claim_a: str, claim_b: str) -> bool:
        return self.first.equivalent(claim_a, claim_b)

    def authorship(self, page_text: str) -> dict[str, Any]:
        return self.first.authorship(page_text)

    def split_claims(self, sentence: str) -> list[str]:
        split = getattr(self.second, "split_claims", None)
        return split(sentence) if split is not None else [sentence]
