"""The API's one error format, `{"error": {"code", "message", "field"}}`, for every failure:
service refusals, validation, authentication, throttling, oversize bodies, unknown paths, 500s."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse

from citecheck_site.dbdown import DATABASE_ERRORS

logger = logging.getLogger(__name__)


def error_response(status: int, code: str, message: str, field: str | None = None, headers: dict[str, str] | None = None) -> JsonResponse:
    response = JsonResponse({"error": {"code": code, "message": message, "field": field}}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


class ApiError(Exception):
    """An HTTP error of the API layer itself (authentication, throttling)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field, self.headers = status, code, message, field, headers or {}

    def response(self) -> JsonResponse:
        return error_response(self.status, self.code, self.message, self.field, self.headers)


def unauthenticated(message: str = "Send `Authorization: Bearer <token>` (or log in to the desk).") -> ApiError:
    return ApiError(401, "unauthenticated", message, headers={"WWW-Authenticate": 'Bearer realm="citecheck"'})


def throttled(seconds: int, message: str) -> ApiError:
    return ApiError(429, "throttled", message, headers={"Retry-After": str(int(seconds))})


def too_large() -> JsonResponse:
    limit = settings.CITECHECK_API_MAX_BODY_BYTES
    return error_response(413, "too_large", f"The request body is over the limit of {limit} bytes.", "body")


UNION_TAGS = frozenset({"str", "int", "float", "bool", "list", "dict", "none"})


def _is_name(part: object) -> bool:
    """A field name, not a union member's tag like 'function-after[…]' or 'dict[str,any]'."""
    return isinstance(part, str) and part.isidentifier() and part not in UNION_TAGS


def field_of(loc: tuple[Any, ...] | list[Any]) -> str:
    """`('body', 'payload', 'passage_version_ids', 3)` -> 'passage_version_ids[3]'."""
    parts = [p for p in loc if p not in ("body", "query", "header", "path", "payload") and (isinstance(p, int) or _is_name(p))]
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "body"


class ApiErrorMiddleware:
    """Under /api/: oversize bodies answer 413 before any view reads them, and any error page
    that is not already JSON (unknown path, wrong method, a crash) answers in the API's format."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            return self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.CITECHECK_API_MAX_BODY_BYTES:
            return too_large()
        response = self.get_response(request)
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith("application/json"):
            return _as_json(response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith("/api/"):
            return None
        if isinstance(exception, RequestDataTooBig):
            return too_large()

        if isinstance(exception, DATABASE_ERRORS):
            return None  # DatabaseUnavailableMiddleware answers 503
        logger.exception("api.error", extra={"path": request.path})
        return error_response(500, "server_error", "Something went wrong on our side; it was logged.")


def _as_json(response: HttpResponse) -> JsonResponse:
    status = response.status_code
    code, message = {
        404: ("not_found", "There is no such endpoint; see /api/v1/docs."),
        405: ("method_not_allowed", f"Use {response.get('Allow', 'another method')}."),
        403: ("forbidden", "Refused (CSRF check failed or not allowed)."),
        400: ("bad_request", "The request could not be read."),
        413: ("too_large", "The request body is too large."),
    }.get(status, ("server_error" if status >= 500 else "error", "The request failed."))
    headers = {"Allow": response["Allow"]} if "Allow" in response else None
    return error_response(status, code, message, None, headers)


def api_not_found(request: HttpRequest, rest: str = "") -> JsonResponse:
    return error_response(404, "not_found", "There is no such endpoint; see /api/v1/docs.")
