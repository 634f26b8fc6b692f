"""RQ entry points of the source pipeline: ids in, re-read rows, call one service."""

from __future__ import annotations

import logging

from dispatch.services import RetryLater, current_attempt
from sources.services import source_fetch, version_extract
from sources.services.fetch import fetch_retry_delay, sources_recheck_reaching

logger = logging.getLogger(__name__)


def fetch_source(source_id: int) -> None:
    attempt = current_attempt()
    fetch = source_fetch(source_id=source_id, attempt=attempt)
    if fetch is None:
        return
    delay = fetch_retry_delay(fetch=fetch, attempt=attempt, retry_after=fetch.retry_after_seconds)
    if delay is not None:
        raise RetryLater(delay, f"{fetch.link_state}: attempt {attempt} failed, retrying in {delay:.0f}s")


def extract_version(version_id: int) -> None:
    version_extract(version_id=version_id)


def recheck_reaching(domain: str) -> None:
    sources_recheck_reaching(domain=domain)
