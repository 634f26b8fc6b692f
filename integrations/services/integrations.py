"""Integrations as audited objects: created, re-pointed to another service user, given a new
webhook URL or secret, and disabled only here, each change audited with from/to (never the
secret). A webhook URL is judged by the fetch guard's rule when it is saved; a webhook always
has a secret, generated here and shown once."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from citecheck.errors import IllegalTransition, InvalidInput, NotFound
from citecheck.netguard import NetPolicy, classify_url
from integrations.models import Integration
from reviews.audit import Actor, audit_record, permission_require

SECRET_BYTES = 32


def webhook_url_refusal(url: str) -> str | None:
    """Why a webhook URL cannot be saved (the fetch guard's rule on its text), or None."""
    policy = NetPolicy.build(settings.CITECHECK_FETCH_ALLOW_NETWORKS or None, settings.CITECHECK_FETCH_ALLOWED_PORTS)
    check = classify_url(url, policy)
    return None if check.ok else check.reason


def secret_masked(secret: str) -> str:
    """What the admin shows of a webhook secret: its first four characters."""
    return f"{secret[:4]}…" if secret else "(none)"


def _secret_new() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def _service_user(username: str) -> User:
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise NotFound(f"no active user named {username!r}", field="service_user")
    return user


def _clean_url(webhook_url: str) -> str:
    url = webhook_url.strip()
    if url:
        refusal = webhook_url_refusal(url)
        if refusal:
            raise InvalidInput(f"webhook_url: {refusal}", field="webhook_url")
    return url


def _locked(integration_id: int) -> Integration:
    integration = Integration.objects.select_for_update().select_related("user").filter(pk=integration_id).first()
    if integration is None:
        raise NotFound(f"no integration {integration_id}")
    return integration


def integration_create(*, actor: Actor, name: str, service_user: str, webhook_url: str = "") -> tuple[Integration, str]:
    """A new integration acting as `service_user` (a username). Returns it and its webhook secret
    (generated when there is a webhook URL, '' otherwise): shown once, never again."""
    permission_require(actor=actor, perm="integrations.add_integration", action="integration_create")
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidInput("name: 1 to 100 characters", field="name")
    if Integration.objects.filter(name=name).exists():
        raise InvalidInput(f"name: an integration named {name!r} exists", field="name")
    url = _clean_url(webhook_url)
    user = _service_user(service_user)
    secret = _secret_new() if url else ""
    with transaction.atomic():
        integration = Integration.objects.create(name=name, user=user, webhook_url=url, webhook_secret=secret)
        audit_record(actor=actor, action="integration_create", obj=integration, to_state="active",
                     data={"service_user": service_user, "webhook_url": url, "secret": "generated" if secret else "none"})
    return integration, secret


def integration_service_user_change(*, actor: Actor, integration_id: int, service_user: str) -> Integration:
    """Let the integration's tokens act as another user (its roles decide what they may do)."""
    permission_require(actor=actor, perm="integrations.change_integration", action="integration_service_user_change")
    user = _service_user(service_user)
    with transaction.atomic():
        integration = _locked(integration_id)
        before = integration.user.get_username()
        if integration.user_id == user.pk:
            return integration
        integration.user = user
        integration.save(update_fields=["user"])
        audit_record(actor=actor, action="integration_service_user_change", obj=integration, from_state=before[:40],
                     to_state=service_user[:40], data={"from": before, "to": service_user})
    return integration


def integration_webhook_change(*, actor: Actor, integration_id: int, webhook_url: str) -> tuple[Integration, str]:
    """Point the webhook elsewhere (or nowhere: ''). A webhook that had no secret gets one,
    returned (shown once); otherwise '' is returned and the secret stays."""
    permission_require(actor=actor, perm="integrations.change_integration", action="integration_webhook_change")
    url = _clean_url(webhook_url)
    secret = ""
    with transaction.atomic():
        integration = _locked(integration_id)
        before = integration.webhook_url
        if before == url:
            return integration, ""
        integration.webhook_url = url
        fields = ["webhook_url"]
        if url and not integration.webhook_secret:
            secret = integration.webhook_secret = _secret_new()
            fields.append("webhook_secret")
        integration.save(update_fields=fields)
        audit_record(actor=actor, action="integration_webhook_change", obj=integration,
                     data={"from": before, "to": url, "secret": "generated" if secret else "unchanged"})
    return integration, secret


def integration_secret_rotate(*, actor: Actor, integration_id: int) -> tuple[Integration, str]:
    """A new webhook secret, returned once (the receiver must be given it)."""
    permission_require(actor=actor, perm="integrations.change_integration", action="integration_secret_rotate")
    with transaction.atomic():
        integration = _locked(integration_id)
        if not integration.webhook_url:
            raise IllegalTransition("This integration has no webhook: set a webhook URL first.")
        secret = integration.webhook_secret = _secret_new()
        integration.save(update_fields=["webhook_secret"])
        audit_record(actor=actor, action="integration_secret_rotate", obj=integration, data={"secret": "rotated"})
    return integration, secret


def integration_disable(*, actor: Actor, integration_id: int, reason: str = "") -> Integration:
    """Switch an integration off: its tokens are refused and no webhook is sent to it."""
    permission_require(actor=actor, perm="integrations.change_integration", action="integration_disable")
    with transaction.atomic():
        integration = _locked(integration_id)
        if integration.disabled_at is not None:
            raise IllegalTransition("This integration is already disabled.")
        integration.disabled_at = timezone.now()
        integration.save(update_fields=["disabled_at"])
        audit_record(actor=actor, action="integration_disable", obj=integration, from_state="active", to_state="disabled", reason=reason)
    return integration
