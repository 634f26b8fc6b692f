from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from reviews.models import Approval, AuditLog, BlockSwitch, SiteSwitch, TestPair, TestResult, TestRun
from reviews.queue_admin import queue_admin_register

queue_admin_register()


@admin.register(TestPair)
class TestPairAdmin(admin.ModelAdmin):
    list_display = ("claim", "source", "expected_status", "expected_passage", "needs_reverification")
    list_filter = ("expected_status", "needs_reverification")
    search_fields = ("claim", "question")
    autocomplete_fields = ("source", "expected_passage")
    readonly_fields = ("needs_reverification", "created_by", "created_at")

    def save_model(self, request: HttpRequest, obj: TestPair, form: object, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


class ResultInline(admin.TabularInline):
    model = TestResult
    fields = ("pair", "passed", "passage_found", "quote_found", "actual_status", "detail", "waived", "waived_by", "waiver_reason")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(TestRun)
class TestRunAdmin(admin.ModelAdmin):
    list_display = ("source_version", "status", "passed_count", "failed_count", "judge", "started_at")
    list_filter = ("status",)
    readonly_fields = [f.name for f in TestRun._meta.fields]
    inlines = [ResultInline]


@admin.register(Approval)
class ApprovalAdmin(admin.ModelAdmin):
    list_display = ("source_version", "approver", "decision", "emergency_override", "at")
    readonly_fields = [f.name for f in Approval._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(BlockSwitch)
class BlockSwitchAdmin(admin.ModelAdmin):
    """Blocks are applied and lifted on the desk (with a preview and a reason), never deleted."""

    list_display = ("target", "source", "domain", "passage", "reason", "blocked_by", "blocked_at", "lifted_at", "lift_link")
    list_filter = ("target",)
    list_select_related = ("source", "passage", "blocked_by")
    readonly_fields = [f.name for f in BlockSwitch._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # a switch is the record of a block: it is lifted (block_lift), never deleted

    @admin.display(description="Lift")
    def lift_link(self, obj: BlockSwitch) -> str:
        if obj.lifted_at is not None:
            return f"lifted: {obj.lift_reason}"
        return format_html('<a href="{}">Lift this block</a>', reverse("admin:desk-block-lift", args=[obj.pk]))


@admin.register(SiteSwitch)
class SiteSwitchAdmin(admin.ModelAdmin):
    list_display = ("pause_activations", "primary_only", "reason", "changed_at")
    readonly_fields = ("pause_activations", "primary_only", "reason", "changed_at")


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ("at", "actor_name", "action", "object_type", "object_id", "from_state", "to_state", "allowed", "reason")
    list_filter = ("action", "allowed", "object_type")
    search_fields = ("object_repr", "reason", "actor_name")
    readonly_fields = [f.name for f in AuditLog._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
