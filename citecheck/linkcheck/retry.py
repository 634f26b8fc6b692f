"""The retry policy: `Retry-After` read as the server meant it, and exponential backoff with a cap."""

from __future__ import annotations

import email.utils
import random
from datetime import UTC, datetime

# --- retry policy -------------------------------------------------------------------------------


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP-date -> seconds from now (>= 0)."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def backoff_delay(
    attempt: int,
    retry_after: float | None = None,
    *,
    base: float = 60.0,
    cap: float = 3600.0,
    rng: random.Random | None = None,
) -> float:
    """Seconds to wait before retry number `attempt` (1 = first retry).

    Exponential backoff `base * 2**(attempt-1)` with "equal jitter" (a random value between half
    and all of it), at least the server's Retry-After, and never more than `cap` (a hostile or
    broken Retry-After of a year is capped too).
    """
    if attempt < 1:
        raise ValueError("attempt starts at 1")
    exponential = min(cap, base * 2 ** min(attempt - 1, 62))
    draw = (rng or random).uniform(0.5, 1.0)
    delay = exponential * draw
    if retry_after is not None and retry_after > 0:
        delay = max(delay, retry_after)
    return min(cap, delay)
