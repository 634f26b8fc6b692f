"""Integration services: answers received (idempotency, ownership), tokens, the export change feed, webhooks."""

from integrations.services.export import export_change_record
from integrations.services.tokens import token_authenticate, token_create, token_revoke
from integrations.services.webhooks import webhook_deliver, webhook_event

__all__ = ["export_change_record", "token_authenticate", "token_create", "token_revoke", "webhook_deliver", "webhook_event"]
