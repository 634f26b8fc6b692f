"""Support judges: does a passage back a claim?

Pure module, no Django. A judge answers ``judge(claim, passage) -> Verdict`` with one of the
five statuses of the product, plus the verbatim span of the passage that backs the verdict.
Judges are pluggable: :func:`get_judge` builds the built-in offline judge (``builtin``, the
default) or the LLM judge on any OpenAI-compatible endpoint (``openai``).

Every verdict, whoever produced it, passes through :func:`validate_verdict` before anyone sees
it: a status outside the five, or a span that is not an exact substring of the passage, turns
the verdict into ``unavailable`` with the reason. A judge can be wrong; it can never cite
words the page does not contain.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from citecheck.fingerprint import fingerprint

__all__ = [
    "BACKED_STATUSES",
    "STATUSES",
    "Judge",
    "JudgeCache",
    "MemoryCache",
    "Verdict",
    "cache_key",
    "claim_hash",
    "empty_authorship",
    "passage_fingerprint",
    "unavailable",
    "validate_verdict",
]

SUPPORTED = "supported"
PARTLY_SUPPORTED = "partly_supported"
CONTRADICTED = "contradicted"
UNSUPPORTED = "unsupported"
UNAVAILABLE = "unavailable"

STATUSES: tuple[str, ...] = (SUPPORTED, PARTLY_SUPPORTED, CONTRADICTED, UNSUPPORTED, UNAVAILABLE)
# Statuses that must carry a span of the passage (the words that back or contradict the claim).
BACKED_STATUSES: frozenset[str] = frozenset({SUPPORTED, PARTLY_SUPPORTED, CONTRADICTED})


@dataclass(frozen=True, slots=True)
class Verdict:
    """One judgement of one claim against one passage.

    ``span`` is an exact substring of the passage for supported / partly_supported /
    contradicted, and None for unsupported / unavailable. ``span_start`` is its offset in the
    passage when known. ``heuristic`` is True for judges that decide by rules, not by a model.
    ``cached`` says the verdict came from the judge's cache (no request was made).
    ``confidence`` is ``high``, ``medium`` or ``low``: a ``low`` verdict is a guess the judge could
    not back (the desk shows it as "needs a person or the LLM judge"; a cascade asks the LLM).
    ``error`` is non-empty when the judge itself failed (endpoint down, timeout, unparseable
    reply): such a verdict is never a finding and is never cached; the claim stays pending.
    """

    status: str
    span: str | None
    rationale: str
    judge: str
    model: str = ""
    prompt_version: str = ""
    heuristic: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    span_start: int | None = None
    cached: bool = False
    confidence: str = "high"
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        names = {field.name for field in dataclasses.fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in names})


@runtime_checkable
class Judge(Protocol):
    """What every judge offers. ``name`` is stored with each judgement (``builtin``, ``openai``)."""

    name: str
    model: str
    prompt_version: str

    def judge(self, claim: str, passage: str) -> Verdict: ...

    def equivalent(self, claim_a: str, claim_b: str) -> bool: ...

    def authorship(self, page_text: str) -> dict[str, Any]: ...


class JudgeCache(Protocol):
    """Cache hook of a judge: the lead backs it with the Judgement table.

    ``key`` is :func:`cache_key`'s tuple. ``get`` returns a stored verdict or None.
    """

    def get(self, key: tuple[str, str, str, str, str]) -> Verdict | None: ...

    def set(self, key: tuple[str, str, str, str, str], verdict: Verdict) -> None: ...


class MemoryCache:
    """A `JudgeCache` in a dict, for one process's run (the command line, benches, tests)."""

    def __init__(self) -> None:
        self.data: dict[tuple[str, str, str, str, str], Verdict] = {}

    def get(self, key: tuple[str, str, str, str, str]) -> Verdict | None:
        return self.data.get(key)

    def set(self, key: tuple[str, str, str, str, str], verdict: Verdict) -> None:
        self.data[key] = verdict


def claim_hash(claim: str) -> str:
    """SHA-256 (hex) of the claim text exactly as judged."""
    return hashlib.sha256(claim.encode("utf-8")).hexdigest()


def passage_fingerprint(passage: str) -> str:
    """The passage fingerprint used in cache keys: the same as a stored PassageVersion's."""
    return fingerprint(passage)


def cache_key(claim: str, passage: str, judge: str, model: str, prompt_version: str) -> tuple[str, str, str, str, str]:
    """(claim text hash, passage fingerprint, judge, model, prompt version)."""
    return (claim_hash(claim), passage_fingerprint(passage), judge, model, prompt_version)


def empty_authorship() -> dict[str, Any]:
    """The authorship answer when nothing is known: every field null."""
    return {"authors": None, "affiliation": None, "publication": None}


def unavailable(reason: str, *, judge: str, model: str = "", prompt_version: str = "", heuristic: bool = False,
                prompt_tokens: int = 0, completion_tokens: int = 0) -> Verdict:
    """An ``unavailable`` verdict: the judge could not decide, for ``reason``."""
    return Verdict(
        status=UNAVAILABLE,
        span=None,
        rationale=reason,
        judge=judge,
        model=model,
        prompt_version=prompt_version,
        heuristic=heuristic,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
    )


def validate_verdict(verdict: Verdict, passage: str) -> Verdict:
    """Check a verdict against the passage it was given for.

    - an unknown status -> ``unavailable`` ("invalid status ...");
    - supported / partly_supported / contradicted without a span, or with a span that is not
      an exact substring of ``passage`` -> ``unavailable`` ("span not found in passage");
    - unsupported / unavailable -> the span is dropped (always None).
    ``span_start`` is filled in (first occurrence) when missing or wrong.
    """
    if verdict.status not in STATUSES:
        return _rejected(verdict, f"invalid status {verdict.status!r} from the judge")
    if verdict.status not in BACKED_STATUSES:
        if verdict.span is None and verdict.span_start is None:
            return verdict
        return dataclasses.replace(verdict, span=None, span_start=None)
    span = verdict.span
    if not span or not span.strip():
        return _rejected(verdict, f"the judge answered {verdict.status} without a span of the passage")
    if (
        verdict.span_start is not None
        and 0 <= verdict.span_start
        and passage[verdict.span_start : verdict.span_start + len(span)] == span
    ):
        return verdict
    start = passage.find(span)
    if start < 0:
        return _rejected(verdict, f"span not found in passage (the judge answered {verdict.status})")
    return dataclasses.replace(verdict, span_start=start)


def _rejected(verdict: Verdict, reason: str) -> Verdict:
    return unavailable(
        f"verdict rejected: {reason}",
        judge=verdict.judge,
        model=verdict.model,
        prompt_version=verdict.prompt_version,
        heuristic=verdict.heuristic,
        prompt_tokens=verdict.prompt_tokens,
        completion_tokens=verdict.completion_tokens,
    )
