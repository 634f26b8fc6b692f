"""An answer sent back by the bot is verified against registered passages: claim states,
the two-independent-sources rule, answer states with wording, report card, re-verification."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.utils.html import escape

from claims.models import Answer, AnswerState, Judgement
from claims.services import answer_submit
from sources.demo.site import serve
from sources.models import PassageVersion, SourceVersion
from sources.services import source_refetch, source_register, version_activate
from tests.integrations.conftest import make_token

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_shops():
    """The demo shop on two loopback addresses: two independent registrable "domains"."""
    servers = [serve(host, 0) for host in ("127.0.0.1", "127.0.0.2")]
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.0/8"]):
        yield [(f"http://{s.server_address[0]}:{s.server_address[1]}", state) for s, state in servers]
    for server, _ in servers:
        server.shutdown()
        server.server_close()


def _activate(url, editor, approver, run_jobs, priority="primary"):
    source = source_register(actor=editor, url=url, priority=priority)
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    version_activate(actor=approver, version_id=version.pk)
    return source


def _passage(source, heading):
    return PassageVersion.objects.get(passage__source=source, passage__heading_path=heading)


def test_two_independent_sources_verify_a_claim_and_a_changed_number_contradicts(two_shops, editor, approver, run_jobs):
    (base_a, _), (base_b, _) = two_shops
    a = _activate(base_a + "/delivery", editor, approver, run_jobs)
    b = _activate(base_b + "/delivery", editor, approver, run_jobs)
    pa, pb = _passage(a, "Delivery terms > Express delivery"), _passage(b, "Delivery terms > Express delivery")
    text = "Hello! Express delivery takes 1 to 2 working days [1][2]. Express delivery costs £4.95 [1]."
    answer = answer_submit(actor=editor, raw_response=text, passage_version_ids=[pa.pk, pb.pk], question="How fast is express?", mode="research")
    run_jobs()
    answer.refresh_from_db()
    claims = {c["claim"]: c for c in answer.report["claims"]}
    assert claims["Express delivery takes 1 to 2 working days."]["state"] == "supported"
    assert claims["Express delivery takes 1 to 2 working days."]["verified"] is True
    assert claims["Express delivery takes 1 to 2 working days."]["confidence"] == "medium"
    assert claims["Express delivery costs £4.95."]["state"] == "contradicted"
    assert answer.state == AnswerState.CONTRADICTED, "one source refutes the claim; no two sources disagree"
    assert answer.state_wording
    assert "Hello!" not in claims, "a greeting needs no evidence"
    card = answer.report["card"]
    assert card["verified"] == 1 and card["contradicted"] == 1
    assert card["gaps"], "under the 70% threshold the card lists gaps"
    assert all(b["url"].startswith(("http://127.0.0.1", "http://127.0.0.2")) for b in answer.report["bibliography"])


def test_one_site_twice_is_a_single_source(two_shops, editor, approver, run_jobs):
    (base, _), _ = two_shops
    a = _activate(base + "/delivery", editor, approver, run_jobs)
    b = _activate(base + "/old-delivery", editor, approver, run_jobs)  # same site, another page
    ids = [_passage(a, "Delivery terms > Express delivery").pk, _passage(b, "Delivery terms > Express delivery").pk]
    answer = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1][2].", passage_version_ids=ids, mode="research")
    kb = answer_submit(actor=editor, raw_response="Express delivery takes 1 to 2 working days [1][2].", passage_version_ids=ids)
    run_jobs()
    answer.refresh_from_db()
    [claim] = answer.report["claims"]
    assert claim["state"] == "single_source"
    assert answer.state == AnswerState.PARTLY_SUPPORTED, "research needs two independent domains"
    kb.refresh_from_db()
    assert kb.verification_mode == "knowledge_base" and kb.state == AnswerState.SUPPORTED, "one approved primary source is enough"


def test_unstated_claim_has_no_evidence_and_judgements_are_cached(two_shops, editor, approver, run_jobs):
    (base, _), _ = two_shops
    source = _activate(base + "/warranty", editor, approver, run_jobs)
    pv = _passage(source, "Warranty > What the warranty covers")
    raw = json.dumps({"choices": [{"message": {"content": "Shipping to Norway is free [1]."}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 12}})
    first = answer_submit(actor=editor, raw_response=raw, passage_version_ids=[pv.pk])
    run_jobs()
    first.refresh_from_db()
    assert first.answer_format == "openai_chat"
    assert first.state == AnswerState.NO_EVIDENCE
    judged = Judgement.objects.count()
    second = answer_submit(actor=editor, raw_response=raw, passage_version_ids=[pv.pk])
    run_jobs()
    assert Judgement.objects.count() == judged, "the same question is never asked twice"
    assert Answer.objects.get(pk=second.pk).state == AnswerState.NO_EVIDENCE


def test_a_changed_page_flags_the_answer_and_it_is_verified_again(two_shops, editor, approver, run_jobs):
    (base, shop), _ = two_shops
    source = _activate(base + "/prices", editor, approver, run_jobs)
    pv = _passage(source, "Price list > Tents")
    answer = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1].", passage_version_ids=[pv.pk])
    run_jobs()
    answer.refresh_from_db()
    assert answer.state == AnswerState.SUPPORTED
    shop.change()  # the tent now costs £169
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    answer.refresh_from_db()
    assert answer.verified_at is not None and not answer.needs_reverification
    # The cited text is still the active version's, but the live page no longer says it.
    assert answer.state == AnswerState.OUTDATED
    assert answer.claims.get().citations.get().passage_version_id == pv.pk


def test_api_answers_round_trip(two_shops, client, editor, approver, run_jobs):
    (base, _), _ = two_shops
    source = _activate(base + "/returns", editor, approver, run_jobs)
    pv = _passage(source, "Returns policy > Return window")
    auth = {"HTTP_AUTHORIZATION": "Bearer " + make_token(editor)}
    body = {"answer": "You may return any item within 30 days of delivery [1].", "passage_version_ids": [pv.pk]}
    response = client.post("/api/v1/answers", data=json.dumps(body), content_type="application/json", **auth)
    assert response.status_code == 202
    run_jobs()
    detail = client.get(f"/api/v1/answers/{response.json()['answer_id']}", **auth).json()
    assert detail["state"] == "supported"
    bad = client.post("/api/v1/answers", data=json.dumps({"answer": "x", "passage_version_ids": [10**9]}), content_type="application/json", **auth)
    assert bad.status_code == 404 and bad.json()["error"]["field"] == "passage_version_ids"
    assert client.post("/api/v1/answers", data=json.dumps(body), content_type="application/json").status_code == 401


def test_answer_view_in_the_admin_shows_state_wording_and_escaped_claims(two_shops, client, superuser, editor, approver, run_jobs):
    (base, _), _ = two_shops
    source = _activate(base + "/delivery", editor, approver, run_jobs)
    pv = _passage(source, "Delivery terms > Express delivery")
    answer = answer_submit(actor=editor, raw_response="Express delivery costs £9.95 [1]. <script>alert(1)</script>", passage_version_ids=[pv.pk])
    run_jobs()
    client.force_login(superuser)
    page = client.get(f"/admin/claims/answer/{answer.pk}/change/").content.decode()
    answer.refresh_from_db()

    # The script "sentence" is a claim no passage backs; the built-in judge may be unsure about it.
    assert answer.state in (AnswerState.PARTLY_SUPPORTED, AnswerState.PENDING)
    assert escape(answer.state_wording) in page
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page
    assert 'rel="noopener noreferrer nofollow"' in page, answer.report
    # An answer is a record the trace and the replay read: the page offers no Delete, and its delete
    # page refuses even a superuser (before, the button led to "Not allowed").
    assert f"/admin/claims/answer/{answer.pk}/delete/" not in page
    assert client.get(f"/admin/claims/answer/{answer.pk}/delete/").status_code == 403
    assert "delete_selected" not in client.get("/admin/claims/answer/").content.decode()
