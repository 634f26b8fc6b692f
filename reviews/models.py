"""Golden test pairs, approvals, blocks and the audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from claims.models import JudgementStatus


class TestPair(models.Model):
    __test__ = False  # not a pytest class

    source = models.ForeignKey("sources.Source", on_delete=models.CASCADE, related_name="test_pairs")
    question = models.TextField(blank=True)
    claim = models.TextField()
    expected_passage = models.ForeignKey(
        "sources.Passage", null=True, blank=True, on_delete=models.SET_NULL, related_name="test_pairs"
    )
    expected_quote = models.TextField(blank=True, help_text="Optional: text that must appear verbatim in the passage.")
    expected_status = models.CharField(max_length=20, choices=JudgementStatus.choices, default=JudgementStatus.SUPPORTED)
    needs_reverification = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["source_id", "id"]
        verbose_name = "golden test pair"

    def __str__(self) -> str:
        return self.claim[:80]


class TestRunStatus(models.TextChoices):
    __test__ = False

    RUNNING = "running", "running"
    PASSED = "passed", "passed"
    FAILED = "failed", "failed"
    WAIVED = "waived", "failed, waived"


class TestRun(models.Model):
    __test__ = False

    source_version = models.ForeignKey("sources.SourceVersion", on_delete=models.CASCADE, related_name="test_runs")
    status = models.CharField(max_length=20, choices=TestRunStatus.choices, default=TestRunStatus.RUNNING)
    judge = models.CharField(max_length=50, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    passed_count = models.PositiveIntegerField(default=0)
    failed_count = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name = "golden pair run"

    def __str__(self) -> str:
        return f"Golden pairs on {self.source_version}: {self.get_status_display()}"


class TestResult(models.Model):
    __test__ = False

    run = models.ForeignKey(TestRun, on_delete=models.CASCADE, related_name="results")
    pair = models.ForeignKey(TestPair, on_delete=models.CASCADE, related_name="results")
    passed = models.BooleanField()
    passage_found = models.BooleanField(default=False)
    quote_found = models.BooleanField(null=True)
    actual_status = models.CharField(max_length=20, blank=True)
    detail = models.TextField(blank=True)
    waived = models.BooleanField(default=False)
    waived_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    waiver_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["run_id", "id"]
        verbose_name = "golden pair result"

    def __str__(self) -> str:
        outcome = "waived" if self.waived else ("passed" if self.passed else "failed")
        return f"{self.pair}: {outcome}"


class ApprovalDecision(models.TextChoices):
    APPROVE = "approve", "approve"
    REJECT = "reject", "reject"


class Approval(models.Model):
    source_version = models.ForeignKey("sources.SourceVersion", on_delete=models.CASCADE, related_name="approvals")
    approver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decision = models.CharField(max_length=10, choices=ApprovalDecision.choices)
    reason = models.TextField(blank=True)
    emergency_override = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at"]
        constraints = [
            models.UniqueConstraint(fields=["source_version", "approver", "decision"], name="one_decision_per_approver")
        ]

    def __str__(self) -> str:
        override = " (emergency override)" if self.emergency_override else ""
        return f"{self.get_decision_display()} {self.source_version} by {self.approver}{override}"


class BlockTarget(models.TextChoices):
    SOURCE = "source", "source"
    DOMAIN = "domain", "domain"
    PASSAGE = "passage", "passage"


class BlockSwitch(models.Model):
    """One block of a source, a domain or a passage; lifted, never deleted."""

    target = models.CharField(max_length=10, choices=BlockTarget.choices)
    source = models.ForeignKey("sources.Source", null=True, blank=True, on_delete=models.CASCADE, related_name="blocks")
    domain = models.CharField(max_length=253, blank=True)
    passage = models.ForeignKey("sources.Passage", null=True, blank=True, on_delete=models.CASCADE, related_name="blocks")
    reason = models.TextField()
    blocked_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    blocked_at = models.DateTimeField(auto_now_add=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-blocked_at"]
        verbose_name_plural = "block switches"

    @property
    def is_active(self) -> bool:
        return self.lifted_at is None

    def __str__(self) -> str:
        what = self.domain or self.source or self.passage
        lifted = "" if self.lifted_at is None else " (lifted)"
        return f"Block of {self.get_target_display()} {what}{lifted}"


class SiteSwitch(models.Model):
    """Global incident switches (a single row)."""

    pause_activations = models.BooleanField(default=False)
    primary_only = models.BooleanField(default=False, help_text="Limit evidence to primary sources.")
    reason = models.TextField(blank=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "site switch"
        verbose_name_plural = "site switches"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="single_site_switch")]
        # Operations permissions live here with the incident switches; no role group holds them.
        permissions = [("manage_queues", "Can see and change the job queues (django-rq)")]

    def __str__(self) -> str:
        on = [name for name, flag in (("activations paused", self.pause_activations), ("primary sources only", self.primary_only)) if flag]
        return "Incident switches: " + (", ".join(on) if on else "all off")


class SwitchName(models.TextChoices):
    PAUSE_ACTIVATIONS = "pause_activations", "activations paused"
    PRIMARY_ONLY = "primary_only", "primary sources only"


class SwitchPeriod(models.Model):
    """One stretch of time during which an incident switch was on; written by
    `site_switch_set` in the transaction that flips it."""

    switch = models.CharField(max_length=30, choices=SwitchName.choices)
    on_from = models.DateTimeField()
    on_until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    off_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["on_from"]
        indexes = [models.Index(fields=["switch", "on_from"], name="switchperiod_switch_from")]
        constraints = [
            models.UniqueConstraint(fields=["switch"], condition=Q(on_until__isnull=True), name="one_open_period_per_switch"),
        ]

    def __str__(self) -> str:
        return f"{self.get_switch_display()} {self.on_from:%Y-%m-%d %H:%M}–{self.on_until or 'now'}"


class AuditLog(models.Model):
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150, blank=True, help_text="Kept if the user is deleted; 'system' for jobs.")
    action = models.CharField(max_length=60, db_index=True)
    object_type = models.CharField(max_length=60)
    object_id = models.CharField(max_length=64)
    object_repr = models.CharField(max_length=300, blank=True)
    from_state = models.CharField(max_length=40, blank=True)
    to_state = models.CharField(max_length=40, blank=True)
    reason = models.TextField(blank=True)
    allowed = models.BooleanField(default=True, help_text="False for refused attempts.")
    data = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log"
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            models.Index(fields=["actor", "-at"], name="auditlog_actor_at_idx"),
            models.Index(fields=["-at"], condition=Q(allowed=False), name="auditlog_refused_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name} {self.action} {self.object_type}:{self.object_id}"


class ReviewAssignment(models.Model):
    """Who looks after one review-queue item, and by when. An item is named by its key
    (`<category>:<object type>:<id>`, e.g. `approval:sources.sourceversion:12`)."""

    item_key = models.CharField(max_length=120, unique=True)
    assignee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_assignments")
    due_date = models.DateField(null=True, blank=True)
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    assigned_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["assignee", "due_date"])]

    def __str__(self) -> str:
        return f"{self.item_key} → {self.assignee}"


class ReviewComment(models.Model):
    """One comment in the thread of a review-queue item (kept; audited)."""

    item_key = models.CharField(max_length=120, db_index=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField()
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["item_key", "at", "id"]

    def __str__(self) -> str:
        return f"{self.item_key}: {self.text[:60]}"
