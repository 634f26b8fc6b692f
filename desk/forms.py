"""The desk's forms: every field labelled, reasons required where the product needs one."""

from __future__ import annotations

from django import forms

from claims.models import JudgementStatus
from reviews.models import BlockTarget

REASON_WIDGET = forms.Textarea(attrs={"rows": 2, "cols": 60})


class BlockForm(forms.Form):
    target = forms.ChoiceField(label="What to block", choices=BlockTarget.choices)
    source_id = forms.IntegerField(label="Source id", required=False, min_value=1)
    domain = forms.CharField(label="Domain", required=False, max_length=253, help_text="e.g. example.co.uk")
    passage_id = forms.IntegerField(label="Passage id", required=False, min_value=1)
    passage_version_id = forms.IntegerField(
        label="Passage-version id", required=False, min_value=1,
        help_text="The id the export lists; the whole passage is blocked, across its versions.",
    )
    reason = forms.CharField(label="Reason for the block", required=False, widget=REASON_WIDGET)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Reason", widget=REASON_WIDGET)


class SwitchForm(forms.Form):
    pause_activations = forms.BooleanField(label="Pause every activation", required=False)
    primary_only = forms.BooleanField(label="Accept only primary sources as evidence", required=False)
    reason = forms.CharField(label="Reason for the change", widget=REASON_WIDGET)


class AssignForm(forms.Form):
    item = forms.CharField(widget=forms.HiddenInput)
    assignee = forms.IntegerField(label="Assign to", required=False)
    due_date = forms.DateField(label="Due date", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    next = forms.CharField(widget=forms.HiddenInput, required=False)


class CommentForm(forms.Form):
    item = forms.CharField(widget=forms.HiddenInput)
    text = forms.CharField(label="Comment", widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))
    next = forms.CharField(widget=forms.HiddenInput, required=False)


ROLE_CHOICES = [("Viewer", "Viewer: reads everything"), ("Editor", "Editor: also registers sources, edits golden pairs and answers"),
                ("Approver", "Approver: also approves, waives, unblocks and rolls back"), ("", "No role (cannot log in to the desk)")]


class PersonAddForm(forms.Form):
    username = forms.CharField(label="Username", max_length=150)
    email = forms.EmailField(label="Email", required=False)
    role = forms.ChoiceField(label="Role", choices=ROLE_CHOICES, initial="Editor")


class PersonRoleForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=ROLE_CHOICES, required=False)


class GoldenPairForm(forms.Form):
    claim = forms.CharField(label="Claim the source must back (or contradict)", widget=forms.Textarea(attrs={"rows": 2, "cols": 60}))
    question = forms.CharField(label="Question a user might ask (optional)", required=False)
    expected_status = forms.ChoiceField(label="Expected verdict", choices=JudgementStatus.choices, initial=JudgementStatus.SUPPORTED)
    expected_passage = forms.IntegerField(label="Expected passage", required=False, min_value=1)
    expected_quote = forms.CharField(label="Words that must appear verbatim in that passage (optional)", required=False)
