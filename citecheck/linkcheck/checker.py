"""One check: `LinkChecker` follows redirects by hand, judging every hop, within per-host limits and gaps."""

from __future__ import annotations

import asyncio
import builtins
import logging
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import Any, NamedTuple

import aiohttp
from aiohttp.abc import AbstractResolver
from yarl import URL

from citecheck.linkcheck.guard import GuardedResolver, blocked_reason, guarded_socket_factory
from citecheck.linkcheck.model import (
    ACCEPT,
    PERMANENT_REDIRECT_STATUSES,
    REDIRECT_BODY_LIMIT,
    REDIRECT_STATUSES,
    LinkCheckConfig,
    LinkCheckResult,
    LinkState,
    PostResult,
    RedirectHop,
)
from citecheck.linkcheck.retry import parse_retry_after
from citecheck.netguard import classify_url
from citecheck.urlnorm import registrable_domain

logger = logging.getLogger(__name__)


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
    """Per-host concurrency limit and optional minimum gap between request starts.

    The gap holds between actual departures: waiters leave one at a time, in arrival order, and
    each measures from the clock after the previous one left, so a wake-up made late by a busy
    machine pushes the later ones back instead of letting them bunch up against the host."""

    __slots__ = ("semaphore", "gap", "departures", "last_departure")

    def __init__(self, limit: int, gap: float) -> None:
        self.semaphore = asyncio.Semaphore(limit)
        self.gap = gap
        self.departures = asyncio.Lock()
        self.last_departure: float | None = None

    async def wait_gap(self) -> None:
        if self.gap <= 0:
            return
        loop = asyncio.get_running_loop()
        async with self.departures:
            if self.last_departure is not None:
                wait = self.last_departure + self.gap - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
            self.last_departure = loop.time()


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
                    while drained <= REDIRECT_BODY_LIMIT and (chunk := await response.content.readany()):
                        drained += len(chunk)
                finally:
                    response.close()
        except TimeoutError:
            return done(None, f"no answer within {self.config.timeout:g} s")
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            blocked = blocked_reason(exc)
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
        if response.content_length is not None and response.content_length > REDIRECT_BODY_LIMIT:
            response.close()
            return
        drained = 0
        while drained <= REDIRECT_BODY_LIMIT:
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
        blocked = blocked_reason(exc)
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
