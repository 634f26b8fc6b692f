"""Integrations in the admin: tokens are created here (the secret is shown once) and revoked
with an action; webhook deliveries and their attempts are read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from citecheck.errors import ServiceError
from integrations.models import ApiToken, Integration, Scope, WebhookAttempt, WebhookDelivery
from integrations.services.tokens import token_create, token_revoke


@admin.register(Integration)
class IntegrationAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "webhook_url", "created_at")
    search_fields = ("name",)
    # The service user by name (a select of usernames), not a raw numeric id.
    autocomplete_fields = ("user",)


class TokenForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = ApiToken
        fields = ("integration", "name", "scopes")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("prefix", "integration", "name", "scopes", "created_at", "last_used_at", "revoked_at")
    list_filter = ("integration",)
    list_select_related = ("integration",)
    readonly_fields = ("prefix", "created_by", "created_at", "last_used_at", "revoked_at")
    actions = ["revoke"]
    form = TokenForm

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("integration", "name", "scopes") if obj is None else ("integration", "name", "scopes", *self.readonly_fields)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False if obj is not None else super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: ApiToken, form: Any, change: bool) -> None:
        token, raw = token_create(actor=request.user, integration_id=form.cleaned_data["integration"].pk,
                                  scopes=list(form.cleaned_data["scopes"]), name=form.cleaned_data.get("name", ""))
        obj.pk = token.pk
        obj._state.adding = False
        messages.warning(request, f"The token, shown this once — copy it now: {raw}")

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # audited by token_create

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset:
            try:
                token_revoke(actor=request.user, token_id=token.pk, reason="revoked in the admin")
            except ServiceError as exc:
                messages.error(request, f"{token}: {exc.message}")


class AttemptInline(admin.TabularInline):
    model = WebhookAttempt
    extra = 0
    can_delete = False
    readonly_fields = ("number", "at", "status_code", "error", "elapsed_ms")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ("event", "integration", "status", "attempts", "created_at", "delivered_at")
    list_filter = ("status", "event")
    list_select_related = ("integration",)
    readonly_fields = ("integration", "event", "payload", "status", "attempts", "created_at", "delivered_at")
    inlines = [AttemptInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
