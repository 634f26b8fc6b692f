"""POST/GET /api/v1/answers: stored, checked at once, 202 with its URL, idempotency, blocked
passages reported, limits, no coercion, nothing written on errors."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from claims.models import Answer, Claim
from tests.integrations.conftest import error_of

pytestmark = pytest.mark.django_db


def _body(pvs, **extra):
    return {"question": "How fast is express?", "answer": "Express delivery takes 1 to 2 working days [1].",
            "passage_version_ids": [pvs[0].pk], **extra}


def test_submit_runs_the_citation_check_at_once_and_answers_202(api, registry):
    pvs = registry.pvs()
    response = api.post("/answers", _body(pvs))
    assert response.status_code == 202, response.content
    body = response.json()
    assert body["url"] == f"/api/v1/answers/{body['answer_id']}"
    assert body["citation_check"]["registry"][0]["passage_version"] == pvs[0].pk
    assert body["passages"] == [{"number": 1, "passage_version_id": pvs[0].pk, "state": "active"}]
    assert Answer.objects.get().submitted_by.username == "bot"
    detail = api.get(body["url"].removeprefix("/api/v1"))
    assert detail.status_code == 200 and detail.json()["state"] == "pending"
    assert detail.json()["citations"][0]["link_html"].startswith('<a href="https://shop.example.com/delivery#express"')


def test_verification_runs_in_the_worker_and_the_detail_shows_verdicts(api, registry, run_jobs):
    pvs = registry.pvs()
    answer_id = api.post("/answers", _body(pvs)).json()["answer_id"]
    run_jobs()
    detail = api.get(f"/answers/{answer_id}").json()
    assert detail["state"] != "pending" and detail["wording"]
    assert detail["claims"] and "state" in detail["claims"][0]
    assert "verification_rate" in detail["report_card"]
    trace = api.get(f"/answers/{answer_id}/trace")
    assert trace.status_code == 200 and trace.json()["answer"]["id"] == answer_id


def test_idempotency_key_returns_the_first_answer(api, registry):
    pvs = registry.pvs()
    first = api.post("/answers", _body(pvs), headers={"Idempotency-Key": "k-1"}).json()
    again = api.post("/answers", _body(pvs), headers={"Idempotency-Key": "k-1"}).json()
    assert again["answer_id"] == first["answer_id"] and again["idempotent_replay"] is True
    assert Answer.objects.count() == 1
    api.post("/answers", _body(pvs), headers={"Idempotency-Key": "k-2"})
    assert Answer.objects.count() == 2


def test_a_blocked_passage_version_is_accepted_and_reported_as_blocked(api, registry):
    pvs = registry.pvs()
    passage = pvs[0].passage
    passage.is_blocked = True
    passage.save()
    body = api.post("/answers", _body(pvs)).json()
    assert body["blocked_passage_version_ids"] == [pvs[0].pk]
    assert body["passages"][0]["state"] == "blocked"
    assert body["citation_check"]["registry"][0]["link"] is None
    detail = api.get(body["url"].removeprefix("/api/v1")).json()
    assert detail["citations"][0]["state"] == "blocked" and detail["citations"][0]["link_html"] is None


@pytest.mark.parametrize("change,field", [
    ({"passage_ids": [1]}, "passage_ids"), ({"sources": [1]}, "sources"),
    ({"answer": 5}, "answer"), ({"passage_version_ids": None}, "passage_version_ids"),
    ({"passage_version_ids": ["1"]}, "passage_version_ids[0]"), ({"passage_version_ids": [1.5]}, "passage_version_ids[0]"),
    ({"passage_version_ids": [10**30]}, "passage_version_ids[0]"), ({"passage_version_ids": [2**63]}, "passage_version_ids[0]"),
    ({"question": "\ud800"}, "question"), ({"question": "a\x00b"}, "question"), ({"language": ["en"]}, "language"),
])
def test_wrong_types_and_unknown_fields_are_400s_and_write_nothing(api, registry, change, field):
    body = _body(registry.pvs()) | change
    response = api.post("/answers", body)
    assert response.status_code == 400, response.content
    error = error_of(response)
    assert error["field"] == field
    if field in ("passage_ids", "sources"):
        assert "unknown field" in error["message"]
    assert Answer.objects.count() == 0 and Claim.objects.count() == 0


def test_unknown_ids_are_404(api, registry):
    response = api.post("/answers", _body(registry.pvs(), passage_version_ids=[999999]))
    assert response.status_code == 404 and error_of(response)["field"] == "passage_version_ids"
    assert api.get("/answers/999999").status_code == 404


def test_limits_413_and_400(api, registry, settings):
    settings.CITECHECK_ANSWER_MAX_CHARS = 1000
    response = api.post("/answers", _body(registry.pvs(), answer="Delivery costs £4.95. " * 100))
    assert response.status_code == 413 and error_of(response)["field"] == "answer"
    settings.CITECHECK_ANSWER_MAX_CHARS = 100000
    settings.CITECHECK_ANSWER_MAX_CLAIMS = 5
    response = api.post("/answers", _body(registry.pvs(), answer=" ".join(f"Item {n} costs £{n}.99." for n in range(10))))
    assert response.status_code == 400 and "claims" in error_of(response)["message"]
    big = api.post("/answers", raw=b'{"answer": "' + b"x" * (3 * 1024 * 1024) + b'"}')
    assert big.status_code == 413 and error_of(big)["code"] == "too_large"
    assert Answer.objects.count() == 0


def test_deep_and_broken_json_bodies_are_400s(api, registry):
    for raw in ("[" * 100000, '{"a":' * 50000 + "1" + "}" * 50000, "{not json", '"just a string"'):
        response = api.post("/answers", raw=raw)
        assert response.status_code == 400, (raw[:20], response.content[:200])
        assert error_of(response)["code"] in ("invalid_json", "invalid_input")


def test_auth_and_scope_and_role(api, registry, token_for, client):
    pvs = registry.pvs()
    assert client.post("/api/v1/answers", data="{}", content_type="application/json").status_code == 401
    assert api.post("/answers", _body(pvs), token=token_for(["read_evidence"], "Editor")).status_code == 403
    assert api.post("/answers", _body(pvs), token=token_for(["submit_answers"], "Viewer", name="viewerbot")).status_code == 403


def test_reads_need_the_viewer_role(api, registry, token_for):
    answer_id = api.post("/answers", _body(registry.pvs())).json()["answer_id"]
    nobody = token_for(["read_evidence"], name="nobody")
    assert api.get(f"/answers/{answer_id}", token=nobody).status_code == 403
    assert api.get(f"/sources/{registry.sources[0].pk}", token=nobody).status_code == 403
    viewer = token_for(["read_evidence"], "Viewer", name="viewerbot")
    assert api.get(f"/answers/{answer_id}", token=viewer).status_code == 404, "another integration's answer"
    assert api.get(f"/answers/{answer_id}").status_code == 200, "its own"


def test_session_writes_need_csrf(registry, editor):

    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    body = json.dumps(_body(registry.pvs()))
    refused = client.post("/api/v1/answers", data=body, content_type="application/json")
    assert refused.status_code == 403
    client.get("/admin/")
    token = client.cookies["csrftoken"].value
    ok = client.post("/api/v1/answers", data=body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 202, ok.content
