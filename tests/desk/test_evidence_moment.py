"""Evidence at a moment on the desk: the page per source (then against now, blocks then and why,
the incident switches), its export download, the trace as the answer was given, and the audit
log's link to the evidence at each row's moment."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from integrations.selectors import export_page
from reviews.models import AuditLog
from reviews.services import block_apply, site_switch_set
from tests.desk.kb import build_kb
from tests.integrations.conftest import build_source

pytestmark = pytest.mark.django_db


def test_the_page_shows_what_was_blocked_then_and_why_against_now(client, editor, approver):
    kb = build_kb(editor)
    before = timezone.now()
    block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="Customer complaint: wrong tent price")
    site_switch_set(actor=approver, primary_only=True, reason="incident 7")
    client.force_login(approver)
    url = reverse("admin:desk-evidence-moment")

    page = client.get(url, {"at": before.isoformat()}).content.decode()
    assert "Primary sources only</th><td>off</td><td>on</td>" in page
    assert "No block was in force." in page
    assert "2 / 0" in page, "the price list had 2 citable passages then, none now"

    after = timezone.now()
    page = client.get(url, {"at": after.isoformat()}).content.decode()
    assert "Customer complaint: wrong tent price" in page
    assert "Primary sources only</th><td>on</td><td>on</td>" in page
    assert f'{reverse("admin:desk-evidence-export")}?at=' in page


def test_query_count_does_not_grow_with_the_knowledge_base(client, editor, approver, django_assert_max_num_queries):
    client.force_login(approver)
    url = reverse("admin:desk-evidence-moment")

    def count() -> int:
        moment = timezone.now()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, {"at": moment.isoformat()}).status_code == 200
        return len(queries)

    build_source(url="https://a.example.com/1", title="One", passages=[("A", "a", "Alpha text of one.")])
    small = count()
    for n in range(12):
        build_source(url=f"https://b{n}.example.com/x", title=f"Source {n}", passages=[("B", "b", f"Beta text {n}."), ("C", "c", f"Gamma {n}.")])
    block_apply(actor=editor, target="domain", domain="b3.example.com", reason="incident")
    assert count() == small
    with django_assert_max_num_queries(small):
        client.get(url, {"at": timezone.now().isoformat()})


def test_export_download_is_the_export_as_of_that_moment(client, editor, approver):
    kb = build_kb(editor)
    moment = timezone.now()
    block_apply(actor=editor, target="passage", passage_id=kb.pvs["Price list > Tents"].passage_id, reason="wrong")
    client.force_login(approver)
    response = client.get(reverse("admin:desk-evidence-export"), {"at": moment.isoformat()})
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    lines = [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]
    assert lines == export_page(cursor=None, limit=1000, as_of=moment).items
    assert kb.pvs["Price list > Tents"].pk in {i["passage_version_id"] for i in lines}


def test_trace_as_it_was_given_shows_evidence_then(client, editor, approver):
    kb = build_kb(editor)
    block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="Customer complaint: wrong tent price")
    client.force_login(approver)
    url = reverse("admin:desk-trace", args=[kb.answer.pk])
    now_page = client.get(url).content.decode()
    assert "Citable then?" not in now_page and "as it was given" in now_page
    given = client.get(url, {"as_of": "given"}).content.decode()
    assert given.count("Citable then?") == 2
    assert "✗</span> no" not in given.split("Citable then?")[1].split("</tr>")[0], "the tent price was citable when the answer was given"
    assert "Customer complaint" in given  # blocked now, shown among the changes
    bad = client.get(url, {"as_of": "not a time"}).content.decode()
    assert "Give a date and time" in bad


def test_audit_rows_link_to_the_evidence_at_their_moment(client, editor, approver):
    kb = build_kb(editor)
    block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="complaint")
    client.force_login(approver)
    row = AuditLog.objects.filter(action="block_apply").get()
    page = client.get(reverse("admin:reviews_auditlog_changelist"), {"at__gte": (row.at - timezone.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%S")}).content.decode()
    assert "evidence at this moment" in page
    assert reverse("admin:desk-evidence-moment") + "?at=" in page
