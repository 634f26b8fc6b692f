"""Integrations in the admin: tokens are created here (the secret is shown once) and revoked
with an action; webhook deliveries and their attempts are read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from citecheck.errors import ServiceError
from integrations.models import ApiToken, Integration, Scope, WebhookAttempt, WebhookDelivery
from integrations.services.integrations import (
    integration_create,
    integration_disable,
    integration_secret_rotate,
    integration_service_user_change,
    integration_webhook_change,
    secret_masked,
    webhook_url_refusal,
)
from integrations.services.tokens import token_create, token_revoke


class IntegrationForm(forms.ModelForm):
    """Name, service user (by name) and webhook URL; the secret is never a field: it is generated
    and shown once. Saved through the audited services, never by the form itself."""

    service_user = forms.ModelChoiceField(
        queryset=get_user_model().objects.filter(is_active=True).order_by("username"), to_field_name="username",
        help_text="The user the integration's tokens act as: its roles decide what they may do.",
    )
    webhook_url = forms.CharField(max_length=2048, required=False, help_text="http(s) only, a public address; a secret is generated for it.")

    class Meta:
        model = Integration
        fields = ("name",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["service_user"].label_from_instance = lambda user: user.get_username()  # type: ignore[attr-defined]
        if self.instance.pk:
            self.fields["name"].disabled = True
            self.initial.setdefault("service_user", self.instance.user.get_username())
            self.initial.setdefault("webhook_url", self.instance.webhook_url)

    def clean_webhook_url(self) -> str:
        url = str(self.cleaned_data.get("webhook_url") or "").strip()
        refusal = webhook_url_refusal(url) if url else None
        if refusal:
            raise forms.ValidationError(f"Refused by the fetch guard: {refusal}")
        return url


@admin.register(Integration)
class IntegrationAdmin(admin.ModelAdmin):
    form = IntegrationForm
    list_display = ("name", "user", "webhook_url", "secret", "created_at", "disabled_at")
    search_fields = ("name",)
    list_select_related = ("user",)
    readonly_fields = ("secret", "created_at", "disabled_at")
    actions = ["rotate_secret", "disable"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ("name", "service_user", "webhook_url") if obj is None else ("name", "service_user", "webhook_url", *self.readonly_fields)

    @admin.display(description="webhook secret")
    def secret(self, obj: Integration) -> str:
        return secret_masked(obj.webhook_secret)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # disable instead: audited, and the answers keep their integration

    def save_model(self, request: HttpRequest, obj: Integration, form: Any, change: bool) -> None:
        data = form.cleaned_data
        username, url = data["service_user"].get_username(), data.get("webhook_url", "")
        shown = ""
        if not change:
            integration, shown = integration_create(actor=request.user, name=data["name"], service_user=username, webhook_url=url)
            obj.pk = integration.pk
            obj._state.adding = False
        else:
            integration_service_user_change(actor=request.user, integration_id=obj.pk, service_user=username)
            _, shown = integration_webhook_change(actor=request.user, integration_id=obj.pk, webhook_url=url)
        if shown:
            messages.warning(request, f"The webhook secret, shown this once — give it to the receiver now: {shown}")

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # audited by integration_create

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        return None  # audited by the services

    @admin.action(description="Rotate the webhook secret (shown once)")
    def rotate_secret(self, request: HttpRequest, queryset: QuerySet[Integration]) -> None:
        for integration in queryset:
            try:
                _, secret = integration_secret_rotate(actor=request.user, integration_id=integration.pk)
            except ServiceError as exc:
                messages.error(request, f"{integration}: {exc.message}")
                continue
            messages.warning(request, f"{integration}: the new webhook secret, shown this once: {secret}")

    @admin.action(description="Disable the selected integrations (tokens refused, no webhooks)")
    def disable(self, request: HttpRequest, queryset: QuerySet[Integration]) -> None:
        for integration in queryset:
            try:
                integration_disable(actor=request.user, integration_id=integration.pk, reason="disabled in the admin")
            except ServiceError as exc:
                messages.error(request, f"{integration}: {exc.message}")


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
