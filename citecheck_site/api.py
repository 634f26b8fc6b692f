"""Shared plumbing of the JSON API: parsing, errors as JSON, HTTP Basic for integrators."""

from __future__ import annotations

import base64
import binascii
import functools
import json
import logging
from collections.abc import Callable
from typing import Any

from django.contrib.auth import authenticate
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from citecheck.errors import InvalidInput, ServiceError

logger = logging.getLogger(__name__)
MAX_BODY = 20 * 1024 * 1024


def error_response(status: int, code: str, message: str, field: str | None = None) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "field": field}}, status=status)


def json_body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY:
        raise InvalidInput(f"the request body is larger than {MAX_BODY // (1024 * 1024)} MB", field="body")
    try:
        data = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"the request body is not valid JSON: {exc}", field="body") from exc
    if not isinstance(data, dict):
        raise InvalidInput("the request body must be a JSON object", field="body")
    return data


def _basic_user(request: HttpRequest) -> Any:
    header = request.headers.get("Authorization", "")
    if not header.lower().startswith("basic "):
        return None
    try:
        username, _, password = base64.b64decode(header[6:]).decode("utf-8").partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return None
    return authenticate(request, username=username, password=password)


def api_view(*, methods: tuple[str, ...], auth: bool = True) -> Callable[[Callable[..., JsonResponse]], Callable[..., JsonResponse]]:
    """JSON endpoint: method check, authentication (HTTP Basic, or the session for reads),
    and every ServiceError turned into a JSON error naming the field."""

    def decorate(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                return error_response(405, "method_not_allowed", f"use {' or '.join(methods)}")
            if auth:
                user = _basic_user(request)
                # Cookies only authenticate reads: writes need credentials in the request itself (no CSRF).
                if user is None and request.method in ("GET", "HEAD") and request.user.is_authenticated:
                    user = request.user
                if user is None:
                    response = error_response(401, "unauthenticated", "log in or send HTTP Basic credentials")
                    response["WWW-Authenticate"] = 'Basic realm="citecheck"'
                    return response
                request.user = user
            try:
                return view(request, *args, **kwargs)
            except ServiceError as exc:
                return error_response(exc.http_status, exc.code, exc.message, exc.field)

        return wrapper

    return decorate
