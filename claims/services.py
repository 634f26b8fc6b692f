"""Judging claims against passages (cached), answers in and out, re-verification flags."""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from citecheck.judges import Judge, claim_hash, get_judge
from claims.models import Answer, Citation, Claim, Judgement
from dispatch.services import work_request
from reviews.services import audit_record
from sources.models import PassageVersion

logger = logging.getLogger(__name__)


def judge_config(name: str) -> dict[str, Any]:
    if name in ("openai", "llm"):
        return {
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
    for answer_id in sorted(answer_ids):
        work_request(job="claims.verify_answer", kwargs={"answer_id": answer_id}, queue="judge", dedupe_key=f"verify:{answer_id}")
    if any(counts.values()):
        audit_record(actor=None, action="reverification_flag", object_type="sources.passageversion", object_id=",".join(map(str, ids))[:64], reason=reason, data=counts)
    logger.info("reverification.flagged", extra=counts)
    return counts
