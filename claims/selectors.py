"""Reads over answers and their citations."""

from __future__ import annotations

from typing import Any

from claims.models import Answer, AnswerState, CircuitState, Citation, ClaimState, JudgeEndpoint, VerificationMode
from claims.tracing import answer_moments, answer_trace

__all__ = ["answer_moments", "answer_trace", "answers_citing"]


def answers_citing(**citation_filter: Any) -> list[int]:
    """Ids of the answers with a citation matching the filter, e.g.
    `passage_version__passage__source=source` — who relied on this evidence."""
    return sorted(set(Citation.objects.filter(**citation_filter).values_list("claim__answer_id", flat=True).distinct()))


def judge_circuits() -> list[dict[str, Any]]:
    """The circuit breaker of every judge endpoint, for the desk and /health/ (JSON-ready)."""

    return [
        {
            "endpoint": row.endpoint, "state": row.state, "label": str(CircuitState(row.state).label),
            "consecutive_failures": row.consecutive_failures,
            "retry_at": row.retry_at.isoformat() if row.retry_at else None, "last_error": row.last_error,
            "last_failure_at": row.last_failure_at.isoformat() if row.last_failure_at else None,
            "last_success_at": row.last_success_at.isoformat() if row.last_success_at else None,
        }
        for row in JudgeEndpoint.objects.order_by("endpoint")
    ]


def answer_verification(*, answer_id: int) -> dict[str, Any] | None:
    """An answer's verification as the API and pages show it (JSON-ready): mode, state and
    wording, each claim's state with its correction / both sides / pending reason / date of
    information, the report card, and what changed and when."""

    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        return None
    report = answer.report or {}
    by_position = {c.get("position"): c for c in report.get("claims", [])}
    claims = []
    for claim in answer.claims.order_by("position"):
        detail = by_position.get(claim.position, {})
        claims.append({
            "position": claim.position, "text": claim.text, "sentence": claim.sentence or None,
            "needs_evidence": claim.needs_citation, "state": claim.state, "state_label": str(ClaimState(claim.state).label),
            "verified": detail.get("verified", False), "explanation_only": detail.get("explanation_only", False),
            "confidence": claim.confidence, "correction": detail.get("correction"),
            "supporting": detail.get("supporting", []), "contradicting": detail.get("contradicting", []),
            "partial": detail.get("partial", []), "pending": detail.get("pending", []), "stale": detail.get("stale", []),
            "quotes": detail.get("quotes", []), "evidence": detail.get("evidence", []), "notes": detail.get("notes", []),
        })
    return {
        "id": answer.pk,
        "mode": answer.verification_mode, "mode_label": str(VerificationMode(answer.verification_mode).label),
        "state": answer.state, "state_label": str(AnswerState(answer.state).label), "wording": answer.state_wording,
        "verified_at": answer.verified_at.isoformat() if answer.verified_at else None,
        "needs_reverification": answer.needs_reverification,
        "claims": claims,
        "card": report.get("card", {}),
        "retry": report.get("retry"),
        "changes": [
            {"reason": c.reason, "passages": c.passages, "from_state": c.from_state, "to_state": c.to_state or None,
             "requested_at": c.requested_at.isoformat(), "verified_at": c.verified_at.isoformat() if c.verified_at else None}
            for c in answer.changes.all()[:50]
        ],
    }
