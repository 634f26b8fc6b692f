"""Golden pairs that cannot mislead an approver (issue 20, item 6): a version tested with no pairs
is not shown as passed, a pair added after the run is counted as not run, a pair can be added and
the pairs run again from the source page at any time, and the queue says "no golden pairs"."""

from __future__ import annotations

import pytest
from django.utils import timezone

from reviews.models import TestPair, TestRun
from reviews.selectors.queue import QueueCategory, QueueFilters, review_queue
from sources.models import ChangeKind, SourceVersion, VersionPassage
from sources.services.kept import queue_state_refresh
from tests.desk.kb import build_kb

pytestmark = pytest.mark.django_db


def _untested_candidate(source) -> SourceVersion:
    version = SourceVersion.objects.create(source=source, number=2, content_hash="h-none", body_compressed=SourceVersion.compress(b"z"),
                                           extraction_status="ok", compared_to=source.versions.get(is_active=True), diff_summary={"changed": 1})
    for m in VersionPassage.objects.filter(source_version__source=source, source_version__is_active=True):
        VersionPassage.objects.create(source_version=version, passage_version=m.passage_version, ordinal=m.ordinal, change_kind=ChangeKind.UNCHANGED)
    TestRun.objects.create(source_version=version, status="passed", finished_at=timezone.now(), passed_count=0, failed_count=0, judge="builtin")
    queue_state_refresh(source_ids=[source.pk])  # rows made here, not by the services: keep the queue as they would
    return version


def test_no_pairs_is_not_passed_and_a_late_pair_is_counted(client, editor):
    kb = build_kb(editor)
    TestPair.objects.filter(source=kb.delivery).delete()
    version = _untested_candidate(kb.delivery)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.delivery.pk}/").content.decode()
    assert "no golden pairs" in html
    assert "passed (0 passed, 0 failed)" not in html and "0/0" not in html
    assert "none: this source has no golden pairs, so nothing was tested" in html
    assert f"Add a golden pair to {kb.delivery}" in html
    detail = next(i.detail for i in review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL)).items if i.title.endswith(f"version {version.number}"))
    assert "no golden pairs" in detail

    TestPair.objects.create(source=kb.delivery, claim="Express delivery costs £9.95.")  # added after the run
    html = client.get(f"/admin/desk/sources/{kb.delivery.pk}/").content.decode()
    assert "1 pair(s) not run against this version" in html
    assert "not run against this version" in html
    assert f"Add a golden pair to {kb.delivery}" in html, "adding a pair stays one click away once there are pairs"


def test_the_active_version_can_run_its_pairs_again(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.prices.pk}/").content.decode()
    assert "Run the golden pairs of version 1 again" in html
