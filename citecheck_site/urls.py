from django.contrib import admin
from django.urls import path

from claims import api as claims_api
from claims import views as claims_views
from sources import api as sources_api
from sources import views as sources_views

urlpatterns = [
    path("", claims_views.home, name="home"),
    path("check/", claims_views.check_answer_page, name="check-answer"),
    path("health/", sources_views.link_health, name="link-health"),
    path("health/proposals/<int:task_id>", sources_views.proposal_decide, name="proposal-decide"),
    path("api/v1/check-citations", claims_api.check_citations, name="api-check-citations"),
    path("api/v1/answers", claims_api.answers_create, name="api-answers"),
    path("api/v1/answers/<int:answer_id>", claims_api.answer_detail, name="api-answer"),
    path("api/v1/passages", sources_api.passages, name="api-passages"),
    path("api/v1/sources", sources_api.sources_create, name="api-sources"),
    path("api/v1/sources/<int:source_id>", sources_api.source_detail, name="api-source"),
    path("api/v1/sources/<int:source_id>/fetch", sources_api.source_fetch_now, name="api-source-fetch"),
    path("api/v1/versions/<int:version_id>/activate", sources_api.version_activate_view, name="api-version-activate"),
    path("api/v1/blocks", sources_api.blocks_create, name="api-blocks"),
    path("admin/", admin.site.urls),
]

# A lost database connection answers 503 (JSON under /api/), never 500: citecheck_site/dbdown.py.
handler500 = "citecheck_site.dbdown.server_error"
