"""Batch checking: limits the server can observe, results delivered as they complete."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest

from citecheck.linkcheck import LinkCheckConfig, LinkChecker, LinkCheckResult, LinkState, check_urls, iter_check_urls
from tests.citecheck.linkcheck.conftest import LocalServer


def test_per_host_limit_is_never_exceeded(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url(f"/count/perhost?i={i}") for i in range(24)]
    results = check_urls(urls, dataclasses.replace(config, concurrency=64, host_concurrency=3))
    assert sorted(r.url for r in results) == sorted(urls)
    assert all(r.state is LinkState.OK for r in results)
    # The server counted requests in flight at once: the limit held, and was actually used.
    assert server.stats.max_in_flight["perhost"] == 3


def test_per_host_limit_counts_each_host_separately_under_a_global_limit(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url(f"/count/global?i={i}", host=host) for i in range(15) for host in ("127.0.0.1", "localhost")]
    check_urls(urls, dataclasses.replace(config, concurrency=5, host_concurrency=4))
    assert server.stats.max_in_flight["global"] == 5
    assert server.stats.max_in_flight["global@127.0.0.1"] <= 4
    assert server.stats.max_in_flight["global@localhost"] <= 4


def test_minimum_gap_between_requests_to_one_host(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url(f"/count/gap?s=0&i={i}") for i in range(4)]
    check_urls(urls, dataclasses.replace(config, host_min_gap=0.15))
    starts = sorted(server.stats.starts["gap"])
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:], strict=False)]
    assert len(gaps) == 3
    assert min(gaps) >= 0.13


def test_per_host_gap_from_a_domain_policy_overrides_the_default(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url(f"/count/policygap?s=0&i={i}", host="localhost") for i in range(3)]
    urls += [server.url(f"/count/nogap?s=0&i={i}") for i in range(3)]
    check_urls(urls, dataclasses.replace(config, host_gaps={"localhost": 0.15}))
    slow = sorted(server.stats.starts["policygap"])
    fast = sorted(server.stats.starts["nogap"])
    assert slow[-1] - slow[0] >= 0.26  # two gaps of 0.15 s, with the same slack as the test above (0.13 a gap)
    assert fast[-1] - fast[0] < 0.1


def test_results_arrive_as_they_complete(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/slow?s=0.6"), server.url("/ok"), server.url("/status/404")]

    async def collect() -> list[tuple[float, LinkCheckResult]]:
        started = time.monotonic()
        out = []
        async with LinkChecker(config) as checker:
            async for result in checker.iter_results(urls):
                out.append((time.monotonic() - started, result))
        return out

    timed = asyncio.run(collect())
    assert [r.url for _, r in timed][-1] == urls[0]  # the slow one last, not in input order
    assert timed[0][0] < 0.4  # the fast ones were handed over before the slow one finished
    assert {r.state for _, r in timed} == {LinkState.OK, LinkState.NOT_FOUND}


def test_callback_receives_every_result(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/ok"), "not a url", server.url("/status/410"), "file:///etc/passwd"]
    seen: list[LinkCheckResult] = []
    assert check_urls(urls, config, on_result=seen.append) == []
    assert {r.url: r.state for r in seen} == {
        urls[0]: LinkState.OK,
        urls[1]: LinkState.INVALID_URL,
        urls[2]: LinkState.GONE,
        urls[3]: LinkState.BLOCKED,
    }


def test_thread_iterator_lets_the_caller_block_while_checks_continue(server: LocalServer, config: LinkCheckConfig) -> None:
    # 12 checks of 0.3 s, 4 at a time: three waves. The consumer spends 0.1 s per result (as if
    # writing to a database). Since fetching goes on meanwhile, the total is ~1.5 s; a loop
    # blocked by the consumer would start each wave only after the previous one was consumed
    # (~2.1 s).
    urls = [server.url(f"/count/threaded?s=0.3&i={i}") for i in range(12)]
    started = time.monotonic()
    received = []
    for result in iter_check_urls(urls, dataclasses.replace(config, host_concurrency=4)):
        received.append(result)
        time.sleep(0.1)
    took = time.monotonic() - started
    assert sorted(r.url for r in received) == sorted(urls)
    assert took < 1.8


def test_leaving_the_thread_iterator_early_cancels_the_rest(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/ok")] + [server.url(f"/slow?s=3&i={i}") for i in range(5)]
    started = time.monotonic()
    for result in iter_check_urls(urls, config):
        assert result.state is LinkState.OK
        break
    assert time.monotonic() - started < 2


def test_one_hosts_long_run_does_not_starve_the_others(server: LocalServer, config: LinkCheckConfig) -> None:
    # 12 slow URLs on one host listed first, then one on another host: with 1 slot per host
    # the other host is served at once, not after the whole run.
    urls = [server.url(f"/slow?s=0.2&i={i}") for i in range(12)] + [server.url("/ok", host="localhost")]

    async def first_other() -> float:
        started = time.monotonic()
        async with LinkChecker(dataclasses.replace(config, host_concurrency=1, concurrency=4)) as checker:
            async for result in checker.iter_results(urls):
                if "localhost" in result.url:
                    return time.monotonic() - started
        raise AssertionError("missing result")

    assert asyncio.run(first_other()) < 1.0


def test_a_failing_callback_stops_the_batch_and_is_raised(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/ok")] + [server.url(f"/slow?s=3&i={i}") for i in range(4)]

    def refuse(result: LinkCheckResult) -> None:
        raise RuntimeError(f"database is down ({result.state})")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="database is down"):
        check_urls(urls, config, on_result=refuse)
    assert time.monotonic() - started < 2  # the slow checks were cancelled, not awaited
