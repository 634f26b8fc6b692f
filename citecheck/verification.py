"""Cross-source rules, claim and answer states and the verification report card (pure, no Django).

The database side feeds these functions plain records; nothing here reads or writes rows.
Two verification modes (README "Verification modes"):

- ``knowledge_base`` (seed 004, a site's chatbot): a claim is *supported* when an active,
  approved passage of a **primary** source backs it. Supplementary evidence alone makes it
  supported but "explanation only". An approved primary source that contradicts the claim
  makes it *contradicted*, with that source's span as the correction.
- ``research`` (seed 000, an agent collecting facts from the open web): a claim is *verified*
  (state ``supported``) when passages from at least two independent sources (different
  registrable domains) support it; with one domain it is ``single_source``. Evidence is
  ordered by quality score; a contradiction counts from a credible source only.

Per-claim states: ``supported``, ``partly_supported`` (which part), ``contradicted``
(correction), ``conflicting`` (two approved sources disagree: both sides), ``single_source``
(research only), ``no_evidence``, ``unavailable`` (link down, blocked, judge error or an unsure
judge: verification pending) and ``outdated`` (the evidence changed or was superseded).

The answer state follows this precedence (first that applies):

1. ``contradicted`` — a claim is refuted by an approved source;
2. ``conflicting`` — approved sources disagree with each other about a claim;
3. ``outdated`` — a claim's evidence changed, was superseded, or is past its freshness window;
4. ``pending`` — a claim could not be checked yet (evidence unavailable, judge failed);
5. ``supported`` — every claim is backed;
6. ``partly_supported`` — some claims or parts are backed, others are open;
7. ``no_evidence`` — nothing is backed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from citecheck.urlnorm import registrable_domain

__all__ = [
    "ANSWER_PRECEDENCE",
    "DEFAULT_FRESHNESS_DAYS",
    "KNOWLEDGE_BASE",
    "MODES",
    "RESEARCH",
    "AnswerStateResult",
    "ClaimResult",
    "EvidenceRecord",
    "QualityScore",
    "answer_state",
    "claim_kind",
    "claim_state",
    "follow_up_queries",
    "freshness_expires_at",
    "freshness_lapsed",
    "registrable_domain",
    "render_citations",
    "report_card",
    "source_quality",
]

KNOWLEDGE_BASE, RESEARCH = "knowledge_base", "research"
MODES = (KNOWLEDGE_BASE, RESEARCH)

# Claim states (the same strings as claims.models.ClaimState).
SUPPORTED, PARTLY, CONTRADICTED, CONFLICTING = "supported", "partly_supported", "contradicted", "conflicting"
SINGLE_SOURCE, NO_EVIDENCE, UNAVAILABLE, OUTDATED = "single_source", "no_evidence", "unavailable", "outdated"
# Answer states (claims.models.AnswerState): the claim strings plus "pending".
PENDING = "pending"
ANSWER_PRECEDENCE = (CONTRADICTED, CONFLICTING, OUTDATED, PENDING, SUPPORTED, PARTLY, NO_EVIDENCE)
PRIMARY, SUPPLEMENTARY = "primary", "supplementary"

# How a cited passage stands now (sources.selectors.passage_usability, plus the judge's side).
UNUSABLE = frozenset({"blocked", "missing", "unverified", "unapproved", "judge_error", "unsure"})
PENDING_REASONS: dict[str, str] = {
    "blocked": "the evidence is blocked",
    "missing": "the page is missing",
    "unverified": "the page could not be checked (link down)",
    "unapproved": "the page is not approved yet (waiting for an approver)",
    "judge_error": "the judge could not be reached",
    "unsure": "the judge was unsure: needs a person or the LLM judge",
}

DEFAULT_FRESHNESS_DAYS: dict[str, int] = {"high": 30, "normal": 180, "low": 365}
DEFAULT_MIN_VERIFICATION_RATE = 0.70
DEFAULT_QUALITY_WEIGHTS: dict[str, float] = {"tier": 0.5, "recency": 0.2, "priority": 0.3}
# In research mode a contradiction counts ("credible") from a source whose quality is at least this.
DEFAULT_MIN_CREDIBLE_QUALITY = 0.35


# --- records ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QualityScore:
    """Quality in [0, 1] and its parts (each in [0, 1]) with the weights used."""

    score: float
    parts: dict[str, float]
    weights: dict[str, float]

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "parts": dict(self.parts), "weights": dict(self.weights)}


@dataclass(frozen=True, slots=True)
class EvidenceRecord:
    """One verdict of one claim against one passage, with what is known about its source.

    ``domain`` may be a host or a registrable domain: it is reduced to the registrable domain
    before sources are counted. ``tier`` is the DomainPolicy tier score in [0, 1] (None =
    unknown). ``usability`` is how the passage stands now: ``active`` (approved, in the active
    version, unblocked), ``changed`` (the live page no longer says it), ``outdated`` /
    ``removed`` (superseded, or gone from the active version), ``blocked``, ``missing``,
    ``unverified`` (link down), ``judge_error`` (the judge failed) or ``unsure`` (a
    low-confidence verdict). ``document`` and ``link_text`` name the source for the wording.
    """

    source_id: int | str
    domain: str
    status: str  # a judge status: supported, partly_supported, contradicted, unsupported, unavailable
    priority: str = PRIMARY
    tier: float | None = None
    page_date: date | datetime | None = None
    fetched_at: datetime | None = None
    is_current: bool = True
    risk_level: str = "normal"
    span: str | None = None
    passage_id: int | str | None = None
    url: str = ""
    title: str = ""
    judge: str = ""
    usability: str = "active"
    confidence: str = "high"
    rationale: str = ""
    document: str = ""
    link_text: str = ""
    error: str = ""


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """A claim's state over all its evidence, in one verification mode."""

    claim: str
    state: str
    mode: str
    verified: bool
    confidence: str
    kind: str
    independent_supporters: int
    supporting: tuple[dict[str, Any], ...]
    contradicting: tuple[dict[str, Any], ...]
    partial: tuple[dict[str, Any], ...]
    supplementary_only: bool
    correction: dict[str, Any] | None = None
    pending: tuple[str, ...] = ()
    stale: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()
    needs_review: bool = False

    @property
    def explanation_only(self) -> bool:
        return self.state == SUPPORTED and self.supplementary_only and self.mode == KNOWLEDGE_BASE

    @property
    def backed(self) -> bool:
        return self.state in (SUPPORTED, SINGLE_SOURCE, PARTLY)

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim, "state": self.state, "mode": self.mode, "verified": self.verified,
            "confidence": self.confidence, "kind": self.kind,
            "independent_supporters": self.independent_supporters, "supporting": list(self.supporting),
            "contradicting": list(self.contradicting), "partial": list(self.partial),
            "supplementary_only": self.supplementary_only, "explanation_only": self.explanation_only,
            "correction": self.correction, "pending": list(self.pending), "stale": list(self.stale),
            "notes": list(self.notes), "needs_review": self.needs_review,
        }


@dataclass(frozen=True, slots=True)
class AnswerStateResult:
    state: str
    mode: str
    reasons: tuple[str, ...]
    claims: tuple[ClaimResult, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "mode": self.mode, "reasons": list(self.reasons),
                "precedence": list(ANSWER_PRECEDENCE)}


# --- quality ------------------------------------------------------------------------------------


def _as_datetime(value: date | datetime) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    return datetime(value.year, value.month, value.day, tzinfo=UTC)


def recency_score(page_date: date | datetime | None, now: datetime) -> float:
    """1.0 for a page dated within a year, falling linearly to 0.2 at five years; 0.5 unknown."""
    if page_date is None:
        return 0.5
    days = (now - _as_datetime(page_date)).days
    if days <= 365:
        return 1.0
    if days >= 1825:
        return 0.2
    return round(1.0 - 0.8 * (days - 365) / (1825 - 365), 4)


def source_quality(*, tier: float | None, page_date: date | datetime | None, priority: str,
                   now: datetime | None = None, weights: Mapping[str, float] | None = None) -> QualityScore:
    """Quality of a source: weighted domain tier (from DomainPolicy), recency and priority."""
    now = now or datetime.now(UTC)
    used = dict(weights or DEFAULT_QUALITY_WEIGHTS)
    parts = {
        "tier": 0.5 if tier is None else max(0.0, min(1.0, float(tier))),
        "recency": recency_score(page_date, now),
        "priority": 1.0 if priority == PRIMARY else 0.5,
    }
    total = sum(used.values()) or 1.0
    score = sum(parts[name] * used.get(name, 0.0) for name in parts) / total
    return QualityScore(score=round(score, 4), parts=parts, weights=used)


# --- claim kinds ----------------------------------------------------------------------------------

_KIND_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("price", re.compile(
        r"[€$£¥]|\d\s*(?:zł|zl|pln|eur|usd|gbp|euro|dollars?|pence|p\b)|\b(?:price|cost|costs|fee|fees|charge"
        r"|charged|pay|free of charge|free|refund|discount|cena|koszt\w*|op[lł]at\w*|bezp[lł]atn\w*|darmow\w*"
        r"|zni[zż]k\w*|rabat\w*|zwrot pieni\w*)\b", re.IGNORECASE)),
    ("deadline", re.compile(
        r"\b(?:deadline|due|within|by|until|before|no later than|days?|weeks?|months?|hours?|expires?"
        r"|termin\w*|do dnia|w ci[aą]gu|dni|tygodni\w*|miesi[eę]c\w*|godzin\w*|up[lł]ywa|mija)\b",
        re.IGNORECASE)),
    ("terms", re.compile(
        r"\b(?:terms?|conditions?|warranty|guarantee|return policy|returns?|eligible|eligibility|required|must"
        r"|only if|unless|contract|cancel\w*|regulamin\w*|warun\w*|gwarancj\w*|rękojmi\w*|umow\w*|wymaga\w*"
        r"|musi|nale[zż]y|tylko je[sś]li|odst[aą]pieni\w*|reklamacj\w*)\b", re.IGNORECASE)),
]


def claim_kind(text: str) -> str:
    """``price``, ``deadline``, ``terms`` (the kinds that need a primary source) or ``general``."""
    for kind, pattern in _KIND_PATTERNS:
        if pattern.search(text):
            return kind
    return "general"


# --- claim state ----------------------------------------------------------------------------------


def _evidence_dict(record: EvidenceRecord, quality: QualityScore, domain: str) -> dict[str, Any]:
    return {
        "source_id": record.source_id, "domain": domain, "status": record.status,
        "priority": record.priority, "quality": quality.to_dict(), "span": record.span,
        "passage_id": record.passage_id, "url": record.url, "title": record.title,
        "document": record.document or record.title, "link_text": record.link_text or record.title,
        "fetched_at": record.fetched_at.isoformat() if record.fetched_at else None,
        "page_date": record.page_date.isoformat() if record.page_date else None,
        "is_current": record.is_current, "usability": record.usability, "judge": record.judge,
        "confidence": record.confidence, "rationale": record.rationale,
    }


def _stale_reason(record: EvidenceRecord, now: datetime, windows: Mapping[str, int]) -> str | None:
    if record.usability == "changed":
        return "the live page no longer says this; a newer version awaits review"
    if record.usability in ("outdated", "removed") or not record.is_current:
        return "the passage was superseded or removed from the active version"
    if record.fetched_at is None:
        return None
    window = _freshness_window(record, windows)
    age = (now - _as_datetime(record.fetched_at)).days
    if age > window:
        return f"last confirmed {age} days ago, over the {window}-day window for {record.risk_level} risk"
    return None


def _freshness_window(record: EvidenceRecord, windows: Mapping[str, int]) -> int:
    return windows.get(record.risk_level, windows.get("normal", 180))


def _deciding(record: EvidenceRecord) -> bool:
    return (record.fetched_at is not None and record.status in ("supported", "contradicted", "partly_supported")
            and _pending_reason(record) is None and record.usability not in ("changed", "outdated", "removed") and record.is_current)


def freshness_expires_at(evidence: Iterable[EvidenceRecord], *, now: datetime | None = None,
                         freshness_days: Mapping[str, int] | None = None) -> datetime | None:
    """The first moment at which a record that decides a claim now passes its freshness window
    (its age in whole days goes over the window): from then on the claim's state may differ with
    nothing else having moved, so the answer must be verified again at that moment."""

    now = now or datetime.now(UTC)
    windows = dict(DEFAULT_FRESHNESS_DAYS)
    windows.update(freshness_days or {})
    soonest: datetime | None = None
    for record in evidence:
        if not _deciding(record) or _stale_reason(record, now, windows) is not None:
            continue
        assert record.fetched_at is not None
        expires = _as_datetime(record.fetched_at) + timedelta(days=_freshness_window(record, windows) + 1)
        soonest = expires if soonest is None or expires < soonest else soonest
    return soonest


def freshness_lapsed(evidence: Iterable[EvidenceRecord], *, now: datetime | None = None,
                     freshness_days: Mapping[str, int] | None = None) -> list[EvidenceRecord]:
    """The records that would decide a claim but are past their freshness window (and nothing
    else): a successful check of their page makes them current again."""

    now = now or datetime.now(UTC)
    windows = dict(DEFAULT_FRESHNESS_DAYS)
    windows.update(freshness_days or {})
    return [record for record in evidence if _deciding(record) and _stale_reason(record, now, windows) is not None]


def _pending_reason(record: EvidenceRecord) -> str | None:
    if record.usability in UNUSABLE:
        reason = PENDING_REASONS[record.usability]
        return f"{reason} ({record.error})" if record.error else reason
    if record.confidence == "low" and record.status in ("supported", "partly_supported", "contradicted"):
        return PENDING_REASONS["unsure"]  # a guess is never a finding
    if record.status == "unavailable":
        return f"the judge could not decide: {record.rationale}" if record.rationale else "the judge could not decide"
    return None


Bucket = list[tuple[float, dict[str, Any], EvidenceRecord]]


def claim_state(claim: str, evidence: Iterable[EvidenceRecord], *, mode: str = KNOWLEDGE_BASE,
                kind: str | None = None, now: datetime | None = None,
                freshness_days: Mapping[str, int] | None = None,
                min_credible_quality: float = DEFAULT_MIN_CREDIBLE_QUALITY,
                quality_weights: Mapping[str, float] | None = None) -> ClaimResult:
    """The state of one claim from every verdict about it, in ``mode``.

    Only usable, current evidence decides. Evidence that is blocked, missing, behind a broken
    link, or whose judge failed or was unsure makes the claim ``unavailable`` (pending) unless
    other evidence decides it; evidence that changed, was superseded or is past its freshness
    window makes it ``outdated`` when nothing current decides it.

    knowledge_base: a primary supporter and a primary contradictor -> ``conflicting``; a primary
    contradictor -> ``contradicted``; a primary supporter -> ``supported`` (verified); the same
    rules over supplementary evidence when no primary source speaks (``supported`` is then
    "explanation only", never verified); else partial -> ``partly_supported``.

    research: supporters and credible contradictors -> ``conflicting``; credible contradictors
    -> ``contradicted``; supporters from >= 2 registrable domains -> ``supported`` (verified);
    one domain -> ``single_source``; else partial -> ``partly_supported``.
    """
    if mode not in MODES:
        raise ValueError(f"unknown verification mode {mode!r}")
    now = now or datetime.now(UTC)
    kind = kind or claim_kind(claim)
    windows = dict(DEFAULT_FRESHNESS_DAYS)
    windows.update(freshness_days or {})
    supporting: Bucket = []
    contradicting: Bucket = []
    partial: Bucket = []
    pending: list[str] = []
    stale: list[dict[str, Any]] = []
    notes: list[str] = []
    unsure_absent = False
    for record in evidence:
        domain = registrable_domain(record.domain) if record.domain else str(record.source_id)
        quality = source_quality(tier=record.tier, page_date=record.page_date, priority=record.priority,
                                 now=now, weights=quality_weights)
        item = (quality.score, _evidence_dict(record, quality, domain), record)
        why_pending = _pending_reason(record)
        if why_pending is not None:
            if why_pending not in pending:
                pending.append(why_pending)
            continue
        if record.status not in ("supported", "contradicted", "partly_supported"):
            if record.confidence == "low" and record.status == "unsupported":
                unsure_absent = True  # "not found" from an unsure judge: no_evidence, flagged for a person
            continue
        why_stale = _stale_reason(record, now, windows)
        if why_stale is not None:
            when = record.fetched_at or record.page_date
            stale.append(item[1] | {"reason": why_stale, "date": _as_datetime(when).date().isoformat() if when else None})
            continue
        {"supported": supporting, "contradicted": contradicting, "partly_supported": partial}[record.status].append(item)
    for bucket in (supporting, contradicting, partial):
        bucket.sort(key=lambda entry: -entry[0])
    primary_support = [entry for entry in supporting if entry[2].priority == PRIMARY]
    supplementary_only = bool(supporting) and not primary_support
    correction: dict[str, Any] | None = None
    verified = False
    if mode == KNOWLEDGE_BASE:
        primary_against = [entry for entry in contradicting if entry[2].priority == PRIMARY]
        speaking_for = primary_support or ([] if primary_against else supporting)
        speaking_against = primary_against or ([] if primary_support else contradicting)
        if primary_support and contradicting and not primary_against:
            notes.append("a supplementary source says otherwise; the primary source decides")
        independent = len({entry[1]["domain"] for entry in supporting})
        if speaking_for and speaking_against:
            state = CONFLICTING
        elif speaking_against:
            state = CONTRADICTED
            correction = _correction(speaking_against[0][1])
            if not primary_against:
                notes.append("contradicted by a supplementary source only (explanation, not a service term)")
        elif speaking_for:
            state = SUPPORTED
            verified = bool(primary_support)
            if not verified:
                notes.append("backed by supplementary sources only: explanation only, not an official term")
        else:
            state = _undecided(pending, partial, stale)
        confidence = "high" if state in (SUPPORTED, CONTRADICTED) and (verified or correction) and not supplementary_only else (
            "medium" if state == SUPPORTED else "low")
        if state == CONTRADICTED and not primary_against:
            confidence = "medium"
    else:
        credible_against = [entry for entry in contradicting if entry[0] >= min_credible_quality]
        if contradicting and not credible_against:
            notes.append("contradicted only by sources below the credibility threshold")
        domains = {entry[1]["domain"] for entry in supporting}
        independent = len(domains)
        if supporting and credible_against:
            state = CONFLICTING
        elif credible_against:
            state = CONTRADICTED
            correction = _correction(credible_against[0][1])
        elif independent >= 2:
            state, verified = SUPPORTED, True
        elif independent == 1:
            state = SINGLE_SOURCE
            notes.append("one independent source; research needs two different domains")
        else:
            state = _undecided(pending, partial, stale)
        confidence = "high" if independent >= 3 else "medium" if independent == 2 else "low"
        if state in (CONFLICTING, CONTRADICTED):
            confidence = "low"
    needs_review = PENDING_REASONS["unsure"] in pending or (unsure_absent and state == NO_EVIDENCE)
    if unsure_absent and state == NO_EVIDENCE:
        notes.append("the judge was unsure whether the passage states this: needs a person or the LLM judge")
    return ClaimResult(
        claim=claim, state=state, mode=mode, verified=verified, confidence=confidence, kind=kind,
        needs_review=needs_review,
        independent_supporters=independent,
        supporting=tuple(entry[1] for entry in supporting),
        contradicting=tuple(entry[1] for entry in contradicting),
        partial=tuple(entry[1] for entry in partial),
        supplementary_only=supplementary_only, correction=correction, pending=tuple(pending),
        stale=tuple(stale), notes=tuple(notes),
    )


def _undecided(pending: list[str], partial: Bucket, stale: list[dict[str, Any]]) -> str:
    if pending:
        return UNAVAILABLE
    if partial:
        return PARTLY
    if stale:
        return OUTDATED
    return NO_EVIDENCE


def _correction(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {key: entry.get(key) for key in ("span", "document", "link_text", "url", "source_id", "passage_id", "priority")}


# --- answer state -----------------------------------------------------------------------------------


def answer_state(results: Sequence[ClaimResult], *, mode: str = KNOWLEDGE_BASE) -> AnswerStateResult:
    """The answer's state from its claims, by the precedence in the module docstring."""
    states = [result.state for result in results]
    reasons: list[str] = []
    if not results:
        state = NO_EVIDENCE
        reasons.append("the answer states nothing that needs evidence")
    elif CONTRADICTED in states:
        state = CONTRADICTED
    elif CONFLICTING in states:
        state = CONFLICTING
    elif OUTDATED in states:
        state = OUTDATED
    elif UNAVAILABLE in states or PENDING in states:
        state = PENDING
    elif all(s == SUPPORTED for s in states):
        state = SUPPORTED
    elif any(s in (SUPPORTED, SINGLE_SOURCE, PARTLY) for s in states):
        state = PARTLY
    else:
        state = NO_EVIDENCE
    for result in results:
        if result.state != SUPPORTED:
            reasons.append(f"{result.state}: {result.claim}")
    return AnswerStateResult(state=state, mode=mode, reasons=tuple(reasons), claims=tuple(results))


# --- report card and gaps ---------------------------------------------------------------------------

_QUERY_STOP = {
    "en": set("a an the is are was were be been of in on at to for with by from and or but it this that these "
              "those you your we our they their can may must will would should do does not no per".split()),
    "pl": set("a i w we na z ze do od o u po przy za przez dla jest są to ten ta te się nie lub oraz czy "
              "jak który która które można".split()),
}
_QUERY_SUFFIX = {"en": ("official", "site:gov OR official terms"), "pl": ("oficjalna strona", "regulamin")}


def follow_up_queries(claim: str, language: str = "en", *, limit: int = 3) -> list[str]:
    """Search queries to find evidence for an unverified claim: the exact key phrase, the key
    terms with "official", and the key terms with the claim's numbers."""
    lang = "pl" if language.lower().startswith("pl") else "en"
    words = re.findall(r"[^\W_]+(?:[.,'’-][^\W_]+)*|[€$£%]", claim)
    terms = [w for w in words if w.lower() not in _QUERY_STOP[lang]]
    numbers = [w for w in terms if any(ch.isdigit() for ch in w)]
    key = [w for w in terms if not any(ch.isdigit() for ch in w) and w not in "€$£%"]
    key_text = " ".join(key[:8])
    queries = []
    if key_text:
        queries.append(f'"{" ".join(key[:5])}"' if len(key) >= 2 else key_text)
        queries.append(f"{key_text} {_QUERY_SUFFIX[lang][0]}")
        if numbers:
            queries.append(f"{key_text} {' '.join(numbers[:3])}")
        else:
            queries.append(f"{key_text} {_QUERY_SUFFIX[lang][1]}")
    seen: list[str] = []
    for query in queries:
        if query not in seen:
            seen.append(query)
    return seen[:limit]




RULES = {
    KNOWLEDGE_BASE: "a claim is verified when an active, approved passage of a primary source supports it",
    RESEARCH: "a claim is verified when passages from at least two independent registrable domains support it",
}


def report_card(results: Sequence[ClaimResult], *, mode: str = KNOWLEDGE_BASE,
                threshold: float = DEFAULT_MIN_VERIFICATION_RATE, language: str = "en",
                top_n: int = 5) -> dict[str, Any]:
    """The verification report card of a set of claims, in ``mode``.

    ``verification_rate`` = verified / total, where "verified" follows the mode's rule. When it is
    under ``threshold`` the card lists every claim that is not verified as a gap with its
    follow-up: in research mode, search queries for more independent sources; in knowledge-base
    mode, the editorial step (approve a primary source that states it) plus queries to find one.
    """
    total = len(results)
    verified = sum(1 for r in results if r.verified)
    counts = {state: sum(1 for r in results if r.state == state)
              for state in (SUPPORTED, PARTLY, CONTRADICTED, CONFLICTING, SINGLE_SOURCE, NO_EVIDENCE, UNAVAILABLE, OUTDATED)}
    rate = verified / total if total else 0.0
    best: dict[str, dict[str, Any]] = {}
    for result in results:
        for item in result.supporting:
            current = best.get(item["domain"])
            if current is None or item["quality"]["score"] > current["quality"]["score"]:
                best[item["domain"]] = {"domain": item["domain"], "source_id": item["source_id"], "priority": item["priority"],
                                        "title": item["title"], "url": item["url"], "quality": item["quality"]}
    top = sorted(best.values(), key=lambda entry: -entry["quality"]["score"])[:top_n]
    contradictions = [
        {"claim": r.claim, "state": r.state, "correction": r.correction,
         "supporting": list(r.supporting), "contradicting": list(r.contradicting)}
        for r in results if r.state in (CONTRADICTED, CONFLICTING)
    ]
    meets = total > 0 and rate >= threshold
    gaps = []
    if not meets:
        for r in results:
            if r.verified:
                continue
            gap: dict[str, Any] = {"claim": r.claim, "state": r.state, "kind": r.kind,
                                   "queries": follow_up_queries(r.claim, language)}
            if mode == KNOWLEDGE_BASE:
                gap["follow_up"] = ("the approved sources refute this: correct the answer" if r.state == CONTRADICTED
                                    else "verification pending: it runs again by itself" if r.state == UNAVAILABLE
                                    else "approve a primary source that states this, or correct the answer")
            else:
                gap["follow_up"] = "find another independent source (a different domain) that states this"
            gaps.append(gap)
    return {
        "mode": mode,
        "rule": RULES[mode],
        "total_claims": total,
        "verified": verified,
        "unverified": total - verified,
        "explanation_only": sum(1 for r in results if r.explanation_only),
        "counts": counts,
        "contradicted": counts[CONTRADICTED],
        "conflicting": counts[CONFLICTING],
        "pending": [{"claim": r.claim, "reasons": list(r.pending)} for r in results if r.state == UNAVAILABLE],
        "needs_review": [r.claim for r in results if r.needs_review],
        "verification_rate": round(rate, 4),
        "verification_rate_display": f"{rate * 100:.0f}%",
        "threshold": threshold,
        "meets_threshold": meets,
        "top_sources": top,
        "contradictions": contradictions,
        "gaps": gaps,
    }


def render_citations(items: Sequence[tuple[str, Sequence[Mapping[str, Any]]]], *,
                     unverified_label: str = "") -> tuple[list[str], list[dict[str, Any]]]:
    """Numbered in-text markers and a bibliography.

    ``items`` = [(claim text, [source entries from the registry: {source_id, title, url, section?}])].
    Each source gets one number on first use; returns (claims with markers, bibliography rows
    {number, source_id, title, url, section}). Titles and URLs come from the caller's registry,
    never from model output.
    """
    numbers: dict[Any, int] = {}
    bibliography: list[dict[str, Any]] = []
    lines: list[str] = []
    for claim, sources in items:
        marks: list[str] = []
        for source in sources:
            key = source.get("source_id")
            if key not in numbers:
                numbers[key] = len(bibliography) + 1
                bibliography.append({"number": numbers[key], "source_id": key, "title": source.get("title", ""),
                                     "url": source.get("url", ""), "section": source.get("section", "")})
            mark = f"[{numbers[key]}]"
            if mark not in marks:
                marks.append(mark)
        prefix = f"{unverified_label} " if unverified_label and not sources else ""
        lines.append(f"{prefix}{claim}{' ' + ''.join(marks) if marks else ''}")
    return lines, bibliography
