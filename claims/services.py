"""Judging claims against passages (cached), answers in and out, re-verification flags."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from citecheck.errors import InvalidInput
from citecheck.judges import Judge, claim_hash, get_judge
from claims.limits import answer_limits_check
from claims.models import Answer, Citation, Claim, Judgement, JudgementStatus
from dispatch.services import work_progress, work_request
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from sources.models import PassageVersion

logger = logging.getLogger(__name__)


def judge_config(name: str) -> dict[str, Any]:
    if name in ("openai", "llm", "cascade"):
        return {
            "cascade": settings.CITECHECK_JUDGE_CASCADE,
            "base_url": settings.OPENAI_BASE_URL or None,
            "api_key": settings.OPENAI_API_KEY or "not-needed",
            "model": settings.CITECHECK_JUDGE_MODEL,
            "timeout": settings.CITECHECK_JUDGE_TIMEOUT,
            "max_concurrency": settings.CITECHECK_JUDGE_CONCURRENCY,
        }
    return {}


@lru_cache(maxsize=8)
def _judge(name: str, base_url: str, model: str) -> Judge:
    return get_judge(name, **judge_config(name))


def configured_judge(name: str | None = None) -> Judge:
    """The judge named in settings (CITECHECK_JUDGE), built once per configuration."""
    name = (name or settings.CITECHECK_JUDGE or "builtin").lower()
    return _judge(name, settings.OPENAI_BASE_URL, settings.CITECHECK_JUDGE_MODEL)


def judgement_get(*, claim_text: str, passage_version: PassageVersion, judge: Judge | None = None) -> Judgement:
    """The verdict of `judge` on claim vs passage; asked at most once per (claim text, passage
    text, judge, model, prompt version) and stored."""
    judge = judge or configured_judge()
    key = {
        "claim_text_hash": claim_hash(claim_text),
        "passage_fingerprint": passage_version.fingerprint,
        "judge": judge.name,
        "model": judge.model or "",
        "prompt_version": judge.prompt_version or "",
    }
    found = Judgement.objects.filter(**key).first()
    if found is not None:
        return found
    verdict = judge.judge(claim_text, passage_version.text)
    try:
        with transaction.atomic():
            return Judgement.objects.create(
                **key,
                claim_text=claim_text,
                passage_version=passage_version,
                status=verdict.status,
                span=verdict.span,
                rationale=verdict.rationale,
                heuristic=verdict.heuristic,
                prompt_tokens=verdict.prompt_tokens or None,
                completion_tokens=verdict.completion_tokens or None,
            )
    except IntegrityError:
        return Judgement.objects.get(**key)  # another worker stored the same question first


def reverification_flag(*, passage_versions: list[PassageVersion], reason: str) -> dict[str, int]:
    """Mark everything that relied on these passage texts for re-verification and re-queue the
    verification of the affected answers. Call inside the transaction of the change."""
    from reviews.models import TestPair

    ids = [pv.pk for pv in passage_versions]
    passages = {pv.passage_id for pv in passage_versions}
    citations = Citation.objects.filter(passage_version_id__in=ids)
    claim_ids = set(citations.values_list("claim_id", flat=True))
    answer_ids = set(Claim.objects.filter(pk__in=claim_ids).values_list("answer_id", flat=True))
    counts = {
        "citations": citations.update(needs_reverification=True),
        "claims": Claim.objects.filter(pk__in=claim_ids).update(needs_reverification=True),
        "answers": Answer.objects.filter(pk__in=answer_ids).update(needs_reverification=True),
        "judgements": Judgement.objects.filter(passage_version_id__in=ids).update(needs_reverification=True),
        "test_pairs": TestPair.objects.filter(expected_passage_id__in=passages).update(needs_reverification=True),
    }
    for answer in Answer.objects.filter(pk__in=answer_ids):
        answer_verify_request(answer=answer)
    if any(counts.values()):
        audit_record(actor=None, action="reverification_flag", object_type="sources.passageversion", object_id=",".join(map(str, ids))[:64], reason=reason, data=counts)
    logger.info("reverification.flagged", extra=counts)
    return counts


# --- answers ------------------------------------------------------------------------------------


def _best_claim(claims: list[Claim], quote: str) -> Claim | None:
    """The claim a JSON-shaped citation belongs to: the one sharing most words with its quote."""
    from citecheck.text import fold_for_match

    words = set(fold_for_match(quote).split())
    candidates = [c for c in claims if c.needs_citation] or claims
    if not candidates:
        return None
    return max(candidates, key=lambda c: len(words & set(fold_for_match(c.text).split())))


def answer_submit(
    *,
    actor: Actor,
    raw_response: str,
    passage_version_ids: list[int],
    question: str = "",
    model_name: str = "",
    language: str = "en",
) -> Answer:
    """Store a bot answer exactly as received, with the registered passages that were sent to
    the model, split it into claims and citations, and ask for its verification."""
    from citecheck import citations as checker
    from citecheck.claims import extract_claims

    permission_require(actor=actor, perm="claims.add_answer", action="answer_submit")
    answer_limits_check(raw_response=raw_response, passage_version_ids=passage_version_ids)
    if not isinstance(passage_version_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in passage_version_ids):
        raise InvalidInput("sources: give the list of passage-version ids that were sent to the model", field="sources")
    found = PassageVersion.objects.in_bulk(passage_version_ids)
    missing = [i for i in passage_version_ids if i not in found]
    if missing:
        raise InvalidInput(f"sources: unknown passage-version id(s) {', '.join(map(str, missing))}", field="sources")
    try:
        parsed = checker.parse_answer(raw_response)
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field="answer") from exc
    with transaction.atomic():
        answer = Answer.objects.create(
            question=question, raw_response=raw_response, answer_text=parsed.answer_text,
            answer_format=str(parsed.answer_format), model_name=model_name[:200], language=(language or "en")[:16],
            sources_sent=passage_version_ids, submitted_by=user_or_none(actor),
        )
        claims = [
            Claim(answer=answer, text=c.text, text_hash=claim_hash(c.text), position=c.index, needs_citation=c.needs_evidence)
            for c in extract_claims(parsed.answer_text)
        ]
        Claim.objects.bulk_create(claims)
        claims = list(answer.claims.order_by("position"))
        by_position = {c.position: c for c in claims}
        citations: list[Citation] = []
        if parsed.citations:  # JSON shape: {"source": n, "quote": ...}
            for item in parsed.citations:
                number = item.source if isinstance(item.source, int) else None
                claim = _best_claim(claims, item.quote)
                if claim is not None:
                    citations.append(_citation(claim, number, passage_version_ids, found, item.quote))
        else:
            for extracted in extract_claims(parsed.answer_text):
                claim = by_position[extracted.index]
                for number in extracted.citations:
                    citations.append(_citation(claim, number, passage_version_ids, found, ""))
        Citation.objects.bulk_create(citations)
        audit_record(actor=actor, action="answer_submit", obj=answer, to_state=answer.state)
        answer_verify_request(answer=answer)
    return answer


def _citation(claim: Claim, number: int | None, ids: list[int], found: dict[int, PassageVersion], quote: str) -> Citation:
    pv = found[ids[number - 1]] if number is not None and 1 <= number <= len(ids) else None
    return Citation(claim=claim, passage_version=pv, source_number=number, quote=quote)


def answer_verify_request(*, answer: Answer) -> None:
    work_request(job="claims.verify_answer", kwargs={"answer_id": answer.pk}, queue="judge", dedupe_key=f"verify:{answer.pk}")


def _evidence_record(pv: PassageVersion, judgement: Judgement, usability: str, tiers: dict[str, int]) -> Any:
    from citecheck.verification import EvidenceRecord
    from sources.selectors import safe_link

    source = pv.passage.source
    # Evidence that is blocked, missing or temporarily unverified is never silently used.
    status = judgement.status if usability in ("active", "changed", "outdated") else JudgementStatus.UNAVAILABLE
    link = safe_link(pv)
    tier = tiers.get(source.domain)
    return EvidenceRecord(
        source_id=source.pk, domain=source.domain, status=status, priority=source.priority,
        tier=(tier / 3) if tier else None, page_date=_page_date(source.displayed_date),
        fetched_at=source.last_ok_at, is_current=usability == "active", risk_level=source.risk_level,
        span=judgement.span, passage_id=pv.pk, url=link["href"] if link else "",
        title=link["text"] if link else (source.title or source.domain), judge=judgement.judge,
    )


def _page_date(text: str) -> Any:
    from datetime import date

    try:
        return date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def answer_verify(*, answer_id: int) -> Answer | None:
    """Judge every claim that needs evidence against the passages it cites (or, when it cites
    none, every passage sent), apply the cross-source rules, and store the answer's state,
    the wording the bot should use and the report card. Safe to run again."""
    from citecheck import verification
    from sources.models import DomainPolicy
    from sources.selectors import passage_usability

    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        logger.info("verify.gone", extra={"answer_id": answer_id})
        return None
    ids = [i for i in answer.sources_sent if isinstance(i, int)]
    sent = {pv.pk: pv for pv in PassageVersion.objects.filter(pk__in=ids).select_related("passage__source")}
    usability = {pk: passage_usability(pv) for pk, pv in sent.items()}
    tiers = dict(DomainPolicy.objects.filter(domain__in={pv.passage.source.domain for pv in sent.values()}).values_list("domain", "quality_tier"))
    judge = configured_judge()
    claims = list(answer.claims.order_by("position").prefetch_related("citations"))
    results = []
    per_claim = []
    for done, claim in enumerate(claims):
        work_progress(done=done, total=len(claims), message=f"claim {done + 1} of {len(claims)}")
        if not claim.needs_citation:
            continue
        cited = [c.passage_version_id for c in claim.citations.all() if c.passage_version_id]
        candidates = [sent[i] for i in (cited or list(sent)) if i in sent]
        records = [
            _evidence_record(pv, judgement_get(claim_text=claim.text, passage_version=pv, judge=judge), usability[pv.pk], tiers)
            for pv in candidates
        ]
        result = verification.claim_state(claim.text, records)
        results.append(result)
        per_claim.append((claim, result, records))
    state = verification.answer_state(
        [(result, records) for _, result, records in per_claim],
        language=answer.language, freshness_days=settings.CITECHECK_FRESHNESS_DAYS,
    )
    card = verification.report_card(results, threshold=settings.CITECHECK_MIN_VERIFICATION_RATE, language=answer.language)
    marked, bibliography = verification.render_citations(
        [(claim.text, [{"source_id": r.source_id, "title": r.title, "url": r.url} for r in records if r.status == "supported" and r.url])
         for claim, _, records in per_claim]
    )
    with transaction.atomic():
        answer = Answer.objects.select_for_update().get(pk=answer_id)
        before = answer.state
        for claim, result, _ in per_claim:
            Claim.objects.filter(pk=claim.pk).update(state=result.state, confidence=result.confidence, needs_reverification=False)
        Citation.objects.filter(claim__answer=answer).update(needs_reverification=False)
        answer.state = state.state
        answer.state_wording = state.wording
        answer.report = {
            "state": state.to_dict(),
            "claims": [result.to_dict() | {"position": claim.position} for claim, result, _ in per_claim],
            "card": card,
            "cited_text": marked,
            "bibliography": bibliography,
        }
        answer.needs_reverification = False
        answer.verified_at = timezone.now()
        answer.save(update_fields=["state", "state_wording", "report", "needs_reverification", "verified_at"])
        if before != answer.state:
            audit_record(actor=None, action="answer_verify", obj=answer, from_state=before, to_state=answer.state)
    return answer
