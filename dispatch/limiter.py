"""One per-host limit for the whole fleet: a small semaphore with expiry in Redis.

Every process that fetches (each RQ work-horse, `check_links`) takes a slot from the same
sorted sets before a request and gives it back after: `citecheck:slots:host:<host>` (at most
`CITECHECK_FETCH_HOST_CONCURRENCY` at once) and `citecheck:slots:domain:<registrable domain>`
(DomainPolicy.max_concurrent_requests, when set). A slot's score is its expiry time, so a
process that dies holding one frees it after `ttl` seconds. A minimum gap between request
starts (DomainPolicy.min_request_gap_ms) is kept fleet-wide too. When Redis cannot be reached
the checker falls back to its own per-process limits rather than stop fetching.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Mapping

import redis
from redis.exceptions import RedisError

from citecheck.urlnorm import registrable_domain

logger = logging.getLogger(__name__)

# KEYS: slot sets; ARGV: now, expiry, token, ttl, then one limit per key.
_ACQUIRE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, ARGV[4])
end
return 1
"""
# KEYS[1]: the domain's next allowed start; ARGV: now, gap (s). Returns how long to wait.
_GAP = """
local now = tonumber(ARGV[1])
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
redis.call('SET', KEYS[1], tostring(start + tonumber(ARGV[2])), 'EX', 3600)
return tostring(start - now)
"""
PREFIX = "citecheck:slots"
_FALLBACK = object()


class RedisHostLimiter:
    """`citecheck.linkcheck.HostLimiter` backed by Redis (see the module docstring)."""

    def __init__(
        self,
        connection: redis.Redis,
        *,
        host_limit: int,
        domain_limits: Mapping[str, int] | None = None,
        domain_gaps: Mapping[str, float] | None = None,
        ttl: float = 120.0,
        poll: float = 0.02,
    ) -> None:
        self.connection = connection
        self.host_limit = max(1, host_limit)
        self.domain_limits = dict(domain_limits or {})
        self.domain_gaps = dict(domain_gaps or {})
        self.ttl = ttl
        self.poll = poll
        self._acquire = connection.register_script(_ACQUIRE)
        self._gap = connection.register_script(_GAP)

    def _keys(self, host: str) -> tuple[list[str], list[int], str]:
        domain = registrable_domain(host) or host
        keys, limits = [f"{PREFIX}:host:{host}"], [self.host_limit]
        if self.domain_limits.get(domain, 0) > 0:
            keys.append(f"{PREFIX}:domain:{domain}")
            limits.append(self.domain_limits[domain])
        return keys, limits, domain

    def try_acquire(self, host: str) -> str | None:
        keys, limits, _ = self._keys(host)
        token = uuid.uuid4().hex
        now = time.time()
        taken = self._acquire(keys=keys, args=[now, now + self.ttl, token, int(self.ttl) + 1, *limits])
        return token if taken else None

    def release_now(self, host: str, token: str) -> None:
        keys, _, _ = self._keys(host)
        with self.connection.pipeline() as pipe:
            for key in keys:
                pipe.zrem(key, token)
            pipe.execute()

    async def acquire(self, host: str, *, max_wait: float) -> object | None:
        deadline = time.monotonic() + max_wait
        try:
            while True:
                token = await asyncio.to_thread(self.try_acquire, host)
                if token is not None:
                    break
                if time.monotonic() >= deadline:
                    return None
                await asyncio.sleep(self.poll)
            domain = self._keys(host)[2]
            gap = self.domain_gaps.get(domain, 0.0)
            if gap > 0:
                wait = float(await asyncio.to_thread(lambda: self._gap(keys=[f"{PREFIX}:next:{domain}"], args=[time.time(), gap])))
                if wait > 0:
                    await asyncio.sleep(wait)
            return token
        except RedisError as exc:
            logger.warning("limiter.redis_unavailable", extra={"host": host, "error": str(exc)})
            return _FALLBACK

    async def release(self, host: str, token: object) -> None:
        if token is _FALLBACK or not isinstance(token, str):
            return
        try:
            await asyncio.to_thread(self.release_now, host, token)
        except RedisError as exc:  # the slot expires by itself
            logger.warning("limiter.release_failed", extra={"host": host, "error": str(exc)})
