"""The answer view: mode, state, wording, each claim with its correction / both sides / pending
reason, the report card and what changed; wording templates; judge endpoints' circuit breakers."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from citecheck.errors import ServiceError
from citecheck.state_wording import PLACEHOLDERS, validate_template
from citecheck_site.admin_scale import ReadOnlyAdmin, ReadOnlyInline, ScaledAdmin
from claims.models import Answer, Citation, Claim, JudgeAttempt, JudgeEndpoint, Judgement, VerificationChange, WordingTemplate
from claims.services import answer_mode_set, answer_verify_again, wording_template_update
from desk.views.work import work_url


def _quality(entry: dict[str, Any]) -> str:
    quality = entry.get("quality") or {}
    parts = ", ".join(f"{name} {value:.2f}" for name, value in (quality.get("parts") or {}).items())
    return f"quality {quality.get('score', 0):.2f} ({parts})" if quality else "quality unknown"


def _evidence(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Evidence entries as the template shows them; a link only where the registry produced one."""
    return [{**e, "name": e.get("link_text") or e.get("title") or e.get("domain") or "source", "quality_text": _quality(e)} for e in items]


def verification_context(answer: Answer) -> dict[str, Any]:
    """What the verification report template needs, from the answer's stored report."""
    report = answer.report or {}
    claims = [
        {**claim, "sides": [(_evidence(claim.get("supporting", [])), "Supporting"), (_evidence(claim.get("contradicting", [])), "Contradicting"),
                            (_evidence(claim.get("partial", [])), "Partly supporting")]}
        for claim in report.get("claims", [])
    ]
    retry = report.get("retry")
    return {
        "answer": answer, "report": report, "card": report.get("card", {}), "claims": claims, "retry": retry,
        "retry_in": round((retry or {}).get("retry_in", 0)),
        "bibliography": [{**b, "label": b.get("title") or b.get("url") or ""} for b in report.get("bibliography", [])],
    }


CLAIMS_PER_PAGE = 50


def claims_page_number(request: HttpRequest) -> int:
    """`?claims_page=N` of the answer page (1 when absent or not a page number)."""
    raw = request.GET.get("claims_page", "1")
    return int(raw) if raw.isdigit() and 0 < int(raw) < 1_000_000 else 1


class ClaimPageFormSet(BaseInlineFormSet):
    """One page of an answer's claims: a long answer never renders all of them at once."""

    page = 1

    def get_queryset(self) -> QuerySet[Claim]:
        start = (self.page - 1) * CLAIMS_PER_PAGE
        return super().get_queryset()[start : start + CLAIMS_PER_PAGE]


class ClaimInline(ReadOnlyInline):
    model = Claim
    formset = ClaimPageFormSet
    verbose_name_plural = f"claims ({CLAIMS_PER_PAGE} to a page: see “Claims pages” above)"
    fields = ("position", "text", "sentence", "needs_citation", "state", "confidence", "needs_reverification")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        return type("ClaimPage", (formset,), {"page": claims_page_number(request)})


class ChangeInline(ReadOnlyInline):
    model = VerificationChange
    verbose_name = "what changed"
    verbose_name_plural = "what changed and when"
    fields = ("requested_at", "reason", "from_state", "to_state", "verified_at")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(Answer)
class AnswerAdmin(ScaledAdmin):
    list_display = ("__str__", "state", "verification_mode", "model_name", "received_at", "verified_at", "needs_reverification")
    list_filter = ("state", "verification_mode", "needs_reverification")
    search_fields = ("=id", "question")
    list_only = ("id", "question", "answer_text", "state", "verification_mode", "model_name", "received_at", "verified_at", "needs_reverification")
    readonly_fields = ("trace_link", "claims_pages", "question", "answer_text", "answer_format", "model_name", "language", "verification_mode", "sources_sent", "received_at", "state", "state_wording", "verification", "verified_at", "fresh_until", "needs_reverification", "submitted_by", "raw_response")
    exclude = ("report",)
    inlines = [ClaimInline, ChangeInline]
    actions = ["verify_again", "verify_as_knowledge_base", "verify_as_research"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # answers arrive through the API

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # An answer and what it rested on are the record the trace and the point-in-time replay read;
        # the delete page refused anyway (its claims and citations are never deleted by hand), so the
        # button is not offered.
        return False

    @admin.display(description="Claims pages")
    def claims_pages(self, obj: Answer) -> SafeString:
        total = obj.claims.count()
        pages = max(1, -(-total // CLAIMS_PER_PAGE))
        if pages == 1:
            return format_html("{} claim(s), all shown below.", total)
        shown = [*range(1, min(pages, 20) + 1), *([pages] if pages > 20 else [])]
        links = format_html_join(" · ", '<a href="?claims_page={}">page {}</a>', ((n, n) for n in shown))
        return format_html("{} claims, {} to a page: {}", total, CLAIMS_PER_PAGE, links)

    @admin.display(description="Trace")
    def trace_link(self, obj: Answer) -> SafeString:
        return SafeString(render_to_string("admin/claims/answer/trace_link.html", {"answer": obj}))

    @admin.display(description="Verification report")
    def verification(self, obj: Answer) -> SafeString:
        return SafeString(render_to_string("admin/claims/answer/verification.html", verification_context(obj)))

    @admin.action(description="Verify again")
    def verify_again(self, request: HttpRequest, queryset: QuerySet[Answer]) -> HttpResponse | None:
        ids = []
        for answer in queryset:
            try:
                answer_verify_again(actor=request.user, answer_id=answer.pk)
                ids.append(answer.pk)
            except ServiceError as exc:
                messages.error(request, exc.message)
        if not ids:
            return None
        messages.success(request, f"Verification queued for {len(ids)} answer(s): claims whose judgement is missing or failed are asked again; this page follows them.")
        return redirect(work_url(kind="verify", ids=ids, back=request.get_full_path()))


    def _set_mode(self, request: HttpRequest, queryset: QuerySet[Answer], mode: str) -> None:
        done = 0
        for answer in queryset:
            try:
                answer_mode_set(actor=request.user, answer_id=answer.pk, mode=mode)
                done += 1
            except ServiceError as exc:
                messages.error(request, exc.message)
        messages.success(request, f"{done} answer(s) will be verified in {mode} mode.")

    @admin.action(description="Verify in knowledge-base mode (one approved primary source)")
    def verify_as_knowledge_base(self, request: HttpRequest, queryset: QuerySet[Answer]) -> None:
        self._set_mode(request, queryset, "knowledge_base")

    @admin.action(description="Verify in research mode (two independent sources)")
    def verify_as_research(self, request: HttpRequest, queryset: QuerySet[Answer]) -> None:
        self._set_mode(request, queryset, "research")


class WordingTemplateForm(forms.ModelForm):
    class Meta:
        model = WordingTemplate
        fields = ("text",)
        help_texts = {"text": "Plain text. Placeholders: " + ", ".join("{" + p + "}" for p in sorted(PLACEHOLDERS))}

    def clean_text(self) -> str:
        text = str(self.cleaned_data["text"])
        problems = validate_template(text)
        if problems:
            raise forms.ValidationError(problems)
        return text


@admin.register(WordingTemplate)
class WordingTemplateAdmin(ScaledAdmin):
    form = WordingTemplateForm
    list_display = ("key", "language", "mode", "text", "updated_at", "updated_by")
    list_filter = ("language", "key", "mode")
    search_fields = ("text",)
    readonly_fields = ("key", "language", "mode", "updated_at", "updated_by")
    fields = ("key", "language", "mode", "text", "updated_at", "updated_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # one template per state and language, seeded by a migration

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: WordingTemplate, form: Any, change: bool) -> None:
        wording_template_update(actor=request.user, template_id=obj.pk, text=obj.text)


@admin.register(JudgeEndpoint)
class JudgeEndpointAdmin(ScaledAdmin):
    list_display = ("endpoint", "state", "consecutive_failures", "retry_at", "last_error", "last_failure_at", "last_success_at")
    readonly_fields = [f.name for f in JudgeEndpoint._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(JudgeAttempt)
class JudgeAttemptAdmin(ScaledAdmin):
    list_display = ("created_at", "judge", "endpoint", "error", "passage_version")
    list_select_related = ("passage_version",)
    readonly_fields = [f.name for f in JudgeAttempt._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Judgement)
class JudgementAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "status", "confidence", "judge", "model", "prompt_version", "heuristic", "created_at", "needs_reverification")
    list_filter = ("status", "confidence", "judge", "heuristic", "needs_reverification")
    # Exact ids and fingerprints use their indexes; the claim text is matched from its start.
    search_fields = ("=id", "=passage_version__id", "=passage_fingerprint", "^claim_text")
    list_defer = ("rationale", "span")


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
        return SafeString(render_to_string("desk/passage_version_link.html", {"pv": obj.passage_version}))
