"""Integrations: the bot's API tokens and webhooks, and the export change feed it syncs from."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Scope(models.TextChoices):
    READ_EVIDENCE = "read_evidence", "read evidence (export, answers, sources)"
    SUBMIT_ANSWERS = "submit_answers", "submit answers"
    MANAGE_SOURCES = "manage_sources", "register and re-check sources"
    BLOCK = "block", "block and lift blocks"


class Integration(models.Model):
    """One integrating system (a bot). Its tokens act on behalf of its service user, so the
    usual role permissions apply to everything it does. Changed only through the services in
    `integrations.services.integrations` (audited)."""

    name = models.CharField(max_length=100, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="integrations",
        help_text="The service user the integration acts as; its roles decide what it may do.",
    )
    webhook_url = models.URLField(max_length=2048, blank=True, help_text="Where signed events are POSTed (http/https).")
    webhook_secret = models.CharField(max_length=100, blank=True, help_text="HMAC-SHA256 key of the webhook signature (generated, shown once).")
    created_at = models.DateTimeField(auto_now_add=True)
    disabled_at = models.DateTimeField(null=True, blank=True, help_text="Set when switched off: its tokens are refused, no webhook is sent.")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A bearer token: only the SHA-256 of its secret is stored; the secret is shown once."""

    integration = models.ForeignKey(Integration, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=16, unique=True, help_text="Identifies the token (the start of it); not secret.")
    secret_hash = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=list)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.integration})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class ExportChange(models.Model):
    """One entry of the export's change feed: this passage version may have entered, changed in
    or left the export. Written by the services that change citability, in their transaction;
    the feed reader recomputes each version's current state (upsert or tombstone)."""

    passage_version_id = models.BigIntegerField(db_index=True)
    passage_id = models.BigIntegerField()
    cause = models.CharField(max_length=40)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["id"]


class Idempotency(models.Model):
    """The answer a request with an Idempotency-Key created, per integration (a desk session's
    keys are per user), with the SHA-256 of the request body: the same key with another body is
    refused (422), not answered with the first answer."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    integration = models.ForeignKey("Integration", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    body_sha256 = models.CharField(max_length=64, blank=True)
    answer = models.ForeignKey("claims.Answer", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["integration", "key"], name="one_answer_per_integration_key"),
            models.UniqueConstraint(fields=["user", "key"], condition=models.Q(integration__isnull=True), name="one_answer_per_session_key"),
        ]


class IntegrationAnswer(models.Model):
    """Which integration submitted an answer: its tokens read, trace and replay only these."""

    answer = models.OneToOneField("claims.Answer", on_delete=models.CASCADE, related_name="integration_link")
    integration = models.ForeignKey(Integration, on_delete=models.CASCADE, related_name="answer_links")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "pending"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed (gave up)"


class WebhookDelivery(models.Model):
    integration = models.ForeignKey(Integration, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"{self.event} → {self.integration} ({self.status})"


class WebhookAttempt(models.Model):
    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_rows")
    number = models.PositiveIntegerField()
    at = models.DateTimeField(auto_now_add=True)
    status_code = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    elapsed_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["delivery", "number"]
