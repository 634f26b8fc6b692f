"""Answers sent back by the bot, their claims, citations and the judges' verdicts."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models.functions import Coalesce


class VerificationMode(models.TextChoices):
    """How a claim counts as backed (README "Verification modes").

    ``knowledge_base``: one active, approved passage of a primary source is the authority
    (a site's chatbot, seed 004). ``research``: two independent registrable domains (seed 000).
    """

    KNOWLEDGE_BASE = "knowledge_base", "knowledge base (one approved primary source)"
    RESEARCH = "research", "research (two independent sources)"


class AnswerState(models.TextChoices):
    PENDING = "pending", "verification pending"
    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    OUTDATED = "outdated", "outdated"
    CONFLICTING = "conflicting", "conflicting"
    NO_EVIDENCE = "no_evidence", "no evidence"
    CONTRADICTED = "contradicted", "contradicted by an approved source"


class JudgementStatus(models.TextChoices):
    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    CONTRADICTED = "contradicted", "contradicted"
    UNSUPPORTED = "unsupported", "unsupported"
    UNAVAILABLE = "unavailable", "unavailable"


class ClaimState(models.TextChoices):
    PENDING = "pending", "not verified yet"
    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    CONTRADICTED = "contradicted", "contradicted by an approved source"
    CONFLICTING = "conflicting", "sources disagree"
    SINGLE_SOURCE = "single_source", "one source only (research needs two independent sources)"
    NO_EVIDENCE = "no_evidence", "no evidence"
    UNAVAILABLE = "unavailable", "evidence unavailable (verification pending)"
    OUTDATED = "outdated", "outdated"


class Confidence(models.TextChoices):
    HIGH = "high", "high"
    MEDIUM = "medium", "medium"
    LOW = "low", "low"


# What may put an answer in the review queue (`reviews.selectors.queue.answers_needing_a_person`
# is the rule; this is the partial index's condition under it, so the queue reads only these).
ANSWER_TROUBLED_STATES = (AnswerState.CONTRADICTED, AnswerState.CONFLICTING, AnswerState.OUTDATED)
ANSWER_MAY_NEED_A_PERSON = models.Q(state__in=(*ANSWER_TROUBLED_STATES, AnswerState.PENDING)) | models.Q(needs_reverification=True)
# Pending or waiting for re-verification: needs a person once it has waited past the grace period.
ANSWER_WAITING = models.Q(state=AnswerState.PENDING) | models.Q(needs_reverification=True)


class Answer(models.Model):
    question = models.TextField(blank=True)
    raw_response = models.TextField(help_text="The model response exactly as received.")
    answer_text = models.TextField(blank=True)
    answer_format = models.CharField(max_length=30, blank=True)
    model_name = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=16, default="en")
    verification_mode = models.CharField(
        max_length=20, choices=VerificationMode.choices, default=VerificationMode.KNOWLEDGE_BASE,
        help_text="The rule a claim must meet to count as backed (CITECHECK_VERIFICATION_MODE unless given).",
    )
    sources_sent = models.JSONField(default=list, blank=True, help_text="Passage-version ids or source texts, as sent.")
    received_at = models.DateTimeField(auto_now_add=True, db_index=True)
    state = models.CharField(max_length=20, choices=AnswerState.choices, default=AnswerState.PENDING, db_index=True)
    state_wording = models.TextField(blank=True, help_text="What the bot should say for this state.")
    report = models.JSONField(default=dict, blank=True, help_text="The latest verification report card.")
    needs_reverification = models.BooleanField(default=False, db_index=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    fresh_until = models.DateTimeField(
        null=True, blank=True,
        help_text="When the first evidence deciding this answer passes its freshness window (the sweeper re-verifies it then).")
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-received_at"]
        # Covers the overview's verification rate per day (an index-only scan of the window).
        indexes = [
            models.Index(fields=["verified_at", "state"], name="answer_verified_state_idx"),
            # Covers the queue's rule (an index-only count on PostgreSQL): only answers that may need a person.
            models.Index(fields=["-received_at"], include=["state", "needs_reverification", "verified_at"],
                         condition=ANSWER_MAY_NEED_A_PERSON, name="answer_needs_person_idx"),
            # The freshness sweeper reads only the answers with a deadline, soonest first.
            models.Index(fields=["fresh_until"], condition=models.Q(fresh_until__isnull=False), name="answer_fresh_until_idx"),
            # The answers still within their grace period (waiting, not yet overdue) are read by how
            # long they have waited: a range of the last few minutes, whatever the number of answers.
            models.Index(Coalesce("verified_at", "received_at"), condition=ANSWER_WAITING, name="answer_waiting_since_idx"),
        ]

    def __str__(self) -> str:
        return (self.question or self.answer_text)[:80] or f"answer {self.pk}"


class Claim(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="claims")
    text = models.TextField()
    text_hash = models.CharField(max_length=64, db_index=True)
    position = models.PositiveIntegerField()
    sentence = models.TextField(blank=True, help_text="The answer's sentence this claim was split from, when it was compound.")
    needs_citation = models.BooleanField(default=True)
    state = models.CharField(max_length=20, choices=ClaimState.choices, default=ClaimState.PENDING, db_index=True)
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
    passage text is never judged twice by the same judge, model and prompt version. A judge
    that failed (endpoint down, timeout, unparseable reply) writes a JudgeAttempt, never a row here.
    """

    claim_text_hash = models.CharField(max_length=64)
    claim_text = models.TextField()
    passage_version = models.ForeignKey("sources.PassageVersion", on_delete=models.CASCADE, related_name="judgements")
    passage_fingerprint = models.CharField(max_length=64)
    judge = models.CharField(max_length=50)
    model = models.CharField(max_length=200, blank=True)
    prompt_version = models.CharField(max_length=50, blank=True)
    status = models.CharField(max_length=20, choices=JudgementStatus.choices)
    confidence = models.CharField(max_length=10, choices=Confidence.choices, default=Confidence.HIGH)
    span = models.TextField(null=True, blank=True)
    rationale = models.TextField(blank=True)
    heuristic = models.BooleanField(default=False)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    needs_reverification = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status"], name="judgement_status_idx"),
            models.Index(fields=["confidence", "-created_at"], name="judgement_confidence_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["claim_text_hash", "passage_fingerprint", "judge", "model", "prompt_version"],
                name="judgement_asked_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.status}: {self.claim_text[:60]}"


class JudgeAttempt(models.Model):
    """A judge call that failed: what was asked, of which endpoint, and why it failed.

    Never a verdict: the claim stays pending and the verification is retried with backoff.
    """

    claim_text_hash = models.CharField(max_length=64, db_index=True)
    passage_version = models.ForeignKey("sources.PassageVersion", on_delete=models.CASCADE, related_name="+")
    judge = models.CharField(max_length=50)
    model = models.CharField(max_length=200, blank=True)
    endpoint = models.CharField(max_length=500, blank=True)
    error = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.judge} failed: {self.error[:60]}"


class CircuitState(models.TextChoices):
    CLOSED = "closed", "closed (calls go through)"
    OPEN = "open", "open (calls paused after repeated failures)"
    HALF_OPEN = "half_open", "half open (one trial call)"


class JudgeEndpoint(models.Model):
    """The circuit breaker of one judge endpoint, shared by every worker (state in the database)."""

    endpoint = models.CharField(max_length=500, unique=True)
    state = models.CharField(max_length=10, choices=CircuitState.choices, default=CircuitState.CLOSED)
    consecutive_failures = models.PositiveIntegerField(default=0)
    opened_count = models.PositiveIntegerField(default=0, help_text="Times opened in a row; the pause doubles each time.")
    retry_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["endpoint"]

    def __str__(self) -> str:
        return f"{self.endpoint}: {self.state}"


class VerificationChange(models.Model):
    """Why and when an answer was verified again, and what its state became (shown on the answer)."""

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="changes")
    reason = models.TextField()
    passages = models.JSONField(default=list, blank=True, help_text="Passage ids whose evidence moved.")
    from_state = models.CharField(max_length=20, blank=True)
    to_state = models.CharField(max_length=20, blank=True)
    requested_at = models.DateTimeField(auto_now_add=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"{self.reason[:60]} ({self.from_state} → {self.to_state or '…'})"


class WordingKey(models.TextChoices):
    """What a wording template is for: an answer or claim state, or a supporting phrase."""

    SUPPORTED = "supported", "supported"
    PARTLY_SUPPORTED = "partly_supported", "partly supported"
    CONTRADICTED = "contradicted", "contradicted by an approved source"
    CONFLICTING = "conflicting", "approved sources disagree"
    OUTDATED = "outdated", "outdated"
    NO_EVIDENCE = "no_evidence", "no evidence"
    PENDING = "pending", "verification pending"
    EXPLANATION_ONLY = "explanation_only", "supplementary source only (explanation only)"
    SINGLE_SOURCE = "single_source", "one source only (research)"


class WordingTemplate(models.Model):
    """What the bot should say, per state and language, written by editors (never by a model).

    Plain text with ``{placeholders}`` only (no attribute or index lookups); rendered with a
    fixed set of values, never through Django's template engine.
    """

    key = models.CharField(max_length=30, choices=WordingKey.choices)
    language = models.CharField(max_length=16, default="en")
    mode = models.CharField(
        max_length=20, choices=VerificationMode.choices, blank=True,
        help_text="Empty: used in every verification mode unless a mode-specific template exists.",
    )
    text = models.TextField()
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["language", "key", "mode"]
        constraints = [models.UniqueConstraint(fields=["key", "language", "mode"], name="one_wording_per_key_language_mode")]

    def __str__(self) -> str:
        return f"{self.key} [{self.language}{'/' + self.mode if self.mode else ''}]"


class VerificationDay(models.Model):
    """Kept: per day of `Answer.verified_at` (the desk's time zone), how many answers were last
    verified that day and how many of them came out supported or partly supported. Moved in the
    transaction that verifies an answer (out of its previous day, into today), so the overview
    reads 14 rows; `manage.py rebuild_kept_state` recounts them from the answers."""

    day = models.DateField(unique=True)
    answers = models.IntegerField(default=0)
    verified = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.day}: {self.verified} of {self.answers}"


class AnswerFlaggedHour(models.Model):
    """Kept: per hour of `Answer.received_at` (hours since the epoch, UTC), how many answers may
    need a person (`ANSWER_MAY_NEED_A_PERSON`: troubled, pending or waiting for re-verification).
    The queue's rule adds the time ("pending too long"), so the queue counts these rows and reads
    only the edges by index: the answers of one hour at each age boundary and those still within
    their grace period (`reviews.selectors.queue.answers_needing_a_person_counts`). Moved by
    database triggers on `claims_answer` (migration 0008), in the statement that changes an
    answer, bulk updates included; `manage.py rebuild_kept_state` recounts them.

    An hour's count is spread over up to `SLOTS` rows (on PostgreSQL the slot is the writing
    session's process id modulo `SLOTS`; SQLite has one writer and uses slot 0): every new answer
    is pending, so without slots concurrent `POST /answers` would all wait for one row's lock
    until their commits. Readers sum an hour's slots."""

    SLOTS = 8

    hour = models.BigIntegerField()
    slot = models.SmallIntegerField(default=0)
    answers = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hour", "slot"], name="answerflaggedhour_hour_slot_unique")]

    @staticmethod
    def hour_of(at: datetime) -> int:
        """The key of a moment: whole hours since the epoch (UTC), as the triggers compute it."""
        return int(at.timestamp()) // 3600

    def __str__(self) -> str:
        return f"hour {self.hour} (slot {self.slot}): {self.answers}"
