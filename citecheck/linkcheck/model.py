"""What a check is and what it finds: link states (RFC 9110), the checker's settings, results and hops."""

from __future__ import annotations

import builtins
import dataclasses
import enum
import ipaddress
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from citecheck.netguard import NetPolicy, url_host
from citecheck.urlnorm import registrable_domain

USER_AGENT = "Citecheck/0.1 (+link checker)"
ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf;q=0.9,*/*;q=0.8"
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
PERMANENT_REDIRECT_STATUSES = frozenset({301, 308})
# A redirect response's body is never needed; past this much we drop the connection instead.
REDIRECT_BODY_LIMIT = 64 * 1024
BLOCK_MARK = "[blocked]"


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
