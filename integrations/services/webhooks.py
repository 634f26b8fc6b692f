"""Signed webhooks, delivered from the outbox with retries and backoff; every attempt recorded.

Signature (documented in the README): `Citecheck-Signature: v1=<hex>` where hex is
HMAC-SHA256(secret, f"{timestamp}.{body}") and `Citecheck-Timestamp` is the Unix time of the
attempt. A receiver recomputes it over the raw body and refuses timestamps outside its window.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from citecheck.linkcheck import LinkCheckConfig, config_from_settings, post_url
from claims.models import Answer, Citation
from dispatch.services import RetryLater, work_request
from integrations.models import DeliveryStatus, Integration, WebhookAttempt, WebhookDelivery

logger = logging.getLogger(__name__)


def webhook_signature(*, secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"


def webhook_event(*, integration: Integration, event: str, payload: dict[str, Any]) -> WebhookDelivery | None:
    """Queue one event for an integration (no-op without a webhook URL). Call inside the
    transaction of the change: the delivery is sent only if it commits."""
    if not integration.webhook_url or integration.disabled_at is not None:
        return None
    with transaction.atomic():
        delivery = WebhookDelivery.objects.create(integration=integration, event=event, payload={"event": event, **payload})
        work_request(job="integrations.deliver_webhook", kwargs={"delivery_id": delivery.pk}, queue="default")
    return delivery


def webhook_answer_verified(*, answer_id: int) -> None:
    """Tell the integration that submitted an answer that its verification finished."""
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None or answer.verified_at is None:
        return
    for integration in Integration.objects.filter(answer_links__answer_id=answer.pk).exclude(webhook_url=""):
        webhook_event(
            integration=integration, event="answer.verified",
            payload={"answer_id": answer.pk, "state": answer.state, "wording": answer.state_wording,
                     "verified_at": answer.verified_at.isoformat(), "url": f"/api/v1/answers/{answer.pk}"},
        )


def webhook_evidence_retracted(*, passage_version_ids: list[int], cause: str) -> None:
    """Tell every integration whose answers cited these passage versions that they were retracted
    (each integration hears only of its own answers)."""
    rows = (
        Citation.objects.filter(passage_version_id__in=passage_version_ids, claim__answer__integration_link__isnull=False)
        .values_list("claim__answer__integration_link__integration_id", "claim__answer_id", "passage_version_id")
        .distinct()
    )
    per_integration: dict[int, tuple[set[int], set[int]]] = {}
    for integration_id, answer_id, pv_id in rows:
        answers, pvs = per_integration.setdefault(integration_id, (set(), set()))
        answers.add(answer_id)
        pvs.add(pv_id)
    if not per_integration:
        return
    for integration in Integration.objects.filter(pk__in=per_integration).exclude(webhook_url=""):
        answers, pvs = per_integration[integration.pk]
        webhook_event(
            integration=integration, event="evidence.retracted",
            payload={"cause": cause, "passage_version_ids": sorted(pvs), "answer_ids": sorted(answers)},
        )


def webhook_client_config() -> LinkCheckConfig:
    """The guarded client's limits for webhooks: the fetcher's SSRF policy and ports, the
    webhook timeout."""
    return config_from_settings(settings, timeout=float(settings.CITECHECK_WEBHOOK_TIMEOUT), concurrency=1, host_concurrency=1)


def webhook_deliver(*, delivery_id: int) -> str:
    """One delivery attempt (the job). Retries with exponential backoff via the outbox until
    CITECHECK_WEBHOOK_MAX_ATTEMPTS; each attempt is a WebhookAttempt row."""
    delivery = WebhookDelivery.objects.select_related("integration").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != DeliveryStatus.PENDING:
        return "skipped"
    integration = delivery.integration
    number = delivery.attempts + 1
    body = json.dumps(delivery.payload | {"delivery_id": delivery.pk}, separators=(",", ":"), sort_keys=True).encode()
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json", "User-Agent": "Citecheck-Webhook/1",
        "Citecheck-Event": delivery.event, "Citecheck-Delivery": str(delivery.pk),
        "Citecheck-Timestamp": str(timestamp),
        "Citecheck-Signature": webhook_signature(secret=integration.webhook_secret, timestamp=timestamp, body=body),
    }
    disabled = integration.disabled_at is not None
    if disabled:  # switched off after the event was queued: not sent, not retried
        status_code, error, elapsed, ok = None, "the integration is disabled", 0, False
    elif not integration.webhook_secret:
        # Never sign with an empty key: a receiver could not tell our events from anyone's.
        status_code, error, elapsed, ok = None, "no webhook secret: rotate the secret in the admin", 0, False
    else:
        # The one guarded client: URL rules, one resolution, only allowed addresses connected to,
        # no redirects followed; its error text says what the guard refused and nothing more.
        result = post_url(integration.webhook_url, body, headers, webhook_client_config())
        status_code, error, elapsed, ok = result.status_code, result.error[:500], result.elapsed_ms, result.ok
    with transaction.atomic():
        WebhookAttempt.objects.create(delivery=delivery, number=number, status_code=status_code, error=error, elapsed_ms=elapsed)
        delivery.attempts = number
        if ok:
            delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, timezone.now()
        elif disabled or number >= settings.CITECHECK_WEBHOOK_MAX_ATTEMPTS:
            delivery.status = DeliveryStatus.FAILED
        delivery.save(update_fields=["attempts", "status", "delivered_at"])
    logger.info("webhook.attempt", extra={"delivery_id": delivery.pk, "attempt": number, "status_code": status_code, "error": error})
    if delivery.status == DeliveryStatus.PENDING:
        raise RetryLater(settings.CITECHECK_WEBHOOK_RETRY_BASE_SECONDS * 2 ** (number - 1), f"webhook attempt {number} failed: {error}")
    return str(delivery.status)
