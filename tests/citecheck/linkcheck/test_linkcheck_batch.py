"""Batch checking: limits the server can observe, results delivered as they complete."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from collections.abc import Callable

from citecheck.linkcheck import LinkCheckConfig, LinkChecker, LinkCheckResult, LinkState, check_urls, iter_check_urls
from tests.citecheck.linkcheck.conftest import LocalServer, StartRecorder

HANG_CAP = 60.0  # a cap against a hang, never a speed goal (those are in bench/)
# The checker stamps a departure and the recorder reads the clock again just after it: a busy
# machine can preempt the process between the two reads, so the recorded first start may be late
# by that much. Without the gap the starts would be microseconds apart, so this still shows it.
PREEMPTION = 0.05


def wait_until(check: Callable[[], bool], *, what: str) -> None:
    deadline = time.monotonic() + HANG_CAP
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


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
    recorder = StartRecorder()
    check_urls(urls, dataclasses.replace(config, host_min_gap=0.15, shared_limiter=recorder))
    assert len(server.stats.starts["gap"]) == 4
    starts = recorder.starts["127.0.0.1"]
    assert len(starts) == 4
    # The gap holds between actual departures (a late one pushes the later ones back): the k-th
    # request never leaves before k gaps after the first.
    assert all(start - starts[0] >= k * 0.15 - PREEMPTION for k, start in enumerate(starts))


def test_per_host_gap_from_a_domain_policy_overrides_the_default(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url(f"/count/policygap?s=0&i={i}", host="localhost") for i in range(3)]
    urls += [server.url(f"/count/nogap?s=0&i={i}") for i in range(3)]
    recorder = StartRecorder()
    check_urls(urls, dataclasses.replace(config, host_gaps={"localhost": 0.15}, host_concurrency=3, shared_limiter=recorder))
    assert len(server.stats.starts["policygap"]) == len(server.stats.starts["nogap"]) == 3
    slow, fast = recorder.starts["localhost"], recorder.starts["127.0.0.1"]
    assert len(slow) == 3 and all(start - slow[0] >= k * 0.15 - PREEMPTION for k, start in enumerate(slow))
    # The other host is not held by that gap: all three of its requests left before the gapped
    # host's second one was allowed.
    assert len(fast) == 3 and max(fast) < slow[1]


def test_results_arrive_as_they_complete(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/held/arrive"), server.url("/ok"), server.url("/status/404")]

    async def collect() -> list[LinkCheckResult]:
        out = []
        async with LinkChecker(config) as checker:
            async for result in checker.iter_results(urls):
                out.append(result)
                if len(out) == 2:  # the fast ones were handed over while the first was still held
                    server.stats.release("arrive")
        return out

    results = asyncio.run(collect())
    assert [r.url for r in results][-1] == urls[0]  # the held one last, not in input order
    assert {r.state for r in results} == {LinkState.OK, LinkState.NOT_FOUND}
    assert results[-1].state is LinkState.OK


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
    # 12 checks, 4 at a time: three waves. The consumer blocks on its first result (as if writing
    # to a slow database) until the server has seen every request: only a loop that keeps
    # fetching while the consumer blocks gets there; one driven by the consumer stalls at the
    # first wave and the wait runs into its cap.
    urls = [server.url(f"/count/threaded?s=0.05&i={i}") for i in range(12)]
    received = []
    for result in iter_check_urls(urls, dataclasses.replace(config, host_concurrency=4)):
        if not received:
            wait_until(lambda: len(server.stats.starts["threaded"]) == 12, what="every check started while the consumer blocked")
        received.append(result)
    assert sorted(r.url for r in received) == sorted(urls)


def _in_thread(work: Callable[[], object]) -> tuple[threading.Event, list[BaseException]]:
    done, errors = threading.Event(), []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, errors


def test_leaving_the_thread_iterator_early_cancels_the_rest(server: LocalServer, config: LinkCheckConfig) -> None:
    # The slow checks are held by the server until released and their own deadline is two
    # minutes: leaving the loop returns at once only if they are cancelled, not awaited.
    urls = [server.url("/ok")] + [server.url(f"/held/leave?i={i}") for i in range(5)]

    def leave_early() -> None:
        for result in iter_check_urls(urls, dataclasses.replace(config, timeout=120)):
            assert result.state is LinkState.OK
            break

    done, errors = _in_thread(leave_early)
    try:
        assert done.wait(timeout=HANG_CAP), "leaving the iterator waited for the held checks"
    finally:
        server.stats.release("leave")
    assert errors == []


def test_one_hosts_long_run_does_not_starve_the_others(server: LocalServer, config: LinkCheckConfig) -> None:
    # 12 held URLs on one host listed first, then one on another host: with 1 slot per host the
    # other host is served while the first host's run is still held, not after it.
    urls = [server.url(f"/held/starve?i={i}") for i in range(12)] + [server.url("/ok", host="localhost")]

    async def first_result() -> LinkCheckResult:
        async with LinkChecker(dataclasses.replace(config, host_concurrency=1, concurrency=4, timeout=120)) as checker:
            async for result in checker.iter_results(urls):
                return result
        raise AssertionError("missing result")

    try:
        first = asyncio.run(first_result())
    finally:
        server.stats.release("starve")
    assert "localhost" in first.url and first.state is LinkState.OK


def test_a_failing_callback_stops_the_batch_and_is_raised(server: LocalServer, config: LinkCheckConfig) -> None:
    urls = [server.url("/ok")] + [server.url(f"/held/callback?i={i}") for i in range(4)]

    def refuse(result: LinkCheckResult) -> None:
        raise RuntimeError(f"database is down ({result.state})")

    done, errors = _in_thread(lambda: check_urls(urls, dataclasses.replace(config, timeout=120), on_result=refuse))
    try:
        assert done.wait(timeout=HANG_CAP), "the held checks were awaited, not cancelled"
    finally:
        server.stats.release("callback")
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError) and "database is down" in str(errors[0])
