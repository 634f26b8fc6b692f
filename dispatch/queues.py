"""The only code that talks to RQ and Redis: connections, enqueueing, workers, recovery checks."""

from __future__ import annotations

import gc
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from rq import Queue, SimpleWorker, Worker
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry

QUEUE_NAMES = ("fetch", "extract", "judge", "default")
# RQ job states after which the job will never run again by itself.
ENDED_BADLY = frozenset({JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED})


@lru_cache(maxsize=8)
def _connection(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=30, health_check_interval=30)


@lru_cache(maxsize=8)
def _send_connection(url: str, timeout: float) -> redis.Redis:
    # Its own pool: a worker in this process raises its connection's socket timeout for BLPOP,
    # and a request must never wait that long for Redis.
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout, retry_on_timeout=False)


@lru_cache(maxsize=8)
def _limiter_connection(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)


def limiter_connection() -> redis.Redis:
    """For the fleet-wide host limiter: a slow Redis costs a fetch seconds, not minutes."""
    return _limiter_connection(settings.REDIS_URL)


def redis_connection() -> redis.Redis:
    # Read the URL on every call so that settings overrides (tests, scripts) take effect.
    return _connection(settings.REDIS_URL)


def send_connection() -> redis.Redis:
    """The connection used to enqueue, with a short deadline (`CITECHECK_REDIS_SEND_TIMEOUT`, < 1 s),
    so a slow or hung Redis cannot hold up the request that asked for work."""
    return _send_connection(settings.REDIS_URL, float(settings.CITECHECK_REDIS_SEND_TIMEOUT))


def get_queue(name: str, *, connection: redis.Redis | None = None) -> Queue:
    if name not in settings.RQ_QUEUE_TIMEOUTS:
        raise ValueError(f"unknown queue {name!r}; queues are {', '.join(settings.RQ_QUEUE_TIMEOUTS)}")
    return Queue(name, connection=connection or redis_connection(), default_timeout=settings.RQ_QUEUE_TIMEOUTS[name])


def enqueue(*, queue: str, job_id: str, func: str, args: tuple[Any, ...]) -> None:
    """Enqueue `func(*args)` under `job_id`. Raises redis errors when Redis is away or slow."""
    get_queue(queue, connection=send_connection()).enqueue(
        func,
        *args,
        job_id=job_id,
        job_timeout=settings.RQ_QUEUE_TIMEOUTS[queue],
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
    )


def job_exists(*, queue: str, job_id: str) -> bool:
    return get_queue(queue).fetch_job(job_id) is not None


def job_states(job_ids: Iterable[str]) -> dict[str, str | None]:
    """{job id: RQ status, or None when Redis no longer has the job}, in one round trip."""
    ids = list(job_ids)
    if not ids:
        return {}
    jobs = Job.fetch_many(ids, connection=redis_connection())
    return {job_id: (job.get_status(refresh=False) if job is not None else None) for job_id, job in zip(ids, jobs, strict=True)}


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


def queue_depths() -> dict[str, int]:
    conn = redis_connection()
    return {name: Queue(name, connection=conn).count for name in QUEUE_NAMES}


class CitecheckWorker(Worker):
    """RQ's forking worker, with the grace after a missed heartbeat configurable
    (`CITECHECK_HEARTBEAT_GRACE`, RQ's fixed 60 s by default): a job whose worker died is
    abandoned `CITECHECK_JOB_MONITORING_INTERVAL` + grace seconds after its last heartbeat.

    Every job gets a fresh work-horse, forked with the worker's objects frozen for the garbage
    collector: a full collection in the horse then walks only what the job made, instead of
    touching (and so copying, page by page) the whole inherited heap (64 ms against 4 ms for a
    bare fork, measured on the 90 MB fetch worker)."""

    def fork_work_horse(self, job: Job, queue: Queue) -> None:
        gc.freeze()
        try:
            super().fork_work_horse(job, queue)
        finally:
            # Only the horse keeps them frozen; the worker collects its own garbage as before.
            gc.unfreeze()

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
