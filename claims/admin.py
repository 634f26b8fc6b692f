"""The answer view: state, wording, each claim with both sides of its evidence, the report card.

Reports are rendered by templates (templates/admin/claims/answer/); the trace pages live in
claims/admin_trace.py and hang off this admin's URLs (`admin:desk-trace`, `admin:desk-trace-find`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.safestring import SafeString

from citecheck_site.admin_scale import ReadOnlyAdmin, ScaledAdmin
from claims import admin_trace
from claims.models import Answer, Citation, Judgement
from claims.services import answer_verify_request

CLAIMS_ON_ANSWER_PAGE = 20


@admin.register(Answer)
class AnswerAdmin(ScaledAdmin):
    list_display = ("__str__", "state", "model_name", "received_at", "verified_at", "needs_reverification")
    list_filter = ("state", "needs_reverification")
    search_fields = ("=id", "question")
    readonly_fields = ("trace_link", "question", "answer_text", "answer_format", "model_name", "language", "sources_sent", "received_at", "state", "state_wording", "claims_list", "verification", "verified_at", "needs_reverification", "submitted_by", "raw_response")
    exclude = ("report",)
    list_only = ("id", "question", "answer_text", "state", "model_name", "received_at", "verified_at", "needs_reverification")
    actions = ["verify_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # answers arrive through the API

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # claims and citations are the audit trail of what the bot said

    def get_urls(self) -> list[Any]:
        site = self.admin_site
        return [
            path("trace/", site.admin_view(partial(admin_trace.trace_find_view, site=site)), name="desk-trace-find"),
            path("<int:answer_id>/trace/", site.admin_view(partial(admin_trace.trace_view, site=site)), name="desk-trace"),
            *super().get_urls(),
        ]

    @admin.display(description="Trace")
    def trace_link(self, obj: Answer) -> SafeString:
        return SafeString(render_to_string("admin/claims/answer/trace_link.html", {"answer": obj}))

    @admin.display(description="Claims")
    def claims_list(self, obj: Answer) -> SafeString:
        shown = list(obj.claims.order_by("position")[:CLAIMS_ON_ANSWER_PAGE])
        total = len(shown) if len(shown) < CLAIMS_ON_ANSWER_PAGE else obj.claims.count()
        return SafeString(render_to_string("admin/claims/answer/claims_list.html", {
            "shown": shown, "total": total, "trace_url": reverse("admin:desk-trace", args=[obj.pk]),
        }))

    @admin.display(description="Verification report")
    def verification(self, obj: Answer) -> SafeString:
        return SafeString(render_to_string("admin/claims/answer/verification_report.html", {
            "report": obj.report or {}, "state_label": obj.get_state_display(), "state_wording": obj.state_wording,
        }))

    @admin.action(description="Verify again")
    def verify_again(self, request: HttpRequest, queryset: QuerySet[Answer]) -> None:
        with transaction.atomic():
            count = 0
            for answer in queryset.only("id"):
                answer_verify_request(answer=answer)
                count += 1
        messages.success(request, f"Verification queued for {count} answer(s).")


@admin.register(Judgement)
class JudgementAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "status", "judge", "model", "prompt_version", "heuristic", "created_at", "needs_reverification")
    list_filter = ("status", "judge", "heuristic", "needs_reverification")
    # Exact ids and fingerprints use their indexes; the claim text is matched from its start.
    search_fields = ("=id", "=passage_version__id", "=passage_fingerprint", "^claim_text")
    list_only = ("id", "status", "judge", "model", "prompt_version", "heuristic", "created_at", "needs_reverification", "claim_text")


@admin.register(Citation)
class CitationAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "source_number", "passage_version_link", "quote_result", "needs_reverification")
    list_select_related = ("claim", "passage_version__passage__source")
    search_fields = ("=id", "=claim__answer__id", "=passage_version__id", "=passage_version__fingerprint")
    list_only = (
        "id", "source_number", "quote", "quote_result", "needs_reverification", "claim__id", "claim__text", "claim__position",
        "claim__answer_id", "passage_version__id", "passage_version__passage__id", "passage_version__passage__heading_path",
        "passage_version__passage__ordinal", "passage_version__passage__source__id", "passage_version__passage__source__title",
        "passage_version__passage__source__canonical_url",
    )

    @admin.display(description="Passage version")
    def passage_version_link(self, obj: Citation) -> SafeString:
        return SafeString(render_to_string("admin/desk/passage_version_link.html", {"pv": obj.passage_version}))
