"""The audit log page: every approval, block, waiver, comment, assignment and state change,
filterable by actor, object, action and date, exported as a streamed CSV.

The action and object-type filters offer what actually occurs in the log, in words: the values
are read with a skip scan over their indexes (one index probe per distinct value, never a scan
of the table; reviews.selectors.audit), the words come from `reviews.audit.ACTION_LABELS` and
the models' verbose names.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

from django.apps import apps
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, StreamingHttpResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html

from citecheck_site.admin_scale import ReadOnlyAdmin
from reviews.audit import action_label
from reviews.models import AuditLog
from reviews.selectors.audit import audit_values

CSV_CHUNK = 2000
CSV_COLUMNS = ("at", "actor_name", "action", "object_type", "object_id", "object_repr", "from_state", "to_state", "allowed", "reason")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def audit_actions() -> list[tuple[str, str]]:
    """The actions that occur in the log, in words, alphabetically by their words."""
    return sorted(((name, action_label(name)) for name in audit_values("action")), key=lambda pair: pair[1])


def object_type_label(object_type: str) -> str:
    try:
        return str(apps.get_model(object_type)._meta.verbose_name)
    except (LookupError, ValueError):
        return object_type.replace("_", " ").replace(".", ": ")


def object_types() -> list[tuple[str, str]]:
    """The object types that occur in the log, named by their model's verbose name."""
    return sorted(((name, object_type_label(name)) for name in audit_values("object_type") if name), key=lambda pair: pair[1])


class ActionFilter(admin.SimpleListFilter):
    title = "action"
    parameter_name = "action"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return audit_actions()

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditLog]) -> QuerySet[AuditLog]:
        return queryset.filter(action=self.value()) if self.value() else queryset


class ObjectTypeFilter(admin.SimpleListFilter):
    title = "object type"
    parameter_name = "object_type"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return object_types()

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditLog]) -> QuerySet[AuditLog]:
        if not self.value():
            return queryset
        queryset = queryset.filter(object_type=self.value())
        object_id = request.GET.get("object_id", "").strip()
        return queryset.filter(object_id=object_id) if object_id else queryset


class AllowedFilter(admin.SimpleListFilter):
    title = "outcome"
    parameter_name = "allowed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "done"), ("no", "refused")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditLog]) -> QuerySet[AuditLog]:
        return queryset.filter(allowed=self.value() == "yes") if self.value() in ("yes", "no") else queryset


def csv_cell(value: Any) -> str:
    """A CSV cell that a spreadsheet shows as text, never runs as a formula (OWASP CSV injection)."""
    text = "" if value is None else (value.isoformat() if hasattr(value, "isoformat") else str(value))
    return "'" + text if text.startswith(FORMULA_START) else text


class _Echo:
    def write(self, value: str) -> str:
        return value


def audit_csv_rows(queryset: QuerySet[AuditLog]) -> Iterator[str]:
    """The header, then one CSV line per row, read in chunks (never the whole table at once)."""
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for row in queryset.values_list(*CSV_COLUMNS).iterator(chunk_size=CSV_CHUNK):
        yield writer.writerow([csv_cell("yes" if v is True else "no" if v is False else v) for v in row])


class AuditLogAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor_name", "action_display", "object_link", "from_state", "to_state", "outcome", "reason", "evidence_then")
    list_filter = (ActionFilter, ObjectTypeFilter, "actor", AllowedFilter, ("at", admin.DateFieldListFilter))
    # Exact matches use indexes; the reason and description are searched from their start only.
    search_fields = ("=object_id", "=actor_name", "=action", "^object_repr", "^reason")
    list_only = ("id", "at", "actor_name", "action", "object_type", "object_id", "object_repr", "from_state", "to_state", "allowed", "reason")
    readonly_fields = [f.name for f in AuditLog._meta.fields]
    change_list_template = "admin/reviews/auditlog/change_list.html"

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-at", "-id")  # the index on `at`; rows of the same instant by id

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:  # type: ignore[override]
        return lookup in ("object_id", "at__gte", "at__lt") or super().lookup_allowed(lookup, value, request)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.export_view)
        return [path("export.csv", view, name="desk-audit-export"), *super().get_urls()]

    @admin.display(description="action", ordering="action")
    def action_display(self, obj: AuditLog) -> str:
        return action_label(obj.action)

    @admin.display(description="outcome", ordering="allowed")
    def outcome(self, obj: AuditLog) -> str:
        return "✓ done" if obj.allowed else "✗ refused"

    @admin.display(description="object")
    def object_link(self, obj: AuditLog) -> str:
        text = obj.object_repr or f"{obj.object_type} {obj.object_id}"
        app_label, _, model = obj.object_type.partition(".")
        try:
            url = reverse(f"admin:{app_label}_{model}_change", args=[obj.object_id])
        except NoReverseMatch:
            return text
        return format_html('<a href="{}">{}</a>', url, text)

    @admin.display(description="evidence then")
    def evidence_then(self, obj: AuditLog) -> str:
        """The knowledge base as the bot could cite it right after this row (the change it records included)."""
        try:
            url = reverse("admin:desk-evidence-moment")
        except NoReverseMatch:
            return ""
        query = urlencode({"at": obj.at.isoformat(), **({"source": obj.object_id} if obj.object_type == "sources.source" else {})})
        return format_html('<a href="{}?{}">evidence at this moment</a>', url, query)

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        """The time window's picker gives local times without an offset: read them in the desk's time zone."""
        window = {key: request.GET[key] for key in ("at__gte", "at__lt") if request.GET.get(key)}
        if window:
            params = request.GET.copy()
            for key, value in window.items():
                moment = parse_datetime(value) if "T" in value or " " in value else None
                if moment is not None and timezone.is_naive(moment):
                    params[key] = timezone.make_aware(moment).isoformat()
            request.GET = params  # type: ignore[assignment]  # a mutable copy with the window made timezone-aware
        return super().changelist_view(request, extra_context)

    def export_view(self, request: HttpRequest) -> StreamingHttpResponse:
        """The rows the list shows (same filters and search), as CSV, streamed in chunks."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        changelist = self.get_changelist_instance(request)
        queryset = changelist.get_queryset(request).order_by("-at", "-id")
        response = StreamingHttpResponse(audit_csv_rows(queryset), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="citecheck-audit-{timezone.now():%Y%m%d-%H%M}.csv"'
        return response
