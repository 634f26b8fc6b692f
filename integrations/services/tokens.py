"""API tokens: created and revoked by people with the rights, verified by one indexed lookup.

A token is `cc_<prefix>_<secret>`: 8 characters of prefix that identify it (shown in the admin and
the logs) and 32 bytes of randomness. Only the SHA-256 of the whole token is stored; SHA-256 is
right for high-entropy secrets (no password hasher on the hot path: a guess is as good as 2^-256).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from citecheck.errors import IllegalTransition, InvalidInput, NotFound
from integrations.models import ApiToken, Integration, Scope
from reviews.audit import Actor, audit_record, permission_require, user_or_none

TOKEN_START = "cc_"  # noqa: S105 - the public start of every token, not a secret
LAST_USE_EVERY = timedelta(minutes=1)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def token_prefix_of(raw: str) -> str:
    """The identifying prefix of a presented token ('' when it has not the token's shape)."""
    if not raw.startswith(TOKEN_START):
        return ""
    prefix, _, secret = raw[len(TOKEN_START):].partition("_")
    return prefix if len(prefix) == 8 and prefix.isalnum() and secret else ""


def token_create(*, actor: Actor, integration_id: int, scopes: list[str], name: str = "") -> tuple[ApiToken, str]:
    """A new token for an integration. Returns the row and the token itself, which is never
    stored and cannot be shown again."""
    permission_require(actor=actor, perm="integrations.add_apitoken", action="token_create")
    unknown = [s for s in scopes if s not in Scope.values]
    if unknown or not scopes:
        raise InvalidInput(f"scopes: choose from {', '.join(Scope.values)} (got {', '.join(unknown) or 'none'})", field="scopes")
    integration = Integration.objects.filter(pk=integration_id).first()
    if integration is None:
        raise NotFound(f"no integration {integration_id}")
    prefix = secrets.token_hex(4)
    raw = f"{TOKEN_START}{prefix}_{secrets.token_urlsafe(32)}"
    with transaction.atomic():
        token = ApiToken.objects.create(
            integration=integration, name=name[:100], prefix=prefix, secret_hash=token_hash(raw),
            scopes=sorted(set(scopes)), created_by=user_or_none(actor),
        )
        audit_record(actor=actor, action="token_create", obj=token, to_state="active", data={"scopes": token.scopes, "integration": integration.name})
    return token, raw


def token_revoke(*, actor: Actor, token_id: int, reason: str = "") -> ApiToken:
    permission_require(actor=actor, perm="integrations.change_apitoken", action="token_revoke")
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id).first()
        if token is None:
            raise NotFound(f"no token {token_id}")
        if token.revoked_at is not None:
            raise IllegalTransition("This token was already revoked.")
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_record(actor=actor, action="token_revoke", obj=token, from_state="active", to_state="revoked", reason=reason)
    return token


def token_authenticate(*, raw: str) -> ApiToken | None:
    """The active token `raw` is, with its integration and user, or None. Records the last use
    at most once a minute per token (one cheap conditional UPDATE)."""
    if not token_prefix_of(raw):
        return None
    digest = token_hash(raw)
    token = (
        ApiToken.objects.select_related("integration__user")
        .filter(secret_hash=digest, revoked_at__isnull=True, integration__disabled_at__isnull=True).first()
    )
    if token is None or not hmac.compare_digest(token.secret_hash, digest):
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
