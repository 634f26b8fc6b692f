"""The outbox: request work inside a transaction, send it after commit, relay what Redis missed.

A service that needs background work calls `work_request(...)` inside its own
`transaction.atomic()`. The WorkRequest row commits (or rolls back) with the change; only after
commit is it enqueued on RQ. If Redis is away, the row stays `pending` and `outbox_relay()`
(run by the scheduler or `manage.py relay_outbox`) sends it later. The RQ job itself only
carries the row id; `work_run` claims the row with a conditional UPDATE, so a job delivered
twice runs once.
"""

from __future__ import annotations

import contextvars
import importlib
import logging
import traceback
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from redis.exceptions import RedisError

from dispatch import queues
from dispatch.models import UNFINISHED, WorkRequest, WorkStatus

logger = logging.getLogger(__name__)

# Jobs are looked up as `<app>.jobs.<function>`; only these apps may be named.
JOB_APPS = frozenset({"sources", "claims", "reviews", "dispatch", "integrations"})
RUN_FUNC = "dispatch.jobs.run_work_request"
_current_request: contextvars.ContextVar[int | None] = contextvars.ContextVar("work_request", default=None)


class RetryLater(Exception):
    """Raised by a job to be run again later (after `delay` seconds) instead of failing."""

    def __init__(self, delay: float, message: str = "") -> None:
        super().__init__(message or f"retry in {delay:.0f}s")
        self.delay = delay


def resolve_job(name: str) -> Callable[..., Any]:
    app, _, func = name.partition(".")
    if app not in JOB_APPS or not func.isidentifier():
        raise ValueError(f"unknown job {name!r}")
    return getattr(importlib.import_module(f"{app}.jobs"), func)  # type: ignore[no-any-return]


def work_request(
    *,
    job: str,
    kwargs: dict[str, Any],
    queue: str = "default",
    dedupe_key: str = "",
    not_before: datetime | None = None,
) -> WorkRequest:
    """Ask for background work; it is sent to RQ only if the surrounding transaction commits.

    With a `dedupe_key`, an unfinished request with the same key is returned instead of a new
    one, so a due check or a re-judgement is never queued twice.
    """
    resolve_job(job)  # fail now, in the caller's transaction, not in the worker
    if queue not in settings.RQ_QUEUES:
        raise ValueError(f"unknown queue {queue!r}")
    if dedupe_key:
        existing = WorkRequest.objects.filter(dedupe_key=dedupe_key, status__in=UNFINISHED).first()
        if existing is not None:
            return existing
    try:
        with transaction.atomic():
            row = WorkRequest.objects.create(
                job=job, kwargs=kwargs, queue=queue, dedupe_key=dedupe_key, not_before=not_before
            )
    except IntegrityError:
        # Another transaction asked for the same keyed work at the same moment.
        return WorkRequest.objects.get(dedupe_key=dedupe_key, status__in=UNFINISHED)
    if not_before is None or not_before <= timezone.now():
        transaction.on_commit(lambda: work_send(work_request_id=row.pk), robust=True)
    return row


def work_send(*, work_request_id: int) -> bool:
    """Enqueue one pending row on RQ. Returns False (row stays pending) when Redis is away."""
    row = WorkRequest.objects.filter(pk=work_request_id).first()
    if row is None or row.status != WorkStatus.PENDING:
        return False
    WorkRequest.objects.filter(pk=row.pk).update(send_attempts=F("send_attempts") + 1)
    try:
        queues.enqueue(queue=row.queue, job_id=row.rq_job_id, func=RUN_FUNC, args=(row.pk,))
    except RedisError as exc:
        logger.warning("outbox.send_failed", extra={"work_request_id": row.pk, "error": str(exc)})
        return False
    # Conditional: the worker may already have claimed the row.
    WorkRequest.objects.filter(pk=row.pk, status=WorkStatus.PENDING).update(
        status=WorkStatus.QUEUED, enqueued_at=timezone.now()
    )
    return True


def outbox_relay(*, min_age_seconds: float = 2.0, limit: int = 500) -> int:
    """Send pending rows that are due and were not taken by Redis; recover lost or stuck work.

    Returns how many rows were sent.
    """
    now = timezone.now()
    sent = 0
    due = WorkRequest.objects.filter(status=WorkStatus.PENDING).filter(
        Q(not_before__isnull=True, created_at__lte=now - timedelta(seconds=min_age_seconds))
        | Q(not_before__lte=now)
    )
    for pk in due.order_by("id").values_list("pk", flat=True)[:limit]:
        sent += work_send(work_request_id=pk)
    _recover_lost(now=now)
    return sent


def _recover_lost(*, now: datetime) -> None:
    """Queued rows whose RQ job vanished (Redis restarted empty) and running rows past their
    queue's timeout (the worker died) go back to pending, to be sent again."""
    for row in WorkRequest.objects.filter(status=WorkStatus.QUEUED, enqueued_at__lte=now - timedelta(seconds=30))[:200]:
        try:
            lost = not queues.job_exists(queue=row.queue, job_id=row.rq_job_id)
        except RedisError:
            return
        if lost:
            WorkRequest.objects.filter(pk=row.pk, status=WorkStatus.QUEUED).update(status=WorkStatus.PENDING)
    for name, timeout in settings.RQ_QUEUE_TIMEOUTS.items():
        WorkRequest.objects.filter(
            status=WorkStatus.RUNNING, queue=name, started_at__lte=now - timedelta(seconds=timeout + 60)
        ).update(status=WorkStatus.PENDING, message="recovered after the worker stopped")


def work_run(*, work_request_id: int) -> str:
    """Run one request: claim it, call its job, record the outcome. Safe to deliver twice."""
    now = timezone.now()
    claimed = WorkRequest.objects.filter(
        pk=work_request_id, status__in=(WorkStatus.PENDING, WorkStatus.QUEUED)
    ).update(status=WorkStatus.RUNNING, started_at=now, attempts=F("attempts") + 1, error="")
    if not claimed:
        logger.info("work.skip", extra={"work_request_id": work_request_id})
        return "skipped"
    row = WorkRequest.objects.get(pk=work_request_id)
    func = resolve_job(row.job)
    token = _current_request.set(row.pk)
    try:
        func(**row.kwargs)
    except RetryLater as retry:
        WorkRequest.objects.filter(pk=row.pk).update(
            status=WorkStatus.PENDING,
            not_before=timezone.now() + timedelta(seconds=retry.delay),
            message=str(retry),
        )
        logger.info("work.retry_later", extra={"work_request_id": row.pk, "delay": retry.delay})
        return "retry"
    except Exception as exc:
        WorkRequest.objects.filter(pk=row.pk).update(
            status=WorkStatus.FAILED,
            finished_at=timezone.now(),
            error="".join(traceback.format_exception_only(exc)).strip()[:4000],
        )
        logger.exception("work.failed", extra={"work_request_id": row.pk, "job": row.job})
        raise
    finally:
        _current_request.reset(token)
    WorkRequest.objects.filter(pk=row.pk).update(status=WorkStatus.DONE, finished_at=timezone.now(), progress=F("progress_total"))
    return "done"


def current_attempt() -> int:
    """The attempt number (1, 2, ...) of the request being run in this context (1 outside a job)."""
    pk = _current_request.get()
    if pk is None:
        return 1
    return WorkRequest.objects.filter(pk=pk).values_list("attempts", flat=True).first() or 1


def work_progress(*, done: int, total: int, message: str = "") -> None:
    """Record progress on the request being run in this context (no-op outside a job)."""
    pk = _current_request.get()
    if pk is not None:
        WorkRequest.objects.filter(pk=pk).update(progress=done, progress_total=total, message=message[:500])
