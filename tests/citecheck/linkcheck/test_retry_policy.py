"""Retry policy: exponential backoff with jitter, Retry-After honoured and capped."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from citecheck.linkcheck import backoff_delay, gap_for, parse_retry_after


def test_backoff_grows_exponentially_with_jitter() -> None:
    rng = random.Random(7)
    for attempt in range(1, 7):
        full = 10.0 * 2 ** (attempt - 1)
        delays = [backoff_delay(attempt, base=10, cap=10_000, rng=rng) for _ in range(200)]
        assert all(full / 2 <= d <= full for d in delays)
        assert len({round(d, 6) for d in delays}) > 100  # jittered, not a fixed schedule


def test_backoff_is_capped() -> None:
    assert backoff_delay(40, base=60, cap=3600, rng=random.Random(1)) <= 3600
    assert backoff_delay(10_000, base=60, cap=3600, rng=random.Random(1)) <= 3600


def test_retry_after_is_honoured() -> None:
    # The server asked for 900 s: a first retry at ~60 s would be too early.
    assert backoff_delay(1, retry_after=900, base=60, cap=3600, rng=random.Random(3)) == 900


def test_retry_after_is_capped() -> None:
    assert backoff_delay(1, retry_after=365 * 86400, base=60, cap=3600) == 3600


def test_backoff_wins_when_longer_than_retry_after() -> None:
    assert backoff_delay(6, retry_after=5, base=60, cap=10_000, rng=random.Random(2)) >= 960


def test_attempt_numbers_start_at_one() -> None:
    with pytest.raises(ValueError):
        backoff_delay(0)


def test_parse_retry_after_seconds_and_http_dates() -> None:
    now = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("120", now) == 120
    assert parse_retry_after(" 0 ", now) == 0
    assert parse_retry_after("Sat, 01 Mar 2025 12:05:00 GMT", now) == 300
    assert parse_retry_after("Sat, 01 Mar 2025 11:00:00 GMT", now) == 0  # in the past: now
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("-5", now) is None
    assert parse_retry_after("", now) is None
    assert parse_retry_after(None, now) is None


def test_a_domain_policy_gap_applies_to_every_host_of_that_domain():
    gaps = {"example.co.uk": 2.0, "api.other.com": 0.5}
    assert gap_for("www.example.co.uk", gaps, 0.0) == 2.0
    assert gap_for("news.example.co.uk", gaps, 0.0) == 2.0
    assert gap_for("api.other.com", gaps, 0.0) == 0.5
    assert gap_for("www.other.com", gaps, 0.1) == 0.1
    assert gap_for("127.0.0.1", {}, 0.0) == 0.0
