"""Who is calling: an API token (`Authorization: Bearer cc_…`) acting as its integration's
service user, or an editor's desk session (with CSRF on writes). Scopes, throttling of failed
attempts and the per-token rate limit are decided here; role permissions stay in the services."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja.security import HttpBearer
from ninja.utils import check_csrf

from citecheck.errors import PermissionRefused
from integrations.api.errors import throttled, unauthenticated
from integrations.services.auth import auth_failure_record, auth_locked_for
from integrations.services.tokens import token_authenticate, token_prefix_of
from integrations.throttle import client_address, rate_take

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class ApiAuth(HttpBearer):
    """Token or session. `scopes`: the token needs one of them (sessions are judged by roles)."""

    def __init__(self, *scopes: str) -> None:
        super().__init__()
        self.scopes = scopes

    def __call__(self, request: HttpRequest) -> Any:
        header = request.headers.get("Authorization", "")
        if header:
            scheme, _, raw = header.partition(" ")
            if scheme.lower() != "bearer" or not raw.strip():
                raise unauthenticated("Use `Authorization: Bearer <token>`; HTTP Basic is not accepted.")
            return self.authenticate(request, raw.strip())
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if request.method not in SAFE_METHODS and check_csrf(request) is not None:
                raise PermissionRefused("CSRF check failed: send the X-CSRFToken header with the desk session.")
            request.api_token = None  # type: ignore[attr-defined]
            return user
        raise unauthenticated()

    def authenticate(self, request: HttpRequest, token: str) -> Any:
        address = client_address(request)
        prefix = token_prefix_of(token)
        found = token_authenticate(raw=token)
        if found is not None and found.integration.user.is_active:
            # The right secret is refused only while its address is locked out, never because
            # of failures presented with its (not secret) prefix from elsewhere.
            left = auth_locked_for(kind="api", account="", address=address)
        else:
            left = auth_locked_for(kind="api", account=prefix, address=address)
            if not left:
                auth_failure_record(kind="api", account=prefix, address=address)
                raise unauthenticated("This token is not valid (unknown, revoked or malformed).")
        if left:
            raise throttled(left, "Too many failed authentication attempts from this address; try again later.")
        assert found is not None
        if self.scopes and not set(self.scopes) & set(found.scopes):
            raise PermissionRefused(f"This token lacks the scope {' or '.join(self.scopes)}.")
        wait = rate_take(subject=f"token:{found.pk}", limit=settings.CITECHECK_API_RATE_PER_MINUTE)
        if wait:
            raise throttled(wait, f"Rate limit of {settings.CITECHECK_API_RATE_PER_MINUTE} requests per minute for this token.")
        user = found.integration.user
        _cached_permissions(user)
        request.user = user
        request.api_token = found  # type: ignore[attr-defined]
        return found


_PERMISSIONS: dict[tuple[Any, ...], tuple[float, set[str]]] = {}


def _cached_permissions(user: Any) -> None:
    """A service user's role permissions, kept per process for CITECHECK_API_PERM_CACHE_SECONDS
    (a role change reaches its tokens within that time; revoking a token is immediate). Fills
    Django's ModelBackend cache on the user object, so `has_perm` needs no query."""
    ttl = settings.CITECHECK_API_PERM_CACHE_SECONDS
    if ttl <= 0:
        return
    now = time.monotonic()
    key = (user.pk, user.username, user.date_joined)
    cached = _PERMISSIONS.get(key)
    if cached is None or now - cached[0] > ttl:
        cached = (now, set(user.get_all_permissions()))
        if len(_PERMISSIONS) > 10000:
            _PERMISSIONS.clear()
        _PERMISSIONS[key] = cached
    user._perm_cache = cached[1]


def optional_identity(request: HttpRequest) -> Any:
    """For endpoints open to anonymous callers: the token's or session's user, or None."""
    if request.headers.get("Authorization"):
        ApiAuth("read_evidence")(request)
        return request.user
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None
