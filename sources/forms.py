from __future__ import annotations

from django import forms

from sources.models import DocumentType, Priority, RiskLevel


class SourceRegisterForm(forms.Form):
    url = forms.CharField(label="URL", max_length=2048, help_text="http or https; tracking parameters and fragments are dropped.")
    title = forms.CharField(max_length=500, required=False)
    document_type = forms.ChoiceField(choices=DocumentType.choices, initial=DocumentType.WEBPAGE)
    language = forms.CharField(max_length=16, initial="en")
    owner = forms.CharField(max_length=200, required=False, help_text="Who answers for this content.")
    priority = forms.ChoiceField(choices=Priority.choices, initial=Priority.SUPPLEMENTARY,
                                 help_text="Primary: an official page that can carry a service term.")
    risk_level = forms.ChoiceField(choices=RiskLevel.choices, initial=RiskLevel.NORMAL,
                                   help_text="Decides how often it is re-checked and how strict review is.")


class SourceImportForm(forms.Form):
    file = forms.FileField(help_text="CSV with a header row, a JSON array, or a search-result dataset.")
    include_sponsored = forms.BooleanField(required=False, label="Include sponsored search results")


class SourceGovernanceForm(forms.Form):
    """Risk level, priority, URL and owner: changed only with a reason, through `source_update`."""

    risk_level = forms.ChoiceField(choices=RiskLevel.choices,
                                   help_text="Lowering it needs the Approver role; you then cannot approve this source's versions.")
    priority = forms.ChoiceField(choices=Priority.choices)
    url = forms.CharField(label="URL", max_length=2048, help_text="http or https only; a new URL drops pending approvals and is fetched.")
    owner = forms.CharField(max_length=200, required=False)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), help_text="Why: written to the audit log.")
