"""The outbox: request work inside a transaction, send it after commit, relay what Redis missed.

A service that needs background work calls `work_request(...)` inside its own
`transaction.atomic()`. The WorkRequest row commits (or rolls back) with the change; only after
commit is it enqueued on RQ. If Redis is away, the row stays `pending` and `outbox_relay()`
(run by the scheduler or `manage.py relay_outbox`) sends it later. The RQ job itself only
carries the row id; `work_run` claims the row with a conditional UPDATE, so a job delivered
twice runs once.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib
import logging
import operator
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone
from redis.exceptions import RedisError

from dispatch import queues
from dispatch.models import UNFINISHED, WorkRequest, WorkStatus

logger = logging.getLogger(__name__)

# Jobs are looked up as `<app>.jobs.<function>`; only these apps may be named.
JOB_APPS = frozenset({"sources", "claims", "reviews", "dispatch", "integrations"})
RUN_FUNC = "dispatch.jobs.run_work_request"
# (id, attempt, deaths) of the request this context runs.
_current_request: contextvars.ContextVar[tuple[int, int, int] | None] = contextvars.ContextVar("work_request", default=None)


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
    key_free: bool = False,
) -> WorkRequest:
    """Ask for background work; it is sent to RQ only if the surrounding transaction commits.

    With a `dedupe_key`, an unfinished request with the same key is returned instead of a new
    one, so a due check or a re-judgement is never queued twice. `key_free`: the caller knows
    no request can hold the key yet (it names an object created in this transaction), so the
    row is inserted without the savepoint that catches a duplicate.

    The returned row is updated in memory when the post-commit send takes it (status queued).
    """
    resolve_job(job)  # fail now, in the caller's transaction, not in the worker
    if queue not in settings.RQ_QUEUES:
        raise ValueError(f"unknown queue {queue!r}")
    if key_free:
        row = WorkRequest.objects.create(job=job, kwargs=kwargs, queue=queue, dedupe_key=dedupe_key, not_before=not_before)
        if not_before is None or not_before <= timezone.now():
            transaction.on_commit(lambda: _send_after_commit(row), robust=True)
        return row
    for _ in range(3):
        try:
            # Inserted first (one query when the key is free, the usual case); the partial unique
            # index on unfinished keys turns a duplicate into an IntegrityError.
            with transaction.atomic():
                row = WorkRequest.objects.create(
                    job=job, kwargs=kwargs, queue=queue, dedupe_key=dedupe_key, not_before=not_before
                )
            break
        except IntegrityError:
            if not dedupe_key:
                raise
            existing = WorkRequest.objects.filter(dedupe_key=dedupe_key, status__in=UNFINISHED).first()
            if existing is not None:
                return existing
            # The unfinished one finished in between: the key is free again.
    else:
        raise RuntimeError(f"could not request work for key {dedupe_key!r}: it kept finishing and reappearing")
    if not_before is None or not_before <= timezone.now():
        transaction.on_commit(lambda: _send_after_commit(row), robust=True)
    return row


def work_request_many(*, job: str, queue: str, items: list[tuple[dict[str, Any], str]]) -> list[WorkRequest]:
    """Ask for many keyed pieces of work at once (`items` = [(kwargs, dedupe_key)]); returns the
    rows created. Keys that already have unfinished work are skipped, as `work_request` does."""
    resolve_job(job)
    if queue not in settings.RQ_QUEUES:
        raise ValueError(f"unknown queue {queue!r}")
    busy = set(
        WorkRequest.objects.filter(dedupe_key__in=[key for _, key in items], status__in=UNFINISHED).values_list("dedupe_key", flat=True)
    )
    fresh = [WorkRequest(job=job, kwargs=kwargs, queue=queue, dedupe_key=key) for kwargs, key in items if key not in busy]
    try:
        with transaction.atomic():
            created = WorkRequest.objects.bulk_create(fresh)
    except IntegrityError:
        # Someone asked for one of them at the same moment: one by one, skipping theirs.
        created = []
        for row in fresh:
            before = WorkRequest.objects.filter(dedupe_key=row.dedupe_key, status__in=UNFINISHED).exists()
            if not before:
                created.append(work_request(job=job, kwargs=row.kwargs, queue=queue, dedupe_key=row.dedupe_key))
        return created
    ids = [row.pk for row in created]
    transaction.on_commit(lambda: _send_all(ids, queue=queue), robust=True)
    return created


def _send_all(ids: list[int], *, queue: str | None = None) -> None:
    for start in range(0, len(ids), 500):
        if not work_send_many(work_request_ids=ids[start:start + 500], queue=queue):
            return  # Redis is away or slow: do not wait on it once per chunk; the relay sends the rest


def work_send(*, work_request_id: int, resend_after: float | None = None, queue: str | None = None) -> bool:
    """Enqueue one pending row on RQ (see `work_send_many`). Returns False (the row stays
    pending) when Redis is away, or when the row was not this call's to send."""
    return work_send_many(work_request_ids=[work_request_id], resend_after=resend_after, queue=queue) == 1


def work_send_many(*, work_request_ids: list[int], resend_after: float | None = None, queue: str | None = None) -> int:
    """Enqueue pending rows on RQ: one claiming UPDATE, one Redis round trip per queue. Returns
    how many were sent; when Redis is away the rows go back to pending, with the reason, for
    the relay.

    The send is claimed with a conditional UPDATE that marks the rows queued: the post-commit
    send (`resend_after=None`) only takes rows that were never sent, the relay only rows whose
    last send attempt is older than `resend_after` seconds, and a row no longer pending is
    nobody else's to send, so no row is sent twice. Should this process die between the claim
    and Redis taking the jobs, `work_recover` finds the queued rows Redis does not know and
    puts them back to pending. `queue` is the rows' queue when the caller knows it (it just
    made them): it is not read back.
    """
    return len(_send(work_request_ids=work_request_ids, resend_after=resend_after, queue=queue)[0])


def _send(*, work_request_ids: list[int], resend_after: float | None = None, queue: str | None = None) -> tuple[list[int], datetime, str]:
    """`work_send_many`: the ids sent, the time they were marked queued and sent, and why the
    rest went back to pending ("" when Redis took them all)."""
    now = timezone.now()
    if not work_request_ids:
        return [], now, ""
    claim = Q(last_sent_at__isnull=True)
    if resend_after is not None:
        claim |= Q(last_sent_at__lte=now - timedelta(seconds=resend_after))
    count = WorkRequest.objects.filter(claim, pk__in=work_request_ids, status=WorkStatus.PENDING).update(
        status=WorkStatus.QUEUED, enqueued_at=now, last_sent_at=now, send_attempts=F("send_attempts") + 1, send_error=""
    )
    if not count:
        return [], now, ""
    # In the order asked (the model's default order is newest first): the queue runs them so.
    if queue is not None and count == len(work_request_ids):
        claimed = [(pk, queue) for pk in sorted(work_request_ids)]
    else:  # the rows this call claimed: other senders claim with their own time stamps
        claimed = list(
            WorkRequest.objects.filter(pk__in=work_request_ids, status=WorkStatus.QUEUED, last_sent_at=now)
            .order_by("pk").values_list("pk", "queue")
        )
    by_queue: dict[str, list[int]] = {}
    for pk, queue_name in claimed:
        by_queue.setdefault(queue_name, []).append(pk)
    sent: list[int] = []
    reason = ""
    try:
        for queue_name, pks in by_queue.items():
            queues.enqueue_many(queue=queue_name, jobs=[(f"work-{pk}", RUN_FUNC, (pk,)) for pk in pks])
            sent.extend(pks)
    except RedisError as exc:
        reason = f"{type(exc).__name__}: {exc}"[:500]
        unsent = [pk for pk, _ in claimed if pk not in set(sent)]
        # Back to the outbox; conditional on this claim (nothing can have run them: Redis never had them).
        WorkRequest.objects.filter(pk__in=unsent, status=WorkStatus.QUEUED, enqueued_at=now).update(
            status=WorkStatus.PENDING, enqueued_at=None, send_error=reason
        )
        logger.warning("outbox.send_failed", extra={"work_request_ids": unsent[:20], "count": len(unsent), "error": reason})
    return sent, now, reason


_gathered_sends: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("gathered_sends", default=None)


@contextlib.contextmanager
def work_sends_gathered() -> Iterator[Callable[[], int]]:
    """Within this block, the post-commit sends of new work requests are gathered instead of made
    one by one; the block's `flush()` (and its end) sends them together with `work_send_many`.
    For a job that asks for work many times in a row (the extract job, once per page)."""
    gathered: list[int] = []
    token = _gathered_sends.set(gathered)

    def flush() -> int:
        ids, gathered[:] = list(gathered), []
        return work_send_many(work_request_ids=ids)

    try:
        yield flush
    finally:
        _gathered_sends.reset(token)
        with contextlib.suppress(*DATABASE_ERRORS):
            flush()  # what is left; if the database is away, the relay sends them later


def _send_after_commit(row: WorkRequest) -> None:
    gathered = _gathered_sends.get()
    if gathered is not None:
        gathered.append(row.pk)
        return
    sent, at, reason = _send(work_request_ids=[row.pk], queue=row.queue)
    # What the row now says, without reading it back: queued, or back in the outbox with the reason.
    if sent:
        row.status, row.enqueued_at, row.last_sent_at, row.send_error = WorkStatus.QUEUED, at, at, ""
        row.send_attempts += 1
    elif reason:
        row.last_sent_at, row.send_error = at, reason
        row.send_attempts += 1


def outbox_relay(*, min_age_seconds: float = 2.0, limit: int = 500, recover: bool = True) -> int:
    """Send pending rows that are due and were not taken by Redis; recover lost or stuck work.

    A row is due when it was never sent and is older than `min_age_seconds` (the post-commit send
    has had its chance), when its retry time has come, or when its last send attempt is older
    than `min_age_seconds`. Returns how many rows were sent.
    """
    now = timezone.now()
    overdue = now - timedelta(seconds=min_age_seconds)
    due = WorkRequest.objects.filter(status=WorkStatus.PENDING).filter(
        Q(not_before__isnull=True) | Q(not_before__lte=now)
    ).filter(
        Q(last_sent_at__isnull=True, created_at__lte=overdue)
        | Q(last_sent_at__isnull=True, not_before__isnull=False)
        | Q(last_sent_at__lte=overdue)
    )
    sent = work_send_many(work_request_ids=list(due.order_by("id").values_list("pk", flat=True)[:limit]), resend_after=min_age_seconds)
    if recover:
        work_recover(now=now)
    return sent


def _back_to_pending(row_id: int, *, status: str, message: str, died: bool) -> int:
    return WorkRequest.objects.filter(pk=row_id, status=status).update(
        status=WorkStatus.PENDING, last_sent_at=None, not_before=None, message=message[:500], carried_by=None,
        deaths=F("deaths") + (1 if died else 0),
    )


def work_recover(*, now: datetime | None = None, limit: int = 500) -> int:
    """Send back to pending the work RQ lost or whose worker died, and return how many.

    - a queued row whose RQ job vanished (Redis restarted empty) or ended without running it;
    - a running row whose RQ job RQ marked failed or stopped: its worker died (heartbeat expiry,
      AbandonedJobError, noticed here rather than at RQ's 10-minute maintenance), or the job
      could not even record its outcome because the database was away;
    - a running row past its queue's timeout + 60 s whose job Redis no longer knows.
    The RQ job is deleted first (with its failed-registry entry), so the id can be sent again.
    Work that died `CITECHECK_WORK_MAX_DEATHS` times is failed with that reason instead.
    """
    now = now or timezone.now()
    try:
        queues.notice_abandoned()
        rows = list(
            WorkRequest.objects.filter(
                Q(status=WorkStatus.QUEUED, enqueued_at__lte=now - timedelta(seconds=settings.CITECHECK_LOST_AFTER_SECONDS)) | Q(status=WorkStatus.RUNNING)
            ).order_by("id").values_list("pk", "status", "queue", "started_at", "deaths", "carried_by")[:limit]
        )
        carriers = {carrier for *_, carrier in rows if carrier is not None}
        carrier_status = dict(WorkRequest.objects.filter(pk__in=carriers).values_list("pk", "status")) if carriers else {}
        states = queues.job_states([f"work-{pk}" for pk, *_ in rows] + [f"work-{pk}" for pk in carriers])
    except RedisError as exc:
        logger.warning("work.recover_redis_unavailable", extra={"error": str(exc)})
        return 0
    recovered = 0
    outages: set[str] | None = None
    for pk, status, queue_name, started_at, deaths, carrier in rows:
        state = states.get(f"work-{pk}")
        if status == WorkStatus.QUEUED:
            lost = state is None or state in queues.ENDED_BADLY
            why = "recovered: the job queue lost it" if state is None else f"recovered: its job {state} before it ran"
        else:
            timeout = settings.RQ_QUEUE_TIMEOUTS.get(queue_name, 600)
            overdue = started_at is not None and started_at <= now - timedelta(seconds=timeout + 60)
            lost = state in queues.ENDED_BADLY or (state is None and overdue)
            why = "recovered after the worker stopped"
            if carrier is not None and not lost:
                # Taken along by another run: lost with that run's worker, or when that run
                # ended (or went back to the outbox) without ending this one.
                lost = states.get(f"work-{carrier}") in queues.ENDED_BADLY or carrier_status.get(carrier) != WorkStatus.RUNNING
                why = f"recovered after the worker running it (with request {carrier}) stopped"
        if not lost:
            continue
        died = status == WorkStatus.RUNNING
        if died:
            # A run that ended because the database stayed away did not die: it waited, gave up
            # cleanly and said so on its RQ job. Only a process that died counts.
            if outages is None:
                try:
                    outages = queues.jobs_ended_by_outage(
                        [f"work-{row[0]}" for row in rows if row[1] == WorkStatus.RUNNING] + [f"work-{c}" for c in carriers])
                except RedisError:
                    outages = set()
            if f"work-{pk}" in outages or (carrier is not None and f"work-{carrier}" in outages):
                died, why = False, "recovered after a database outage (the run waited and gave up; not a death)"
        if state is not None:
            try:
                queues.job_discard(job_id=f"work-{pk}")
            except RedisError:
                return recovered
        if died and deaths + 1 >= settings.CITECHECK_WORK_MAX_DEATHS:
            done = WorkRequest.objects.filter(pk=pk, status=status).update(
                status=WorkStatus.FAILED, finished_at=now, deaths=F("deaths") + 1,
                error=f"the worker died {deaths + 1} times running this (out of memory or killed); not retried",
            )
            if done:
                _on_gave_up(pk)
            continue
        recovered += _back_to_pending(pk, status=status, message=why, died=died)
    if recovered:
        logger.info("work.recovered", extra={"count": recovered})
    return recovered


def _on_gave_up(pk: int) -> None:
    """Tell the job's owner that its work was given up (a recorded error on the object)."""
    row = WorkRequest.objects.get(pk=pk)
    hook = getattr(importlib.import_module(f"{row.job.partition('.')[0]}.jobs"), "on_gave_up", None)
    if hook is not None:
        hook(job=row.job, kwargs=row.kwargs, error=row.error)


DATABASE_ERRORS = (OperationalError, InterfaceError)


def _database_lost(work_request_id: int, exc: BaseException) -> bool:
    """The job lost its database connection: put the row back to pending with a short backoff.

    Reconnects a bounded number of times; returns False if the database stayed away (the RQ job
    then fails and `work_recover` sends the row again once the database is back)."""
    reason = f"database connection lost ({type(exc).__name__}: {str(exc).strip()[:200]}); retrying"
    for _ in range(settings.CITECHECK_DB_RECONNECT_TRIES):
        connection.close()
        try:
            row = WorkRequest.objects.filter(pk=work_request_id).values_list("attempts", flat=True).first() or 1
            delay = min(300.0, 5.0 * 2 ** max(0, row - 1))
            WorkRequest.objects.filter(pk=work_request_id, status__in=UNFINISHED).update(
                status=WorkStatus.PENDING, last_sent_at=None,
                not_before=timezone.now() + timedelta(seconds=delay), message=reason[:500],
            )
            logger.warning("work.database_lost", extra={"work_request_id": work_request_id, "delay": delay})
            return True
        except DATABASE_ERRORS:
            time.sleep(1.0)
    connection.close()
    try:
        queues.job_mark_outage(reason=reason)
    except RedisError:
        logger.warning("work.outage_unmarked", extra={"work_request_id": work_request_id, "error": reason})
    logger.warning("work.database_away", extra={"work_request_id": work_request_id, "error": reason})
    return False


def work_run(*, work_request_id: int) -> str:
    """Run one request: claim it, call its job, record the outcome. Safe to deliver twice.

    A lost database connection (OperationalError, InterfaceError) is never a failure of the
    work: the row goes back to pending and runs again when the database answers."""
    try:
        return _work_run(work_request_id)
    except DATABASE_ERRORS as exc:
        if _database_lost(work_request_id, exc):
            return "retry"
        raise


def _work_run(work_request_id: int) -> str:
    now = timezone.now()
    claimed = WorkRequest.objects.filter(
        pk=work_request_id, status__in=(WorkStatus.PENDING, WorkStatus.QUEUED)
    ).update(status=WorkStatus.RUNNING, started_at=now, attempts=F("attempts") + 1, error="", carried_by=None)
    if not claimed:
        logger.info("work.skip", extra={"work_request_id": work_request_id})
        return "skipped"
    row = WorkRequest.objects.get(pk=work_request_id)
    # Outcomes are written only while the row is still this run's: a run presumed dead and
    # recovered must not overwrite the outcome of the run that replaced it.
    mine = WorkRequest.objects.filter(pk=row.pk, status=WorkStatus.RUNNING, attempts=row.attempts)
    token = _current_request.set((row.pk, row.attempts, row.deaths))
    try:
        resolve_job(row.job)(**row.kwargs)
    except DATABASE_ERRORS:
        raise
    except Exception as exc:
        outcome = _record_outcome(mine, pk=row.pk, job=row.job, error=exc)
        if outcome == "retry":
            return outcome
        raise
    finally:
        _current_request.reset(token)
    return _record_outcome(mine, pk=row.pk, job=row.job, error=None)


def _record_outcome(mine: QuerySet[WorkRequest], *, pk: int, job: str, error: Exception | None) -> str:
    """Write how a run ended onto its row (`mine`: the row while it is still this run's):
    done, failed with the error, or back to pending after `RetryLater`. Returns the outcome."""
    if error is None:
        mine.update(status=WorkStatus.DONE, finished_at=timezone.now(), progress=F("progress_total"))
        return "done"
    if isinstance(error, RetryLater):
        mine.update(
            status=WorkStatus.PENDING,
            last_sent_at=None,
            not_before=timezone.now() + timedelta(seconds=error.delay),
            message=str(error),
        )
        logger.info("work.retry_later", extra={"work_request_id": pk, "delay": error.delay})
        return "retry"
    mine.update(
        status=WorkStatus.FAILED,
        finished_at=timezone.now(),
        error="".join(traceback.format_exception_only(error)).strip()[:4000],
    )
    logger.error("work.failed", exc_info=error, extra={"work_request_id": pk, "job": job})
    return "failed"


@dataclass(frozen=True)
class TakenWork:
    """A request taken along by a running one (`work_taken_along`); it runs in that run."""

    pk: int
    job: str
    kwargs: dict[str, Any]
    attempts: int


def _theirs(works: Iterable[TakenWork]) -> QuerySet[WorkRequest]:
    """The rows of taken-along requests while they are still those runs' (not recovered since)."""
    condition = functools.reduce(operator.or_, (Q(pk=work.pk, attempts=work.attempts) for work in works))
    return WorkRequest.objects.filter(condition, status=WorkStatus.RUNNING)


class TakenAlong:
    """The requests a running one takes along: `take` claims them, `end` ends each one."""

    def __init__(self, *, job: str, write_every: int, send_gathered: Callable[[], int]) -> None:
        self.job = job
        self._write_every = write_every
        self._send_gathered = send_gathered
        self._open: dict[int, TakenWork] = {}
        self._done: list[TakenWork] = []

    def take(self, limit: int) -> list[TakenWork]:
        """Claim up to `limit` queued requests of the job (oldest first, `SKIP LOCKED`).

        The rows become `running`, carried by this request (`carried_by`); their RQ jobs are
        taken off the queue (best effort: one left behind is skipped when it runs). A row whose
        worker died before is never taken: it runs alone. Outside a request, or in one whose
        worker died before (it may be the page that kills it), takes nothing."""
        current = _current_request.get()
        if current is None or limit < 1 or current[2] > 0:
            return []
        now = timezone.now()
        with transaction.atomic():
            rows = list(
                WorkRequest.objects.select_for_update(skip_locked=True)
                .filter(job=self.job, status=WorkStatus.QUEUED, deaths=0)
                .filter(Q(not_before__isnull=True) | Q(not_before__lte=now))
                .order_by("id")
                .values_list("pk", "queue", "kwargs", "attempts")[:limit]
            )
            if not rows:
                return []
            ids = [pk for pk, *_ in rows]
            claimed = WorkRequest.objects.filter(pk__in=ids, status=WorkStatus.QUEUED).update(
                status=WorkStatus.RUNNING, started_at=now, attempts=F("attempts") + 1, error="", carried_by=current[0]
            )
            if claimed == len(rows):
                rows = [(pk, queue_name, kwargs, attempts + 1) for pk, queue_name, kwargs, attempts in rows]
            else:  # no row locks (SQLite): another worker claimed some in between
                rows = list(
                    WorkRequest.objects.filter(pk__in=ids, status=WorkStatus.RUNNING, carried_by=current[0], started_at=now)
                    .order_by("id")
                    .values_list("pk", "queue", "kwargs", "attempts")
                )
        taken = [TakenWork(pk=pk, job=self.job, kwargs=kwargs, attempts=attempts) for pk, _, kwargs, attempts in rows]
        self._open.update((work.pk, work) for work in taken)
        by_queue: dict[str, list[str]] = {}
        for pk, queue_name, *_ in rows:
            by_queue.setdefault(queue_name, []).append(f"work-{pk}")
        try:
            for queue_name, job_ids in by_queue.items():
                queues.jobs_withdraw(queue=queue_name, job_ids=job_ids)
        except RedisError as exc:
            logger.info("work.withdraw_failed", extra={"error": str(exc)})
        if taken:
            logger.info("work.taken_along", extra={"work_request_id": current[0], "taken": [t.pk for t in taken]})
        return taken

    def end(self, work: TakenWork, *, error: Exception | None = None) -> None:
        """End a taken request: failed with `error` (retried for `RetryLater`) at once, or done:
        written with the next few, together with the work they asked for."""
        del self._open[work.pk]
        if error is not None:
            _record_outcome(_theirs([work]), pk=work.pk, job=work.job, error=error)
            return
        self._done.append(work)
        if len(self._done) >= self._write_every:
            self.write()

    def write(self) -> None:
        """Write the done ones (one UPDATE) and send the work they asked for."""
        if self._done:
            _theirs(self._done).update(status=WorkStatus.DONE, finished_at=timezone.now(), progress=F("progress_total"))
            self._done.clear()
        self._send_gathered()

    def release(self, *, reason: str) -> None:
        """Hand the requests not ended back to the outbox (the relay sends them again)."""
        if self._open:
            _theirs(self._open.values()).update(status=WorkStatus.PENDING, last_sent_at=None, carried_by=None, message=reason[:500])
            self._open.clear()


class TakenById:
    """Taken-along requests named by one integer argument (`key`, e.g. `version_id`), as a batched
    job works with them (`noun` names one in errors): `take_next` claims the next ids (never its own, never one twice) within a
    budget of requests and a deadline, `finished` ends the request of an id (with its error);
    an error of the run's own id is kept for `raise_own_error`."""

    def __init__(self, taken: TakenAlong, *, key: str, noun: str, own: int, budget: int, until: float, at_once: int) -> None:
        self._taken = taken
        self._key = key
        self._noun = noun
        self._own = own
        self._left = budget
        self._until = until
        self._at_once = at_once
        self._by_id: dict[int, TakenWork] = {}
        self._own_error: Exception | None = None

    def take_next(self) -> list[int]:
        while self._left > 0 and time.monotonic() < self._until:
            found = self._taken.take(min(self._left, self._at_once))
            self._left = self._left - len(found) if found else 0  # none queued now: finish what is here
            ids = []
            for work in found:
                taken_id = work.kwargs.get(self._key)
                if isinstance(taken_id, int) and taken_id != self._own and taken_id not in self._by_id:
                    self._by_id[taken_id] = work
                    ids.append(taken_id)
                else:
                    self._taken.end(work, error=ValueError(f"not a {self._noun}: {work.kwargs!r}"))
            if ids:
                return ids
        return []

    def finished(self, done_id: int, error: Exception | None) -> None:
        work = self._by_id.pop(done_id, None)
        if work is not None:
            self._taken.end(work, error=error)
        elif error is not None and done_id == self._own:
            self._own_error = error

    def raise_own_error(self) -> None:
        if self._own_error is not None:
            raise self._own_error


@contextlib.contextmanager
def work_taken_along(*, job: str, write_every: int = 4) -> Iterator[TakenAlong]:
    """From inside a running request, take queued requests of `job` along to run them in this
    same run (batched work: the extract job keeps its extractor busy). Within the block, sends
    of new work are gathered (`work_sends_gathered`) and made with the done outcomes, every
    `write_every` ended requests. If the block stops early (an error, the job's timeout), what
    was done is written and the rest is handed back to the outbox; if the worker dies,
    `work_recover` sends them again with this run's own row."""
    with work_sends_gathered() as send_gathered:
        taken = TakenAlong(job=job, write_every=write_every, send_gathered=send_gathered)
        try:
            yield taken
        except BaseException:
            with contextlib.suppress(*DATABASE_ERRORS):
                taken.write()
                taken.release(reason="handed back: the run that took it along stopped")
            raise
        taken.write()


def current_attempt() -> int:
    """The attempt number (1, 2, ...) of the request being run in this context (1 outside a job):
    the one this run claimed, so no query."""
    current = _current_request.get()
    return current[1] if current is not None else 1


def work_progress(*, done: int, total: int, message: str = "") -> None:
    """Record progress on the request being run in this context (no-op outside a job)."""
    current = _current_request.get()
    if current is not None:
        WorkRequest.objects.filter(pk=current[0]).update(progress=done, progress_total=total, message=message[:500])
