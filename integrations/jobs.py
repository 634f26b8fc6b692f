"""RQ entry points of integrations (each takes ids only)."""

from __future__ import annotations

from integrations.services.webhooks import webhook_deliver


def deliver_webhook(delivery_id: int) -> str:
    return webhook_deliver(delivery_id=delivery_id)
