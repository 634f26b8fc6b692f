from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from citecheck_site.admin_scale import ScaledAdmin
from dispatch.models import WorkRequest


@admin.register(WorkRequest)
class WorkRequestAdmin(ScaledAdmin):
    list_display = ("job", "kwargs", "queue", "status", "attempts", "carried_by", "progress", "progress_total", "created_at", "finished_at", "error")
    list_filter = ("status", "queue", "job")
    readonly_fields = [f.name for f in WorkRequest._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
