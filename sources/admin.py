"""Editorial desk for sources: thin admin classes whose actions call services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from citecheck.errors import ServiceError
from citecheck_site.admin_scale import ReadOnlyAdmin, ReadOnlyInline, ScaledAdmin
from desk.views.work import work_url
from dispatch.selectors import DELAYED_MESSAGE, work_status
from sources.display import diff_summary_text, extraction_text, version_diff
from sources.forms import SourceGovernanceForm, SourceImportForm, SourceRegisterForm
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
from sources.selectors import with_domain_blocked
from sources.services import (
    canonical_proposal_decide,
    source_refetch,
    source_register,
    source_update,
    sources_import,
    version_activate,
    version_retest,
    version_rollback,
)
from sources.services.governance import DOMAIN_POLICY_FIELDS, domain_policy_save


def _run(request: HttpRequest, action: Any, items: QuerySet[Any], *, kwargs: Any, done: str = "{n} done.") -> None:
    """Call one service per selected row, reporting each refusal next to its row's name and
    the successes in a sentence (`done` with {n} and {names})."""
    names = []
    for item in items:
        try:
            action(actor=request.user, **kwargs(item))
            names.append(str(item))
        except ServiceError as exc:
            messages.error(request, f"{item}: {exc.message}")
    if names:
        messages.success(request, done.format(n=len(names), names=", ".join(names[:10]) + (" …" if len(names) > 10 else "")))


FETCHES_ON_SOURCE_PAGE = 20


class VersionInline(ReadOnlyInline):
    model = SourceVersion
    fields = ("number", "created_at", "extraction_status", "diff_summary_text", "tested_at", "is_active", "activated_at")
    readonly_fields = fields
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[SourceVersion]:
        # The change link's text names the source: read it in the same query, never the body.
        return super().get_queryset(request).select_related("source").defer("body_compressed", "extraction")

    @admin.display(description="changes")
    def diff_summary_text(self, obj: SourceVersion) -> str:
        return diff_summary_text(obj)


@admin.register(Source)
class SourceAdmin(ScaledAdmin):
    list_display_links = None  # each row links to the source's desk page; it links to this record's form
    list_display = ("desk_link", "domain", "stage", "live_page_changed", "link_state", "evidence_status", "priority", "risk_level", "block_state", "last_checked_at")
    list_filter = ("stage", "link_state", "evidence_status", "priority", "risk_level", "is_blocked", "live_page_changed", "provenance")
    # Ids and domains exactly (indexed); titles and URLs from their start.
    search_fields = ("=id", "=domain", "^title", "^canonical_url")
    list_only = ("id", "title", "canonical_url", "domain", "stage", "live_page_changed", "link_state", "evidence_status", "priority", "risk_level", "is_blocked",
                 "check_times__last_checked_at")
    list_select_related = ("check_times",)
    readonly_fields = (
        "normalized_url", "canonical_url", "domain", "stage", "stage_before_block", "live_page_changed", "is_blocked", "blocked_reason",
        "provenance", "registered_by", "registered_at", "link_state", "evidence_status", "last_checked_at", "last_ok_at",
        "consecutive_failures", "first_failure_at", "next_check_at", "displayed_date", "recent_fetches",
    )
    inlines = [VersionInline]
    actions = ["refetch"]
    # Fields that govern review change only through `source_update` (the governance page).
    governed_fields = ("risk_level", "priority", "url", "owner")

    # The check times live in their own narrow table (CheckTimes): shown here as the source's own.
    @admin.display(description="last checked", ordering="check_times__last_checked_at")
    def last_checked_at(self, obj: Source) -> Any:
        return obj.checks.last_checked_at

    @admin.display(description="last answered")
    def last_ok_at(self, obj: Source) -> Any:
        return obj.checks.last_ok_at

    @admin.display(description="next check")
    def next_check_at(self, obj: Source) -> Any:
        return obj.checks.next_check_at

    def get_readonly_fields(self, request: HttpRequest, obj: Source | None = None) -> Any:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None:
            fields = ["governance", *self.governed_fields, *fields]
        return fields

    @admin.display(description="Risk level, priority, URL, owner")
    def governance(self, obj: Source) -> SafeString:
        return format_html(
            '<a class="button" href="{}">Change risk / priority / URL / owner</a> (with a reason, written to the audit log)',
            reverse("admin:sources_source_governance", args=[obj.pk]),
        )

    def governance_view(self, request: HttpRequest, source_id: int) -> HttpResponse:
        source = Source.objects.filter(pk=source_id).first()
        if source is None or not self.has_change_permission(request, source):
            raise PermissionDenied
        # The URL shown is the one fetched now (an accepted redirect moves it away from `url`).
        initial = {**{name: getattr(source, name) for name in self.governed_fields}, "url": source.canonical_url}
        form = SourceGovernanceForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            url = data["url"] if data["url"].strip() != source.canonical_url else None
            try:
                source_update(actor=request.user, source_id=source.pk, reason=data["reason"], risk_level=data["risk_level"],
                              priority=data["priority"], url=url, owner=data["owner"])
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                messages.success(request, f"Updated {source}.")
                return redirect("admin:sources_source_change", source.pk)
        return self._form_page(request, form, f"Change risk / priority / URL / owner of {source}")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Source]:
        return with_domain_blocked(super().get_queryset(request))

    def has_delete_permission(self, request: HttpRequest, obj: Source | None = None) -> bool:
        # Deleting a blocked source would erase its block record: lift the block first.
        if obj is not None and obj.is_blocked:
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="Source", ordering="title")
    def desk_link(self, obj: Source) -> SafeString:
        return format_html('<a href="{}">{}</a>', reverse("admin:desk-source", args=[obj.pk]), str(obj))

    @admin.display(description="Blocked")
    def block_state(self, obj: Source) -> str:
        if obj.is_blocked:
            return "✖ blocked"
        if getattr(obj, "domain_blocked", False):
            return "✖ blocked (domain)"
        return "no"

    @admin.display(description="Fetch history (latest first)")
    def recent_fetches(self, obj: Source) -> SafeString:
        fetches = list(obj.fetches.order_by("-fetched_at", "-id").only(
            "id", "source_id", "fetched_at", "link_state", "status_code", "final_url", "content_type", "bytes", "elapsed_ms", "error", "note",
        )[: FETCHES_ON_SOURCE_PAGE + 1])
        return SafeString(render_to_string("admin/sources/source/recent_fetches.html", {
            "fetches": fetches[:FETCHES_ON_SOURCE_PAGE], "more": len(fetches) > FETCHES_ON_SOURCE_PAGE, "source": obj,
        }))

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None) -> HttpResponse:
        """Registration goes through the service (normalisation, duplicates, first fetch)."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = SourceRegisterForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                source = source_register(actor=request.user, **form.cleaned_data)
            except ServiceError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                status = work_status(source)
                if status is not None and status["state"] == "delayed":
                    messages.warning(request, status["message"])
                else:
                    messages.success(request, f"Registered {source.canonical_url}; its first fetch is queued. This page follows it through the stages.")
                return redirect("admin:desk-source", source.pk)
        return self._form_page(request, form, "Register a source")

    def get_urls(self) -> list[Any]:
        site = self.admin_site
        return [
            path("import/", site.admin_view(self.import_view), name="sources_source_import"),
            path("<int:source_id>/governance/", site.admin_view(self.governance_view), name="sources_source_governance"),
            *super().get_urls(),
        ]

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = SourceImportForm(request.POST or None, request.FILES or None)
        report = None
        if request.method == "POST" and form.is_valid():
            try:
                text = form.cleaned_data["file"].read().decode("utf-8")
                report = sources_import(actor=request.user, text=text, include_sponsored=form.cleaned_data["include_sponsored"]).as_dict()
                if report["created_ids"]:
                    report["progress_url"] = work_url(kind="fetch", ids=report["created_ids"], back=request.path)
            except UnicodeDecodeError:
                form.add_error("file", "The file is not UTF-8 text.")
            except ServiceError as exc:
                form.add_error(None, exc.message)
        return self._form_page(request, form, "Import sources", report=report, multipart=True)

    def _form_page(self, request: HttpRequest, form: Any, title: str, **extra: Any) -> HttpResponse:
        context = {**self.admin_site.each_context(request), "title": title, "form": form, "opts": self.model._meta, **extra}
        return TemplateResponse(request, "admin/sources/source/form_page.html", context)

    @admin.action(description="Fetch now (re-check)")
    def refetch(self, request: HttpRequest, queryset: QuerySet[Source]) -> HttpResponse:
        ids = list(queryset.values_list("pk", flat=True))
        _run(request, source_refetch, queryset, kwargs=lambda s: {"source_id": s.pk},
             done="A fresh fetch is queued for {names}; this page follows them.")
        if any((work_status(source) or {}).get("state") == "delayed" for source in queryset[:50]):
            messages.warning(request, DELAYED_MESSAGE)
        return redirect(work_url(kind="fetch", ids=ids, back=request.get_full_path()))


class MemberInline(ReadOnlyInline):
    model = VersionPassage
    fields = ("ordinal", "change_kind", "passage_version", "previous")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[VersionPassage]:
        return super().get_queryset(request).select_related("passage_version__passage", "previous__passage", "source_version").defer(
            "passage_version__text", "previous__text", "source_version__body_compressed", "source_version__extraction")


@admin.register(SourceVersion)
class SourceVersionAdmin(ScaledAdmin):
    list_display = ("__str__", "created_at", "extraction_status", "changes_short", "tested_at", "is_active")
    list_filter = ("is_active", "extraction_status")
    list_select_related = ("source",)
    list_defer = ("body_compressed", "extraction")
    search_fields = ("=id", "=source__id", "=content_hash")
    readonly_fields = ("source", "number", "content_hash", "content_type", "extraction_status", "extraction_lines", "changes", "compared_to_version", "is_active", "approvals_required", "tested_at", "activated_at", "created_at", "side_by_side_diff")
    fieldsets = (
        (None, {"fields": ("source", "number", "content_hash", "content_type", "extraction_status", "extraction_lines", "changes", "compared_to_version", "is_active", "approvals_required", "tested_at", "activated_at", "created_at")}),
        ("Changes against the compared version", {"fields": ("side_by_side_diff",)}),
    )
    inlines = [MemberInline]
    actions = ["activate", "rollback", "retest"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # versions are history

    def get_queryset(self, request: HttpRequest) -> QuerySet[SourceVersion]:
        return super().get_queryset(request).defer("body_compressed")

    @admin.display(description="compared to")
    def compared_to_version(self, obj: SourceVersion) -> str:
        # By id, so the compared version's compressed body is never read for this page.
        number = SourceVersion.objects.filter(pk=obj.compared_to_id).values_list("number", flat=True).first() if obj.compared_to_id else None
        return f"version {number}" if number is not None else "nothing (first version)"

    @admin.display(description="changes")
    def changes_short(self, obj: SourceVersion) -> str:
        return diff_summary_text(obj, with_number=False)

    @admin.display(description="changes against the compared version")
    def changes(self, obj: SourceVersion) -> str:
        return diff_summary_text(obj)

    @admin.display(description="extraction")
    def extraction_lines(self, obj: SourceVersion) -> SafeString:
        return SafeString(render_to_string("admin/sources/sourceversion/extraction.html", {"lines": extraction_text(obj)}))

    @admin.display(description="Side-by-side diff")
    def side_by_side_diff(self, obj: SourceVersion) -> SafeString:
        return SafeString(render_to_string("desk/version_diff.html", {"diff": version_diff(obj)}))

    @admin.action(description="Approve / activate the selected versions")
    def activate(self, request: HttpRequest, queryset: QuerySet[SourceVersion]) -> None:
        _run(request, version_activate, queryset, kwargs=lambda v: {"version_id": v.pk, "reason": "approved in the admin"},
             done="Your approval is recorded for {names}; a version goes live once it has the approvals it needs.")

    @admin.action(description="Run the test pairs again")
    def retest(self, request: HttpRequest, queryset: QuerySet[SourceVersion]) -> None:
        _run(request, version_retest, queryset, kwargs=lambda v: {"version_id": v.pk},
             done="The golden pairs run again for {names}.")

    @admin.action(description="Roll back to the selected (earlier) versions")
    def rollback(self, request: HttpRequest, queryset: QuerySet[SourceVersion]) -> None:
        _run(request, version_rollback, queryset, kwargs=lambda v: {"version_id": v.pk, "reason": "rolled back in the admin"},
             done="Rolled back: {names} active again.")


@admin.register(FetchResult)
class FetchResultAdmin(ReadOnlyAdmin):
    list_display = ("requested_url", "link_state", "status_code", "fetched_at", "elapsed_ms")
    list_filter = ("link_state",)
    search_fields = ("=id", "=source__id", "^requested_url")
    list_only = ("id", "requested_url", "link_state", "status_code", "fetched_at", "elapsed_ms")

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-fetched_at", "-id")
    readonly_fields = [f.name for f in FetchResult._meta.fields]


@admin.register(Passage)
class PassageAdmin(ScaledAdmin):
    list_display = ("__str__", "source", "anchor", "ordinal", "is_blocked")
    list_filter = ("is_blocked",)
    list_select_related = ("source",)
    search_fields = ("=id", "=source__id", "^heading_path")
    list_only = ("id", "heading_path", "anchor", "ordinal", "is_blocked", "source__id", "source__title", "source__canonical_url")
    readonly_fields = ("source", "key", "heading_path", "anchor", "ordinal", "is_blocked", "blocked_reason", "where_used")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # passages come from extraction

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="Where is this used?")
    def where_used(self, obj: Passage) -> SafeString:
        return SafeString(render_to_string("desk/where_used_link.html", {"passage_id": obj.pk}))


@admin.register(PassageVersion)
class PassageVersionAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "source", "change_kind", "first_seen_at", "last_seen_at", "fingerprint")
    list_filter = ("change_kind",)
    list_select_related = ("passage__source",)
    # Never sort by passage__ordinal (the model's ordering): that sorts every row. Newest first
    # (ScaledAdmin's "-id") uses the primary key.
    # Exact id / fingerprint use their indexes; the text search is served by a trigram index on PostgreSQL
    # (migration sources 0005_i9b_passage_text_trigram); on SQLite it scans, which is fine at SQLite's sizes.
    search_fields = ("=id", "=fingerprint", "=passage__id", "text")
    trigram_fields = ("text",)
    list_only = (
        "id", "change_kind", "first_seen_at", "last_seen_at", "fingerprint", "passage__id", "passage__heading_path", "passage__ordinal",
        "passage__source__id", "passage__source__title", "passage__source__canonical_url",
    )
    readonly_fields = [*(f.name for f in PassageVersion._meta.fields), "where_used"]

    @admin.display(description="source", ordering="passage__source_id")
    def source(self, obj: PassageVersion) -> str:
        return str(obj.passage.source)

    @admin.display(description="Where is this used?")
    def where_used(self, obj: PassageVersion) -> SafeString:
        return SafeString(render_to_string("desk/where_used_link.html", {"passage_version_id": obj.pk}))


@admin.register(DomainPolicy)
class DomainPolicyAdmin(ScaledAdmin):
    list_display = ("domain", "quality_tier", "is_blocked", "allowed_for_links", "respect_robots", "min_request_gap_ms")
    list_filter = ("quality_tier", "is_blocked", "allowed_for_links")
    search_fields = ("domain",)
    readonly_fields = ("is_blocked", "blocked_reason")

    def get_readonly_fields(self, request: HttpRequest, obj: DomainPolicy | None = None) -> Any:
        # Renaming a policy would move its block (or its link rule) to another domain unaudited.
        return ("domain", *self.readonly_fields) if obj is not None else self.readonly_fields

    def save_model(self, request: HttpRequest, obj: DomainPolicy, form: Any, change: bool) -> None:
        """Through the service: the domain normalised, every changed field audited."""
        values = {name: form.cleaned_data[name] for name in DOMAIN_POLICY_FIELDS if name in form.cleaned_data}
        saved = domain_policy_save(actor=request.user, domain=obj.domain, values=values)
        obj.pk = saved.pk
        obj.domain = saved.domain

    def has_delete_permission(self, request: HttpRequest, obj: DomainPolicy | None = None) -> bool:
        # Deleting a blocked domain's policy would silently unblock it: lift the block instead.
        if obj is not None and obj.is_blocked:
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(EditorialTask)
class EditorialTaskAdmin(ScaledAdmin):
    list_display = ("__str__", "kind", "status", "proposed_url", "opened_at")
    list_filter = ("kind", "status")
    list_select_related = ("source",)
    search_fields = ("=id", "=source__id")
    readonly_fields = ("source", "kind", "status", "proposed_url", "detail", "data", "opened_at", "closed_at", "closed_by", "close_reason")
    actions = ["accept", "reject"]

    @admin.action(description="Accept the proposed canonical URL")
    def accept(self, request: HttpRequest, queryset: QuerySet[EditorialTask]) -> None:
        _run(request, canonical_proposal_decide, queryset.filter(kind=TaskKind.CANONICAL_CHANGE), kwargs=lambda t: {"task_id": t.pk, "accept": True},
             done="Accepted the redirect proposal for {names}.")

    @admin.action(description="Reject the proposed canonical URL (opens a page that asks the reason)")
    def reject(self, request: HttpRequest, queryset: QuerySet[EditorialTask]) -> HttpResponse | None:
        task = queryset.filter(kind=TaskKind.CANONICAL_CHANGE).first()
        if task is None:
            messages.error(request, "Choose a redirect proposal.")
            return None
        return redirect("admin:desk-task-decide", task.pk)


@admin.register(SearchHit)
class SearchHitAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "source", "engine", "executed_query", "rank", "observed_at", "is_sponsored")
    list_select_related = ("source",)
    search_fields = ("=id", "=source__id", "^executed_query")
    readonly_fields = [f.name for f in SearchHit._meta.fields]
