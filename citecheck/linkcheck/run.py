"""The synchronous entry points: one URL, many at once, or results as they complete from a background loop."""

from __future__ import annotations

import asyncio
import builtins
import json
import queue
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TextIO

from aiohttp.abc import AbstractResolver

from citecheck.linkcheck.checker import LinkChecker
from citecheck.linkcheck.model import LinkCheckConfig, LinkCheckResult, PostResult

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
