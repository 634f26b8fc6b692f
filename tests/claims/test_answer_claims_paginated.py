"""The answer page lists a long answer's claims a page at a time (issue 11.6: every page that
lists claims paginates them), so a large answer cannot tie up a web worker."""

from __future__ import annotations

import hashlib

import pytest
from django.urls import reverse

from claims.admin import CLAIMS_PER_PAGE
from claims.models import Answer, Claim

pytestmark = pytest.mark.django_db


def _answer_with_claims(count: int) -> Answer:
    answer = Answer.objects.create(raw_response="long answer", answer_text="long answer")
    Claim.objects.bulk_create(
        Claim(answer=answer, position=i, text=f"Claim number {i:03d} says something.",
              text_hash=hashlib.sha256(str(i).encode()).hexdigest())
        for i in range(1, count + 1)
    )
    return answer


def test_a_long_answer_shows_its_claims_a_page_at_a_time(client, superuser):
    answer = _answer_with_claims(CLAIMS_PER_PAGE * 2 + 7)
    client.force_login(superuser)
    url = reverse("admin:claims_answer_change", args=[answer.pk])

    first = client.get(url).content.decode()
    assert "Claim number 001" in first and f"Claim number {CLAIMS_PER_PAGE:03d}" in first
    assert f"Claim number {CLAIMS_PER_PAGE + 1:03d}" not in first, "the first page stops at the page size"
    assert f"{CLAIMS_PER_PAGE * 2 + 7} claims, {CLAIMS_PER_PAGE} to a page" in first
    assert '?claims_page=3">page 3</a>' in first

    last = client.get(url, {"claims_page": "3"}).content.decode()
    assert f"Claim number {CLAIMS_PER_PAGE * 2 + 7:03d}" in last and "Claim number 001" not in last

    odd = client.get(url, {"claims_page": "abc"})
    assert odd.status_code == 200 and "Claim number 001" in odd.content.decode(), "a bad page number shows the first page"
