"""An integration's answer arrives: submitted once per idempotency key, and owned by the integration."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction

from citecheck.errors import IdempotencyKeyReused, ServiceError
from claims.models import Answer
from claims.services.answers import SubmittedAnswer, answer_record
from integrations.models import Idempotency, Integration, IntegrationAnswer
from reviews.audit import Actor, permission_require, user_or_none


@dataclass(frozen=True)
class AnswerReceived:
    answer: Answer
    replay: bool  # True: the key was seen before with the same request; this is the first answer
    submitted: SubmittedAnswer | None = None  # what storing it read and asked for (None on a replay)


def _earlier(*, actor: Actor, integration: Integration | None, key: str) -> Idempotency | None:
    keyed = Idempotency.objects.select_related("answer").filter(key=key)
    if integration is not None:
        return keyed.filter(integration=integration).first()
    return keyed.filter(user=user_or_none(actor), integration__isnull=True).first()


def _replay(earlier: Idempotency, request_sha256: str) -> AnswerReceived:
    if earlier.body_sha256 and earlier.body_sha256 != request_sha256:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was already used with a different request body; use a new key for a new answer.",
            field="Idempotency-Key",
        )
    return AnswerReceived(answer=earlier.answer, replay=True)


def answer_receive(
    *, actor: Actor, integration: Integration | None, idempotency_key: str | None, request_sha256: str, **submit: Any
) -> AnswerReceived:
    """Submit an answer (`claims.services.answer_record` with `submit`) for `integration`, once
    per idempotency key: the same key (per integration; per user for a desk session) with the
    same request gives back the first answer, with another request it is refused (422). The
    answer, its ownership and its key are written in one transaction; of two requests with one
    key at once, the second gives back the first's answer.

    A key is looked up only when it cannot be new: the key's unique constraint refuses the
    second use (the whole transaction rolls back, then the first answer is read), and a request
    refused for any other reason looks for an earlier answer under its key before the refusal
    stands (a key's first answer is given back even when the same request would be refused today)."""
    # Refusals are audited in their own transaction: check before this one opens.
    permission_require(actor=actor, perm="claims.add_answer", action="answer_submit")
    user = user_or_none(actor)  # the system itself (actor None) keeps no keys
    try:
        with transaction.atomic():
            submitted = answer_record(actor=actor, **submit)
            if integration is not None:
                IntegrationAnswer.objects.create(answer=submitted.answer, integration=integration)
            if user is not None and idempotency_key:
                Idempotency.objects.create(user=user, integration=integration, key=idempotency_key, body_sha256=request_sha256, answer=submitted.answer)
    except (IntegrityError, ServiceError):
        earlier = _earlier(actor=actor, integration=integration, key=idempotency_key) if user is not None and idempotency_key else None
        if earlier is None:
            raise
        return _replay(earlier, request_sha256)
    return AnswerReceived(answer=submitted.answer, replay=False, submitted=submitted)
