"""Every link state on its own scenario, against a real local HTTP server."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import time
from urllib.parse import quote

from aiohttp.abc import AbstractResolver, ResolveResult

from citecheck.linkcheck import LinkCheckConfig, LinkChecker, LinkCheckResult, LinkState, check_url
from citecheck.netguard import NetPolicy
from tests.citecheck.linkcheck.conftest import LocalServer

JSON_KEYS = ["url", "state", "status_code", "final_url", "redirects", "content_type", "bytes", "elapsed_ms", "error"]


def test_ok_page_reports_status_type_size_and_validators(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/ok"), config)
    assert result.state is LinkState.OK
    assert result.status_code == 200
    assert result.final_url == server.url("/ok")
    assert result.redirects == []
    assert result.content_type == "text/html"
    assert result.charset == "utf-8"
    assert result.bytes == len("<p>hello page</p>")
    assert result.etag == '"v1"'
    assert result.last_modified == "Wed, 21 Oct 2015 07:28:00 GMT"
    assert result.error is None
    assert result.body is None  # only kept when asked
    assert list(result.to_json()) == JSON_KEYS
    json.dumps(result.to_json())


def test_body_is_kept_only_when_asked(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/ok"), dataclasses.replace(config, keep_body=True))
    assert result.body == b"<p>hello page</p>"


def test_requests_are_get_with_a_citecheck_user_agent(server: LocalServer, config: LinkCheckConfig) -> None:
    seen = json.loads(check_url(server.url("/echo"), dataclasses.replace(config, keep_body=True)).body or b"{}")
    assert seen["method"] == "GET"
    assert seen["headers"]["User-Agent"].startswith("Citecheck/")
    assert "Cookie" not in seen["headers"]


def test_head_is_never_trusted(server: LocalServer, config: LinkCheckConfig) -> None:
    # The server says 200 to HEAD and 404 to GET: the check must report what a reader gets.
    result = check_url(server.url("/get-only"), config)
    assert result.state is LinkState.NOT_FOUND
    assert ("HEAD", "/get-only") not in server.stats.methods


def test_every_permanent_hop_is_a_permanent_redirect(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/perm1"), config)
    assert result.state is LinkState.REDIRECT_PERMANENT
    assert result.status_code == 200
    assert result.final_url == server.url("/ok")
    assert [hop.to_json() for hop in result.redirects] == [
        {"url": server.url("/perm1"), "status": 301},
        {"url": server.url("/perm2"), "status": 308},
    ]


def test_any_temporary_hop_makes_a_temporary_redirect(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/mixed"), config)
    assert result.state is LinkState.REDIRECT_TEMPORARY
    assert [hop.status for hop in result.redirects] == [301, 302]
    assert result.final_url == server.url("/ok")
    assert check_url(server.url("/see-other"), config).state is LinkState.REDIRECT_TEMPORARY


def test_redirect_to_a_missing_page_is_not_found(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/to-missing"), config)
    assert result.state is LinkState.NOT_FOUND
    assert result.status_code == 404
    assert result.soft_404 is False
    assert result.redirects[0].status == 301


def test_status_codes_map_to_states(server: LocalServer, config: LinkCheckConfig) -> None:
    expected = {
        404: LinkState.NOT_FOUND,
        410: LinkState.GONE,
        429: LinkState.RATE_LIMITED,
        500: LinkState.SERVER_ERROR,
        502: LinkState.SERVER_ERROR,
        403: LinkState.CLIENT_ERROR,
        400: LinkState.CLIENT_ERROR,
        204: LinkState.OK,
    }
    for code, state in expected.items():
        result = check_url(server.url(f"/status/{code}"), config)
        assert (result.state, result.status_code) == (state, code)


def test_rate_limited_carries_retry_after_seconds_and_dates(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/limited?after=120"), config)
    assert result.state is LinkState.RATE_LIMITED
    assert result.retry_after == 120
    dated = check_url(server.url("/limited-date"), config)
    assert dated.retry_after is not None and 80 <= dated.retry_after <= 91
    unavailable = check_url(server.url("/unavailable"), config)
    assert (unavailable.state, unavailable.retry_after) == (LinkState.SERVER_ERROR, 30)
    assert unavailable.is_transient


def test_ten_redirects_are_followed_and_the_eleventh_is_a_loop(server: LocalServer, config: LinkCheckConfig) -> None:
    ten = check_url(server.url("/hops/10"), config)
    assert ten.state is LinkState.REDIRECT_TEMPORARY
    assert len(ten.redirects) == 10
    eleven = check_url(server.url("/hops/11"), config)
    assert eleven.state is LinkState.REDIRECT_LOOP
    assert "more than 10 redirects" in (eleven.error or "")


def test_redirect_cycle_is_a_loop(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/loop-a"), config)
    assert result.state is LinkState.REDIRECT_LOOP
    assert "cycle" in (result.error or "")
    assert [hop.url for hop in result.redirects] == [server.url("/loop-a"), server.url("/loop-b")]


def test_deep_url_redirected_to_site_root_is_an_inferred_not_found(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/articles/2019/old-study"), config)
    assert result.state is LinkState.NOT_FOUND
    assert result.soft_404 is True
    assert result.status_code == 200
    assert "inferred" in (result.error or "")


def test_redirect_to_an_error_page_is_an_inferred_not_found(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/docs/guide/install"), config)
    assert result.state is LinkState.NOT_FOUND
    assert result.soft_404 is True


def test_renamed_page_is_not_mistaken_for_a_soft_404(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/docs/old-name"), config)
    assert result.state is LinkState.REDIRECT_PERMANENT
    assert result.final_url == server.url("/docs/new-name")


def test_cookies_live_only_within_one_check(server: LocalServer, config: LinkCheckConfig) -> None:
    # The gate sets a cookie and redirects to itself: it needs the cookie within the check...
    first = check_url(server.url("/cookie-gate"), config)
    assert first.state is LinkState.REDIRECT_TEMPORARY
    # ...and a later check of the same site starts without it (the gate redirects again).
    config_kept = dataclasses.replace(config, keep_body=True)

    async def two_checks() -> tuple[LinkCheckResult, LinkCheckResult]:
        async with LinkChecker(config_kept) as checker:
            return await checker.check(server.url("/cookie-gate")), await checker.check(server.url("/echo"))

    gate, echo = asyncio.run(two_checks())
    assert len(gate.redirects) == 1
    assert "Cookie" not in json.loads(echo.body or b"{}")["headers"]


def test_redirects_to_unsafe_targets_are_blocked(server: LocalServer, config: LinkCheckConfig) -> None:
    targets = {
        "http://169.254.169.254/latest/meta-data/": "metadata",
        "http://10.0.0.1/admin": "private",
        f"http://[::1]:{server.port}/ok": "loopback",
        "file:///etc/passwd": "scheme",
        "ftp://127.0.0.1/": "scheme",
    }
    for target, needle in targets.items():
        result = check_url(server.url(f"/redirect-to?target={quote(target)}"), config)
        assert result.state is LinkState.BLOCKED, target
        assert needle in (result.error or ""), result.error
        assert [hop.status for hop in result.redirects] == [302]
        assert result.status_code == 302
        assert result.final_url == result.redirects[0].url  # the last page that answered


def test_loopback_is_blocked_unless_opened(server: LocalServer) -> None:
    result = check_url(server.url("/ok"), LinkCheckConfig(timeout=5))
    assert result.state is LinkState.BLOCKED
    assert result.status_code is None and result.final_url is None


class _FakeDNS(AbstractResolver):
    """Stands in for the outside DNS: answers chosen by the test."""

    def __init__(self, answers: dict[str, list[str]]) -> None:
        self.answers = answers

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        return [
            ResolveResult(hostname=host, host=address, port=port, family=socket.AF_INET, proto=0, flags=0)
            for address in self.answers[host]
        ]

    async def close(self) -> None:
        return None


def _check_with_dns(config: LinkCheckConfig, url: str, answers: dict[str, list[str]]) -> LinkCheckResult:
    async def run() -> LinkCheckResult:
        async with LinkChecker(config, resolver=_FakeDNS(answers)) as checker:
            return await checker.check(url)

    return asyncio.run(run())


def test_a_name_resolving_to_a_private_address_is_blocked_at_connection(server: LocalServer, config: LinkCheckConfig) -> None:
    # The URL text is harmless; only the resolved address tells (DNS rebinding, internal names).
    result = _check_with_dns(config, f"http://internal.example:{server.port}/ok", {"internal.example": ["10.0.0.7"]})
    assert result.state is LinkState.BLOCKED
    assert "10.0.0.7" in (result.error or "")


def test_only_checked_addresses_are_connected_to(server: LocalServer, config: LinkCheckConfig) -> None:
    # One refused and one allowed address: the check goes through, to the allowed one only.
    answers = {"mixed.example": ["169.254.169.254", "127.0.0.1"]}
    assert _check_with_dns(config, f"http://mixed.example:{server.port}/ok", answers).state is LinkState.OK


def test_system_resolver_names_are_checked_too(server: LocalServer, config: LinkCheckConfig) -> None:
    assert check_url(f"http://localhost:{server.port}/ok", config).state is LinkState.OK
    assert check_url(f"http://localhost:{server.port}/ok", LinkCheckConfig(timeout=5)).state is LinkState.BLOCKED


def test_body_trickling_past_the_deadline_is_a_timeout(server: LocalServer, config: LinkCheckConfig) -> None:
    started = time.monotonic()
    result = check_url(server.url("/trickle"), dataclasses.replace(config, timeout=1.0))
    took = time.monotonic() - started
    assert result.state is LinkState.TIMEOUT
    assert result.status_code == 200  # the headers came; the body never finished
    # It stopped at its deadline, not when the body ended (ten seconds of trickle): a timeout, the
    # headers' status kept. A busy machine can only make it later, so the lower bound is safe.
    assert took >= 0.9 and result.elapsed_ms >= 900


def test_no_answer_within_the_deadline_is_a_timeout(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/slow?s=3"), dataclasses.replace(config, timeout=0.5))
    assert result.state is LinkState.TIMEOUT
    assert result.status_code is None and result.final_url is None


def test_endless_body_without_length_is_too_large_quickly(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/huge"), dataclasses.replace(config, timeout=20))
    assert result.state is LinkState.TOO_LARGE
    assert 10 * 1024 * 1024 < result.bytes < 12 * 1024 * 1024
    time.sleep(0.2)
    assert server.stats.huge_mb_sent < 64  # the checker hung up instead of draining 128 MB


def test_declared_length_over_the_cap_is_too_large_at_once(server: LocalServer, config: LinkCheckConfig) -> None:
    # The server holds the body until released: only a check decided on the declared length
    # alone comes back TOO_LARGE (one that waited for the body would run into its deadline).
    try:
        result = check_url(server.url("/declared-huge?hold=declared"), dataclasses.replace(config, timeout=30))
    finally:
        server.stats.release("declared")
    assert result.state is LinkState.TOO_LARGE
    assert result.content_type == "application/pdf"


def test_compressed_body_is_capped_by_its_decompressed_size(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(server.url("/gzip-bomb"), config)
    assert result.state is LinkState.TOO_LARGE
    assert result.bytes > 10 * 1024 * 1024


def test_small_cap_is_respected(server: LocalServer, config: LinkCheckConfig) -> None:
    assert check_url(server.url("/ok"), dataclasses.replace(config, max_bytes=5)).state is LinkState.TOO_LARGE


def test_connection_reset_is_a_connection_error(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(f"http://127.0.0.1:{server.reset_port}/page", config)
    assert result.state is LinkState.CONNECTION_ERROR
    assert result.status_code is None


def test_connection_closed_before_answer_is_a_connection_error(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(f"http://127.0.0.1:{server.close_port}/page", config)
    assert result.state is LinkState.CONNECTION_ERROR
    assert "closed" in (result.error or "")


def test_closed_port_is_a_connection_error(server: LocalServer, config: LinkCheckConfig) -> None:
    result = check_url(f"http://127.0.0.1:{server.closed_port}/page", config)
    assert result.state is LinkState.CONNECTION_ERROR
    assert result.final_url is None


def test_not_a_url_is_invalid_and_never_fetched(config: LinkCheckConfig) -> None:
    result = check_url("see the report on page 4", config)
    assert result.state is LinkState.INVALID_URL
    assert result.to_json()["status_code"] is None


def test_port_rule_applies_to_public_hosts(config: LinkCheckConfig) -> None:
    result = check_url("http://example.com:8080/", LinkCheckConfig(policy=NetPolicy(), timeout=5))
    assert result.state is LinkState.BLOCKED
    assert "port 8080" in (result.error or "")
