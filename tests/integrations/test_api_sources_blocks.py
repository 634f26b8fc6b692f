"""Sources (register one/many, read, re-check), blocks (create, list, lift) and check-citations."""

from __future__ import annotations

import json

import pytest

from citecheck.errors import InvalidInput
from reviews.models import BlockSwitch
from sources.models import DomainPolicy, Source
from sources.services import sources_import
from tests.integrations.conftest import error_of

pytestmark = pytest.mark.django_db


def test_register_one_and_read_it_back(api):
    response = api.post("/sources", {"url": "https://shop.example.com/faq", "title": "FAQ", "priority": "primary"})
    assert response.status_code == 201, response.content
    source = response.json()
    assert source["domain"] == "example.com" and source["stage"] == "registered"
    detail = api.get(f"/sources/{source['source_id']}").json()
    assert detail["stages"] and detail["stages"][0]["to_state"] == "registered"
    refetch = api.post(f"/sources/{source['source_id']}/fetch")
    assert refetch.status_code == 202
    assert refetch.json()["work"]["state"] in {"queued", "running", "done"}, "the work status says the job was taken"
    assert api.get(f"/sources/{source['source_id']}").json()["work"]["state"] in {"queued", "running", "done"}
    assert api.get("/sources/999999").status_code == 404


def test_register_many_gives_per_row_results(api):
    rows = [{"url": "https://a.example.com/x"}, {"url": "ftp://nope"}, {"url": "https://a.example.com/x"}]
    body = api.post("/sources/bulk", {"sources": rows}).json()
    assert body["created"] == 1 and body["failed"] == 2
    assert [r["ok"] for r in body["rows"]] == [True, False, False]
    assert body["rows"][1]["error"]["field"].startswith("sources[1]")
    assert Source.objects.count() == 1


@pytest.mark.parametrize("body,field", [
    ({"url": ["http://x.example.com"]}, "url"), ({"url": "https://x.example.com", "titel": "typo"}, "titel"),
    ({"url": "https://x.example.com", "title": "\ud800"}, "title"), ({"url": 5}, "url"),
])
def test_register_bad_input_is_400_and_writes_nothing(api, body, field):
    response = api.post("/sources", body)
    assert response.status_code == 400 and error_of(response)["field"] == field
    assert Source.objects.count() == 0


def test_block_each_target_lists_and_needs_an_approver_to_lift(api, registry, token_for):
    pv = registry.pvs()[0]
    a, b = registry.sources
    created = [
        api.post("/blocks", {"target": "passage_version", "passage_version_id": pv.pk, "reason": "wrong price"}),
        api.post("/blocks", {"target": "source", "source_id": b.pk, "reason": "outdated"}),
        api.post("/blocks", {"target": "domain", "domain": "example.net", "reason": "spam"}),
    ]
    assert [r.status_code for r in created] == [201, 201, 201], [r.content for r in created]
    assert created[0].json()["passage_id"] == pv.passage_id
    assert {b["block_id"] for b in api.get("/blocks").json()} == {r.json()["block_id"] for r in created}
    block_id = created[1].json()["block_id"]
    refused = api.post(f"/blocks/{block_id}/lift", {"reason": "fixed"})
    assert refused.status_code == 403
    approver = token_for(["block"], "Approver", name="approverbot")
    assert api.post(f"/blocks/{block_id}/lift", {"reason": "fixed"}, token=approver).status_code == 200
    assert BlockSwitch.objects.filter(lifted_at__isnull=True).count() == 2
    assert api.post("/blocks/999999/lift", {"reason": "x"}, token=approver).status_code == 404


@pytest.mark.parametrize("body,field,status", [
    ({"target": "source", "source_id": "abc", "reason": "r"}, "source_id", 400),
    ({"target": "source", "source_id": [8], "reason": "r"}, "source_id", 400),
    ({"target": "source", "source_id": {}, "reason": "r"}, "source_id", 400),
    ({"target": "source", "source_id": 1.5, "reason": "r"}, "source_id", 400),
    ({"target": "domain", "domain": ["x"], "reason": "r"}, "domain", 400),
    ({"target": "domain", "domain": "a" * 300, "reason": "r"}, "domain", 400),
    ({"target": "source", "reason": "r"}, "source_id", 400),
    ({"target": "source", "source_id": 999999, "reason": "r"}, "source_id", 404),
    ({"target": "source", "source_id": 1, "reason": "r", "passage_ids": [1]}, "passage_ids", 400),
])
def test_block_bad_input_writes_nothing(api, registry, body, field, status):
    response = api.post("/blocks", body)
    assert response.status_code == status, response.content
    assert error_of(response)["field"] == field
    assert BlockSwitch.objects.count() == 0 and DomainPolicy.objects.count() == 0
    assert not any(s.is_blocked for s in type(registry.sources[0]).objects.all())


def test_check_citations_anonymous_inline_only(client, registry):
    post = lambda body, **h: client.post("/api/v1/check-citations", data=json.dumps(body), content_type="application/json", **h)  # noqa: E731
    inline = post({"sources": ["Delivery takes 3 days."], "answer": "Delivery takes 3 days [1]."})
    assert inline.status_code == 200 and inline.json()["citations"]
    registry_mode = post({"sources": [registry.pvs()[0].pk], "answer": "It costs £4.95 [1]."})
    assert registry_mode.status_code == 401 and error_of(registry_mode)["field"] == "sources"


def test_check_citations_registry_mode_hides_blocked_text(api, registry):
    pv = registry.pvs()[0]
    answer = json_answer = '{"answer": "Express costs £4.95.", "citations": [{"source": 1, "quote": "£4.95"}]}'
    report = api.post("/check-citations", {"sources": [pv.pk], "answer": answer}).json()
    assert [c["result"] for c in report["citations"]] == ["exact"]
    passage = pv.passage
    passage.is_blocked = True
    passage.save()
    report = api.post("/check-citations", {"sources": [pv.pk], "answer": json_answer}).json()
    assert report["registry"][0]["state"] == "blocked" and report["registry"][0]["link"] is None
    assert [c["result"] for c in report["citations"]] != ["exact"]
    assert "£4.95 and" not in str(report) and "working days" not in str(report)


def test_imports_and_bulk_requests_are_bounded(api, editor, settings):
    settings.CITECHECK_IMPORT_MAX_ROWS = 2
    with pytest.raises(InvalidInput, match="limit is 2"):
        sources_import(actor=editor, text="url\nhttps://a.example.com/1\nhttps://a.example.com/2\nhttps://a.example.com/3\n", fetch=False)
    settings.CITECHECK_API_BULK_MAX = 2
    response = api.post("/sources/bulk", {"sources": [{"url": f"https://a.example.com/{n}"} for n in range(3)]})
    assert response.status_code == 400 and error_of(response)["field"] == "sources"
    assert Source.objects.count() == 0
