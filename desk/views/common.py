"""Helpers shared by the desk's views."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme


def render_desk(request: HttpRequest, template: str, title: str, **context: Any) -> TemplateResponse:
    """A desk page inside the admin: same header, navigation, messages and look."""
    base = admin.site.each_context(request)
    return TemplateResponse(request, template, {**base, "title": title, "subtitle": None, **context})


def safe_next(request: HttpRequest, fallback: str) -> str:
    """Where to go after a POST: a same-site path only."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return fallback


def int_or_none(value: Any) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None
