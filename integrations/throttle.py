"""Rate limits and failed-authentication lockouts, counted in Redis (shared by every web process).

Fixed windows: a key per (subject, window) incremented with INCR and expiring with the window.
When Redis is away the limits are not enforced (logged): the API keeps serving.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from redis.exceptions import RedisError

from dispatch.queues import redis_connection

logger = logging.getLogger(__name__)
PREFIX = "citecheck:throttle:"


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
        logger.warning("throttle.redis_unavailable: %s", exc)
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
        logger.warning("throttle.redis_unavailable: %s", exc)
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
        logger.warning("throttle.redis_unavailable: %s", exc)
    return locked


def client_address(request: object) -> str:
    meta = getattr(request, "META", {})
    return str(meta.get("REMOTE_ADDR", "") or "unknown")
