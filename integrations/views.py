"""The admin login, throttled: failed logins count per account and per client address."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from integrations.services.auth import auth_failure_record, auth_locked_for
from integrations.throttle import client_address


@never_cache
@csrf_protect
def admin_login(request: HttpRequest) -> HttpResponse:
    """Django's admin login, refused with 429 + Retry-After while the account or the address is
    locked out; a failed POST (the form shown again) counts as one failure."""
    address = client_address(request)
    account = request.POST.get("username", "") if request.method == "POST" else ""
    if request.method == "POST":
        left = auth_locked_for(kind="login", account=account, address=address)
        if left:
            response = HttpResponse(
                f"Too many failed logins. Try again in {left} seconds.", status=429, content_type="text/plain; charset=utf-8"
            )
            response["Retry-After"] = str(left)
            return response
    response = admin.site.login(request)
    if request.method == "POST" and response.status_code == 200 and not request.user.is_authenticated:
        auth_failure_record(kind="login", account=account, address=address)
    return response
