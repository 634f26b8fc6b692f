"""Cross-source rules, answer states and the verification report card (pure, no Django).

The database side feeds these functions plain records; nothing here reads or writes rows.

- :func:`source_quality` — a source's quality score from its editable domain tier, the recency
  of its page date and its priority, returned with its parts so it can be shown.
- :func:`claim_state` — one claim across all its verdicts: ``verified`` (supported by at least
  two independent sources, i.e. different registrable domains, one of them primary),
  ``single_source``, ``unverified``, ``contradicted`` or ``conflicting`` (both sides listed),
  with a confidence. Supplementary evidence never verifies on its own, and a claim about
  prices, deadlines, terms or conditions needs a primary source to count as backed at all.
- :func:`answer_state` — the answer's state from its claims (``supported``,
  ``partly_supported``, ``outdated``, ``conflicting``, ``no_evidence``) and the wording the bot
  should use, per language.
- :func:`report_card` — totals, verification rate, top sources, contradictions, and the gaps
  (unverified claims with follow-up search queries) when the rate is under the threshold.
- :func:`render_citations` — numbered in-text markers and a bibliography from the registry.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from citecheck.urlnorm import registrable_domain

__all__ = [
    "DEFAULT_FRESHNESS_DAYS",
    "DEFAULT_WORDING",
    "AnswerStateResult",
    "ClaimResult",
    "EvidenceRecord",
    "QualityScore",
    "answer_state",
    "answer_wording",
    "claim_kind",
    "claim_state",
    "follow_up_queries",
    "registrable_domain",
    "render_citations",
    "report_card",
    "source_quality",
]

# Claim states (the same strings as claims.models.ClaimState).
VERIFIED, SINGLE_SOURCE, UNVERIFIED, CONTRADICTED, CONFLICTING = (
    "verified", "single_source", "unverified", "contradicted", "conflicting",
)
# Answer states (claims.models.AnswerState).
A_SUPPORTED, A_PARTLY, A_OUTDATED, A_CONFLICTING, A_NO_EVIDENCE = (
    "supported", "partly_supported", "outdated", "conflicting", "no_evidence",
)
PRIMARY, SUPPLEMENTARY = "primary", "supplementary"

DEFAULT_FRESHNESS_DAYS: dict[str, int] = {"high": 30, "normal": 180, "low": 365}
DEFAULT_MIN_VERIFICATION_RATE = 0.70
DEFAULT_QUALITY_WEIGHTS: dict[str, float] = {"tier": 0.5, "recency": 0.2, "priority": 0.3}
# A contradiction counts ("credible") from a source whose quality is at least this.
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
    (``shop.example.co.uk`` -> ``example.co.uk``) before sources are counted. ``tier`` is the
    DomainPolicy tier score in [0, 1] (None = unknown, counted as 0.5). ``is_current`` is False
    when the passage version is no longer the live/active one.
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


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """A claim's state over all its evidence."""

    claim: str
    state: str
    confidence: str
    kind: str
    independent_supporters: int
    supporting: tuple[dict[str, Any], ...]
    contradicting: tuple[dict[str, Any], ...]
    partial: tuple[dict[str, Any], ...]
    supplementary_only: bool
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim": self.claim, "state": self.state, "confidence": self.confidence, "kind": self.kind,
            "independent_supporters": self.independent_supporters, "supporting": list(self.supporting),
            "contradicting": list(self.contradicting), "partial": list(self.partial),
            "supplementary_only": self.supplementary_only, "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class AnswerStateResult:
    state: str
    wording: str
    reasons: tuple[str, ...]
    stale_evidence: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"state": self.state, "wording": self.wording, "reasons": list(self.reasons),
                "stale_evidence": list(self.stale_evidence)}


# --- domains ------------------------------------------------------------------------------------

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
REGULATED_KINDS = frozenset({"price", "deadline", "terms"})


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
        "fetched_at": record.fetched_at.isoformat() if record.fetched_at else None,
        "is_current": record.is_current, "judge": record.judge,
    }


def claim_state(claim: str, evidence: Iterable[EvidenceRecord], *, kind: str | None = None,
                now: datetime | None = None, min_credible_quality: float = DEFAULT_MIN_CREDIBLE_QUALITY,
                quality_weights: Mapping[str, float] | None = None) -> ClaimResult:
    """The state of one claim from every verdict about it.

    Independent sources are counted by registrable domain (two pages or two subdomains of one
    site are one source). Rules, in order:

    - supporters and credible contradictors both present -> ``conflicting`` (both sides listed);
    - a credible contradictor and no supporter -> ``contradicted``;
    - supporters from >= 2 registrable domains, at least one primary -> ``verified``;
    - some supporter -> ``single_source`` — except that a price / deadline / terms claim backed
      only by supplementary sources stays ``unverified`` (it needs a primary source);
    - otherwise ``unverified``.

    Confidence: high with 3+ independent supporters, medium with 2, low with 0-1.
    """
    now = now or datetime.now(UTC)
    kind = kind or claim_kind(claim)
    supporting: list[tuple[float, dict[str, Any], EvidenceRecord]] = []
    contradicting: list[tuple[float, dict[str, Any], EvidenceRecord]] = []
    partial: list[tuple[float, dict[str, Any], EvidenceRecord]] = []
    notes: list[str] = []
    for record in evidence:
        domain = registrable_domain(record.domain) if record.domain else str(record.source_id)
        quality = source_quality(tier=record.tier, page_date=record.page_date, priority=record.priority,
                                 now=now, weights=quality_weights)
        item = (quality.score, _evidence_dict(record, quality, domain), record)
        if record.status == "supported":
            supporting.append(item)
        elif record.status == "contradicted":
            contradicting.append(item)
        elif record.status == "partly_supported":
            partial.append(item)
    for bucket in (supporting, contradicting, partial):
        bucket.sort(key=lambda entry: -entry[0])
    credible_against = [entry for entry in contradicting if entry[0] >= min_credible_quality]
    if contradicting and not credible_against:
        notes.append("contradicted only by sources below the credibility threshold")
    primary_support = [entry for entry in supporting if entry[2].priority == PRIMARY]
    supplementary_only = bool(supporting) and not primary_support
    counted = supporting
    if kind in REGULATED_KINDS and supplementary_only:
        notes.append(f"a {kind} claim needs a primary source; supplementary evidence is listed but not counted")
        counted = []
    domains = {entry[1]["domain"] for entry in counted}
    independent = len(domains)
    if counted and credible_against:
        state = CONFLICTING
    elif credible_against:
        state = CONTRADICTED
    elif independent >= 2 and primary_support:
        state = VERIFIED
    elif independent >= 1:
        state = SINGLE_SOURCE
        if independent >= 2:
            notes.append("supported by several sources, but none of them primary")
    else:
        state = UNVERIFIED
    confidence = "high" if independent >= 3 else "medium" if independent == 2 else "low"
    if state in (CONFLICTING, CONTRADICTED):
        confidence = "low"
    return ClaimResult(
        claim=claim, state=state, confidence=confidence, kind=kind, independent_supporters=independent,
        supporting=tuple(entry[1] for entry in supporting),
        contradicting=tuple(entry[1] for entry in contradicting),
        partial=tuple(entry[1] for entry in partial),
        supplementary_only=supplementary_only, notes=tuple(notes),
    )


# --- answer state -----------------------------------------------------------------------------------

DEFAULT_WORDING: dict[str, dict[str, str]] = {
    "en": {
        A_SUPPORTED: "This is confirmed by the approved sources.",
        A_PARTLY: "Part of this is confirmed by the approved sources ({confirmed}); I could not confirm {open}.",
        A_OUTDATED: "This information was last confirmed on {date} and may have changed; please check the current "
                    "page before relying on it.",
        A_CONFLICTING: "The approved sources disagree about {topic}; please contact {contact} to confirm.",
        A_NO_EVIDENCE: "I can't find the current {topic} in the approved sources.",
    },
    "pl": {
        A_SUPPORTED: "Potwierdzają to zatwierdzone źródła.",
        A_PARTLY: "Zatwierdzone źródła potwierdzają tylko część tej informacji ({confirmed}); nie udało się "
                  "potwierdzić: {open}.",
        A_OUTDATED: "Ta informacja była ostatnio potwierdzona {date} i mogła się zmienić; sprawdź aktualną stronę, "
                    "zanim na niej polegasz.",
        A_CONFLICTING: "Zatwierdzone źródła podają sprzeczne informacje o: {topic}; skontaktuj się z {contact}, "
                       "aby to potwierdzić.",
        A_NO_EVIDENCE: "Nie znajduję w zatwierdzonych źródłach aktualnej informacji o: {topic}.",
    },
}
_DEFAULT_FILL: dict[str, dict[str, str]] = {
    "en": {"topic": "information", "contact": "our customer service", "date": "an earlier date",
           "confirmed": "some points", "open": "the rest"},
    "pl": {"topic": "ten temat", "contact": "obsługą klienta", "date": "wcześniej",
           "confirmed": "część informacji", "open": "pozostałych"},
}


class _Fill(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return ""


def answer_wording(state: str, language: str = "en", *, overrides: Mapping[str, Mapping[str, str]] | None = None,
                   **values: str) -> str:
    """The sentence the bot should use for an answer state, in ``language`` (falls back to en).

    ``overrides`` = {language: {state: template}} replaces defaults (the setting the lead wires);
    placeholders: {topic}, {date}, {contact}, {confirmed}, {open}.
    """
    lang = language.split("-")[0].lower()
    template = None
    for source in (overrides or {}, DEFAULT_WORDING):
        template = source.get(lang, {}).get(state) if source else None
        if template:
            break
    if template is None:
        lang = "en"
        template = (overrides or {}).get("en", {}).get(state) or DEFAULT_WORDING["en"][state]
    fill = _Fill(_DEFAULT_FILL.get(lang, _DEFAULT_FILL["en"]))
    fill.update({key: value for key, value in values.items() if value})
    return string.Formatter().vformat(template, (), fill)


def _stale(record: EvidenceRecord, now: datetime, freshness_days: Mapping[str, int]) -> str | None:
    if not record.is_current:
        return "the passage version is no longer on the live page"
    if record.fetched_at is None:
        return None
    window = freshness_days.get(record.risk_level, freshness_days.get("normal", 180))
    age = (now - _as_datetime(record.fetched_at)).days
    if age > window:
        return f"fetched {age} days ago, over the {window}-day window for {record.risk_level} risk"
    return None


def answer_state(claims: Sequence[tuple[ClaimResult, Sequence[EvidenceRecord]]], *, language: str = "en",
                 now: datetime | None = None, freshness_days: Mapping[str, int] | None = None,
                 topic: str = "", contact: str = "",
                 wording_overrides: Mapping[str, Mapping[str, str]] | None = None) -> AnswerStateResult:
    """The answer's state from its claims (each with the evidence records it was judged on).

    Order of precedence: ``conflicting`` (a claim is conflicting or contradicted) >
    ``outdated`` (a claim's support rests on a passage no longer live, or fetched longer ago
    than the freshness window of its source's risk level) > ``supported`` (every claim backed)
    > ``partly_supported`` (some) > ``no_evidence`` (none).
    """
    now = now or datetime.now(UTC)
    windows = dict(DEFAULT_FRESHNESS_DAYS)
    windows.update(freshness_days or {})
    reasons: list[str] = []
    stale: list[dict[str, Any]] = []
    backed = [result for result, _ in claims if result.state in (VERIFIED, SINGLE_SOURCE)]
    disputed = [result for result, _ in claims if result.state in (CONFLICTING, CONTRADICTED)]
    oldest: datetime | None = None
    for result, records in claims:
        if result.state not in (VERIFIED, SINGLE_SOURCE):
            continue
        supporting = [record for record in records if record.status == "supported"]
        fresh = [record for record in supporting if _stale(record, now, windows) is None]
        if supporting and not fresh:
            for record in supporting:
                why = _stale(record, now, windows)
                stale.append({"claim": result.claim, "source_id": record.source_id, "reason": why})
                if record.fetched_at is not None:
                    fetched = _as_datetime(record.fetched_at)
                    oldest = fetched if oldest is None or fetched < oldest else oldest
    values = {"topic": topic, "contact": contact}
    if disputed:
        state = A_CONFLICTING
        reasons.extend(f"{result.state}: {result.claim}" for result in disputed)
    elif stale:
        state = A_OUTDATED
        reasons.extend(f"outdated: {item['claim']} ({item['reason']})" for item in stale)
        if oldest is not None:
            values["date"] = oldest.date().isoformat()
    elif claims and len(backed) == len(claims):
        state = A_SUPPORTED
    elif backed:
        state = A_PARTLY
        values["confirmed"] = "; ".join(result.claim for result in backed)
        values["open"] = "; ".join(result.claim for result, _ in claims if result not in backed)
        reasons.extend(f"not backed: {result.claim}" for result, _ in claims if result not in backed)
    else:
        state = A_NO_EVIDENCE
        reasons.append("no claim is backed by an approved source")
    wording = answer_wording(state, language, overrides=wording_overrides, **values)
    return AnswerStateResult(state=state, wording=wording, reasons=tuple(reasons), stale_evidence=tuple(stale))


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


def report_card(results: Sequence[ClaimResult], *, threshold: float = DEFAULT_MIN_VERIFICATION_RATE,
                language: str = "en", top_n: int = 5) -> dict[str, Any]:
    """The verification report card of a set of claims.

    ``verification_rate`` = verified / total. When it is under ``threshold`` the card lists
    every claim that is not verified as a gap, with follow-up search queries; otherwise
    ``gaps`` is empty. ``top_sources`` are the best sources by quality, with their parts.
    """
    total = len(results)
    counts = {state: sum(1 for r in results if r.state == state)
              for state in (VERIFIED, SINGLE_SOURCE, UNVERIFIED, CONTRADICTED, CONFLICTING)}
    rate = counts[VERIFIED] / total if total else 0.0
    best: dict[str, dict[str, Any]] = {}
    for result in results:
        for item in result.supporting:
            current = best.get(item["domain"])
            if current is None or item["quality"]["score"] > current["quality"]["score"]:
                best[item["domain"]] = {"domain": item["domain"], "source_id": item["source_id"],
                                        "title": item["title"], "url": item["url"], "quality": item["quality"]}
    top = sorted(best.values(), key=lambda entry: -entry["quality"]["score"])[:top_n]
    contradictions = [
        {"claim": r.claim, "state": r.state, "supporting": list(r.supporting), "contradicting": list(r.contradicting)}
        for r in results if r.contradicting
    ]
    meets = total > 0 and rate >= threshold
    gaps = []
    if not meets:
        gaps = [
            {"claim": r.claim, "state": r.state, "kind": r.kind, "queries": follow_up_queries(r.claim, language)}
            for r in results if r.state != VERIFIED
        ]
    return {
        "total_claims": total,
        "verified": counts[VERIFIED],
        "single_source": counts[SINGLE_SOURCE],
        "unverified": counts[UNVERIFIED] + counts[SINGLE_SOURCE],
        "not_backed": counts[UNVERIFIED],
        "contradicted": counts[CONTRADICTED],
        "conflicting": counts[CONFLICTING],
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
