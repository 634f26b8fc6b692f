"""The integration API, `/api/v1/`, on django-ninja: typed requests and responses, an OpenAPI 3.1
schema at /api/v1/openapi.json and its docs at /api/v1/docs (served from the package's static
files, no CDN). Every endpoint is thin: parse, call one service or selector, shape the output."""

from __future__ import annotations

import json
import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from citecheck.errors import ServiceError
from citecheck_site.dbdown import DATABASE_ERRORS, unavailable_response
from integrations.api.errors import ApiError, error_response, field_of, too_large

logger = logging.getLogger(__name__)


class NotJson(ValueError):
    """A body sent with another Content-Type than JSON."""


def _is_json(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


class BodyParser(Parser):
    """JSON bodies only (Content-Type application/json, else 415); too deep nesting and invalid
    JSON become 400s naming the body."""

    def parse_body(self, request: HttpRequest) -> Any:
        if not _is_json(request.content_type or ""):
            raise NotJson(request.content_type or "")
        try:
            return json.loads(request.body)
        except RecursionError as exc:
            raise ValueError("the JSON is nested too deeply") from exc


class LocalSwagger(Swagger):
    """Swagger UI from the package's own templates and static files (settings.py adds their
    folders), never the CDN variant django-ninja falls back to outside INSTALLED_APPS."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        self.settings["url"] = self.get_openapi_url(api, kwargs)
        context = {"swagger_settings": json.dumps(self.settings, indent=1), "api": api, "add_csrf": False}
        return render(request, self.template, context)


class CitecheckAPI(NinjaAPI):
    """The schema is built once per process (it only changes with the code), not per request."""

    _schemas: dict[str, Any]

    def get_openapi_schema(self, *, path_prefix: str | None = None, path_params: dict[str, Any] | None = None) -> Any:
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        cache = self.__dict__.setdefault("_schemas", {})
        if path_prefix not in cache:
            cache[path_prefix] = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        return cache[path_prefix]


api = CitecheckAPI(
    title="Citecheck integration API",
    version="1",
    description=(
        "Evidence export with a retraction feed, answers with verdicts and safe citations, sources and blocks. "
        "Authenticate with `Authorization: Bearer <token>` (tokens are created in the admin, per integration, with scopes "
        "read_evidence, submit_answers, manage_sources, block). Errors are always "
        '`{"error": {"code", "message", "field"}}`. Webhooks: `Citecheck-Signature: v1=HMAC-SHA256(secret, timestamp + "." + body)` '
        "with `Citecheck-Timestamp`; see the README, \"Integrating a bot\"."
    ),
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
    docs=LocalSwagger(),
    parser=BodyParser(),
)


def _message(error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    name = field_of(error.get("loc", ()))
    if kind == "extra_forbidden":
        return f"{name}: unknown field (see the schema at /api/v1/docs)"
    if kind == "missing":
        return f"{name}: required"
    return f"{name}: {error.get('msg', 'invalid')}"


@api.exception_handler(ValidationError)
def _validation(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    errors = list(exc.errors)
    unknown = [field_of(e.get("loc", ())) for e in errors if e.get("type") == "extra_forbidden"]
    first = next((e for e in errors if e.get("type") == "extra_forbidden"), errors[0] if errors else {})
    message = "; ".join(_message(e) for e in errors[:5])
    if unknown:
        message = f"unknown field(s): {', '.join(unknown)}. " + message
    return error_response(400, "invalid_input", message[:2000], field_of(first.get("loc", ())) if first else None)


@api.exception_handler(ServiceError)
def _service(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    return error_response(exc.http_status, exc.code, exc.message, exc.field)


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return exc.response()


@api.exception_handler(AuthenticationError)
def _auth(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(401, "unauthenticated", "Send `Authorization: Bearer <token>`.", None, {"WWW-Authenticate": 'Bearer realm="citecheck"'})


@api.exception_handler(HttpError)
def _http(request: HttpRequest, exc: HttpError) -> HttpResponse:
    cause = exc.__cause__
    if isinstance(cause, RequestDataTooBig):
        return too_large()
    if isinstance(cause, NotJson):
        return error_response(415, "unsupported_media_type", f"Send the body as JSON with `Content-Type: application/json` (got {str(cause)[:100] or 'none'!r}).", "Content-Type")
    if exc.status_code == 400 and cause is not None:
        return error_response(400, "invalid_json", f"The request body is not valid JSON: {str(cause)[:200]}", "body")
    return error_response(exc.status_code, "error", exc.message)


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return too_large()


@api.exception_handler(Exception)
def _crash(request: HttpRequest, exc: Exception) -> HttpResponse:
    if isinstance(exc, DATABASE_ERRORS):  # the database is away: 503 with Retry-After, not a 500
        return unavailable_response(request, exc)
    logger.exception("api.error", extra={"path": request.path})
    return error_response(500, "server_error", "Something went wrong on our side; it was logged.")


from integrations.api import answers, passages, sources  # noqa: E402  (routers use `api`'s handlers)

api.add_router("", passages.router)
api.add_router("", answers.router)
api.add_router("", sources.router)
