"""Golden pairs and the built-in judge's confidence (issue 13): a verdict the judge could not
decide (``confidence="low"``) never counts as a pass, even when its status is the expected one."""

from __future__ import annotations

import pytest

from reviews import testpairs
from reviews.models import TestResult
from sources.models import SourceVersion
from sources.services import source_register, version_activate, version_test

pytestmark = pytest.mark.django_db(transaction=True)

PAIRS = (
    '[{"claim": "The Ridge 2 tent sleeps two people comfortably.", "expected_status": "unsupported", '
    '"expected_heading": "Price list > Tents"}, '
    '{"claim": "The Ridge 2 tent costs £149.", "expected_status": "supported", "expected_heading": "Price list > Tents"}]'
)


def test_a_low_confidence_verdict_is_not_a_pass(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"))
    run_jobs()
    version = SourceVersion.objects.filter(source=source).order_by("-number").first()
    version_activate(actor=approver, version_id=version.pk, reason="prices checked")
    assert testpairs.testpairs_import(actor=editor, source_id=source.pk, text=PAIRS)["created"] == 2

    run = version_test(version_id=version.pk, again=True)
    results = {r.pair.claim: r for r in TestResult.objects.filter(run=run).select_related("pair")}
    unsure = results["The Ridge 2 tent sleeps two people comfortably."]
    assert unsure.actual_status == "unsupported" and not unsure.passed
    assert "could not decide" in unsure.detail
    assert results["The Ridge 2 tent costs £149."].passed
