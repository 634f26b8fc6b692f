"""A minimal answer trace, used until the desk's `claims.selectors.answer_trace` is present:
claims, their citations and judgements, down to the passage and source versions."""

from __future__ import annotations

from typing import Any


def answer_trace(*, answer_id: int) -> dict[str, Any]:
    from claims.models import Answer, Judgement

    answer = Answer.objects.get(pk=answer_id)
    claims = list(answer.claims.order_by("position").prefetch_related("citations__passage_version__passage__source"))
    pv_ids = {c.passage_version_id for claim in claims for c in claim.citations.all() if c.passage_version_id}
    judgements: dict[tuple[str, int], Any] = {
        (j.claim_text_hash, j.passage_version_id): j for j in Judgement.objects.filter(passage_version_id__in=pv_ids)
    }
    out_claims = []
    for claim in claims:
        cites = []
        for c in claim.citations.all():
            pv = c.passage_version
            j = judgements.get((claim.text_hash, pv.pk)) if pv else None
            cites.append({
                "source_number": c.source_number, "quote": c.quote, "passage_version_id": pv.pk if pv else None,
                "passage_id": pv.passage_id if pv else None, "source_id": pv.passage.source_id if pv else None,
                "source_version_id": pv.first_version_id if pv else None, "passage_text": pv.text if pv else None,
                "judgement": {"status": j.status, "span": j.span, "judge": j.judge, "model": j.model} if j else None,
            })
        out_claims.append({"position": claim.position, "text": claim.text, "state": claim.state, "confidence": claim.confidence,
                           "needs_citation": claim.needs_citation, "citations": cites})
    return {
        "answer_id": answer.pk, "question": answer.question, "raw_response": answer.raw_response, "answer_text": answer.answer_text,
        "state": answer.state, "wording": answer.state_wording, "received_at": answer.received_at.isoformat(),
        "verified_at": answer.verified_at.isoformat() if answer.verified_at else None, "sources_sent": answer.sources_sent,
        "claims": out_claims,
    }
