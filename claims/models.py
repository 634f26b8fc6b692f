"""Answers sent back by the bot, their claims, citations and the judges' verdicts."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AnswerState(models.TextChoices):
    PENDING = "pending", "not verified yet"
    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    OUTDATED = "outdated", "outdated"
    CONFLICTING = "conflicting", "conflicting"
    NO_EVIDENCE = "no_evidence", "no evidence"


class JudgementStatus(models.TextChoices):
    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    CONTRADICTED = "contradicted", "contradicted"
    UNSUPPORTED = "unsupported", "unsupported"
    UNAVAILABLE = "unavailable", "unavailable"


class ClaimState(models.TextChoices):
    PENDING = "pending", "not verified yet"
    VERIFIED = "verified", "verified (two independent sources)"
    SINGLE_SOURCE = "single_source", "single source"
    UNVERIFIED = "unverified", "unverified"
    CONTRADICTED = "contradicted", "contradicted"
    CONFLICTING = "conflicting", "conflicting"


class Confidence(models.TextChoices):
    HIGH = "high", "high"
    MEDIUM = "medium", "medium"
    LOW = "low", "low"


class Answer(models.Model):
    question = models.TextField(blank=True)
    raw_response = models.TextField(help_text="The model response exactly as received.")
    answer_text = models.TextField(blank=True)
    answer_format = models.CharField(max_length=30, blank=True)
    model_name = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=16, default="en")
    sources_sent = models.JSONField(default=list, blank=True, help_text="Passage-version ids or source texts, as sent.")
    received_at = models.DateTimeField(auto_now_add=True, db_index=True)
    state = models.CharField(max_length=20, choices=AnswerState.choices, default=AnswerState.PENDING, db_index=True)
    state_wording = models.TextField(blank=True, help_text="What the bot should say for this state.")
    report = models.JSONField(default=dict, blank=True, help_text="The latest verification report card.")
    needs_reverification = models.BooleanField(default=False, db_index=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-received_at"]
        # Covers the overview's verification rate per day (an index-only scan of the window).
        indexes = [models.Index(fields=["verified_at", "state"], name="answer_verified_state_idx")]

    def __str__(self) -> str:
        return (self.question or self.answer_text)[:80] or f"answer {self.pk}"


class Claim(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="claims")
    text = models.TextField()
    text_hash = models.CharField(max_length=64, db_index=True)
    position = models.PositiveIntegerField()
    needs_citation = models.BooleanField(default=True)
    state = models.CharField(max_length=20, choices=ClaimState.choices, default=ClaimState.PENDING)
    confidence = models.CharField(max_length=10, choices=Confidence.choices, blank=True)
    needs_reverification = models.BooleanField(default=False)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [models.UniqueConstraint(fields=["answer", "position"], name="claim_position_unique")]

    def __str__(self) -> str:
        return self.text[:80]


class Citation(models.Model):
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="citations")
    passage_version = models.ForeignKey(
        "sources.PassageVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="citations"
    )
    source_number = models.PositiveIntegerField(null=True, blank=True)
    quote = models.TextField(blank=True)
    quote_result = models.CharField(max_length=20, blank=True)
    needs_reverification = models.BooleanField(default=False)

    class Meta:
        ordering = ["claim_id", "id"]

    def __str__(self) -> str:
        number = f"[{self.source_number}]" if self.source_number is not None else "[?]"
        return f"Citation {number} of “{self.claim.text[:60]}”"


class Judgement(models.Model):
    """A judge's verdict on a claim text against a passage text.

    Keyed by what was asked, not by which answer asked it: the same claim against the same
    passage text is never judged twice by the same judge, model and prompt version.
    """

    claim_text_hash = models.CharField(max_length=64)
    claim_text = models.TextField()
    passage_version = models.ForeignKey("sources.PassageVersion", on_delete=models.CASCADE, related_name="judgements")
    passage_fingerprint = models.CharField(max_length=64)
    judge = models.CharField(max_length=50)
    model = models.CharField(max_length=200, blank=True)
    prompt_version = models.CharField(max_length=50, blank=True)
    status = models.CharField(max_length=20, choices=JudgementStatus.choices)
    span = models.TextField(null=True, blank=True)
    rationale = models.TextField(blank=True)
    heuristic = models.BooleanField(default=False)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    needs_reverification = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status"], name="judgement_status_idx")]
        constraints = [
            models.UniqueConstraint(
                fields=["claim_text_hash", "passage_fingerprint", "judge", "model", "prompt_version"],
                name="judgement_asked_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.status}: {self.claim_text[:60]}"
