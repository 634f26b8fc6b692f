"""The outbox: every piece of background work is a row first, then an RQ job."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class WorkStatus(models.TextChoices):
    PENDING = "pending", "waiting to be queued"
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    DONE = "done", "done"
    FAILED = "failed", "failed"


UNFINISHED = (WorkStatus.PENDING, WorkStatus.QUEUED, WorkStatus.RUNNING)


class WorkRequest(models.Model):
    """Requested background work, written in the same transaction as the change that asks for it.

    The row is enqueued on RQ right after commit (job id `work-<pk>`, so it is never queued twice)
    and re-sent by the relay if Redis did not take it. It also carries the work's visible state.
    """

    job = models.CharField(max_length=100, help_text="Registered job name, e.g. sources.fetch_source.")
    kwargs = models.JSONField(default=dict)
    queue = models.CharField(max_length=20, default="default")
    dedupe_key = models.CharField(max_length=200, blank=True, db_index=True)
    status = models.CharField(max_length=10, choices=WorkStatus.choices, default=WorkStatus.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    send_attempts = models.PositiveIntegerField(default=0)
    deaths = models.PositiveIntegerField(default=0, help_text="Runs whose worker died (killed, out of memory).")
    progress = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    message = models.TextField(blank=True)
    error = models.TextField(blank=True)
    not_before = models.DateTimeField(null=True, blank=True, help_text="Retry / backoff: do not run before this.")
    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    last_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When the last send to Redis was attempted (the relay waits from here)."
    )
    send_error = models.CharField(max_length=500, blank=True, help_text="Why the last send to Redis failed.")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    carried_by = models.BigIntegerField(
        null=True, blank=True,
        help_text="Id of the request whose run took this one along (batched work, e.g. extraction): it runs in that run's worker.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["dedupe_key"],
                condition=Q(status__in=["pending", "queued", "running"]) & ~Q(dedupe_key=""),
                name="one_unfinished_request_per_key",
            )
        ]

    def __str__(self) -> str:
        return f"{self.job}({self.kwargs}) {self.status}"

