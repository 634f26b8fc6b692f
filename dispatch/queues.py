"""The only code that talks to RQ and Redis: connections, enqueueing, workers, recovery checks."""

from __future__ import annotations

import gc
import logging
import secrets
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from django.db import Error as DatabaseLibraryError
from django.db import connection
from rq import Queue, SimpleWorker, Worker, get_current_job
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry
from rq.timeouts import BaseDeathPenalty

logger = logging.getLogger(__name__)

QUEUE_NAMES = ("fetch", "extract", "judge", "default")
# RQ job states after which the job will never run again by itself.
ENDED_BADLY = frozenset({JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED})


@lru_cache(maxsize=16)
def redis_client(url: str, *, connect_timeout: float, timeout: float, fail_fast: bool = False, health_check_interval: int = 0) -> redis.Redis:
    """The one factory of Redis connections: one pool per URL and deadlines, so each use keeps its own.

    `fail_fast` gives up on a timeout instead of retrying it (a request must not wait for Redis).
    """
    options: dict[str, Any] = {"socket_connect_timeout": connect_timeout, "socket_timeout": timeout}
    if fail_fast:
        options["retry_on_timeout"] = False
    if health_check_interval:
        options["health_check_interval"] = health_check_interval
    return redis.Redis.from_url(url, **options)


def limiter_connection() -> redis.Redis:
    """For the fleet-wide host limiter: a slow Redis costs a fetch seconds, not minutes."""
    return redis_client(settings.REDIS_URL, connect_timeout=2, timeout=2)


def redis_connection() -> redis.Redis:
    # Read the URL on every call so that settings overrides (tests, scripts) take effect.
    return redis_client(settings.REDIS_URL, connect_timeout=3, timeout=30, health_check_interval=30)


def send_connection() -> redis.Redis:
    """The connection used to enqueue, with a short deadline (`CITECHECK_REDIS_SEND_TIMEOUT`, < 1 s),
    so a slow or hung Redis cannot hold up the request that asked for work."""
    # Its own pool: a worker in this process raises its connection's socket timeout for BLPOP,
    # and a request must never wait that long for Redis.
    timeout = float(settings.CITECHECK_REDIS_SEND_TIMEOUT)
    return redis_client(settings.REDIS_URL, connect_timeout=timeout, timeout=timeout, fail_fast=True)


def get_queue(name: str, *, connection: redis.Redis | None = None) -> Queue:
    if name not in settings.RQ_QUEUE_TIMEOUTS:
        raise ValueError(f"unknown queue {name!r}; queues are {', '.join(settings.RQ_QUEUE_TIMEOUTS)}")
    return Queue(name, connection=connection or redis_connection(), default_timeout=settings.RQ_QUEUE_TIMEOUTS[name])


def enqueue_many(*, queue: str, jobs: list[tuple[str, str, tuple[Any, ...]]]) -> None:
    """Enqueue `(job_id, func, args)` jobs on one queue in one round trip, with the queue's
    timeout; results kept an hour, failures a week. Raises redis errors when Redis is away or slow."""
    if not jobs:
        return
    conn = send_connection()
    target = get_queue(queue, connection=conn)
    timeout = settings.RQ_QUEUE_TIMEOUTS[queue]
    datas = [
        Queue.prepare_data(func, args, job_id=job_id, timeout=timeout, result_ttl=3600, failure_ttl=7 * 24 * 3600)
        for job_id, func, args in jobs
    ]
    with conn.pipeline() as pipe:
        target.enqueue_many(datas, pipeline=pipe)
        pipe.execute()


def job_states(job_ids: Iterable[str]) -> dict[str, str | None]:
    """{job id: RQ status, or None when Redis no longer has the job}, in one round trip."""
    ids = list(job_ids)
    if not ids:
        return {}
    jobs = Job.fetch_many(ids, connection=redis_connection())
    return {job_id: (job.get_status(refresh=False) if job is not None else None) for job_id, job in zip(ids, jobs, strict=True)}


# Set on an RQ job's meta by a run that ended because the database stayed away (not because its
# worker died): recovering it does not count a death.
OUTAGE_META = "citecheck_database_outage"


def job_mark_outage(*, reason: str) -> None:
    """Note on the running RQ job (if any) that it ends because of a database outage."""
    job = get_current_job()
    if job is None:
        return
    job.meta[OUTAGE_META] = reason[:300]
    job.save_meta()


def jobs_ended_by_outage(job_ids: Iterable[str]) -> set[str]:
    """The ids among `job_ids` whose run ended because the database stayed away."""
    ids = list(job_ids)
    if not ids:
        return set()
    jobs = Job.fetch_many(ids, connection=redis_connection())
    return {job_id for job_id, job in zip(ids, jobs, strict=True) if job is not None and job.meta.get(OUTAGE_META)}


def notice_abandoned() -> None:
    """Move jobs whose worker stopped sending heartbeats to the failed registry now
    (AbandonedJobError), instead of at the next RQ maintenance run (every 10 minutes)."""
    for name in QUEUE_NAMES:
        StartedJobRegistry(name, connection=redis_connection()).cleanup()


def job_discard(*, job_id: str) -> None:
    """Delete a job that ended badly (and its failed-registry entry), so its id can be sent again."""
    conn = redis_connection()
    job = Job.fetch_many([job_id], connection=conn)[0]
    if job is None:
        return
    try:
        job.delete()
    except ValueError:
        # RQ 3.0: the dead worker's execution expired before its registry entry, and delete()
        # gives up on it. Remove the failed-registry entry and the job's keys directly.
        with conn.pipeline() as pipe:
            FailedJobRegistry(job.origin, connection=conn).remove(job_id, pipeline=pipe)
            pipe.delete(job.key, job.execution_registry.key)
            pipe.execute()


def jobs_withdraw(*, queue: str, job_ids: list[str]) -> int:
    """Take jobs that are still waiting off `queue` and delete them (their work is being run
    elsewhere); a job a worker already took is left alone. Returns how many were withdrawn."""
    conn = send_connection()
    waiting = get_queue(queue, connection=conn)
    with conn.pipeline(transaction=False) as pipe:
        for job_id in job_ids:
            waiting.remove(job_id, pipeline=pipe)
        removed = pipe.execute()
    gone = [job_id for job_id, count in zip(job_ids, removed, strict=True) if count]
    if gone:
        conn.delete(*(Job.key_for(job_id) for job_id in gone))
    return len(gone)


def queue_depths() -> dict[str, int]:
    conn = redis_connection()
    return {name: Queue(name, connection=conn).count for name in QUEUE_NAMES}


class _DatabaseSlow(Exception):
    """The worker's own database call took longer than it may (it must keep sending heartbeats)."""


class CitecheckWorker(Worker):
    """RQ's forking worker, with the grace after a missed heartbeat configurable
    (`CITECHECK_HEARTBEAT_GRACE`, RQ's fixed 60 s by default): a job whose worker died is
    abandoned `CITECHECK_JOB_MONITORING_INTERVAL` + grace seconds after its last heartbeat.

    Every job still gets a fresh work-horse (its memory, hang and crash stay its own), with two
    savings measured on a 20 ms re-check:
    - it is forked with the worker's objects frozen for the garbage collector, so a full
      collection in the horse walks only what the job made instead of touching (and copying,
      page by page) the whole inherited heap (64 ms against 4 ms for a bare fork);
    - on PostgreSQL the worker keeps one database connection and lends it to each horse in
      turn, instead of every horse opening its own (a new server process and cold catalog
      caches: 15 ms of a job's 29 ms). The worker never uses it while a horse runs; when the
      horse exits normally the session is reset (`DISCARD ALL`: no transaction, lock or setting
      carries over to the next job), and after any other exit, or any error, it is dropped and
      the next horse gets a new one. Each of the worker's own database calls is bounded
      (DATABASE_CALL_SECONDS): a horse cut off by its timeout in the middle of a query leaves a
      session that does not answer, and the worker drops it after that long.
    """

    _horse_status: int | None = None
    # None until the first connection says whether it can be lent (never over TLS: a forked
    # process cannot share a TLS session's state with its parent).
    _lend_connections: bool | None = None
    DATABASE_CALL_SECONDS = 5

    def _database_call(self) -> BaseDeathPenalty:
        return self.death_penalty_class(self.DATABASE_CALL_SECONDS, _DatabaseSlow)  # type: ignore[no-any-return]

    def fork_work_horse(self, job: Job, queue: Queue) -> None:
        self._lend_database_connection()
        gc.freeze()
        try:
            super().fork_work_horse(job, queue)
        finally:
            # Only the horse keeps them frozen; the worker collects its own garbage as before.
            gc.unfreeze()

    def wait_for_horse(self) -> tuple[int | None, int | None, Any]:
        pid, status, rusage = super().wait_for_horse()
        if pid:
            self._horse_status = status
        return pid, status, rusage

    def monitor_work_horse(self, job: Job, queue: Queue, execution: Any) -> None:
        self._horse_status = None
        try:
            super().monitor_work_horse(job, queue, execution)
        finally:
            self._take_back_database_connection(clean=self._horse_status == 0)

    def _lend_database_connection(self) -> None:
        if connection.vendor != "postgresql" or self._lend_connections is False:
            return  # SQLite: every horse opens the file itself; TLS: every horse connects itself
        try:
            with self._database_call():
                connection.ensure_connection()
        except (DatabaseLibraryError, _DatabaseSlow):
            self._drop_database_connection()  # the horse connects by itself
            return
        if self._lend_connections is None:
            self._lend_connections = not getattr(getattr(connection.connection, "pgconn", None), "ssl_in_use", False)
            if not self._lend_connections:
                logger.info("worker.database_connection_not_lent", extra={"reason": "TLS"})
                self._drop_database_connection()
                return
        # The horse checks the connection (SELECT 1) before its first query, so one the server
        # dropped since the last job is replaced there rather than failing the job.
        connection.health_check_done = False  # type: ignore[attr-defined]

    def _take_back_database_connection(self, *, clean: bool) -> None:
        """Keep the connection the horse used only if it is provably in step and idle: a query
        with a fresh nonce must answer with that nonce (nothing the horse left unread comes
        first), then `DISCARD ALL` (refused inside a transaction) resets the session."""
        if connection.vendor != "postgresql" or connection.connection is None:
            return
        if clean:
            nonce = secrets.token_hex(8)
            try:
                with self._database_call(), connection.cursor() as cursor:
                    cursor.execute("SELECT %s", [nonce])
                    in_step = cursor.fetchone() == (nonce,)
                    if in_step:
                        cursor.execute("DISCARD ALL")
                        with connection.wrap_database_errors:
                            connection.ensure_timezone()
                if in_step:
                    return
                logger.warning("worker.database_connection_out_of_step")
            except (DatabaseLibraryError, _DatabaseSlow) as exc:
                logger.info("worker.database_connection_dropped", extra={"error": str(exc)[:200]})
        self._drop_database_connection()

    @staticmethod
    def _drop_database_connection() -> None:
        try:
            connection.close()
        except DatabaseLibraryError:
            pass  # Django forgets the connection all the same

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        grace = int(settings.CITECHECK_HEARTBEAT_GRACE)
        if job.timeout and job.timeout > 0:
            return int(min(job.timeout - working_time, self.job_monitoring_interval)) + grace
        return int(self.job_monitoring_interval) + grace


def make_worker(*, names: tuple[str, ...] = QUEUE_NAMES, fork: bool = True) -> Worker:
    """A worker over the given queues; `fork=False` runs jobs in this process (tests, SQLite)."""
    cls: Any = CitecheckWorker if fork else SimpleWorker
    return cls(
        [get_queue(n) for n in names],
        connection=redis_connection(),
        job_monitoring_interval=settings.CITECHECK_JOB_MONITORING_INTERVAL,
    )
