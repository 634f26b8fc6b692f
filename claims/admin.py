"""The answer view: state, wording, each claim with both sides of its evidence, the report card."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from citecheck_site.templatetags.outside_links import outside_link
from claims.models import Answer, Citation, Claim, Judgement
from claims.services import answer_verify_request


def _quality(entry: dict[str, Any]) -> str:
    quality = entry.get("quality") or {}
    parts = ", ".join(f"{name} {value:.2f}" for name, value in (quality.get("parts") or {}).items())
    return f"quality {quality.get('score', 0):.2f} ({parts})" if quality else "quality unknown"


def _evidence_list(items: list[dict[str, Any]]) -> SafeString:
    """Evidence entries; a link only where the registry produced one (safe_link), else plain text."""
    if not items:
        return format_html("<p>{}</p>", "none")
    rows = []
    for e in items:
        name = e.get("title") or e.get("domain") or "source"
        label = outside_link(e.get("url"), name) if e.get("url") else format_html("{}", name)
        rows.append(format_html("<li>{} ({}, {}): <q>{}</q></li>", label, e.get("domain", ""), _quality(e), e.get("span") or ""))
    return format_html("<ul>{}</ul>", format_html_join("", "{}", ((r,) for r in rows)))


class ClaimInline(admin.TabularInline):
    model = Claim
    fields = ("position", "text", "needs_citation", "state", "confidence", "needs_reverification")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ("__str__", "state", "model_name", "received_at", "verified_at", "needs_reverification")
    list_filter = ("state", "needs_reverification")
    search_fields = ("question", "answer_text")
    readonly_fields = ("question", "answer_text", "answer_format", "model_name", "language", "sources_sent", "received_at", "state", "state_wording", "verification", "verified_at", "needs_reverification", "submitted_by", "raw_response")
    exclude = ("report",)
    inlines = [ClaimInline]
    actions = ["verify_again"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # answers arrive through the API

    @admin.display(description="Verification report")
    def verification(self, obj: Answer) -> SafeString:
        report = obj.report or {}
        if not report:
            return format_html("<p>{}</p>", "Not verified yet.")
        parts = [format_html("<p><strong>{}</strong>: {}</p>", obj.get_state_display(), obj.state_wording)]
        for claim in report.get("claims", []):
            parts.append(format_html(
                "<h4>{} — {} (confidence {}, {} independent supporter(s))</h4><p>{}</p><p>Supporting:</p>{}<p>Contradicting:</p>{}",
                claim.get("claim", ""), claim.get("state", ""), claim.get("confidence", ""), claim.get("independent_supporters", 0),
                "; ".join(claim.get("notes", [])), _evidence_list(claim.get("supporting", [])), _evidence_list(claim.get("contradicting", [])),
            ))
        card = report.get("card", {})
        if card:
            parts.append(format_html(
                "<h4>Report card</h4><p>{} claim(s): {} verified, {} unverified, {} contradicted; verification rate {}</p>",
                card.get("total_claims", 0), card.get("verified", 0), card.get("unverified", 0), card.get("contradicted", 0), card.get("verification_rate_display", ""),
            ))
            gaps = card.get("gaps", [])
            if gaps:
                parts.append(format_html("<p>{}</p><ul>{}</ul>", "Research gaps (claims that need more sources):", format_html_join(
                    "", "<li>{} — try: {}</li>", ((g.get("claim", ""), "; ".join(g.get("queries", []))) for g in gaps))))
        bibliography = report.get("bibliography", [])
        if bibliography:
            parts.append(format_html("<h4>Sources</h4><ol>{}</ol>", format_html_join(
                "", "<li>{}</li>", ((outside_link(b.get("url"), b.get("title") or b.get("url") or ""),) for b in bibliography))))
        return format_html("{}" * len(parts), *parts)

    @admin.action(description="Verify again")
    def verify_again(self, request: HttpRequest, queryset: QuerySet[Answer]) -> None:
        with transaction.atomic():
            for answer in queryset:
                answer_verify_request(answer=answer)
        messages.success(request, f"Verification queued for {queryset.count()} answer(s).")


@admin.register(Judgement)
class JudgementAdmin(admin.ModelAdmin):
    list_display = ("claim_text", "status", "judge", "model", "prompt_version", "heuristic", "created_at", "needs_reverification")
    list_filter = ("status", "judge", "heuristic", "needs_reverification")
    search_fields = ("claim_text", "rationale")
    readonly_fields = [f.name for f in Judgement._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ("claim", "source_number", "passage_version", "quote", "needs_reverification")
    readonly_fields = [f.name for f in Citation._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
