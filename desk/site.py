"""The editorial desk's one URL map: the admin site whose home is the review queue (Editors and
Approvers land there, the model index is one click away), every desk page under `/admin/`, and the
desk pages outside it (`/check/`, `/health/`). The model admins only administer models."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, URLResolver, path

from citecheck_site.admin_site import CitecheckAdminSite
from desk.views import check, decisions, degraded, health, moment, overview, pairs, people, queue, source, trace, work


def is_desk_user(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and (user.has_perm("sources.change_source") or user.has_perm("sources.approve_source") or user.is_superuser))


class DeskAdminSite(CitecheckAdminSite):
    site_header = "Citecheck"
    site_title = "Citecheck"
    index_title = "Review queue"

    def get_urls(self) -> list[URLResolver | URLPattern]:
        view = self.admin_view
        desk = [
            path("models/", view(self.model_index), name="desk-models"),
            path("desk/queue/", view(queue.queue_page), name="desk-queue"),
            path("desk/items/assign/", view(queue.item_assign), name="desk-item-assign"),
            path("desk/items/comment/", view(queue.item_comment), name="desk-item-comment"),
            path("desk/items/thread/", view(queue.item_thread_page), name="desk-item-thread"),
            path("desk/incidents/", view(degraded.incidents_page), name="desk-incidents"),
            path("desk/block/", view(degraded.block_page), name="desk-block"),
            path("desk/blocks/<int:switch_id>/lift/", view(degraded.block_lift_page), name="desk-block-lift"),
            path("desk/switches/", view(degraded.switches_set), name="desk-switches"),
            path("desk/sources/<int:source_id>/", view(source.source_page), name="desk-source"),
            path("desk/sources/<int:source_id>/status.json", view(source.source_status), name="desk-source-status"),
            path("desk/sources/<int:source_id>/pairs/add/", view(pairs.pair_add_page), name="desk-pair-add"),
            path("desk/sources/<int:source_id>/refetch/", view(decisions.source_refetch_view), name="desk-source-refetch"),
            path("desk/versions/<int:version_id>/decide/", view(decisions.version_decide), name="desk-version-decide"),
            path("desk/results/<int:result_id>/waive/", view(decisions.result_waive), name="desk-result-waive"),
            path("desk/tasks/<int:task_id>/decide/", view(decisions.task_decide), name="desk-task-decide"),
            path("desk/evidence/", view(moment.evidence_moment_page), name="desk-evidence-moment"),
            path("desk/evidence/export.jsonl", view(moment.evidence_moment_export), name="desk-evidence-export"),
            path("desk/work/", view(work.work_page), name="desk-work"),
            path("desk/people/", view(people.people_page), name="desk-people"),
            path("desk/people/change/", view(people.person_change), name="desk-person-change"),
            path("desk/work/status.json", view(work.work_status), name="desk-work-status"),
            # Reading pages, at the addresses they have always had under the models they read.
            path("sources/source/overview/", view(partial(overview.overview_view, site=self)), name="desk-overview"),
            path("claims/answer/trace/", view(partial(trace.trace_find_view, site=self)), name="desk-trace-find"),
            path("claims/answer/<int:answer_id>/trace/", view(partial(trace.trace_view, site=self)), name="desk-trace"),
            path("claims/answer/<int:answer_id>/status.json", view(trace.trace_status), name="desk-answer-status"),
        ]
        return desk + super().get_urls()

    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        """Editors and Approvers start at the review queue; everyone else at the model index."""
        if is_desk_user(request):
            return queue.queue_page(request)
        return super().index(request, extra_context)

    def model_index(self, request: HttpRequest) -> HttpResponse:
        context = {**self.each_context(request), "title": "All records", "subtitle": None, "app_list": self.get_app_list(request)}
        return TemplateResponse(request, "admin/index.html", context)


def desk_urls() -> list[URLPattern]:
    """The desk pages outside `/admin/`: the start page, the citation checker and link health."""
    return [
        path("", check.home, name="home"),
        path("check/", check.check_answer_page, name="check-answer"),
        path("health/", health.link_health, name="link-health"),
        path("health/proposals/<int:task_id>", health.proposal_decide, name="proposal-decide"),
    ]
