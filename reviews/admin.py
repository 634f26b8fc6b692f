"""Admin for golden pairs, runs, approvals, blocks, the incident switches and the audit log.

The audit log page (filters, streamed CSV) is in reviews/admin_audit.py.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.forms import ModelForm
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from citecheck_site.admin_scale import ReadOnlyAdmin, ReadOnlyInline, ScaledAdmin
from reviews.admin_audit import AuditLogAdmin
from reviews.models import Approval, AuditLog, BlockSwitch, SiteSwitch, TestPair, TestResult, TestRun
from reviews.queue_admin import queue_admin_register
from reviews.services.people import person_staff_follow_role

queue_admin_register()

admin.site.register(AuditLog, AuditLogAdmin)


class PersonAdmin(UserAdmin):
    """Django's own user pages keep working, with the People page's rule: a person given a role
    group here becomes staff, so they can log in (unticked "Staff status" used to leave them
    locked out, told their password was wrong). The People page is the usual way in."""

    def save_related(self, request: HttpRequest, form: ModelForm, formsets: list[object], change: bool) -> None:  # type: ignore[override]
        super().save_related(request, form, formsets, change)
        if person_staff_follow_role(actor=request.user, user_id=form.instance.pk):  # type: ignore[arg-type]
            messages.info(request, f"{form.instance.get_username()} holds a desk role, so they are now staff and can log in.")


admin.site.unregister(User)
admin.site.register(User, PersonAdmin)


@admin.register(TestPair)
class TestPairAdmin(ScaledAdmin):
    list_display = ("claim", "source", "expected_status", "expected_passage", "needs_reverification")
    list_filter = ("expected_status", "needs_reverification")
    list_select_related = ("source", "expected_passage")
    search_fields = ("=id", "=source__id", "claim")
    autocomplete_fields = ("source", "expected_passage")
    readonly_fields = ("needs_reverification", "created_by", "created_at")

    def save_model(self, request: HttpRequest, obj: TestPair, form: object, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


class ResultInline(ReadOnlyInline):
    model = TestResult
    fields = ("pair", "passed", "passage_found", "quote_found", "actual_status", "detail", "waived", "waived_by", "waiver_reason")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest):  # type: ignore[no-untyped-def]
        return super().get_queryset(request).select_related("pair", "waived_by")


@admin.register(TestRun)
class TestRunAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "status", "passed_count", "failed_count", "judge", "started_at")
    list_filter = ("status",)
    list_select_related = ("source_version__source",)
    list_defer = ("source_version__body_compressed", "source_version__extraction", "source_version__diff_summary")
    search_fields = ("=id", "=source_version__id", "=source_version__source__id")
    readonly_fields = [f.name for f in TestRun._meta.fields]
    inlines = [ResultInline]


@admin.register(Approval)
class ApprovalAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "approver", "decision", "emergency_override", "reason", "at")
    list_filter = ("decision", "emergency_override")
    list_select_related = ("source_version__source", "approver")
    list_defer = ("source_version__body_compressed", "source_version__extraction", "source_version__diff_summary")
    search_fields = ("=id", "=source_version__id", "=source_version__source__id", "=approver__username", "reason")
    readonly_fields = [f.name for f in Approval._meta.fields]


@admin.register(BlockSwitch)
class BlockSwitchAdmin(ReadOnlyAdmin):
    """Blocks are applied and lifted on the desk (with a preview and a reason), never deleted."""

    list_display = ("__str__", "target", "reason", "blocked_by", "blocked_at", "lifted_at", "lift_link")
    list_filter = ("target",)
    list_select_related = ("source", "passage", "blocked_by", "lifted_by")
    search_fields = ("=id", "=source__id", "=passage__id", "domain", "reason")
    readonly_fields = [f.name for f in BlockSwitch._meta.fields]

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a switch is the record of a block: it is lifted (block_lift), never deleted

    @admin.display(description="Lift")
    def lift_link(self, obj: BlockSwitch) -> str:
        if obj.lifted_at is not None:
            return f"lifted: {obj.lift_reason}"
        return format_html('<a href="{}">Lift this block</a>', reverse("admin:desk-block-lift", args=[obj.pk]))


@admin.register(SiteSwitch)
class SiteSwitchAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "pause_activations", "primary_only", "reason", "changed_at")
    readonly_fields = ("pause_activations", "primary_only", "reason", "changed_at")
