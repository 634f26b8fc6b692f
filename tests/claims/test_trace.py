"""Tracing an answer: the selector's contents (claim → citation → passage version with its backing
span → source version, fetch and approval → judgement), what changed since verification, the
page (span marked safely, links to Citecheck's own records, read-only for Viewers), and a query
count that does not grow with the number of claims."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from citecheck.judges import claim_hash
from claims.models import Answer, Citation, Claim
from claims.selectors import answer_trace
from claims.services import answer_submit
from reviews.services.degraded import block_apply
from sources.models import PassageVersion, SourceVersion
from sources.services import source_register, version_activate
from tests.sources.conftest import shop  # noqa: F401 (the demo shop on 127.0.0.1)

pytestmark = pytest.mark.django_db(transaction=True)

EXPRESS = "Delivery terms > Express delivery"


@pytest.fixture
def traced(shop, editor, approver, run_jobs):  # noqa: F811
    source = source_register(actor=editor, url=shop.url("/delivery"), priority="primary")
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    version_activate(actor=approver, version_id=version.pk)
    pv = PassageVersion.objects.filter(passage__source=source, passage__heading_path=EXPRESS).order_by("id").first()
    answer = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1].", passage_version_ids=[pv.pk], question="How fast?")
    run_jobs()
    answer.refresh_from_db()
    return answer, pv, source, version


def test_trace_follows_the_answer_to_passage_fetch_approval_and_judgement(traced, approver):
    answer, pv, source, version = traced
    trace = answer_trace(answer_id=answer.pk)
    json.dumps(trace)  # JSON-ready, as the API serves it
    assert trace["answer"]["id"] == answer.pk and trace["answer"]["verified_at"]
    [claim] = trace["claims"]
    assert claim["text"] == "Express delivery takes 1 to 2 working days."
    [evidence] = claim["evidence"]
    assert evidence["cited"] and evidence["source_number"] == 1
    passage = evidence["passage_version"]
    assert passage["id"] == pv.pk and passage["text"] == pv.text
    assert passage["heading_path"] == EXPRESS and passage["anchor"] == "express"
    assert passage["fingerprint"] == pv.fingerprint and passage["is_active_version"] is True and passage["blocked"] is False
    start, end = passage["span_start"], passage["span_end"]
    assert start is not None and pv.text[start:end] == passage["span"]
    assert "1 to 2 working days" in passage["span"]
    assert evidence["source"]["live_url"] == shop_url(source) + "#express"
    assert evidence["source_version"]["id"] == version.pk and evidence["source_version"]["is_active"]
    fetch = evidence["source_version"]["fetch"]
    assert fetch["requested_url"] == source.canonical_url and fetch["status_code"] == 200 and fetch["final_url"]
    [approval] = evidence["source_version"]["approvals"]
    assert approval["approver"] == approver.username and approval["decision"] == "approve" and approval["at"]
    [judgement] = evidence["judgements"]
    assert judgement["status"] == "supported" and judgement["judge"] == "builtin" and judgement["rationale"]
    assert evidence["changes"] == [] and trace["changed"] is False


def shop_url(source) -> str:
    return source.canonical_url.split("#")[0]


def test_a_block_after_verification_is_marked_on_the_trace(traced, editor):
    answer, pv, _, _ = traced
    block_apply(actor=editor, target="passage", reason="Wrong price on the page", passage_version_id=pv.pk)
    trace = answer_trace(answer_id=answer.pk)
    evidence = trace["claims"][0]["evidence"][0]
    assert trace["changed"] is True
    assert evidence["passage_version"]["blocked"] is True
    [blocked] = [c for c in evidence["changes"] if c["kind"] == "blocked"]
    assert "Wrong price on the page" in blocked["message"] and editor.username in blocked["message"]


def test_trace_page_marks_the_span_safely_and_links_to_citecheck_records(traced, viewer, client):
    answer, pv, source, version = traced
    client.force_login(viewer)
    html = client.get(reverse("admin:desk-trace", args=[answer.pk])).content.decode()
    assert re.search(r"<mark>[^<]*1 to 2 working days[^<]*</mark>", html)
    assert reverse("admin:sources_passageversion_change", args=[pv.pk]) in html
    assert reverse("admin:sources_sourceversion_change", args=[version.pk]) in html
    live = re.search(r'<a href="([^"]+#express)" rel="([^"]+)"', html)
    assert live and live.group(2) == "noopener noreferrer nofollow" and live.group(1).startswith("http://127.0.0.1")
    main = html.split('id="content-main"', 1)[1]
    assert "<form" in main and 'method="post"' not in main, "the trace offers no action, only the id form"
    approved = re.search(r'<th scope="row">Approved</th><td>([^<]*)</td>', html)
    assert approved and approved.group(1).startswith(f"approve by {version.approvals.get().approver.username} on "), html
    assert "+00:00" not in approved.group(1), "the approval time is shown as a date, not as an ISO string"


def test_fetched_text_is_escaped_on_the_trace(traced, viewer, client):
    answer, pv, _, _ = traced
    hostile = PassageVersion.objects.create(
        passage=pv.passage, text='Express <script>alert(1)</script> takes 1 to 2 working days.', fingerprint="f" * 64,
        first_version=pv.first_version, change_kind="changed", first_seen_at=pv.first_seen_at, last_seen_at=pv.last_seen_at,
    )
    claim = Claim.objects.get(answer=answer)
    Citation.objects.create(claim=claim, passage_version=hostile, source_number=2, quote="<b>quoted</b>")
    client.force_login(viewer)
    html = client.get(reverse("admin:desk-trace", args=[answer.pk])).content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>quoted</b>" not in html
    trace = answer_trace(answer_id=answer.pk)
    marked = trace["claims"][0]["evidence"][1]
    assert any(c["kind"] == "not_active" for c in marked["changes"]), "text outside the active version is marked"


def test_paste_an_answer_id_and_find_where_a_passage_is_used(traced, viewer, client):
    answer, pv, _, _ = traced
    client.force_login(viewer)
    response = client.get(reverse("admin:desk-trace-find"), {"answer": str(answer.pk)})
    assert response.status_code == 302 and response["Location"] == reverse("admin:desk-trace", args=[answer.pk])
    missing = client.get(reverse("admin:desk-trace-find"), {"answer": "999999"}).content.decode()
    assert "There is no answer 999999" in missing
    used = client.get(reverse("admin:desk-trace-find"), {"passage_version": pv.pk}).content.decode()
    assert reverse("admin:desk-trace", args=[answer.pk]) in used
    page = client.get(reverse("admin:sources_passageversion_change", args=[pv.pk])).content.decode()
    assert f"{reverse('admin:desk-trace-find')}?passage_version={pv.pk}" in page, "reachable from the passage"


def test_people_without_the_view_permission_cannot_read_a_trace(traced, client, django_user_model):
    answer, *_ = traced
    nobody = django_user_model.objects.create_user("nobody", password="pw-nobody", is_staff=True)
    client.force_login(nobody)
    assert client.get(reverse("admin:desk-trace", args=[answer.pk])).status_code == 403


def test_query_count_does_not_grow_with_the_claims(traced, django_assert_max_num_queries):
    answer, pv, _, _ = traced
    with CaptureQueriesContext(connection) as small:
        answer_trace(answer_id=answer.pk)
    others = list(PassageVersion.objects.exclude(pk=pv.pk)[:5])
    claims = Claim.objects.bulk_create(
        Claim(answer=answer, text=f"Claim {i}.", text_hash=claim_hash(f"Claim {i}."), position=10 + i) for i in range(15)
    )
    Citation.objects.bulk_create(Citation(claim=c, passage_version=others[i % len(others)], source_number=1) for i, c in enumerate(claims))
    with django_assert_max_num_queries(13), CaptureQueriesContext(connection) as big:
        trace = answer_trace(answer_id=answer.pk)
    assert len(trace["claims"]) == 16
    assert len(big.captured_queries) == len(small.captured_queries)


@pytest.mark.parametrize("as_of", ["given", "now"])
def test_query_count_as_of_a_moment_does_not_grow_with_the_claims_or_their_evidence(traced, editor, viewer, client, as_of,
                                                                                      django_assert_max_num_queries):
    """The trace as it was given (or at any moment) and its desk page: the evidence then (versions,
    approvals, blocks, source states) costs the same queries for one passage as for six."""
    answer, pv, _, _ = traced
    client.force_login(viewer)
    url = reverse("admin:desk-trace", args=[answer.pk])
    moment: Any = "given" if as_of == "given" else timezone.now()

    def counted() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as trace_queries:
            trace = answer_trace(answer_id=answer.pk, as_of=moment)
        assert all(e["at_moment"] for claim in trace["claims"] for e in claim["evidence"] if e["passage_version"])
        with CaptureQueriesContext(connection) as page_queries:
            assert client.get(url, {"as_of": moment if moment == "given" else moment.isoformat()}).status_code == 200
        return len(trace_queries), len(page_queries)

    small = counted()
    others = list(PassageVersion.objects.exclude(pk=pv.pk)[:5])
    block_apply(actor=editor, target="passage", passage_id=others[0].passage_id, reason="wrong figure")
    claims = Claim.objects.bulk_create(
        Claim(answer=answer, text=f"Claim {i}.", text_hash=claim_hash(f"Claim {i}."), position=10 + i) for i in range(15)
    )
    Citation.objects.bulk_create(Citation(claim=c, passage_version=others[i % len(others)], source_number=1) for i, c in enumerate(claims))
    if as_of == "now":
        moment = timezone.now()  # after the block: it is in force at this moment
    with django_assert_max_num_queries(sum(small)):
        big = counted()
    assert big == small


def test_claims_are_paginated_on_the_trace(traced, viewer, client):
    answer, pv, _, _ = traced
    Claim.objects.bulk_create(Claim(answer=answer, text=f"Claim {i}.", text_hash=claim_hash(f"Claim {i}."), position=10 + i) for i in range(30))
    trace = answer_trace(answer_id=answer.pk, page=2, per_page=20)
    assert trace["claims_page"] == {"page": 2, "per_page": 20, "total": 31, "pages": 2}
    assert len(trace["claims"]) == 11
    client.force_login(viewer)
    html = client.get(reverse("admin:desk-trace", args=[answer.pk])).content.decode()
    assert "page 1 of 2, 31 claims" in html and 'href="?page=2"' in html
    assert Answer.objects.filter(pk=answer.pk).exists()


def test_a_passage_never_approved_is_not_said_to_be_no_longer_active(shop, editor, run_jobs):  # noqa: F811
    """A cited passage whose source has no approved version yet: the trace says it is not approved
    yet, not that it 'is no longer' in the active version (there never was one)."""
    source = source_register(actor=editor, url=shop.url("/delivery"), priority="primary")
    run_jobs()
    pv = PassageVersion.objects.filter(passage__source=source, passage__heading_path=EXPRESS).order_by("id").first()
    answer = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1].", passage_version_ids=[pv.pk], question="How fast?")
    run_jobs()
    [claim] = answer_trace(answer_id=answer.pk)["claims"]
    messages = [c["message"] for c in claim["evidence"][0]["changes"] if c["kind"] == "not_active"]
    assert messages == ["This text is not approved yet: no version of the source that holds it has been activated."]
