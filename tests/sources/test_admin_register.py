"""Registering and importing sources from the admin goes through the services."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dispatch.models import WorkRequest
from sources.models import Source

pytestmark = pytest.mark.django_db


def test_register_from_the_admin_normalises_queues_a_fetch_and_refuses_duplicates(client, editor, redis_conn):
    client.force_login(editor)
    form = {"url": "https://Shop.Example.com/terms?utm_source=mail#top", "title": "Terms", "document_type": "terms",
            "language": "en", "owner": "Legal", "priority": "primary", "risk_level": "high"}
    response = client.post("/admin/sources/source/add/", form)
    source = Source.objects.get()
    assert response.status_code == 302 and response.url.endswith(f"/admin/desk/sources/{source.pk}/"), "registration lands on the source page"
    assert (source.canonical_url, source.domain, source.registered_by) == ("https://shop.example.com/terms", "example.com", editor)
    assert WorkRequest.objects.filter(job="sources.fetch_source", kwargs={"source_id": source.pk}).exists()

    again = client.post("/admin/sources/source/add/", {**form, "url": "https://shop.example.com/terms"})
    assert again.status_code == 200
    assert f"already registered as source {source.pk}" in again.content.decode()
    bad = client.post("/admin/sources/source/add/", {**form, "url": "ftp://example.com/x"})
    assert "only http and https" in bad.content.decode()
    assert Source.objects.count() == 1


def test_viewer_cannot_open_the_register_page(client, viewer):
    client.force_login(viewer)
    assert client.get("/admin/sources/source/add/").status_code == 403
    assert client.get("/admin/sources/source/import/").status_code == 403


def test_import_from_the_admin_reports_each_rejected_row(client, editor, redis_conn):
    client.force_login(editor)
    csv = "url,title\nhttps://a.example.org/x,A\nnot a url,B\nhttps://a.example.org/x#dup,C\n"
    page = client.post("/admin/sources/source/import/", {"file": SimpleUploadedFile("s.csv", csv.encode())}).content.decode()
    assert "Created: 1 · duplicate: 1 · invalid: 1" in page
    assert Source.objects.count() == 1
