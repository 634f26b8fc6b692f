"""Verifying an answer: judge each claim against the now-active version of each passage it
cites, apply the mode's rules, store claim states, the answer state, its wording and report."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from citecheck import state_wording, verification
from citecheck.judges import Judge
from citecheck.state_wording import short_document
from citecheck.verification import EvidenceRecord
from claims.models import Answer, Citation, Claim, Judgement, JudgementStatus, VerificationChange, WordingTemplate
from claims.services.judging import JudgeFailure, configured_judge, judgement_get
from claims.services.kept import verification_day_move
from dispatch.services import current_attempt, work_progress
from reviews.audit import audit_record
from sources.models import ChangeKind, DomainPolicy, PassageVersion, VersionPassage
from sources.selectors import passage_usability, safe_link

logger = logging.getLogger(__name__)

# After a source's next scheduled check, the time for its fetch to be recorded before an answer
# resting on its lapsed passages is verified again.
FRESHNESS_CHECK_MARGIN = timedelta(minutes=15)


def evidence_now(pv: PassageVersion) -> tuple[PassageVersion, str]:
    """The version of `pv`'s passage to judge against now (stable passage identity) and how it
    stands: the cited version when it is still in the source's active version, else the active
    version's text of the same passage; ``removed`` when the active version no longer has it."""

    current = (
        VersionPassage.objects.filter(passage_version__passage_id=pv.passage_id, source_version__is_active=True)
        .exclude(change_kind=ChangeKind.REMOVED)
        .select_related("passage_version__passage__source__check_times")
        .first()
    )
    if current is None:
        has_active = pv.passage.source.versions.filter(is_active=True).exists()
        return pv, "removed" if has_active else passage_usability(pv)
    return current.passage_version, passage_usability(current.passage_version)


def _page_date(text: str) -> date | None:
    try:
        return date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def _record(pv: PassageVersion, usability: str, verdict: Judgement | JudgeFailure | None, tiers: dict[str, int]) -> Any:
    source = pv.passage.source
    link = safe_link(pv)
    tier = tiers.get(source.domain)
    document = short_document(source.title or source.domain)
    section = pv.section_heading
    failed = isinstance(verdict, JudgeFailure)
    return EvidenceRecord(
        source_id=source.pk, domain=source.domain,
        status=verdict.status if verdict is not None else JudgementStatus.UNAVAILABLE,
        priority=source.priority, tier=(tier / 3) if tier else None, page_date=_page_date(source.displayed_date),
        fetched_at=source.checks.last_ok_at, is_current=usability == "active", risk_level=source.risk_level,
        span=verdict.span if verdict is not None else None, passage_id=pv.pk,
        url=link["href"] if link else "", title=link["text"] if link else document,
        judge=verdict.judge if verdict is not None else "", usability="judge_error" if failed else usability,
        confidence=(verdict.confidence or "high") if verdict is not None and not failed else "high",
        rationale=verdict.rationale if verdict is not None else "",
        document=document, link_text=f"{document} — {section}" if section and section != document else document,
        error=verdict.error if isinstance(verdict, JudgeFailure) else "",
    )


def _wording_lookup() -> Any:
    stored = {(t.key, t.language, t.mode): t.text for t in WordingTemplate.objects.all()}

    def lookup(key: str, language: str, mode: str) -> str | None:
        return stored.get((key, language, mode)) or stored.get((key, language, ""))

    return lookup


def answer_verify(*, answer_id: int, judge: Judge | None = None) -> Answer | None:
    """Judge every claim that needs evidence against the passages it cites (or, when it cites
    none, every passage sent) — each at its now-active version — apply the rules of the
    answer's verification mode, and store claim states, the answer's state, wording and report.

    A judge failure is never a verdict: the claim stays ``unavailable`` (pending), the answer
    ``pending``, and ``report["retry"]`` says when to try again (the job raises RetryLater).
    Safe to run again: stored verdicts are reused, so only missing or failed ones are asked.
    """

    started = timezone.now()
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        logger.info("verify.gone", extra={"answer_id": answer_id})
        return None
    mode = answer.verification_mode
    ids = [i for i in answer.sources_sent if isinstance(i, int)]
    sent = {pv.pk: pv for pv in PassageVersion.objects.filter(pk__in=ids).select_related("passage__source__check_times")}
    now_of = {pk: evidence_now(pv) for pk, pv in sent.items()}
    domains = {pv.passage.source.domain for pv, _ in now_of.values()}
    tiers = dict(DomainPolicy.objects.filter(domain__in=domains).values_list("domain", "quality_tier"))
    judge = judge or configured_judge()
    claims = list(answer.claims.order_by("position").prefetch_related("citations"))
    per_claim: list[tuple[Claim, Any, list[dict[str, Any]]]] = []
    failures: list[JudgeFailure] = []
    contacts: list[str] = []
    fresh_until: datetime | None = None
    for done, claim in enumerate(claims):
        work_progress(done=done, total=len(claims), message=f"claim {done + 1} of {len(claims)}")
        if not claim.needs_citation:
            continue
        cited = [c.passage_version_id for c in claim.citations.all() if c.passage_version_id]
        records = []
        evidence = []
        for pk in dict.fromkeys(i for i in (cited or list(sent)) if i in sent):
            pv, usability = now_of[pk]
            verdict: Judgement | JudgeFailure | None = None
            if usability not in ("blocked", "missing", "unverified", "unapproved"):
                verdict = judgement_get(claim_text=claim.text, passage_version=pv, judge=judge)
                if isinstance(verdict, JudgeFailure):
                    failures.append(verdict)
            records.append(_record(pv, usability, verdict, tiers))
            evidence.append({"cited_passage_version": pk, "judged_passage_version": pv.pk, "usability": usability,
                             "fingerprint": pv.fingerprint, "judgement": verdict.pk if isinstance(verdict, Judgement) else None,
                             "error": verdict.error if isinstance(verdict, JudgeFailure) else ""})
            if pv.passage.source.owner and pv.passage.source.owner not in contacts:
                contacts.append(pv.passage.source.owner)
        result = verification.claim_state(claim.text, records, mode=mode, freshness_days=settings.CITECHECK_FRESHNESS_DAYS)
        for expires in _freshness_deadlines(records, sent):
            fresh_until = expires if fresh_until is None or expires < fresh_until else fresh_until
        per_claim.append((claim, result, evidence))
    results = [result for _, result, _ in per_claim]
    state = verification.answer_state(results, mode=mode)
    claim_dicts = [result.to_dict() for result in results]
    text = state_wording.answer_wording(state.state, claim_dicts, language=answer.language, mode=mode,
                                  lookup=_wording_lookup(), contact=contacts[0] if len(contacts) == 1 else "")
    card = verification.report_card(results, mode=mode, threshold=settings.CITECHECK_MIN_VERIFICATION_RATE, language=answer.language)
    marked, bibliography = verification.render_citations(
        [(result.claim, [{"source_id": e["source_id"], "title": e["title"], "url": e["url"]} for e in result.supporting if e["url"]])
         for result in results]
    )
    retry = _retry(failures) if failures else None
    with transaction.atomic():
        answer = Answer.objects.select_for_update().get(pk=answer_id)
        before = answer.state
        for claim, result, _ in per_claim:
            Claim.objects.filter(pk=claim.pk).update(state=result.state, confidence=result.confidence, needs_reverification=False)
        answer.claims.filter(needs_citation=False).update(needs_reverification=False)

        Citation.objects.filter(claim__answer=answer).update(needs_reverification=False)
        verified_at = timezone.now()
        changes = list(VerificationChange.objects.filter(answer=answer, verified_at__isnull=True, requested_at__lte=started))
        VerificationChange.objects.filter(pk__in=[c.pk for c in changes]).update(verified_at=verified_at, to_state=state.state)
        if retry is None and VerificationChange.objects.filter(answer=answer, verified_at__isnull=True).exists():
            # Evidence moved while this run was judging (its request was folded into this one): run again.
            retry = {"failures": 0, "attempt": current_attempt(), "retry_in": 1.0, "error": "the evidence moved during the verification"}
        answer.state = state.state
        answer.state_wording = text
        answer.report = {
            "mode": mode,
            "state": state.to_dict(),
            "claims": [result.to_dict() | {"position": claim.position, "sentence": claim.sentence, "evidence": evidence,
                                           "quotes": [{"source": c.source_number, "quote": c.quote, "result": c.quote_result}
                                                      for c in claim.citations.all() if c.quote]}
                       for claim, result, evidence in per_claim],
            "card": card,
            "cited_text": marked,
            "bibliography": bibliography,
            "retry": retry,
            "changes": [{"reason": c.reason, "passages": c.passages, "from_state": c.from_state, "to_state": state.state,
                         "requested_at": c.requested_at.isoformat(), "verified_at": verified_at.isoformat()}
                        for c in changes] + list((answer.report or {}).get("changes", []))[:20],
        }
        answer.needs_reverification = bool(retry)
        verification_day_move(before_at=answer.verified_at, before_state=before, after_at=verified_at, after_state=state.state)
        answer.verified_at = verified_at
        answer.fresh_until = fresh_until
        answer.save(update_fields=["state", "state_wording", "report", "needs_reverification", "verified_at", "fresh_until"])
        if before != answer.state:
            audit_record(actor=None, action="answer_verify", obj=answer, from_state=before, to_state=answer.state,
                         data={"mode": mode, "judge_failures": len(failures)})
    return answer


def _freshness_deadlines(records: list[EvidenceRecord], sent: dict[int, PassageVersion]) -> list[datetime]:
    """When this claim's state may change by time alone: a deciding passage passing its freshness
    window, or (for one already past it) the source's next scheduled check, which can confirm the
    page again (with a margin for the fetch to land)."""
    days = settings.CITECHECK_FRESHNESS_DAYS
    deadlines = [expires] if (expires := verification.freshness_expires_at(records, freshness_days=days)) else []
    lapsed = {record.source_id for record in verification.freshness_lapsed(records, freshness_days=days)}
    if lapsed:
        now = timezone.now()
        for pv in sent.values():
            source = pv.passage.source
            if source.pk in lapsed:
                next_check = source.checks.next_check_at
                if next_check is None or next_check <= now:
                    # Overdue or never scheduled: look again one re-check interval on, never every tick.
                    next_check = now + timedelta(hours=settings.CITECHECK_RECHECK_HOURS.get(source.risk_level, 24.0 * 7))
                deadlines.append(next_check + FRESHNESS_CHECK_MARGIN)
    return deadlines


def _retry(failures: list[JudgeFailure]) -> dict[str, Any]:
    """When to verify again after judge failures: exponential backoff by attempt, never sooner
    than the endpoint's breaker allows."""
    attempt = current_attempt()
    backoff = min(settings.CITECHECK_VERIFY_RETRY_MAX_SECONDS, settings.CITECHECK_VERIFY_RETRY_BASE_SECONDS * 2 ** (attempt - 1))
    delay = max([backoff] + [f.retry_in for f in failures])
    return {"failures": len(failures), "attempt": attempt, "retry_in": round(delay, 3), "error": failures[0].error}
