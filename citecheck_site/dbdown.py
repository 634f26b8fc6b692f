"""While the database is away the site answers 503, never 500: JSON under /api/, a plain page
elsewhere. Nothing here touches the database, so it works exactly when the database does not.

`DatabaseUnavailableMiddleware` turns a lost connection raised by a view (or by rendering its
response) into the 503; `server_error` (the project's handler500) does the same for one raised
by a middleware. With CONN_HEALTH_CHECKS on, the next request reconnects by itself.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
MESSAGE = "The database is not reachable at the moment. Nothing was lost; please try again in a minute."
DISK_FULL_MESSAGE = "The database's disk is full: this change was not saved. An operator must free disk space; then try again."
# PostgreSQL's SQLSTATE for "disk full" (class 53, insufficient resources).
PG_DISK_FULL = "53100"


def is_disk_full(exception: BaseException) -> bool:
    """A full disk under the database, on SQLite ("database or disk is full") or PostgreSQL
    (SQLSTATE 53100, or "No space left on device" while writing a file)."""
    for error in (exception, exception.__cause__):
        if error is None:
            continue
        if getattr(error, "sqlstate", None) == PG_DISK_FULL:
            return True
        text = str(error).lower()
        if "database or disk is full" in text or "no space left on device" in text:
            return True
    return False
RETRY_AFTER_SECONDS = 10

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Citecheck is briefly unavailable</title></head>
<body><h1>Citecheck is briefly unavailable</h1><p>{message}</p></body></html>
"""


def unavailable_response(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """The 503 for a database error, logged with the error itself (one line, no traceback)."""
    disk_full = exception is not None and is_disk_full(exception)
    code, message = ("database_disk_full", DISK_FULL_MESSAGE) if disk_full else ("database_unavailable", MESSAGE)
    if exception is not None:
        log = logger.error if disk_full else logger.warning
        log(f"web.{code}", extra={"path": request.path, "error": str(exception).strip()[:300]})
    if request.path.startswith("/api/"):
        body = json.dumps({"error": {"code": code, "message": message, "field": None}})
        response = HttpResponse(body, status=503, content_type="application/json")
    else:
        response = HttpResponse(PAGE.format(message=message), status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, DATABASE_ERRORS):
            return unavailable_response(request, exception)
        return None


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """handler500: a database outage raised outside a view is a 503 too."""
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_ERRORS):
        return unavailable_response(request, exc)
    return django_server_error(request, template_name)
