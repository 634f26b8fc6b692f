"""Importing golden test pairs from CSV and JSON (service and `manage.py import_test_pairs`)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from citecheck.errors import InvalidInput, NotFound, PermissionRefused
from reviews import testpairs
from reviews.models import AuditLog, TestPair, TestRun
from sources.models import Passage, SourceVersion
from sources.services import source_refetch, source_register, version_retest

pytestmark = pytest.mark.django_db(transaction=True)

CSV = """claim,question,expected_status,expected_heading,expected_quote
Express delivery takes 1 to 2 working days.,How fast is express delivery?,supported,Delivery terms > Express delivery,1 to 2 working days
Express delivery costs £4.95.,What does express cost?,contradicted,Delivery terms > Express delivery,
,Empty claim?,supported,Delivery terms > Express delivery,
Delivery is free on Sundays.,,maybe,Delivery terms > Standard delivery,
Furniture ships by pigeon.,,supported,Delivery terms > Pigeon post,
Standard delivery costs £3.,,contradicted,Delivery terms > Standard delivery,costs £3.00
  Express delivery takes 1 to 2   working days.  ,,supported,Delivery terms > Express delivery,
We deliver to the whole EU.,Where do you deliver?,supported,,
"""


@pytest.fixture
def delivery(shop, editor, run_jobs):
    source = source_register(actor=editor, url=shop.url("/delivery"))
    run_jobs()
    return source


def test_csv_import_creates_good_rows_and_rejects_the_rest_with_reasons(delivery, editor):
    audit_before = AuditLog.objects.count()
    report = testpairs.testpairs_import(actor=editor, source_id=delivery.pk, text=CSV)

    assert (report["created"], report["duplicate"], report["invalid"]) == (3, 1, 4)
    reasons = {row["row"]: row["reason"] for row in report["rejected"]}
    assert sorted(reasons) == [3, 4, 5, 6, 7]
    assert "claim is empty" in reasons[3]
    assert "expected_status" in reasons[4] and "maybe" in reasons[4]
    assert "Pigeon post" in reasons[5]
    assert "quote does not appear" in reasons[6]
    assert "already has a test pair" in reasons[7]

    pairs = {pair.claim: pair for pair in TestPair.objects.filter(source=delivery).select_related("expected_passage")}
    assert set(pairs) == {
        "Express delivery takes 1 to 2 working days.",
        "Express delivery costs £4.95.",
        "We deliver to the whole EU.",
    }
    express = pairs["Express delivery takes 1 to 2 working days."]
    assert express.expected_passage == Passage.objects.get(source=delivery, heading_path="Delivery terms > Express delivery")
    assert (express.question, express.expected_status, express.expected_quote) == (
        "How fast is express delivery?", "supported", "1 to 2 working days"
    )
    assert express.created_by == editor
    assert pairs["Express delivery costs £4.95."].expected_status == "contradicted"
    assert pairs["We deliver to the whole EU."].expected_passage is None
    entries = AuditLog.objects.all()[: AuditLog.objects.count() - audit_before]
    assert [(e.action, e.actor_name) for e in entries] == [("testpairs_import", "editor")]
    assert entries[0].data["created_ids"] == sorted(p.pk for p in pairs.values())


def test_imported_pairs_run_against_the_next_version(shop, editor, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"))
    run_jobs()
    pairs = [
        {"claim": "The Summit sleeping bag costs £89.", "expected_heading": "Price list > Sleeping bags", "expected_quote": "£89"},
        {"claim": "The Ridge 2 tent costs £99.", "expected_status": "contradicted", "expected_heading": "Price list > Tents"},
    ]
    assert testpairs.testpairs_import(actor=editor, source_id=source.pk, text=json.dumps(pairs))["created"] == 2
    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()

    run = TestRun.objects.get(source_version__source=source, source_version__number=2)
    details = [r.detail for r in run.results.all()]
    assert (run.status, run.passed_count, run.failed_count) == ("passed", 2, 0), details


def test_json_import_and_refusals(delivery, editor, viewer):
    rows = [
        {"claim": "Orders over £50 are delivered free of charge.", "expected_status": "supported",
         "expected_heading": "Delivery terms > Standard delivery", "expected_quote": "Orders over £50"},
        {"claim": "Customs duties are included.", "expected_status": "CONTRADICTED",
         "expected_heading": "Delivery terms >  International delivery"},
        {"claim": "A quote without a passage.", "expected_quote": "free of charge"},
        {"claim": 42},
    ]
    report = testpairs.testpairs_import(actor=editor, source_id=delivery.pk, text=json.dumps(rows))
    assert (report["created"], report["duplicate"], report["invalid"]) == (3, 0, 1)
    assert report["rejected"][0]["row"] == 3
    assert TestPair.objects.get(claim="Customs duties are included.").expected_status == "contradicted"
    assert TestPair.objects.filter(claim="42").exists(), "JSON numbers are read as text"

    count = TestPair.objects.count()
    with pytest.raises(PermissionRefused):
        testpairs.testpairs_import(actor=viewer, source_id=delivery.pk, text=json.dumps(rows))
    assert AuditLog.objects.filter(action="testpairs_import", allowed=False, actor_name="viewer").exists()
    with pytest.raises(InvalidInput):
        testpairs.testpairs_import(actor=editor, source_id=delivery.pk, text='[{"claim": ')
    with pytest.raises(InvalidInput, match="claim column"):
        testpairs.testpairs_import(actor=editor, source_id=delivery.pk, text="statement,status\nx,supported\n")
    with pytest.raises(NotFound):
        testpairs.testpairs_import(actor=editor, source_id=delivery.pk + 999, text=json.dumps(rows))
    assert TestPair.objects.count() == count


def test_import_test_pairs_command(delivery, tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_text(CSV, encoding="utf-8")
    out = io.StringIO()
    call_command("import_test_pairs", str(delivery.pk), str(path), "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert (report["created"], report["duplicate"], report["invalid"]) == (3, 1, 4)

    out = io.StringIO()
    call_command("import_test_pairs", str(delivery.pk), str(path), stdout=out)
    text = out.getvalue()
    assert text.startswith("created 0, duplicate 4, invalid 4")
    assert "row 5:" in text and "Pigeon post" in text

    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_test_pairs", str(delivery.pk), str(tmp_path / "missing.csv"))
    with pytest.raises(CommandError, match="no source"):
        call_command("import_test_pairs", "999999", str(path))


def test_pairs_added_after_testing_run_when_an_editor_asks_for_a_retest(shop, editor, approver, run_jobs):
    source = source_register(actor=editor, url=shop.url("/warranty"))
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    assert TestRun.objects.get(source_version=version).failed_count == 0
    TestPair.objects.create(source=source, claim="Tents carry a 36-month warranty against manufacturing defects.",
                            expected_passage=Passage.objects.get(source=source, heading_path="Warranty > What the warranty covers"),
                            expected_status="supported")
    version_retest(actor=editor, version_id=version.pk)
    run_jobs()
    latest = TestRun.objects.filter(source_version=version).order_by("-id").first()
    assert TestRun.objects.filter(source_version=version).count() == 2
    assert latest.failed_count == 1, "the wrong warranty length fails the new pair"
