"""Security headers on every response: Content-Security-Policy and Permissions-Policy.

The policy allows scripts only from Citecheck's own static files: no inline script, no inline
event handler, no eval, no CDN. Styles may be inline (the admin and the diff use style
attributes; a style cannot run code). The only inline scripts allowed are django-rq's own
(its queue pages, superusers only), by the SHA-256 of their exact text, read from the installed
package's templates, so an upgrade that changes them cannot slip anything else in.
HSTS is Django's SecurityMiddleware (`SECURE_HSTS_SECONDS`, on with CITECHECK_HTTPS).
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import django_rq
from django.conf import settings
from django.http import HttpRequest, HttpResponse

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@lru_cache(maxsize=1)
def django_rq_script_hashes() -> tuple[str, ...]:
    """'sha256-…' sources for the constant inline scripts of django-rq's templates."""
    hashes: set[str] = set()
    for template in sorted((Path(django_rq.__file__).parent / "templates").rglob("*.html")):
        for body in _INLINE_SCRIPT.findall(template.read_text(encoding="utf-8")):
            if "{{" in body or "{%" in body:
                continue  # rendered differently each time: never allowed
            digest = hashlib.sha256(body.encode("utf-8")).digest()
            hashes.add(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return tuple(sorted(hashes))


@lru_cache(maxsize=4)
def content_security_policy(extra: str = "") -> str:
    directives = dict(settings.CITECHECK_CSP)
    directives["script-src"] = " ".join([directives.get("script-src", "'self'"), *django_rq_script_hashes()])
    policy = "; ".join(f"{name} {value}".strip() for name, value in directives.items())
    return f"{policy}; {extra}" if extra else policy


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = content_security_policy()
        if settings.CITECHECK_PERMISSIONS_POLICY and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = settings.CITECHECK_PERMISSIONS_POLICY
        return response
