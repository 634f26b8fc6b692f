"""The kept counts of sources per link state and per evidence status (`SourceStateCount`, behind
/health/ and the overview) follow every way a source's row is written: registration, recorded
checks (one at a time and in bulk), bulk inserts and updates, a hand edit in a raw UPDATE, and
deletion. Each step is compared with a fresh recount and with what /health/ shows."""

from __future__ import annotations

from collections import Counter

import pytest
from django.db import connection
from django.urls import reverse

from citecheck.linkcheck import LinkState
from sources.models import EvidenceStatus, Source, SourceStateCount
from sources.selectors import link_health_summary
from sources.services.kept import kept_state_differences
from sources.services.record import fetch_record, fetch_records_bulk
from tests.sources.test_batch_records import make_source, ok

pytestmark = pytest.mark.django_db(transaction=True)


def _recounted() -> tuple[dict[str, int], dict[str, int]]:
    rows = list(Source.objects.values_list("link_state", "evidence_status"))
    return dict(Counter(s for s, _ in rows if s)), dict(Counter(e for _, e in rows))


def _agrees(step: str) -> None:
    differences = [d for d in kept_state_differences() if d.what == "SourceStateCount"]
    assert differences == [], f"after {step}: {[str(d) for d in differences]}"
    summary = link_health_summary(days=14)
    links, evidence = _recounted()
    assert {s: n for s, _, n in summary.now} == links, step
    assert {s: n for s, _, n in summary.evidence} == evidence, step


def test_every_write_path_of_a_source_moves_the_kept_counts(client, superuser):
    a = make_source("a")
    b = make_source("b", link_state="", evidence_status=EvidenceStatus.UNCHECKED)
    _agrees("Source.objects.create")
    assert SourceStateCount.objects.get(kind="link_state", state=LinkState.OK).sources == 1

    fetch_record(source_id=a.pk, result=ok(a, state=LinkState.NOT_FOUND, status_code=404))
    _agrees("a check that finds the page missing")
    assert Source.objects.get(pk=a.pk).link_state == LinkState.NOT_FOUND

    c, d = make_source("c"), make_source("d")
    fetch_records_bulk(pairs=[(b.pk, ok(b)), (c.pk, ok(c, state=LinkState.SERVER_ERROR, status_code=503)), (d.pk, ok(d)),
                              (a.pk, ok(a))])
    _agrees("checks recorded in bulk (the page back, a server error, an unchanged ok)")

    Source.objects.bulk_create([Source(url=f"https://bulk.example/{i}", canonical_url=f"https://bulk.example/{i}",
                                       normalized_url=f"https://bulk.example/{i}", domain="bulk.example",
                                       link_state=LinkState.GONE if i % 2 else LinkState.OK) for i in range(5)])
    _agrees("bulk_create")

    Source.objects.filter(domain="bulk.example").update(evidence_status=EvidenceStatus.DEAD, link_state=LinkState.TIMEOUT)
    _agrees("a bulk QuerySet.update of both fields")

    Source.objects.filter(domain="bulk.example").update(risk_level="high")
    _agrees("an update of other fields only")

    with connection.cursor() as cursor:  # as a hand edit or another tool would write it
        cursor.execute("UPDATE sources_source SET link_state = %s WHERE domain = %s", [LinkState.REDIRECT_LOOP, "bulk.example"])
    _agrees("a raw UPDATE")

    Source.objects.filter(domain="bulk.example").delete()
    _agrees("delete")
    assert not SourceStateCount.objects.filter(state=LinkState.REDIRECT_LOOP, sources__gt=0).exists()

    client.force_login(superuser)
    page = client.get(reverse("link-health")).content.decode()
    assert page.count("server error") >= 1, "/health/ shows the kept counts"
