from django.contrib import admin
from django.urls import path, re_path

from claims import views as claims_views
from integrations.api import api
from integrations.api.errors import api_not_found
from integrations.views import admin_login
from sources import views as sources_views

urlpatterns = [
    path("", claims_views.home, name="home"),
    path("check/", claims_views.check_answer_page, name="check-answer"),
    path("health/", sources_views.link_health, name="link-health"),
    path("health/proposals/<int:task_id>", sources_views.proposal_decide, name="proposal-decide"),
    path("api/v1/", api.urls),
    re_path(r"^api/(?P<rest>.*)$", api_not_found),
    path("admin/login/", admin_login, name="admin-login-throttled"),
    path("admin/", admin.site.urls),
]

# A lost database connection answers 503 (JSON under /api/), never 500: citecheck_site/dbdown.py.
handler500 = "citecheck_site.dbdown.server_error"
