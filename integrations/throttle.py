"""Rate limits and failed-authentication lockouts, counted in Redis (shared by every web process).

Fixed windows: a key per (subject, window) incremented with INCR and expiring with the window.
When Redis is away or hangs the limits are not enforced (logged) and, for a few seconds, not even
tried: the API keeps serving without waiting for Redis on every request.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from functools import lru_cache

import redis
from django.conf import settings
from redis.exceptions import RedisError

from citecheck.netguard import IPAddress, IPNetwork, parse_networks
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


def _fail_key(subject: str) -> str:
    return f"{PREFIX}fail:{subject}"


def lockout_left(*, limits: dict[str, int]) -> int:
    """Seconds left of a lockout of any of the subjects (subject -> its failure limit), or 0."""
    subjects = [s for s in limits if s]
    keys = [_fail_key(s) for s in subjects]
    if not keys:
        return 0
    try:
        conn = redis_connection()
        for subject, key, count in zip(subjects, keys, conn.mget(keys), strict=True):  # one round trip on the hot path
            if count is not None and int(count) >= limits[subject] > 0:
                return max(1, int(conn.ttl(key)))
    except RedisError as exc:
        _failed(exc)
    return 0


def failure_record(*, limits: dict[str, int]) -> list[str]:
    """Count one failed authentication for each subject (subject -> its failure limit); returns
    the subjects that just became locked out (so the caller audits each lockout once)."""
    window = settings.CITECHECK_AUTH_LOCKOUT_SECONDS
    locked: list[str] = []
    try:
        conn = redis_connection()
        for subject, limit in limits.items():
            if not subject:
                continue
            key = _fail_key(subject)
            count = int(conn.incr(key))
            if count == 1:
                conn.expire(key, window)
            if count == limit:
                conn.expire(key, window)  # the lockout lasts a full window from now
                locked.append(subject)
    except RedisError as exc:
        _failed(exc)
    return locked


@lru_cache(maxsize=8)
def _trusted(networks: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return parse_networks(list(networks))


def _ip(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return None


def client_address(request: object) -> str:
    """The client's address: REMOTE_ADDR, unless that is one of CITECHECK_TRUSTED_PROXIES; then
    X-Forwarded-For is read from the right, skipping trusted proxies, and the first address no
    trusted proxy stands for is the client (what a client writes itself sits further left and is
    never believed)."""
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR", "") or "unknown")
    trusted = _trusted(tuple(settings.CITECHECK_TRUSTED_PROXIES))
    remote_ip = _ip(remote)
    if not trusted or remote_ip is None or not any(remote_ip in net for net in trusted):
        return remote
    hops = [hop.strip() for hop in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",") if hop.strip()]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            return remote  # a malformed header: fall back to the proxy itself
        if not any(ip in net for net in trusted):
            return str(ip)
    return str(_ip(hops[0])) if hops else remote
