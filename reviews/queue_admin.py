"""The job queues' admin (django-rq) only for superusers and holders of `reviews.manage_queues`.

django-rq's own views only ask for `is_staff`, and every Viewer is staff: any of them could
empty the `fetch` queue. Here the Dashboard admin is registered again with every one of its
views (the JSON statistics included, unless called with django-rq's API token) behind the
permission. Registered from `reviews.admin`, after `django_rq.admin` (INSTALLED_APPS order).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from hmac import compare_digest
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern
from django_rq import models as rq_models
from django_rq import settings as rq_settings
from django_rq.admin import QueueAdmin
from django_rq.urls import get_api_urlpatterns

QUEUE_PERMISSION = "reviews.manage_queues"


def may_manage_queues(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and user.has_perm(QUEUE_PERMISSION))


def _token_ok(request: HttpRequest, path_token: str | None) -> bool:
    """django-rq's API token, sent as a Bearer header or in the path (stats.json/<token>)."""
    token = rq_settings.get_api_token()
    given = path_token or request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(token and given and compare_digest(str(token), str(given)))


def _guarded(view: Callable[..., HttpResponse], *, token_allowed: bool) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        token_ok = token_allowed and _token_ok(request, kwargs.get("token"))
        if not token_ok and not may_manage_queues(request):
            raise PermissionDenied("The job queues are for superusers and holders of the manage-queues permission.")
        return view(request, *args, **kwargs)

    return wrapper


class GuardedQueueAdmin(QueueAdmin):
    def has_module_permission(self, request: HttpRequest) -> bool:
        return may_manage_queues(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_manage_queues(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return may_manage_queues(request)

    def get_urls(self) -> list[URLPattern]:
        api_names = {p.name for p in get_api_urlpatterns(name_prefix="django_rq_")}
        patterns = super().get_urls()
        for pattern in patterns:
            pattern.callback = _guarded(pattern.callback, token_allowed=pattern.name in api_names)
        return patterns


def queue_admin_register(site: admin.AdminSite = admin.site) -> None:
    if site.is_registered(rq_models.Dashboard):
        site.unregister(rq_models.Dashboard)
    site.register(rq_models.Dashboard, GuardedQueueAdmin)
