"""A circuit breaker for an outside endpoint (pure, no Django; the state lives in a table).

closed: calls go through; ``threshold`` failures in a row open it. open: no calls until
``retry_at``; the pause doubles each time it opens again (``base`` .. ``cap`` seconds). After the
pause it is half open: one trial call goes through; its success closes the breaker, its failure
opens it again for longer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half_open"

__all__ = ["CLOSED", "HALF_OPEN", "OPEN", "Breaker", "after_failure", "after_success", "admit"]


@dataclass(frozen=True, slots=True)
class Breaker:
    state: str = CLOSED
    consecutive_failures: int = 0
    opened_count: int = 0
    retry_at: datetime | None = None


def admit(breaker: Breaker, now: datetime, *, trial_seconds: float = 60.0) -> tuple[bool, Breaker, float]:
    """(may this call go through?, the breaker after deciding, seconds to wait when refused).

    An open breaker past its pause admits one trial and becomes half open; the trial holds the
    door for ``trial_seconds`` (a trial that never reports back does not keep it shut forever).
    """
    if breaker.state == CLOSED:
        return True, breaker, 0.0
    if breaker.retry_at is None or now >= breaker.retry_at:
        return True, replace(breaker, state=HALF_OPEN, retry_at=now + timedelta(seconds=trial_seconds)), 0.0
    return False, breaker, max(0.0, (breaker.retry_at - now).total_seconds())


def after_failure(breaker: Breaker, now: datetime, *, threshold: int, base: float, cap: float) -> Breaker:
    failures = breaker.consecutive_failures + 1
    if breaker.state == HALF_OPEN or failures >= threshold:
        opened = breaker.opened_count + 1
        pause = min(cap, base * 2 ** (opened - 1))
        return Breaker(state=OPEN, consecutive_failures=failures, opened_count=opened, retry_at=now + timedelta(seconds=pause))
    return replace(breaker, consecutive_failures=failures)


def after_success(breaker: Breaker) -> Breaker:
    return Breaker()
