"""The trace of an answer: answer → claims → citations → passage versions → source versions and
their fetches and approvals → the judges' verdicts, with everything that changed or was blocked
since the answer was verified.

Plain, JSON-ready data (ints, strings, booleans, ISO datetimes, lists and dicts): the desk renders
it and the integration API serves the same dict. A fixed number of queries, whatever the number
of claims, citations or versions (see `answer_trace`).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any
from urllib.parse import quote

from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone

from citecheck.errors import NotFound
from citecheck.safelinks import LINK_REL, safe_href
from claims.models import Answer, AnswerState, Citation, Claim, ClaimState, Judgement, JudgementStatus, VerificationChange
from reviews.models import Approval, BlockSwitch, BlockTarget
from sources.models import (
    ChangeKind,
    DomainPolicy,
    EvidenceStatus,
    FetchResult,
    LinkState,
    PassageVersion,
    SourceVersion,
    Stage,
    VersionPassage,
)
from sources.selectors import as_of_check, evidence_at, history_complete_from

CLAIMS_PER_PAGE = 20


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _label(choices: Any, value: str) -> str:
    try:
        return str(choices(value).label)
    except ValueError:
        return value


def live_page_url(*, canonical_url: str, anchor: str, text: str, links_allowed: bool) -> str | None:
    """The place on the live page: URL + `#anchor`, else a text fragment (`#:~:text=`) of the
    passage's first words. None unless http(s) and the domain may be linked."""
    href = safe_href(canonical_url) if links_allowed else None  # http(s) with a host, no credentials
    if href is None:
        return None
    base = href.split("#", 1)[0]
    if anchor:
        return f"{base}#{quote(anchor, safe='-_.~')}"
    words = " ".join(text.split()[:8])
    return f"{base}#:~:text={quote(words, safe='')}" if words else base


def span_offsets(text: str, span: str | None) -> tuple[int, int] | None:
    """Where the backing span sits in the passage text (exact first, then ignoring case)."""
    if not span:
        return None
    start = text.find(span)
    if start < 0:
        start = text.lower().find(span.lower())
    return (start, start + len(span)) if start >= 0 else None


def answer_trace(*, answer_id: int, page: int = 1, per_page: int = CLAIMS_PER_PAGE, as_of: datetime | str | None = None) -> dict[str, Any]:
    """Everything behind one answer, for the desk's trace page and `/api/v1/answers/{id}/trace`.

    With `as_of` (a moment, or "given" for the moment the answer was received), each evidence
    entry also has `at_moment`: the evidence as it stood then (`sources.selectors.evidence_at`:
    citable or not, the active version then and who had approved it, the blocks in force, the
    source's evidence status and priority, the primary-only switch), and the trace has
    `point_in_time`: as_of, history_complete_from and `moments` (given, each re-verification,
    now) to pick from. A moment before the history is complete raises InvalidInput.

    Raises NotFound for an unknown answer. Claims are paginated (`page`, `per_page`); at most 13
    queries whatever the page holds.

    Keys (all values JSON-ready):
    - `answer`: id, question, answer_text, model_name, language, state, state_label, state_wording,
      received_at, verified_at, needs_reverification.
    - `claims_page`: page, per_page, total (claims), pages.
    - `claims`: one per claim on this page: id, position, text, needs_citation, state, state_label,
      confidence, needs_reverification, and `evidence`: one entry per citation (or, for a claim
      that cites nothing, per passage that was sent, with `cited` false — what the verifier judged):
      - citation_id (None when not cited), cited, source_number, quote, quote_result, needs_reverification;
      - `passage_version` (None when the citation names no registered passage): id, passage_id,
        text (verbatim), span (the backing span), span_start, span_end (offsets in `text`, None when
        the span is not in it), heading_path, section_heading, anchor, fingerprint, change_kind,
        first_seen_at, last_seen_at, is_active_version (still in the source's active version),
        latest_version_id (the passage's text in the active version; its own id when it is that text or none is active), blocked, blocked_reason;
      - `source`: id, title, canonical_url, domain, live_url (http/https with the anchor or a text
        fragment, None when no safe link can be made), link_rel, stage, stage_label, link_state,
        link_state_label, evidence_status, evidence_status_label, live_page_changed, blocked,
        domain_blocked;
      - `source_version` (the version the passage rests on: the active one that holds it, else the
        last one activated before verification, else the one where the text first appeared): id,
        number, is_active, activated_at, created_at, `fetch` (the fetch that produced it: id,
        requested_url, final_url, status_code, link_state, link_state_label, fetched_at; or None),
        `approvals` (approver, decision, reason, emergency_override, at);
      - `judgements`: newest first: id, status, status_label, judge, model, prompt_version,
        rationale, span, confidence, heuristic, needs_reverification, created_at;
      - `changes`: what changed or was blocked since the answer was verified, each {kind, message};
        kinds: blocked, block_lifted, not_active, newer_text, live_page_changed, page_missing,
        unverified, reverification.
    - `changed`: True when any evidence on this page has a change.
    - `point_in_time` (only with `as_of`), see above.
    """
    answer = Answer.objects.filter(pk=answer_id).defer("raw_response", "report").first()  # 1
    if answer is None:
        raise NotFound(f"There is no answer {answer_id}.")
    since = answer.verified_at or answer.received_at
    total = Claim.objects.filter(answer_id=answer.pk).count()  # 2
    per_page = max(1, min(per_page, 200))
    pages = max(1, -(-total // per_page))
    page = max(1, min(page, pages))
    claims = list(Claim.objects.filter(answer_id=answer.pk).order_by("position")[(page - 1) * per_page : page * per_page])  # 3
    citations: dict[int, list[Citation]] = defaultdict(list)
    for citation in (  # 4
        Citation.objects.filter(claim__in=[c.pk for c in claims])
        .select_related("passage_version__passage__source")
        .order_by("claim_id", "source_number", "id")
    ):
        citations[citation.claim_id].append(citation)
    pvs: dict[int, PassageVersion] = {c.passage_version.pk: c.passage_version for cs in citations.values() for c in cs if c.passage_version}
    sent: list[Any] = list(answer.sources_sent or [])
    sent_ids = [i for i in sent if isinstance(i, int) and not isinstance(i, bool)]
    if any(c.needs_citation and not citations.get(c.pk) for c in claims):
        missing = [i for i in sent_ids if i not in pvs]
        if missing:
            pvs.update({pv.pk: pv for pv in PassageVersion.objects.filter(pk__in=missing).select_related("passage__source")})  # 5
    context = _Context.load(pvs=pvs, claims=claims, since=since)
    moment = answer.received_at if as_of == "given" else as_of
    at_moment: dict[int, dict[str, Any]] = {}
    if isinstance(moment, datetime):
        as_of_check(moment)
        at_moment = evidence_at(pv_ids=list(pvs), at=moment)
    out_claims: list[dict[str, Any]] = []
    for claim in claims:
        entries: list[tuple[Citation | None, PassageVersion | None]] = [(c, c.passage_version) for c in citations.get(claim.pk, [])]
        if not entries and claim.needs_citation:
            entries = [(None, pvs[i]) for i in sent_ids if i in pvs]
        evidence = [context.evidence(claim, citation, pv) for citation, pv in entries]
        if isinstance(moment, datetime):
            for entry, (_, pv) in zip(evidence, entries, strict=True):
                entry["at_moment"] = at_moment.get(pv.pk) if pv is not None else None
        out_claims.append({
            "id": claim.pk, "position": claim.position, "text": claim.text, "needs_citation": claim.needs_citation,
            "state": claim.state, "state_label": _label(ClaimState, claim.state), "confidence": claim.confidence,
            "needs_reverification": claim.needs_reverification, "evidence": evidence,
        })
    trace: dict[str, Any] = {
        "answer": {
            "id": answer.pk, "question": answer.question, "answer_text": answer.answer_text, "model_name": answer.model_name,
            "language": answer.language, "state": answer.state, "state_label": _label(AnswerState, answer.state),
            "state_wording": answer.state_wording, "received_at": _iso(answer.received_at), "verified_at": _iso(answer.verified_at),
            "needs_reverification": answer.needs_reverification,
        },
        "claims_page": {"page": page, "per_page": per_page, "total": total, "pages": pages},
        "claims": out_claims,
        "changed": any(e["changes"] for c in out_claims for e in c["evidence"]),
    }
    if isinstance(moment, datetime):
        trace["point_in_time"] = {
            "as_of": moment.isoformat(), "history_complete_from": _iso(history_complete_from()), "moments": answer_moments(answer=answer),
        }
    return trace


def answer_moments(*, answer: Answer) -> list[dict[str, str]]:
    """The moments worth replaying an answer at: as it was given, each re-verification, now."""
    reverified = VerificationChange.objects.filter(answer_id=answer.pk, verified_at__isnull=False).order_by("verified_at", "id")
    return (
        [{"label": "as it was given", "key": "given", "at": answer.received_at.isoformat()}]
        + [{"label": f"re-verified: {change.reason[:80]}", "key": _iso(change.verified_at) or "", "at": _iso(change.verified_at) or ""}
           for change in reverified]
        + [{"label": "now", "key": "", "at": timezone.now().isoformat()}]
    )


def block_targets(block: BlockSwitch, *, passage_id: int, source_id: int, domain: str) -> bool:
    """Whether `block` is on this passage, its source or its domain (a passage block also
    stores its passage's source, which does not make it a block of the source)."""
    if block.target == BlockTarget.PASSAGE:
        return block.passage_id == passage_id
    if block.target == BlockTarget.SOURCE:
        return block.source_id == source_id
    return bool(block.domain) and block.domain == domain


class _Context:
    """Everything the evidence entries need, read in a fixed number of queries."""

    def __init__(self, since: datetime) -> None:
        self.since = since
        self.memberships: dict[int, list[dict[str, Any]]] = defaultdict(list)
        self.versions: dict[int, SourceVersion] = {}
        self.fetches: dict[int, FetchResult] = {}
        self.approvals: dict[int, list[Approval]] = defaultdict(list)
        self.judgements: dict[tuple[str, int], list[Judgement]] = defaultdict(list)
        self.active_text: dict[int, tuple[int, int]] = {}  # passage id -> (passage version id, source version number)
        self.blocks: list[BlockSwitch] = []
        self.policies: dict[str, DomainPolicy] = {}
        self.chosen: dict[int, int | None] = {}

    @classmethod
    def load(cls, *, pvs: dict[int, PassageVersion], claims: list[Claim], since: datetime) -> _Context:
        ctx = cls(since)
        if not pvs:
            return ctx
        pv_ids = list(pvs)
        passage_ids = {pv.passage_id for pv in pvs.values()}
        sources = {pv.passage.source for pv in pvs.values()}
        for row in VersionPassage.objects.filter(passage_version_id__in=pv_ids).values(  # 6
            "passage_version_id", "change_kind", "source_version_id", "source_version__is_active", "source_version__activated_at",
            "source_version__number",
        ):
            ctx.memberships[row["passage_version_id"]].append(dict(row))
        for pv in pvs.values():
            ctx.chosen[pv.pk] = ctx._rests_on(pv)
        first_fetch = FetchResult.objects.filter(version=OuterRef("pk")).order_by("fetched_at", "id").values("pk")[:1]
        version_ids = {v for v in ctx.chosen.values() if v is not None}
        ctx.versions = {  # 7
            v.pk: v for v in SourceVersion.objects.filter(pk__in=version_ids).defer("body_compressed", "extraction", "diff_summary")
            .annotate(first_fetch_id=Subquery(first_fetch))
        }
        fetch_ids = [getattr(v, "first_fetch_id", None) for v in ctx.versions.values()]
        ctx.fetches = {  # 8
            f.version_id or 0: f for f in FetchResult.objects.filter(pk__in=[i for i in fetch_ids if i]).only(
                "id", "version_id", "requested_url", "final_url", "status_code", "link_state", "fetched_at")
        }
        for approval in Approval.objects.filter(source_version_id__in=version_ids).select_related("approver").order_by("at"):  # 9
            ctx.approvals[approval.source_version_id].append(approval)
        hashes = {c.text_hash for c in claims}
        for judgement in Judgement.objects.filter(passage_version_id__in=pv_ids, claim_text_hash__in=hashes).defer("claim_text").order_by("-created_at", "-id"):  # 10
            ctx.judgements[(judgement.claim_text_hash, judgement.passage_version_id)].append(judgement)
        for passage_id, active_pv_id, active_number in (  # 11: the text of each passage in its source's active version
            VersionPassage.objects.filter(passage_version__passage_id__in=passage_ids, source_version__is_active=True)
            .exclude(change_kind=ChangeKind.REMOVED).values_list("passage_version__passage_id", "passage_version_id", "source_version__number")
        ):
            ctx.active_text[passage_id] = (active_pv_id, active_number)
        domains = {s.domain for s in sources}
        ctx.blocks = list(  # 12
            BlockSwitch.objects.filter(
                Q(target=BlockTarget.SOURCE, source__in=[s.pk for s in sources]) | Q(target=BlockTarget.PASSAGE, passage_id__in=passage_ids)
                | Q(target=BlockTarget.DOMAIN, domain__in=domains)
            )
            .filter(Q(lifted_at__isnull=True) | Q(lifted_at__gt=since))
            .select_related("blocked_by", "lifted_by")
        )
        ctx.policies = {p.domain: p for p in DomainPolicy.objects.filter(domain__in=domains).only("domain", "is_blocked", "blocked_reason", "allowed_for_links")}  # 13
        return ctx

    def _rests_on(self, pv: PassageVersion) -> int | None:
        rows = [r for r in self.memberships.get(pv.pk, []) if r["change_kind"] != ChangeKind.REMOVED]
        active = [r for r in rows if r["source_version__is_active"]]
        if active:
            return int(active[0]["source_version_id"])
        activated = sorted(
            (r for r in rows if r["source_version__activated_at"] and r["source_version__activated_at"] <= self.since),
            key=lambda r: r["source_version__activated_at"],
        )
        if activated:
            return int(activated[-1]["source_version_id"])
        return pv.first_version_id

    def is_active_version(self, pv: PassageVersion) -> bool:
        return any(r["source_version__is_active"] and r["change_kind"] != ChangeKind.REMOVED for r in self.memberships.get(pv.pk, []))

    def evidence(self, claim: Claim, citation: Citation | None, pv: PassageVersion | None) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "citation_id": citation.pk if citation else None,
            "cited": citation is not None,
            "source_number": citation.source_number if citation else None,
            "quote": citation.quote if citation else "",
            "quote_result": citation.quote_result if citation else "",
            "needs_reverification": citation.needs_reverification if citation else False,
            "passage_version": None, "source": None, "source_version": None, "judgements": [], "changes": [],
        }
        if pv is None:
            return entry
        passage, source = pv.passage, pv.passage.source
        policy = self.policies.get(source.domain)
        judgements = self.judgements.get((claim.text_hash, pv.pk), [])
        span = next((j.span for j in judgements if j.span), None) or (citation.quote if citation else None)
        offsets = span_offsets(pv.text, span)
        blocked = passage.is_blocked or source.is_blocked or bool(policy and policy.is_blocked)
        reason = passage.blocked_reason or source.blocked_reason or (policy.blocked_reason if policy else "")
        entry["passage_version"] = {
            "id": pv.pk, "passage_id": passage.pk, "text": pv.text, "span": span if offsets else None,
            "span_start": offsets[0] if offsets else None, "span_end": offsets[1] if offsets else None,
            "heading_path": passage.heading_path, "section_heading": pv.section_heading, "anchor": passage.anchor,
            "fingerprint": pv.fingerprint, "change_kind": pv.change_kind, "first_seen_at": _iso(pv.first_seen_at),
            "last_seen_at": _iso(pv.last_seen_at), "is_active_version": self.is_active_version(pv),
            "latest_version_id": self.active_text.get(passage.pk, (pv.pk, 0))[0], "blocked": blocked, "blocked_reason": reason,
        }
        entry["source"] = {
            "id": source.pk, "title": source.title or source.domain, "canonical_url": source.canonical_url, "domain": source.domain,
            "live_url": live_page_url(canonical_url=source.canonical_url, anchor=passage.anchor, text=pv.text,
                                      links_allowed=policy.allowed_for_links if policy else True),
            "link_rel": LINK_REL, "stage": source.stage, "stage_label": _label(Stage, source.stage),
            "link_state": source.link_state, "link_state_label": _label(LinkState, source.link_state) if source.link_state else "not checked yet",
            "evidence_status": source.evidence_status, "evidence_status_label": _label(EvidenceStatus, source.evidence_status),
            "live_page_changed": source.live_page_changed, "blocked": source.is_blocked, "domain_blocked": bool(policy and policy.is_blocked),
        }
        entry["source_version"] = self._version(self.chosen.get(pv.pk))
        entry["judgements"] = [
            {
                "id": j.pk, "status": j.status, "status_label": _label(JudgementStatus, j.status), "judge": j.judge, "model": j.model,
                "prompt_version": j.prompt_version, "rationale": j.rationale, "span": j.span,
                "confidence": str(getattr(j, "confidence", "") or claim.confidence or ""),
                "heuristic": j.heuristic, "needs_reverification": j.needs_reverification, "created_at": _iso(j.created_at),
            }
            for j in judgements
        ]
        entry["changes"] = self._changes(pv, entry, judgements, citation)
        return entry

    def _version(self, version_id: int | None) -> dict[str, Any] | None:
        version = self.versions.get(version_id) if version_id else None
        if version is None:
            return None
        fetch = self.fetches.get(version.pk)
        return {
            "id": version.pk, "number": version.number, "is_active": version.is_active, "activated_at": _iso(version.activated_at),
            "created_at": _iso(version.created_at),
            "fetch": {
                "id": fetch.pk, "requested_url": fetch.requested_url, "final_url": fetch.final_url, "status_code": fetch.status_code,
                "link_state": fetch.link_state, "link_state_label": _label(LinkState, fetch.link_state), "fetched_at": _iso(fetch.fetched_at),
            } if fetch else None,
            "approvals": [
                {"approver": a.approver.get_username(), "decision": a.decision, "reason": a.reason,
                 "emergency_override": a.emergency_override, "at": _iso(a.at)}
                for a in self.approvals.get(version.pk, [])
            ],
        }

    def _changes(self, pv: PassageVersion, entry: dict[str, Any], judgements: list[Judgement], citation: Citation | None) -> list[dict[str, str]]:
        passage, source = pv.passage, pv.passage.source
        changes: list[dict[str, str]] = []
        for block in self.blocks:
            if not block_targets(block, passage_id=passage.pk, source_id=source.pk, domain=source.domain):
                continue
            who = block.blocked_by.get_username() if block.blocked_by else "system"
            what = {"passage": "This passage", "source": "The source", "domain": f"The domain {block.domain}"}.get(block.target, "It")
            if block.lifted_at is None:
                changes.append({"kind": "blocked", "message": f"{what} is blocked since {block.blocked_at:%Y-%m-%d %H:%M} by {who}: {block.reason}"})
            else:
                lifter = block.lifted_by.get_username() if block.lifted_by else "system"
                changes.append({"kind": "block_lifted", "message": f"{what} was blocked on {block.blocked_at:%Y-%m-%d %H:%M} by {who} ({block.reason}); lifted on {block.lifted_at:%Y-%m-%d %H:%M} by {lifter}"})
        if entry["passage_version"]["blocked"] and not any(c["kind"] == "blocked" for c in changes):
            which = "This passage" if passage.is_blocked else ("The source" if source.is_blocked else f"The domain {source.domain}")
            changes.append({"kind": "blocked", "message": f"{which} is blocked: {entry['passage_version']['blocked_reason'] or 'no reason recorded'}"})
        if not entry["passage_version"]["is_active_version"]:
            if any(r["source_version__activated_at"] is not None for r in self.memberships.get(pv.pk, [])):
                changes.append({"kind": "not_active", "message": "This text is no longer in the source's active version."})
            else:  # never approved: "no longer" would be false
                changes.append({"kind": "not_active", "message": "This text is not approved yet: no version of the source that holds it has been activated."})
        active = self.active_text.get(passage.pk)
        if active is not None and active[0] != pv.pk:
            changes.append({"kind": "newer_text",
                            "message": f"The active version (source version {active[1]}) has other text for this passage (passage version {active[0]})."})
        if source.live_page_changed:
            changes.append({"kind": "live_page_changed", "message": "Live page changed — review needed."})
        if source.evidence_status in (EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD):
            changes.append({"kind": "page_missing", "message": f"The live page is {_label(EvidenceStatus, source.evidence_status)}."})
        elif source.evidence_status == EvidenceStatus.TEMPORARILY_UNVERIFIED:
            changes.append({"kind": "unverified", "message": "The live page could not be checked lately: temporarily unverified."})
        if (citation and citation.needs_reverification) or any(j.needs_reverification for j in judgements[:1]):
            changes.append({"kind": "reverification", "message": "Marked for re-verification."})
        return changes
