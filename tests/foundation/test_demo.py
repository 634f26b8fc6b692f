"""The demo knowledge base loads idempotently."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from dispatch.models import WorkRequest
from reviews.models import TestPair
from sources.models import DomainPolicy, Source

pytestmark = pytest.mark.django_db


def test_demo_loads_twice_without_duplicates(redis_conn):
    call_command("load_demo", "--port", "8765")
    counts = (Source.objects.count(), DomainPolicy.objects.count(), WorkRequest.objects.count(), TestPair.objects.count())
    assert counts[0] == 7
    call_command("load_demo", "--port", "8765")
    assert (Source.objects.count(), DomainPolicy.objects.count(), WorkRequest.objects.count(), TestPair.objects.count()) == counts
    assert set(Source.objects.values_list("stage", flat=True)) == {"registered"}
