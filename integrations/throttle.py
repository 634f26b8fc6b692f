"""Rate limits and failed-authentication lockouts, counted in Redis (shared by every web process).

Fixed windows: a key per (subject, window) incremented with INCR and expiring with the window.
When Redis is away or hangs the limits are not enforced (logged) and, for a few seconds, not even
tried: the API keeps serving without waiting for Redis on every request.
"""

from __future__ import annotations

import logging
import time

import redis
from django.conf import settings
from redis.exceptions import RedisError

from dispatch.queues import redis_client

logger = logging.getLogger(__name__)
PREFIX = "citecheck:throttle:"
REDIS_TIMEOUT = 0.25  # seconds: throttling must never make a request wait for a sick Redis
PAUSE_AFTER_FAILURE = 5.0
_paused_until = 0.0


def redis_connection() -> redis.Redis:
    """The throttle's own connection (short timeouts), or RedisError while paused after a failure."""
    if time.monotonic() < _paused_until:
        raise RedisError("throttling paused after a Redis failure")
    return redis_client(settings.REDIS_URL, connect_timeout=REDIS_TIMEOUT, timeout=REDIS_TIMEOUT, fail_fast=True)


def _failed(exc: RedisError) -> None:
    global _paused_until
    if time.monotonic() >= _paused_until:
        logger.warning("throttle.redis_unavailable: %s", exc)
    _paused_until = time.monotonic() + PAUSE_AFTER_FAILURE


def _window(seconds: int) -> tuple[int, int]:
    now = int(time.time())
    start = now - now % seconds
    return start, start + seconds - now


def rate_take(*, subject: str, limit: int, window_seconds: int = 60) -> int:
    """Count one request for `subject`; returns 0 when allowed, else seconds until the window ends."""
    if limit <= 0:
        return 0
    start, left = _window(window_seconds)
    key = f"{PREFIX}rate:{subject}:{start}"
    try:
        pipe = redis_connection().pipeline()
        pipe.incr(key)
        pipe.expire(key, window_seconds + 5)
        count = int(pipe.execute()[0])
    except RedisError as exc:
        _failed(exc)
        return 0
    return 0 if count <= limit else max(1, left)


def _fail_keys(subjects: list[str]) -> list[str]:
    return [f"{PREFIX}fail:{s}" for s in subjects if s]


def lockout_left(*, subjects: list[str]) -> int:
    """Seconds left of a lockout of any of `subjects` (an account, a client address), or 0."""
    limit = settings.CITECHECK_AUTH_FAILURES_MAX
    keys = _fail_keys(subjects)
    try:
        conn = redis_connection()
        for key, count in zip(keys, conn.mget(keys), strict=True):  # one round trip on the hot path
            if count is not None and int(count) >= limit:
                return max(1, int(conn.ttl(key)))
    except RedisError as exc:
        _failed(exc)
    return 0


def failure_record(*, subjects: list[str]) -> list[str]:
    """Count one failed authentication for each subject; returns the subjects that just became
    locked out (so the caller audits each lockout once)."""
    limit = settings.CITECHECK_AUTH_FAILURES_MAX
    window = settings.CITECHECK_AUTH_LOCKOUT_SECONDS
    locked: list[str] = []
    try:
        conn = redis_connection()
        for subject, key in zip([s for s in subjects if s], _fail_keys(subjects), strict=True):
            count = int(conn.incr(key))
            if count == 1:
                conn.expire(key, window)
            if count == limit:
                conn.expire(key, window)  # the lockout lasts a full window from now
                locked.append(subject)
    except RedisError as exc:
        _failed(exc)
    return locked


def client_address(request: object) -> str:
    meta = getattr(request, "META", {})
    return str(meta.get("REMOTE_ADDR", "") or "unknown")
