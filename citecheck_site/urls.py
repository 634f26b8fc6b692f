from django.contrib import admin
from django.urls import path, re_path

from desk.site import desk_urls
from integrations.api import api
from integrations.api.errors import api_not_found
from integrations.views import admin_login

urlpatterns = [
    *desk_urls(),
    path("api/v1/", api.urls),
    re_path(r"^api/(?P<rest>.*)$", api_not_found),
    path("admin/login/", admin_login, name="admin-login-throttled"),
    path("admin/", admin.site.urls),
]

# A lost database connection answers 503 (JSON under /api/), never 500: citecheck_site/dbdown.py.
handler500 = "citecheck_site.dbdown.server_error"
