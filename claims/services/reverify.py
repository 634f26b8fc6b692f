"""Re-verification when evidence moves: a version activated or rolled back, a passage changed,
removed, blocked or unblocked. Only the answers whose claims were judged against the touched
passages are re-queued (through the outbox, in the caller's transaction); each is judged again
against the now-active version of the same passage, so unchanged passages (same fingerprint)
reuse their stored verdicts and only the touched claims are re-judged."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from claims.models import Answer, Citation, Claim, Judgement, VerificationChange
from claims.services.answers import answer_verify_request
from reviews.audit import audit_record
from reviews.models import TestPair
from sources.models import ChangeKind, Passage, PassageVersion, SourceVersion, VersionPassage

logger = logging.getLogger(__name__)


def claims_reverify_for_passages(*, passage_ids: Iterable[int], reason: str) -> dict[str, int]:
    """Flag and re-queue every answer with a claim that cites, or was judged against, any version
    of these passages (stable passage identity). Call inside the transaction of the change."""

    passages = sorted(set(passage_ids))
    if not passages:
        return {"answers": 0}
    versions = list(PassageVersion.objects.filter(passage_id__in=passages).values_list("pk", flat=True))
    cited_claims = set(Citation.objects.filter(passage_version_id__in=versions).values_list("claim_id", flat=True))
    judged_hashes = set(Judgement.objects.filter(passage_version_id__in=versions).values_list("claim_text_hash", flat=True))
    # Claims citing nothing are judged against every passage sent; their verdicts name the passage.
    uncited = set(Claim.objects.filter(text_hash__in=judged_hashes, citations__isnull=True).values_list("pk", flat=True)) if judged_hashes else set()
    claim_ids = cited_claims | uncited
    answer_ids = sorted(set(Claim.objects.filter(pk__in=claim_ids).values_list("answer_id", flat=True)))
    counts = {
        "citations": Citation.objects.filter(claim_id__in=cited_claims, passage_version_id__in=versions).update(needs_reverification=True),
        "claims": Claim.objects.filter(pk__in=claim_ids).update(needs_reverification=True),
        "answers": Answer.objects.filter(pk__in=answer_ids).update(needs_reverification=True),
        "test_pairs": TestPair.objects.filter(expected_passage_id__in=passages).update(needs_reverification=True),
    }
    states = dict(Answer.objects.filter(pk__in=answer_ids).values_list("pk", "state"))
    VerificationChange.objects.bulk_create(
        [VerificationChange(answer_id=pk, reason=reason[:1000], passages=passages, from_state=states.get(pk, "")) for pk in answer_ids]
    )
    for answer in Answer.objects.filter(pk__in=answer_ids).only("pk"):
        answer_verify_request(answer=answer, now=True)
    if counts["answers"] or counts["test_pairs"]:
        audit_record(actor=None, action="claims_reverify", object_type="sources.passage", object_id=",".join(map(str, passages))[:64],
                     reason=reason, data=counts | {"answer_ids": answer_ids[:200]})
    logger.info("reverification.queued", extra=counts)
    return counts


def claims_reverify_for_activation(*, version_id: int, previous_version_id: int | None, reason: str) -> dict[str, int]:
    """After a version was activated (or rolled back to), whatever its content: re-queue the
    claims of every passage of its source. An activation moves more than the passages whose text
    differs between the two versions: "live page changed", "not in the active version" and
    "a newer version awaits review" are facts about the whole source, so a version identical to
    an earlier one (the page reverted) re-verifies too. Stored verdicts of unchanged text are
    reused, so this costs a judge call only where the judged text changed."""

    source_id = SourceVersion.objects.filter(pk=version_id).values_list("source_id", flat=True).first()
    touched: set[int] = set()
    if source_id is not None:
        touched = set(Passage.objects.filter(source_id=source_id).values_list("pk", flat=True))
    for pk in (previous_version_id, version_id):
        if pk is not None:
            rows = VersionPassage.objects.filter(source_version_id=pk).exclude(change_kind=ChangeKind.REMOVED)
            touched |= set(rows.values_list("passage_version__passage_id", flat=True))
    return claims_reverify_for_passages(passage_ids=touched, reason=reason)


def claims_reverify_for_block(*, reason: str, source_id: int | None = None, domain: str = "", passage_id: int | None = None) -> dict[str, int]:
    """After a source, domain or passage was blocked or unblocked: re-queue the claims that rely on it."""
    query = Passage.objects.none()
    if source_id is not None:
        query = Passage.objects.filter(source_id=source_id)
    elif domain:
        query = Passage.objects.filter(source__domain=domain)
    elif passage_id is not None:
        query = Passage.objects.filter(pk=passage_id)
    return claims_reverify_for_passages(passage_ids=query.values_list("pk", flat=True), reason=reason)


def reverification_flag(*, passage_versions: list[PassageVersion], reason: str) -> dict[str, int]:
    """A new fetch changed or removed these passage versions (the live page no longer says them):
    flag their verdicts and re-queue the answers that relied on them. Call inside the change's transaction."""
    Judgement.objects.filter(passage_version_id__in=[pv.pk for pv in passage_versions]).update(needs_reverification=True)
    return claims_reverify_for_passages(passage_ids={pv.passage_id for pv in passage_versions}, reason=reason)


FRESHNESS_REASON = "evidence passed its freshness window"


def answers_freshness_sweep(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Re-queue the answers whose deciding evidence has passed its freshness window since they were
    verified (`Answer.fresh_until`, set by each verification): time alone moved their evidence.
    The deadline is cleared as the request is written, so two schedulers never queue one twice;
    the verification sets the next one. Returns how many answers were queued."""

    now = now or timezone.now()
    with transaction.atomic():
        due = Answer.objects.select_for_update(skip_locked=True).filter(fresh_until__lte=now).order_by("fresh_until")
        rows = list(due.values_list("pk", "state")[:limit])
        if not rows:
            return 0
        ids = [pk for pk, _ in rows]
        Answer.objects.filter(pk__in=ids).update(fresh_until=None, needs_reverification=True)
        VerificationChange.objects.bulk_create([VerificationChange(answer_id=pk, reason=FRESHNESS_REASON, from_state=state) for pk, state in rows])
        for answer in Answer.objects.filter(pk__in=ids).only("pk"):
            answer_verify_request(answer=answer, now=True)
        audit_record(actor=None, action="claims_reverify", object_type="claims.answer", object_id=",".join(map(str, ids))[:64],
                     reason=FRESHNESS_REASON, data={"answers": len(ids), "answer_ids": ids[:200]})
    logger.info("reverification.freshness", extra={"answers": len(ids)})
    return len(ids)
