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
import socket
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from citecheck.netguard import NetPolicy, address_block_reason, classify_url
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
    if not integration.webhook_url:
        return None
    with transaction.atomic():
        delivery = WebhookDelivery.objects.create(integration=integration, event=event, payload={"event": event, **payload})
        work_request(job="integrations.deliver_webhook", kwargs={"delivery_id": delivery.pk}, queue="default")
    return delivery


def webhook_answer_verified(*, answer_id: int) -> None:
    """Tell the integration that submitted an answer that its verification finished."""

    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None or answer.submitted_by_id is None or answer.verified_at is None:
        return
    for integration in Integration.objects.filter(user_id=answer.submitted_by_id).exclude(webhook_url=""):
        webhook_event(
            integration=integration, event="answer.verified",
            payload={"answer_id": answer.pk, "state": answer.state, "wording": answer.state_wording,
                     "verified_at": answer.verified_at.isoformat(), "url": f"/api/v1/answers/{answer.pk}"},
        )


def webhook_evidence_retracted(*, passage_version_ids: list[int], cause: str) -> None:
    """Tell every integration whose answers cited these passage versions that they were retracted."""

    rows = (
        Citation.objects.filter(passage_version_id__in=passage_version_ids, claim__answer__submitted_by__isnull=False)
        .values_list("claim__answer__submitted_by_id", "claim__answer_id", "passage_version_id")
        .distinct()
    )
    per_user: dict[int, tuple[set[int], set[int]]] = {}
    for user_id, answer_id, pv_id in rows:
        answers, pvs = per_user.setdefault(user_id, (set(), set()))
        answers.add(answer_id)
        pvs.add(pv_id)
    if not per_user:
        return
    for integration in Integration.objects.filter(user_id__in=per_user).exclude(webhook_url=""):
        answers, pvs = per_user[integration.user_id]
        webhook_event(
            integration=integration, event="evidence.retracted",
            payload={"cause": cause, "passage_version_ids": sorted(pvs), "answer_ids": sorted(answers)},
        )


def _refusal(url: str) -> str | None:
    policy = NetPolicy.build(settings.CITECHECK_FETCH_ALLOW_NETWORKS, settings.CITECHECK_FETCH_ALLOWED_PORTS)
    check = classify_url(url, policy)
    if not check.ok:
        return check.reason
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname or "", port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"cannot resolve {parts.hostname}: {exc}"
    for info in infos:
        reason = address_block_reason(str(info[4][0]), port, policy)
        if reason:
            return reason
    return None


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
    started = time.monotonic()
    status_code: int | None = None
    error = _refusal(integration.webhook_url) or ""
    if not error:
        request = urllib.request.Request(  # noqa: S310 - http(s) only, checked by _refusal
            integration.webhook_url, data=body, method="POST",
            headers={
                "Content-Type": "application/json", "User-Agent": "Citecheck-Webhook/1",
                "Citecheck-Event": delivery.event, "Citecheck-Delivery": str(delivery.pk),
                "Citecheck-Timestamp": str(timestamp),
                "Citecheck-Signature": webhook_signature(secret=integration.webhook_secret, timestamp=timestamp, body=body),
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=settings.CITECHECK_WEBHOOK_TIMEOUT) as response:  # noqa: S310
                status_code = response.status
        except urllib.error.HTTPError as exc:
            status_code, error = exc.code, f"HTTP {exc.code}"
        except (urllib.error.URLError, OSError) as exc:
            error = str(getattr(exc, "reason", exc))[:500]
    ok = status_code is not None and 200 <= status_code < 300
    elapsed = int((time.monotonic() - started) * 1000)
    with transaction.atomic():
        WebhookAttempt.objects.create(delivery=delivery, number=number, status_code=status_code, error=error, elapsed_ms=elapsed)
        delivery.attempts = number
        if ok:
            delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, timezone.now()
        elif number >= settings.CITECHECK_WEBHOOK_MAX_ATTEMPTS:
            delivery.status = DeliveryStatus.FAILED
        delivery.save(update_fields=["attempts", "status", "delivered_at"])
    logger.info("webhook.attempt", extra={"delivery_id": delivery.pk, "attempt": number, "status_code": status_code, "error": error})
    if delivery.status == DeliveryStatus.PENDING:
        raise RetryLater(settings.CITECHECK_WEBHOOK_RETRY_BASE_SECONDS * 2 ** (number - 1), f"webhook attempt {number} failed: {error}")
    return str(delivery.status)
