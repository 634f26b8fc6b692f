"""POST /api/v1/check-citations: the checker's report as JSON, 400s naming the field."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from sources.models import ChangeKind, DomainPolicy, Passage, PassageVersion, SourceVersion, VersionPassage
from sources.services import source_register

pytestmark = pytest.mark.django_db


def post(client, payload, raw=None):
    body = raw if raw is not None else json.dumps(payload)
    return client.post("/api/v1/check-citations", data=body, content_type="application/json")


def test_text_sources_and_quote_not_in_source(client):
    answer = json.dumps({"answer": "Delivery takes 3 days.", "citations": [{"source": 1, "quote": "3 days"}, {"source": 2, "quote": "free returns"}]})
    response = post(client, {"sources": ["Delivery takes 3 days.", "Returns cost £5."], "answer": answer})
    assert response.status_code == 200
    report = response.json()
    assert report["shape"] == "json_citations"
    assert [c["result"] for c in report["citations"]] == ["exact", "not_found"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [({"answer": "x"}, "sources"), ({"sources": ["a"]}, "answer"), ({"sources": ["a"], "answer": ""}, "answer")],
)
def test_bad_input_is_a_400_naming_the_field(client, payload, field):
    response = post(client, payload)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


def test_invalid_json_body(client):
    response = post(client, None, raw="{not json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "body"


def test_registry_mode_reports_passage_state_and_safe_link(client, editor):

    source = source_register(actor=editor, url="https://shop.example.com/delivery", title="Delivery terms", fetch=False)
    version = SourceVersion.objects.create(source=source, number=1, content_hash="h", body_compressed=SourceVersion.compress(b"x"), is_active=True, extraction_status="ok")
    passage = Passage.objects.create(source=source, key="Express#0", heading_path="Delivery terms > Express", anchor="express")
    now = timezone.now()
    pv = PassageVersion.objects.create(passage=passage, text="Express delivery takes 1 to 2 working days.", fingerprint="a" * 64, section_heading="Express", first_version=version, change_kind=ChangeKind.ADDED, first_seen_at=now, last_seen_at=now)
    VersionPassage.objects.create(source_version=version, passage_version=pv, ordinal=0, change_kind=ChangeKind.ADDED)
    source.evidence_status = "verified"
    source.save()

    answer = "Express delivery takes 1 to 2 working days [1]. See https://evil.example.net/phish for more."
    assert post(client, {"sources": [pv.pk], "answer": answer}).status_code == 401, "registry mode needs a login"
    client.force_login(editor)
    report = post(client, {"sources": [pv.pk], "answer": answer}).json()
    [entry] = report["registry"]
    assert entry["state"] == "active"
    assert entry["link"] == {"href": "https://shop.example.com/delivery#express", "text": "Delivery terms — Express", "rel": "noopener noreferrer nofollow"}
    assert report["unknown_urls"] == ["https://evil.example.net/phish"]

    DomainPolicy.objects.create(domain="example.com", allowed_for_links=False)
    passage.is_blocked = True
    passage.save()
    [entry] = post(client, {"sources": [pv.pk], "answer": answer}).json()["registry"]
    assert entry["state"] == "blocked"
    assert entry["link"] is None


def test_unknown_passage_id_is_a_404(client, editor):
    client.force_login(editor)
    response = post(client, {"sources": [999999], "answer": "x [1]"})
    assert response.status_code == 404
    assert "999999" in response.json()["error"]["message"]
