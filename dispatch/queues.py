"""The only code that talks to RQ and Redis: connections, enqueueing, workers."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import redis
from django.conf import settings
from rq import Queue, SimpleWorker, Worker

QUEUE_NAMES = ("fetch", "extract", "judge", "default")


@lru_cache(maxsize=8)
def _connection(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=30, health_check_interval=30)


def redis_connection() -> redis.Redis:
    # Read the URL on every call so that settings overrides (tests, scripts) take effect.
    return _connection(settings.REDIS_URL)


def get_queue(name: str) -> Queue:
    if name not in settings.RQ_QUEUE_TIMEOUTS:
        raise ValueError(f"unknown queue {name!r}; queues are {', '.join(settings.RQ_QUEUE_TIMEOUTS)}")
    return Queue(name, connection=redis_connection(), default_timeout=settings.RQ_QUEUE_TIMEOUTS[name])


def enqueue(*, queue: str, job_id: str, func: str, args: tuple[Any, ...]) -> None:
    """Enqueue `func(*args)` under `job_id`. Raises redis errors when Redis is away."""
    get_queue(queue).enqueue(
        func,
        *args,
        job_id=job_id,
        job_timeout=settings.RQ_QUEUE_TIMEOUTS[queue],
        result_ttl=3600,
        failure_ttl=7 * 24 * 3600,
    )


def job_exists(*, queue: str, job_id: str) -> bool:
    return get_queue(queue).fetch_job(job_id) is not None


def make_worker(*, names: tuple[str, ...] = QUEUE_NAMES, fork: bool = True) -> Worker:
    """A worker over the given queues; `fork=False` runs jobs in this process (tests, SQLite)."""
    cls: Any = Worker if fork else SimpleWorker
    return cls([get_queue(n) for n in names], connection=redis_connection())
