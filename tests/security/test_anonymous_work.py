"""Anonymous check-citations is bounded (issue 21, hole 6): the answer limits of POST /answers
apply, inline sources have a size limit, and each client address has its own rate limit (one
address spending it leaves another untouched). The desk's /check/ page keeps working."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from integrations import throttle

pytestmark = pytest.mark.django_db

SOURCES = "[1] Delivery terms\nExpress delivery takes 1 to 2 working days."
ANSWER = "Express delivery takes 1 to 2 working days [1]."


@pytest.fixture(autouse=True)
def _fresh_counters(redis_conn: Any) -> None:
    throttle._paused_until = 0.0


def _check(address: str, answer: str = ANSWER, sources: Any = SOURCES) -> Any:
    return Client(REMOTE_ADDR=address).post("/api/v1/check-citations", {"sources": sources, "answer": answer}, content_type="application/json")


def test_an_anonymous_answer_over_the_answer_limit_is_refused_before_any_work(settings: Any) -> None:
    assert _check("127.0.0.1").status_code == 200
    big = (ANSWER + " ") * (settings.CITECHECK_ANSWER_MAX_CHARS // len(ANSWER) + 1)
    response = _check("127.0.0.1", answer=big)
    assert response.status_code == 413, response.content[:300]
    assert response.json()["error"]["field"] == "answer"


def test_anonymous_inline_sources_have_a_size_limit(settings: Any) -> None:
    response = _check("127.0.0.1", sources="[1] x\n" + "word " * (getattr(settings, "CITECHECK_CHECK_SOURCES_MAX_CHARS", 512 * 1024) // 5 + 10))
    assert response.status_code == 413 and response.json()["error"]["field"] == "sources"


def test_anonymous_checks_are_throttled_per_address() -> None:
    with override_settings(CITECHECK_ANON_RATE_PER_MINUTE=3):
        # At most two windows can be met in one run: the limit is hit within 2 * 3 + 1 requests.
        statuses = [_check("127.0.0.2").status_code for _ in range(7)]
        assert 429 in statuses and set(statuses) == {200, 429}, statuses
        refused = _check("127.0.0.2")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert _check("127.0.0.1").status_code == 200, "another address has its own limit"


def test_the_desk_check_page_still_checks(client: Any, viewer: Any) -> None:
    client.force_login(viewer)
    response = client.post("/check/", {"sources": SOURCES, "answer": ANSWER})
    assert response.status_code == 200 and b"Express delivery" in response.content
