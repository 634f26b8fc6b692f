"""Editorial desk for sources: thin admin classes whose actions call services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from citecheck.errors import ServiceError
from sources.models import (
    DomainPolicy,
    EditorialTask,
    FetchResult,
    Passage,
    PassageVersion,
    SearchHit,
    Source,
    SourceVersion,
    TaskKind,
    VersionPassage,
)
from sources.services import canonical_proposal_decide, source_refetch, version_activate, version_rollback


def _run(request: HttpRequest, action: Any, items: QuerySet[Any], *, kwargs: Any) -> None:
    """Call one service per selected row, reporting each refusal next to its row's name."""
    done = 0
    for item in items:
        try:
            action(actor=request.user, **kwargs(item))
            done += 1
        except ServiceError as exc:
            messages.error(request, f"{item}: {exc.message}")
    if done:
        messages.success(request, f"{done} done.")


class FetchInline(admin.TabularInline):
    model = FetchResult
    fields = ("fetched_at", "link_state", "status_code", "final_url", "content_type", "bytes", "elapsed_ms", "error", "note")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[FetchResult]:
        return super().get_queryset(request).order_by("-fetched_at")


class VersionInline(admin.TabularInline):
    model = SourceVersion
    fields = ("number", "created_at", "extraction_status", "diff_summary", "tested_at", "is_active", "activated_at")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
    list_display = ("title", "domain", "stage", "live_page_changed", "link_state", "evidence_status", "priority", "risk_level", "is_blocked", "last_checked_at")
    list_filter = ("stage", "link_state", "evidence_status", "priority", "risk_level", "is_blocked", "live_page_changed", "provenance")
    search_fields = ("title", "canonical_url", "domain", "owner")
    readonly_fields = (
        "normalized_url", "canonical_url", "domain", "stage", "stage_before_block", "live_page_changed", "is_blocked", "blocked_reason",
        "provenance", "registered_by", "registered_at", "link_state", "evidence_status", "last_checked_at", "last_ok_at",
        "consecutive_failures", "first_failure_at", "next_check_at", "displayed_date",
    )
    inlines = [VersionInline, FetchInline]
    actions = ["refetch"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # registration goes through the "Register a source" page (normalisation, duplicates)

    @admin.action(description="Fetch now")
    def refetch(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        _run(request, source_refetch, queryset, kwargs=lambda s: {"source_id": s.pk})


class MemberInline(admin.TabularInline):
    model = VersionPassage
    fields = ("ordinal", "change_kind", "passage_version", "previous")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(SourceVersion)
class SourceVersionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "created_at", "extraction_status", "diff_summary", "tested_at", "is_active")
    list_filter = ("is_active", "extraction_status")
    readonly_fields = ("source", "number", "content_hash", "content_type", "extraction_status", "extraction", "diff_summary", "compared_to", "is_active", "tested_at", "activated_at", "created_at")
    inlines = [MemberInline]
    actions = ["activate", "rollback"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Approve / activate the selected versions")
    def activate(self, request: HttpRequest, queryset: QuerySet[SourceVersion]) -> None:
        _run(request, version_activate, queryset, kwargs=lambda v: {"version_id": v.pk, "reason": "approved in the admin"})

    @admin.action(description="Roll back to the selected (earlier) versions")
    def rollback(self, request: HttpRequest, queryset: QuerySet[SourceVersion]) -> None:
        _run(request, version_rollback, queryset, kwargs=lambda v: {"version_id": v.pk, "reason": "rolled back in the admin"})


@admin.register(FetchResult)
class FetchResultAdmin(admin.ModelAdmin):
    list_display = ("requested_url", "link_state", "status_code", "fetched_at", "elapsed_ms")
    list_filter = ("link_state",)
    readonly_fields = [f.name for f in FetchResult._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Passage)
class PassageAdmin(admin.ModelAdmin):
    list_display = ("heading_path", "source", "anchor", "ordinal", "is_blocked")
    list_filter = ("is_blocked",)
    search_fields = ("heading_path", "source__title")
    readonly_fields = ("source", "key", "heading_path", "anchor", "ordinal", "is_blocked", "blocked_reason")


@admin.register(PassageVersion)
class PassageVersionAdmin(admin.ModelAdmin):
    list_display = ("passage", "change_kind", "first_seen_at", "last_seen_at", "fingerprint")
    search_fields = ("text",)
    readonly_fields = [f.name for f in PassageVersion._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(DomainPolicy)
class DomainPolicyAdmin(admin.ModelAdmin):
    list_display = ("domain", "quality_tier", "is_blocked", "allowed_for_links", "respect_robots", "min_request_gap_ms")
    list_filter = ("quality_tier", "is_blocked", "allowed_for_links")
    search_fields = ("domain",)
    readonly_fields = ("is_blocked", "blocked_reason")


@admin.register(EditorialTask)
class EditorialTaskAdmin(admin.ModelAdmin):
    list_display = ("kind", "source", "status", "proposed_url", "opened_at")
    list_filter = ("kind", "status")
    readonly_fields = ("source", "kind", "status", "proposed_url", "detail", "data", "opened_at", "closed_at", "closed_by", "close_reason")
    actions = ["accept", "reject"]

    @admin.action(description="Accept the proposed canonical URL")
    def accept(self, request: HttpRequest, queryset: QuerySet[EditorialTask]) -> None:
        _run(request, canonical_proposal_decide, queryset.filter(kind=TaskKind.CANONICAL_CHANGE), kwargs=lambda t: {"task_id": t.pk, "accept": True})

    @admin.action(description="Reject the proposed canonical URL")
    def reject(self, request: HttpRequest, queryset: QuerySet[EditorialTask]) -> None:
        _run(request, canonical_proposal_decide, queryset.filter(kind=TaskKind.CANONICAL_CHANGE), kwargs=lambda t: {"task_id": t.pk, "accept": False})


@admin.register(SearchHit)
class SearchHitAdmin(admin.ModelAdmin):
    list_display = ("source", "engine", "executed_query", "rank", "observed_at", "is_sponsored")
    readonly_fields = [f.name for f in SearchHit._meta.fields]
