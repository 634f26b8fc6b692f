"""The link checker: one GET per hop, redirects followed by hand, SSRF rules at connection level.

This is the only package that talks HTTP to the outside world (aiohttp stays confined here): the
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

from citecheck.linkcheck.checker import LinkChecker, gap_for, soft_404_reason
from citecheck.linkcheck.guard import BlockedAddressError, GuardedResolver, blocked_reason, guarded_socket_factory
from citecheck.linkcheck.model import (
    ACCEPT,
    BLOCK_MARK,
    DEFAULT_MAX_BYTES,
    PERMANENT_REDIRECT_STATUSES,
    REDIRECT_BODY_LIMIT,
    REDIRECT_STATUSES,
    SUCCESS_STATES,
    TRANSIENT_STATES,
    USER_AGENT,
    HostLimiter,
    LinkCheckConfig,
    LinkCheckResult,
    LinkState,
    PostResult,
    RedirectHop,
    blocked_domains_rule,
    config_from_settings,
)
from citecheck.linkcheck.retry import backoff_delay, parse_retry_after
from citecheck.linkcheck.run import check_url, check_urls, iter_check_urls, post_url, write_json_lines

__all__ = ["ACCEPT", "BLOCK_MARK", "BlockedAddressError", "DEFAULT_MAX_BYTES", "GuardedResolver", "HostLimiter", "LinkCheckConfig", "LinkCheckResult", "LinkChecker", "LinkState", "PERMANENT_REDIRECT_STATUSES", "PostResult", "REDIRECT_BODY_LIMIT", "REDIRECT_STATUSES", "RedirectHop", "SUCCESS_STATES", "TRANSIENT_STATES", "USER_AGENT", "backoff_delay", "blocked_domains_rule", "blocked_reason", "check_url", "check_urls", "config_from_settings", "gap_for", "guarded_socket_factory", "iter_check_urls", "parse_retry_after", "post_url", "soft_404_reason", "write_json_lines"]
