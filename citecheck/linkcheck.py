"""The link checker: one GET per hop, redirects followed by hand, SSRF rules at connection level.

This is the only module that talks HTTP to the outside world (aiohttp stays confined here): the
fetcher, the link checker and the webhook sender (`LinkChecker.post`, `post_url`: no redirects
followed) all leave through the same guarded connector.

- `LinkChecker` (async context manager) checks one URL (`check`) or a batch
  (`iter_results`, results as they complete) within one event loop and one connection pool.
- `check_url`, `check_urls`, `iter_check_urls` are the synchronous entry points; the last one
  runs the event loop in a background thread so that the caller (e.g. a Django job writing
  results to the database in bulk) consumes results while the next ones are being fetched.
- `backoff_delay` and `parse_retry_after` are the retry policy helpers.

Safety: `netguard.classify_url` judges every hop's URL text (and so does the registry's
`url_rule`, e.g. its blocked domains, before any request to it), and every address actually
connected to is judged again at connection time: the resolver drops addresses the policy refuses
(so DNS rebinding cannot slip past: what is checked is what is connected to) and the socket
factory refuses any address the policy refuses, IP literals included.

Pure module: no Django. Build a config from Django settings with `config_from_settings`.
"""

from __future__ import annotations

import asyncio
import builtins
import dataclasses
import email.utils
import enum
import ipaddress
import json
import logging
import queue
import random
import re
import socket
import threading
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol, TextIO

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from citecheck.netguard import NetPolicy, address_block_reason, classify_url, url_host
from citecheck.urlnorm import registrable_domain

logger = logging.getLogger(__name__)

USER_AGENT = "Citecheck/0.1 (+link checker)"
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.9,*/*;q=0.8"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
PERMANENT_REDIRECT_STATUSES = frozenset({301, 308})
# A redirect response's body is never needed; past this much we drop the connection instead.
_REDIRECT_BODY_LIMIT = 64 * 1024
_BLOCK_MARK = "[blocked]"


class LinkState(enum.StrEnum):
    """The link states of the product (PRODUCT.md "Link health"); values are the stored strings."""

    OK = "ok"
    REDIRECT_PERMANENT = "redirect_permanent"
    REDIRECT_TEMPORARY = "redirect_temporary"
    NOT_FOUND = "not_found"
    GONE = "gone"
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    CLIENT_ERROR = "client_error"
    TIMEOUT = "timeout"
    CONNECTION_ERROR = "connection_error"
    REDIRECT_LOOP = "redirect_loop"
    TOO_LARGE = "too_large"
    BLOCKED = "blocked"
    INVALID_URL = "invalid_url"


# The page answered (possibly after redirects): evidence is usable.
SUCCESS_STATES = frozenset(
    {LinkState.OK, LinkState.REDIRECT_PERMANENT, LinkState.REDIRECT_TEMPORARY}
)
# The page is missing: suspend the evidence at once.
# Probably passing: mark "temporarily unverified" and retry with `backoff_delay`.
TRANSIENT_STATES = frozenset(
    {LinkState.RATE_LIMITED, LinkState.SERVER_ERROR, LinkState.TIMEOUT, LinkState.CONNECTION_ERROR}
)


class HostLimiter(Protocol):
    """A limit shared beyond this process (e.g. across every worker, kept in Redis).

    `acquire` waits for a slot to talk to `host` and returns a token (None: no slot could be had
    within `max_wait` seconds); `release` gives it back. The checker holds a slot per request.
    """

    async def acquire(self, host: str, *, max_wait: float) -> object | None: ...

    async def release(self, host: str, token: object) -> None: ...


@dataclass(frozen=True)
class LinkCheckConfig:
    """Limits of one checker. `timeout` is the total deadline of one URL (all hops and the body)."""

    policy: NetPolicy = field(default_factory=NetPolicy)
    timeout: float = 20.0
    connect_timeout: float = 10.0
    read_timeout: float = 10.0
    max_bytes: int = DEFAULT_MAX_BYTES
    max_redirects: int = 10
    concurrency: int = 64
    host_concurrency: int = 8
    host_min_gap: float = 0.0
    # Per-host minimum gap in seconds (DomainPolicy), overriding `host_min_gap`.
    host_gaps: Mapping[str, float] = field(default_factory=dict)
    keep_body: bool = False
    user_agent: str = USER_AGENT
    # The registry's own rules (e.g. blocked domains), applied like the SSRF rules: to the first
    # URL and to every redirect target before it is requested. Returns why a URL is refused, or
    # None. Build one from blocked domains with `blocked_domains_rule`.
    url_rule: Callable[[str], str | None] | None = None
    # A fleet-wide per-host limit on top of this checker's own (`host_concurrency`, gaps).
    shared_limiter: HostLimiter | None = field(default=None, compare=False)


def config_from_settings(settings: object, **overrides: Any) -> LinkCheckConfig:
    """Read the CITECHECK_FETCH_* values from a settings object (e.g. `django.conf.settings`).

    Missing values take the defaults; `overrides` (None values ignored) replace fields.
    """
    policy = NetPolicy.build(
        getattr(settings, "CITECHECK_FETCH_ALLOW_NETWORKS", None) or None,
        getattr(settings, "CITECHECK_FETCH_ALLOWED_PORTS", None) or None,
    )
    config = LinkCheckConfig(
        policy=policy,
        timeout=float(getattr(settings, "CITECHECK_FETCH_TIMEOUT", 20.0)),
        max_bytes=int(getattr(settings, "CITECHECK_FETCH_MAX_BYTES", DEFAULT_MAX_BYTES)),
        max_redirects=int(getattr(settings, "CITECHECK_FETCH_MAX_REDIRECTS", 10)),
        concurrency=int(getattr(settings, "CITECHECK_FETCH_CONCURRENCY", 64)),
        host_concurrency=int(getattr(settings, "CITECHECK_FETCH_HOST_CONCURRENCY", 8)),
        user_agent=str(getattr(settings, "CITECHECK_FETCH_USER_AGENT", USER_AGENT)),
    )
    given = {key: value for key, value in overrides.items() if value is not None}
    return dataclasses.replace(config, **given) if given else config


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def blocked_domains_rule(blocked: Mapping[str, str]) -> Callable[[str], str | None]:
    """A `url_rule` refusing every URL whose host or registrable domain is in `blocked`
    (domain -> the reason it was blocked, may be empty)."""

    names = {name.strip().lower().rstrip("."): reason for name, reason in blocked.items() if name.strip()}

    def rule(url: str) -> str | None:
        host = url_host(url).strip("[]").lower()
        try:
            domain = registrable_domain(url)
        except ValueError:
            domain = host
        # The host, its registrable domain and every parent domain: a block covers subdomains
        # even where the public-suffix list does not know the suffix.
        labels = [host] if _is_ip(host) else host.split(".")
        for name in (host, domain, *(".".join(labels[i:]) for i in range(1, len(labels) - 1))):
            if name and name in names:
                reason = names[name]
                return f"domain {name} is blocked" + (f" ({reason})" if reason else "")
        return None

    return rule


@dataclass(frozen=True)
class RedirectHop:
    url: str
    status: int

    def to_json(self) -> dict[str, Any]:
        return {"url": self.url, "status": self.status}


@dataclass
class LinkCheckResult:
    """One check attempt. `status_code`/`final_url` belong to the last response received
    (None when nothing answered); `redirects` lists every redirect response in order."""

    url: str
    state: LinkState
    status_code: int | None = None
    final_url: str | None = None
    redirects: list[RedirectHop] = field(default_factory=list)
    content_type: str | None = None
    bytes: int = 0
    elapsed_ms: int = 0
    error: str | None = None
    # True when `not_found` was inferred from a redirect (soft 404); `error` says why.
    soft_404: bool = False
    charset: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    # Seconds the server asked us to wait (Retry-After as seconds or HTTP-date), uncapped.
    retry_after: float | None = None
    # The body of the final response, only with `keep_body=True` and a success state.
    body: builtins.bytes | None = None
    checked_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    @property
    def is_success(self) -> bool:
        return self.state in SUCCESS_STATES

    @property
    def is_transient(self) -> bool:
        return self.state in TRANSIENT_STATES

    def to_json(self) -> dict[str, Any]:
        """Exactly the `check_url --json` object."""
        return {
            "url": self.url,
            "state": self.state.value,
            "status_code": self.status_code,
            "final_url": self.final_url,
            "redirects": [hop.to_json() for hop in self.redirects],
            "content_type": self.content_type,
            "bytes": self.bytes,
            "elapsed_ms": self.elapsed_ms,
            "error": self.error,
        }


@dataclass(frozen=True)
class PostResult:
    """One POST through the guarded client (webhooks). `status_code` is None when nothing
    answered or the guard refused before any request; `error` is '' only for a 2xx.
    The error says what the guard refused, or one of a few fixed phrases: never what a refused
    or unreachable address answered (a port scanner would read it)."""

    url: str
    status_code: int | None
    error: str
    elapsed_ms: int = 0

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300 and not self.error


# --- retry policy -------------------------------------------------------------------------------


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP-date -> seconds from now (>= 0)."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(
    attempt: int,
    retry_after: float | None = None,
    *,
    base: float = 60.0,
    cap: float = 3600.0,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait before retry number `attempt` (1 = first retry).

    Exponential backoff `base * 2**(attempt-1)` with "equal jitter" (a random value between half
    and all of it), at least the server's Retry-After, and never more than `cap` (a hostile or
    broken Retry-After of a year is capped too).
    """
    if attempt < 1:
        raise ValueError("attempt starts at 1")
    exponential = min(cap, base * 2 ** min(attempt - 1, 62))
    draw = (rng or random).uniform(0.5, 1.0)
    delay = exponential * draw
    if retry_after is not None and retry_after > 0:
        delay = max(delay, retry_after)
    return min(cap, delay)


# --- connection-level safety ----------------------------------------------------------------


class BlockedAddressError(OSError):
    """Raised inside the connector when the policy refuses an address."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{_BLOCK_MARK} {reason}")
        self.reason = reason


class GuardedResolver(AbstractResolver):
    """Resolves with `base` and keeps only addresses the policy allows (for this port)."""

    def __init__(self, policy: NetPolicy, base: AbstractResolver | None = None) -> None:
        self._policy = policy
        self._base = base or aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        answers = await self._base.resolve(host, port, family)
        allowed: list[ResolveResult] = []
        first_reason = ""
        for answer in answers:
            reason = address_block_reason(answer["host"], port, self._policy)
            if reason is None:
                allowed.append(answer)
            elif not first_reason:
                first_reason = reason
        if not allowed:
            raise BlockedAddressError(f"{host} resolves to a refused address: {first_reason}")
        return allowed

    async def close(self) -> None:
        await self._base.close()


def guarded_socket_factory(policy: NetPolicy) -> Callable[[Any], socket.socket]:
    """A socket factory for aiohttp that refuses to open a socket to a refused address.

    It sees the exact address about to be connected to, IP literals included.
    """

    def factory(addr_info: Any) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        reason = address_block_reason(sockaddr[0], sockaddr[1], policy)
        if reason is not None:
            raise BlockedAddressError(reason)
        return socket.socket(family=family, type=type_, proto=proto)

    return factory


def _blocked_reason(exc: BaseException) -> str | None:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, BlockedAddressError):
            return current.reason
        os_error = getattr(current, "os_error", None)
        if isinstance(os_error, BlockedAddressError):
            return os_error.reason
        current = current.__cause__ or current.__context__
    text = str(exc)
    if _BLOCK_MARK in text:
        return text.split(_BLOCK_MARK, 1)[1].strip()
    return None


# --- one check ------------------------------------------------------------------------------------

_SOFT_404_RE = re.compile(r"(?<![0-9])404(?![0-9])|not[-_]?found", re.IGNORECASE)
_HOME_PATH_RE = re.compile(r"/(index|default|home)(\.[a-z0-9]+)?/?", re.IGNORECASE)


def soft_404_reason(original: str, final: str) -> str | None:
    """Why a 2xx reached through redirects is really a missing page, or None.

    The common soft 404: a deep URL that lands on a site root, or on a path that names an error
    page (404, not-found) which the original path did not.
    """
    orig, dest = URL(original), URL(final)
    if orig.path in ("", "/") or _HOME_PATH_RE.fullmatch(orig.path):
        return None
    if dest.path in ("", "/"):
        return "inferred soft 404: a deep URL redirects to the site root"
    if _SOFT_404_RE.search(dest.path) and not _SOFT_404_RE.search(orig.path):
        return "inferred soft 404: redirects to an error page"
    return None


def _state_for_status(status: int) -> LinkState:
    if 200 <= status < 300:
        return LinkState.OK
    if status == 404:
        return LinkState.NOT_FOUND
    if status == 410:
        return LinkState.GONE
    if status == 429:
        return LinkState.RATE_LIMITED
    if 400 <= status < 500:
        return LinkState.CLIENT_ERROR
    return LinkState.SERVER_ERROR


class _Attempt:
    """What one check saw so far; survives a deadline hitting mid-way."""

    __slots__ = (
        "url", "redirects", "status", "final_url", "started", "response_headers", "cookies"
    )

    def __init__(self, url: str) -> None:
        self.url = url
        self.redirects: list[RedirectHop] = []
        self.status: int | None = None
        self.final_url: str | None = None
        self.started: float | None = None
        self.response_headers: Any = None
        # Cookies set during this check's redirect chain, and only for it.
        self.cookies: aiohttp.CookieJar | None = None

    def result(self, state: LinkState, error: str | None = None, **extra: Any) -> LinkCheckResult:
        elapsed = 0 if self.started is None else round((time.monotonic() - self.started) * 1000)
        content_type = charset = None
        etag = last_modified = None
        retry_after = None
        headers = self.response_headers
        if headers is not None:
            raw_type = headers.get("Content-Type")
            if raw_type:
                mime, _, params = raw_type.partition(";")
                content_type = mime.strip().lower() or None
                match = re.search(r"charset=\"?([^\";\s]+)", params, re.IGNORECASE)
                charset = match.group(1).lower() if match else None
            etag = headers.get("ETag")
            last_modified = headers.get("Last-Modified")
            retry_after = parse_retry_after(headers.get("Retry-After"))
        return LinkCheckResult(
            url=self.url,
            state=state,
            status_code=self.status,
            final_url=self.final_url,
            redirects=self.redirects,
            content_type=content_type,
            charset=charset,
            etag=etag,
            last_modified=last_modified,
            retry_after=retry_after,
            elapsed_ms=elapsed,
            error=error,
            **extra,
        )


class _HostGate:
    """Per-host concurrency limit and optional minimum gap between request starts."""

    __slots__ = ("semaphore", "gap", "next_start")

    def __init__(self, limit: int, gap: float) -> None:
        self.semaphore = asyncio.Semaphore(limit)
        self.gap = gap
        self.next_start = 0.0

    async def wait_gap(self) -> None:
        if self.gap <= 0:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        start = max(now, self.next_start)
        self.next_start = start + self.gap
        if start > now:
            await asyncio.sleep(start - now)


def _interleave_by_host(urls: Iterable[str]) -> list[str]:
    """Round-robin over hosts so that one host's long run cannot starve the others."""
    by_host: dict[str, deque[str]] = {}
    for url in urls:
        # A rough host key is enough for ordering (the limits use the parsed host).
        key = url.partition("://")[2].partition("/")[0].rpartition("@")[2].lower()
        by_host.setdefault(key, deque()).append(url)
    if len(by_host) <= 1:
        return [url for run in by_host.values() for url in run]
    runs = deque(by_host.values())
    ordered: list[str] = []
    while runs:
        run = runs.popleft()
        ordered.append(run.popleft())
        if run:
            runs.append(run)
    return ordered


class _Final(NamedTuple):
    status: int
    received: int
    body: builtins.bytes | None


def _cookie_signature(jar: aiohttp.CookieJar | None, url: URL) -> str:
    if jar is None:
        return ""
    return "; ".join(sorted(f"{name}={morsel.value}" for name, morsel in jar.filter_cookies(url).items()))


def gap_for(host: str, gaps: Mapping[str, float], default: float) -> float:
    """The minimum gap between requests to `host`: set for the host itself or, as a domain
    policy sets it, for its registrable domain (www.example.co.uk -> example.co.uk)."""
    if host in gaps:
        return gaps[host]
    if gaps:
        return gaps.get(registrable_domain(host), default)
    return default


class LinkChecker:
    """A pool of connections and limits for checking links. Use inside one event loop:

        async with LinkChecker(config) as checker:
            result = await checker.check(url)
            async for result in checker.iter_results(urls): ...

    `resolver` replaces the system DNS resolver (it is wrapped by the safety check).
    """

    def __init__(
        self, config: LinkCheckConfig | None = None, *, resolver: AbstractResolver | None = None
    ) -> None:
        self.config = config or LinkCheckConfig()
        self._base_resolver = resolver
        self._session: aiohttp.ClientSession | None = None
        self._global: asyncio.Semaphore | None = None
        self._hosts: dict[str, _HostGate] = {}
        timeout = self.config.timeout
        self._client_timeout = aiohttp.ClientTimeout(
            total=None,
            sock_connect=min(self.config.connect_timeout, timeout),
            sock_read=min(self.config.read_timeout, timeout),
        )

    async def __aenter__(self) -> LinkChecker:
        config = self.config
        if config.host_gaps:
            # Load the public-suffix list now, not in the middle of spacing requests.
            registrable_domain("example.com")
        connector = aiohttp.TCPConnector(
            limit=config.concurrency,
            limit_per_host=0,  # our own per-host gates are keyed by host name, across ports
            resolver=GuardedResolver(config.policy, self._base_resolver),
            socket_factory=guarded_socket_factory(config.policy),
            ttl_dns_cache=60,
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.DummyCookieJar(),  # nothing kept between checks
            headers={"User-Agent": config.user_agent, "Accept": ACCEPT},
            trust_env=False,  # no proxy from the environment: we connect to checked addresses
            timeout=self._client_timeout,
            read_bufsize=2**17,
            raise_for_status=False,
        )
        self._global = asyncio.Semaphore(config.concurrency)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _gate(self, host: str) -> _HostGate:
        gate = self._hosts.get(host)
        if gate is None:
            gap = gap_for(host, self.config.host_gaps, self.config.host_min_gap)
            gate = _HostGate(self.config.host_concurrency, gap)
            self._hosts[host] = gate
        return gate

    async def check(self, url: str) -> LinkCheckResult:
        """One check attempt of `url` (no retries), within the configured limits."""
        if self._session is None or self._global is None:
            raise RuntimeError("use LinkChecker inside 'async with'")
        verdict = classify_url(url, self.config.policy)
        attempt = _Attempt(url)
        if not verdict.ok:
            return attempt.result(LinkState(verdict.verdict), verdict.reason)
        refused = self.config.url_rule(url.strip()) if self.config.url_rule is not None else None
        if refused:
            return attempt.result(LinkState.BLOCKED, refused)
        try:
            start = URL(url.strip())
        except (ValueError, TypeError) as exc:
            return attempt.result(LinkState.INVALID_URL, f"not a URL: {exc}")
        try:
            async with asyncio.timeout(None) as deadline:
                return await self._follow(start, attempt, deadline)
        except TimeoutError:
            return attempt.result(
                LinkState.TIMEOUT, f"no complete answer within {self.config.timeout:g} s"
            )

    async def post(self, url: str, body: builtins.bytes, headers: Mapping[str, str]) -> PostResult:
        """One POST of `body` to `url` under the same rules as a check: the URL text judged,
        the name resolved once and only an allowed address connected to, within the deadline.
        A redirect is never followed: a 3xx is a failed attempt, "redirects are not followed".
        The answer's body is read up to a small limit and dropped."""
        if self._session is None:
            raise RuntimeError("use LinkChecker inside 'async with'")
        started = time.monotonic()

        def done(status: int | None, error: str) -> PostResult:
            return PostResult(url, status, error, int((time.monotonic() - started) * 1000))

        verdict = classify_url(url, self.config.policy)
        if not verdict.ok:
            return done(None, f"refused by the guard: {verdict.reason}")
        refused = self.config.url_rule(url.strip()) if self.config.url_rule is not None else None
        if refused:
            return done(None, f"refused by the guard: {refused}")
        try:
            async with asyncio.timeout(self.config.timeout):
                response = await self._session.post(URL(url.strip()), data=body, headers=dict(headers), allow_redirects=False)
                try:
                    status = response.status
                    if status in REDIRECT_STATUSES or 300 <= status < 400:
                        return done(status, f"HTTP {status}: redirects are not followed")
                    drained = 0
                    while drained <= _REDIRECT_BODY_LIMIT and (chunk := await response.content.readany()):
                        drained += len(chunk)
                finally:
                    response.close()
        except TimeoutError:
            return done(None, f"no answer within {self.config.timeout:g} s")
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            blocked = _blocked_reason(exc)
            if blocked is not None:
                return done(None, f"refused by the guard: {blocked}")
            return done(None, "could not deliver (no connection or no valid HTTP answer)")
        return done(status, "" if 200 <= status < 300 else f"HTTP {status}")

    async def _follow(
        self, current: URL, attempt: _Attempt, deadline: asyncio.Timeout
    ) -> LinkCheckResult:
        assert self._session is not None and self._global is not None
        config = self.config
        # A revisit is a cycle only if the cookies sent are the same too: "set a cookie and
        # redirect to the same URL" is a common gate, not a loop.
        visited = {(str(current), "")}
        while True:
            host = (current.host or "").rstrip(".")
            gate = self._gate(host)
            # Host slot first (this checker's, then the fleet's), global slot last, all released
            # after the hop: a check never holds a global slot while waiting for a host, so
            # limits cannot deadlock.
            async with gate.semaphore:
                if gate.gap > 0:
                    await gate.wait_gap()
                shared = config.shared_limiter
                token = None
                if shared is not None:
                    token = await shared.acquire(host, max_wait=config.timeout * 3)
                    if token is None:
                        return attempt.result(
                            LinkState.TIMEOUT, f"no free connection slot for {host} within {config.timeout * 3:g} s (per-host limit)"
                        )
                try:
                    async with self._global:
                        if attempt.started is None:
                            attempt.started = time.monotonic()
                            deadline.reschedule(asyncio.get_running_loop().time() + config.timeout)
                        outcome = await self._hop(current, attempt)
                finally:
                    if shared is not None:
                        await shared.release(host, token)
            if isinstance(outcome, LinkCheckResult):
                return outcome
            if isinstance(outcome, _Final):
                # Built after the slots are released, so the next request starts sooner.
                return self._final(attempt, outcome.status, outcome.received, outcome.body)
            status, location = outcome
            attempt.redirects.append(RedirectHop(str(current), status))
            try:
                target = current.join(URL(location))
            except (ValueError, TypeError):
                return attempt.result(
                    LinkState.INVALID_URL, f"redirect Location is not a URL: {location!r}"
                )
            if len(attempt.redirects) > config.max_redirects:
                return attempt.result(
                    LinkState.REDIRECT_LOOP, f"more than {config.max_redirects} redirects"
                )
            target_text = str(target)
            key = (target_text, _cookie_signature(attempt.cookies, target))
            if key in visited:
                return attempt.result(
                    LinkState.REDIRECT_LOOP, f"redirect cycle back to {target_text}"
                )
            verdict = classify_url(target_text, config.policy)
            if not verdict.ok:
                return attempt.result(
                    LinkState(verdict.verdict), f"redirect to {target_text}: {verdict.reason}"
                )
            refused = config.url_rule(target_text) if config.url_rule is not None else None
            if refused:
                return attempt.result(LinkState.BLOCKED, f"redirect to {target_text}: {refused}")
            visited.add(key)
            current = target

    async def _hop(
        self, url: URL, attempt: _Attempt
    ) -> LinkCheckResult | _Final | tuple[int, str]:
        """One GET. A redirect gives (status, Location), a complete answer a `_Final`, a failure
        its result."""
        assert self._session is not None
        config = self.config
        via = f"redirect to {url}: " if attempt.redirects else ""
        try:
            if attempt.cookies is None:
                response = await self._session.get(url, allow_redirects=False)
            else:
                response = await self._session.get(
                    url, allow_redirects=False, cookies=attempt.cookies.filter_cookies(url)
                )
        except aiohttp.ClientError as exc:
            return self._failure(attempt, exc, via)
        except TimeoutError:
            return attempt.result(LinkState.TIMEOUT, f"{via}connect/read timeout")
        try:
            status = response.status
            attempt.status = status
            attempt.final_url = str(url)
            attempt.response_headers = response.headers
            location = response.headers.get("Location")
            if status in REDIRECT_STATUSES and location:
                if response.cookies:
                    # Some sites set a cookie and redirect to check it; without it they loop.
                    if attempt.cookies is None:
                        attempt.cookies = aiohttp.CookieJar(unsafe=True)
                    attempt.cookies.update_cookies(response.cookies, response.url)
                await self._drain_redirect_body(response)
                return status, location
            if response.content_length is not None and response.content_length > config.max_bytes:
                response.close()
                return attempt.result(
                    LinkState.TOO_LARGE,
                    f"Content-Length {response.content_length} exceeds {config.max_bytes} bytes",
                    bytes=0,
                )
            keep = config.keep_body and 200 <= status < 300
            chunks: list[builtins.bytes] = []
            received = 0
            content = response.content
            if response.content_length is not None and not response.headers.get("Content-Encoding"):
                # Unencoded and declared within the cap: one read (the common case, cheapest).
                # An encoded body is streamed: its declared length says nothing about the
                # decompressed size.
                data = await response.read()
                received = len(data)
                if keep:
                    chunks.append(data)
            else:
                while chunk := await content.readany():
                    received += len(chunk)
                    if received > config.max_bytes:
                        response.close()
                        return attempt.result(
                            LinkState.TOO_LARGE,
                            f"body exceeds {config.max_bytes} bytes",
                            bytes=received,
                        )
                    if keep:
                        chunks.append(chunk)
            response.release()
        except aiohttp.ClientError as exc:
            response.close()
            return self._failure(attempt, exc, via)
        except TimeoutError:
            response.close()
            return attempt.result(LinkState.TIMEOUT, f"{via}read timeout")
        except BaseException:  # the total deadline (cancellation): drop the connection
            response.close()
            raise
        return _Final(status, received, b"".join(chunks) if keep else None)

    async def _drain_redirect_body(self, response: aiohttp.ClientResponse) -> None:
        if response.content_length is not None and response.content_length > _REDIRECT_BODY_LIMIT:
            response.close()
            return
        drained = 0
        while drained <= _REDIRECT_BODY_LIMIT:
            chunk = await response.content.readany()
            if not chunk:
                response.release()
                return
            drained += len(chunk)
        response.close()

    def _final(
        self, attempt: _Attempt, status: int, received: int, body: builtins.bytes | None
    ) -> LinkCheckResult:
        state = _state_for_status(status)
        error: str | None = None
        soft_404 = False
        if state is LinkState.OK and attempt.redirects:
            reason = soft_404_reason(attempt.url.strip(), attempt.final_url or "")
            if reason:
                state, error, soft_404, body = LinkState.NOT_FOUND, reason, True, None
            elif all(hop.status in PERMANENT_REDIRECT_STATUSES for hop in attempt.redirects):
                state = LinkState.REDIRECT_PERMANENT
            else:
                state = LinkState.REDIRECT_TEMPORARY
        elif state is LinkState.SERVER_ERROR and not 500 <= status < 600:
            error = f"unexpected status {status}"
        return attempt.result(state, error, bytes=received, body=body, soft_404=soft_404)

    def _failure(self, attempt: _Attempt, exc: BaseException, via: str) -> LinkCheckResult:
        blocked = _blocked_reason(exc)
        if blocked is not None:
            return attempt.result(LinkState.BLOCKED, f"{via}{blocked}")
        if isinstance(exc, aiohttp.InvalidURL):
            return attempt.result(LinkState.INVALID_URL, f"{via}not a URL: {exc}")
        if isinstance(exc, TimeoutError):
            return attempt.result(LinkState.TIMEOUT, f"{via}connect/read timeout")
        if isinstance(exc, aiohttp.ClientConnectorDNSError):
            message = f"DNS lookup failed for {exc.host}"
        elif isinstance(exc, aiohttp.ClientSSLError):
            message = f"TLS error: {exc}"
        elif isinstance(exc, aiohttp.ClientConnectorError):
            message = f"cannot connect to {exc.host}:{exc.port}: {exc.strerror or exc.os_error}"
        elif isinstance(exc, aiohttp.ServerDisconnectedError):
            message = "server closed the connection before answering"
        elif isinstance(exc, aiohttp.ClientPayloadError):
            message = f"body ended early: {exc}"
        elif isinstance(exc, aiohttp.ClientResponseError):
            message = f"invalid HTTP response: {exc.message}"
        else:
            message = f"{type(exc).__name__}: {exc}"
        return attempt.result(LinkState.CONNECTION_ERROR, f"{via}{message}")

    async def _check_safely(self, url: str) -> LinkCheckResult:
        try:
            return await self.check(url)
        except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:  # one odd URL must not end a batch of thousands
            logger.exception("linkcheck.unexpected_error", extra={"url": url})
            return _Attempt(url).result(
                LinkState.CONNECTION_ERROR, f"unexpected error: {type(exc).__name__}: {exc}"
            )

    async def iter_results(self, urls: Iterable[str]) -> AsyncIterator[LinkCheckResult]:
        """Check every URL; yield results as they complete (in no particular order).

        The same scheduling as `run_batch` (a bounded window of checks, hosts interleaved so
        one host's long run cannot starve the others), with a queue between it and the consumer.
        Leaving the loop early cancels the remaining checks.
        """
        results: asyncio.Queue[LinkCheckResult | None] = asyncio.Queue()

        async def produce() -> None:
            try:
                await self.run_batch(urls, results.put_nowait)
            finally:
                results.put_nowait(None)  # the end, also after an error

        producer = asyncio.ensure_future(produce())
        try:
            while (result := await results.get()) is not None:
                yield result
            await producer  # raise what the checks raised
        finally:
            if not producer.done():
                producer.cancel()
                await asyncio.gather(producer, return_exceptions=True)

    async def run_batch(self, urls: Iterable[str], on_result: Callable[[LinkCheckResult], None]) -> int:
        """Check every URL and hand each result to `on_result` as it completes; return the count.

        The callback runs in the event loop (keep it quick: buffer, don't block). Cheaper per
        URL than `iter_results`: no queue and no generator between a result and its consumer.
        An exception from the callback cancels the remaining checks and is raised here.
        """
        ordered = iter(_interleave_by_host(urls))
        window = max(256, self.config.concurrency * 8)
        running: set[asyncio.Task[LinkCheckResult]] = set()
        all_done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        count = 0

        def finished(task: asyncio.Task[LinkCheckResult]) -> None:
            nonlocal count
            running.discard(task)
            if all_done.done():
                return
            try:
                on_result(task.result())
                count += 1
                fill()
            except BaseException as exc:  # raised again from `await all_done` below
                all_done.set_exception(exc)
                return
            if not running:
                all_done.set_result(None)

        def fill() -> None:
            while len(running) < window:
                url = next(ordered, None)
                if url is None:
                    return
                task = asyncio.ensure_future(self._check_safely(url))
                running.add(task)
                task.add_done_callback(finished)

        fill()
        if not running:
            return 0
        try:
            await all_done
        finally:
            for task in list(running):
                task.cancel()
            if running:
                await asyncio.gather(*running, return_exceptions=True)
        return count


# --- synchronous entry points ---------------------------------------------------------------------


def check_url(url: str, config: LinkCheckConfig | None = None) -> LinkCheckResult:
    """Check one URL (one attempt) from synchronous code."""

    async def run() -> LinkCheckResult:
        async with LinkChecker(config) as checker:
            return await checker.check(url)

    return asyncio.run(run())


def post_url(
    url: str, body: builtins.bytes, headers: Mapping[str, str], config: LinkCheckConfig | None = None,
    *, resolver: AbstractResolver | None = None,
) -> PostResult:
    """One guarded POST from synchronous code (the webhook sender)."""

    async def run() -> PostResult:
        async with LinkChecker(config, resolver=resolver) as checker:
            return await checker.post(url, body, headers)

    return asyncio.run(run())


def check_urls(
    urls: Iterable[str],
    config: LinkCheckConfig | None = None,
    on_result: Callable[[LinkCheckResult], None] | None = None,
) -> list[LinkCheckResult]:
    """Check a batch in one event loop. With `on_result`, each result goes to the callback as it
    completes (called in the event loop: keep it quick) and the returned list is empty."""

    async def run() -> list[LinkCheckResult]:
        collected: list[LinkCheckResult] = []
        async with LinkChecker(config) as checker:
            await checker.run_batch(urls, collected.append if on_result is None else on_result)
        return collected

    return asyncio.run(run())


class _Failed:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


_DONE = object()


def iter_check_urls(
    urls: Iterable[str], config: LinkCheckConfig | None = None
) -> Iterator[LinkCheckResult]:
    """Check a batch in a background event loop; yield results here as they complete.

    Made for callers that do blocking work per result, such as bulk database writes: the loop
    keeps fetching while the caller writes. Leaving the loop early cancels the remaining checks.
    """
    results: queue.SimpleQueue[Any] = queue.SimpleQueue()
    url_list = list(urls)
    ready = threading.Event()
    holder: dict[str, Any] = {}

    async def main() -> None:
        async with LinkChecker(config) as checker:
            async for result in checker.iter_results(url_list):
                results.put(result)

    def run() -> None:
        loop = asyncio.new_event_loop()
        task = loop.create_task(main())
        holder["loop"], holder["task"] = loop, task
        ready.set()
        try:
            loop.run_until_complete(task)
        except asyncio.CancelledError:
            pass
        except BaseException as exc:  # handed to the consumer thread, which re-raises it
            results.put(_Failed(exc))
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            results.put(_DONE)

    thread = threading.Thread(target=run, name="citecheck-linkcheck", daemon=True)
    thread.start()
    ready.wait()
    try:
        while True:
            item = results.get()
            if item is _DONE:
                return
            if isinstance(item, _Failed):
                raise item.exc
            yield item
    finally:
        loop, task = holder["loop"], holder["task"]
        if not task.done():
            loop.call_soon_threadsafe(task.cancel)
        thread.join()


def write_json_lines(
    urls: Iterable[str], config: LinkCheckConfig, out: TextIO
) -> Counter[str]:
    """Check a batch and write one JSON object per line to `out`; return the count per state."""
    counts: Counter[str] = Counter()
    dumps = json.dumps
    write = out.write

    def emit(result: LinkCheckResult) -> None:
        counts[result.state.value] += 1
        write(dumps(result.to_json()) + "\n")

    check_urls(urls, config, on_result=emit)
    out.flush()
    return counts
