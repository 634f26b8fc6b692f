"""RQ entry points of the source pipeline: ids in, re-read rows, call one service."""

from __future__ import annotations

import logging
import time

from django.conf import settings

from dispatch.services import RetryLater, TakenById, current_attempt, work_taken_along
from sources.services import source_fetch
from sources.services.fetch import fetch_retry_delay, sources_recheck_reaching
from sources.services.versioning import versions_extract

logger = logging.getLogger(__name__)

# How many queued extractions one extract job claims per look (it looks again when they are done),
# and how many pages it stores to a transaction (and then writes their outcomes and sends the
# work they asked for).
TAKE_AT_ONCE = 8
STORE_EVERY = 4


def fetch_source(source_id: int) -> None:
    attempt = current_attempt()
    fetch = source_fetch(source_id=source_id, attempt=attempt)
    if fetch is None:
        return
    delay = fetch_retry_delay(fetch=fetch, attempt=attempt, retry_after=fetch.retry_after_seconds)
    if delay is not None:
        raise RetryLater(delay, f"{fetch.link_state}: attempt {attempt} failed, retrying in {delay:.0f}s")


def extract_version(version_id: int) -> None:
    """Extract one version, and take queued extractions along while there are some (at most
    `CITECHECK_EXTRACT_BATCH` pages, and only while the queue's timeout leaves room for one more
    page's deadline): the extractor process works on the next page while this one is stored.

    A taken page's request ends on its own row: failed with its error, or done. The done ones,
    and the tests' requests the pages made, are written and sent a few pages at a time; a page
    whose "done" was not written yet when the worker died is run again, and finds its version
    already extracted."""
    room = settings.RQ_QUEUE_TIMEOUTS["extract"] - settings.CITECHECK_EXTRACT_DEADLINE - 15
    with work_taken_along(job="sources.extract_version", write_every=STORE_EVERY) as taken:
        batch = TakenById(taken, key="version_id", noun="version to extract", own=version_id, budget=settings.CITECHECK_EXTRACT_BATCH - 1,
                          until=time.monotonic() + room, at_once=TAKE_AT_ONCE)
        versions_extract(version_id=version_id, take_next=batch.take_next, finished=batch.finished, store_every=STORE_EVERY)
    batch.raise_own_error()


def recheck_reaching(domain: str) -> None:
    sources_recheck_reaching(domain=domain)
