"""RQ entry points of claim verification."""

from __future__ import annotations

import logging

from claims.services import answer_verify
from dispatch.services import RetryLater
from integrations.services.webhooks import webhook_answer_verified

logger = logging.getLogger(__name__)


def verify_answer(answer_id: int) -> None:
    """Verify one answer; when a judge call failed, the claims stay pending and the job asks to
    be run again later (backoff, never sooner than the endpoint's circuit breaker allows)."""
    answer = answer_verify(answer_id=answer_id)
    retry = (answer.report or {}).get("retry") if answer is not None else None
    if retry:
        raise RetryLater(float(retry["retry_in"]), f"verification pending: {retry['error'][:200]} ({retry['failures']} judge call(s) failed)")
    if answer is not None:  # verification finished: tell the integration that submitted it
        webhook_answer_verified(answer_id=answer_id)
