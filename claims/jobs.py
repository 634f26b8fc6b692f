"""RQ entry points of claim verification."""

from __future__ import annotations

from claims.services import answer_verify


def verify_answer(answer_id: int) -> None:
    from integrations.services.webhooks import webhook_answer_verified

    if answer_verify(answer_id=answer_id) is not None:
        webhook_answer_verified(answer_id=answer_id)
