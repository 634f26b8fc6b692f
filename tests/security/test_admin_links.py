"""Issue 11 item 9: no page of the admin links outside without rel="noopener noreferrer nofollow"
or with a scheme other than http/https.

The walk opens the change list and change pages of every registered model as an Editor, over a
registry holding a source registered with credentials in its URL, a fetched page with a hostile
title, and rows written before the fix (an ftp:// URL, a javascript: proposal, a report whose
bibliography links to javascript:).
"""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from claims.models import Answer
from sources.models import EditorialTask, FetchResult, Source, TaskKind
from sources.services import source_register

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE_TITLE = b'"><script>alert(1)</script><a href="javascript:alert(2)">click</a><img src=x onerror=alert(3)>'
PAGE = b"<html><head><title>" + HOSTILE_TITLE + b"</title></head><body><main><h1>Terms</h1><p>Refunds are paid within 10 working days.</p></main></body></html>"
REL = {"noopener", "noreferrer", "nofollow"}


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.anchors: list[dict[str, str]] = []
        self.scripts_inline = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "a" and "href" in values:
            self.anchors.append(values)
        if tag == "script" and "src" not in values:
            self.scripts_inline += 1
        for name in values:
            assert not name.startswith("on"), f"inline event handler {name} on <{tag}>"


def _problems(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    found = []
    for anchor in parser.anchors:
        href = anchor["href"].strip()
        scheme = urlsplit(href).scheme.lower()
        outside = bool(scheme) or href.startswith("//")
        if not outside:
            continue
        if scheme not in ("http", "https"):
            found.append(f"non-http(s) link {href!r}")
        elif not REL <= set(anchor.get("rel", "").split()):
            found.append(f"outside link without rel: {href!r} rel={anchor.get('rel')!r}")
        if "@" in urlsplit(href).netloc:
            found.append(f"credentials in a link: {href!r}")
    return found


def _registry(hosts, editor, run_jobs) -> None:
    site = hosts("127.0.0.1")
    site.routes["/terms"] = (200, {}, PAGE)
    site.routes["/old"] = (301, {"Location": "/terms"}, b"")
    port = site.server.server_address[1]
    source = source_register(actor=editor, url=f"http://user:secret@127.0.0.1:{port}/old", title="")
    assert "secret" not in source.url
    run_jobs()
    assert FetchResult.objects.filter(source=source, displayed_title__contains="<script>").exists()
    # Rows as they could be written before the fix (the admin change form took any URL).
    legacy = source_register(actor=editor, url="https://legacy.example.com/terms", fetch=False)
    Source.objects.filter(pk=legacy.pk).update(url="ftp://user:pw@legacy.example.com/terms")
    FetchResult.objects.filter(source=source).update(final_url="ftp://files.example.com/x")
    EditorialTask.objects.create(source=legacy, kind=TaskKind.EDITORIAL_ATTENTION, proposed_url="javascript:alert(4)", detail="x")
    Answer.objects.create(raw_response="The tent costs £149 [1].", answer_text="The tent costs £149 [1].", report={
        "claims": [{"claim": "The tent costs £149", "state": "verified", "supporting": [
            {"title": "Terms", "url": "javascript:alert(5)", "domain": "example.com"},
            {"title": "Real", "url": "https://example.com/terms", "domain": "example.com"}]}],
        "bibliography": [{"title": "Evil", "url": "javascript:alert(6)"}, {"title": "Shop", "url": "https://example.com/"}],
    })


def test_every_admin_page_links_outside_only_safely(hosts, client, editor, run_jobs):
    _registry(hosts, editor, run_jobs)
    client.force_login(editor)
    problems: dict[str, list[str]] = {}
    visited = 0
    for model, model_admin in admin.site._registry.items():
        opts = model._meta
        try:
            changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        except NoReverseMatch:
            continue
        pages = [changelist]
        if model_admin.has_view_permission(type("R", (), {"user": editor})()):  # type: ignore[arg-type]
            pages += [reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[pk])
                      for pk in model._default_manager.values_list("pk", flat=True)[:5]]
        for url in pages:
            response = client.get(url)
            if response.status_code in (302, 403):
                continue  # not for Editors
            assert response.status_code == 200, url
            visited += 1
            html = response.content.decode()
            assert "<script>alert" not in html, f"unescaped page text on {url}"
            found = _problems(html)
            if found:
                problems[url] = found
    assert visited >= 20, f"only {visited} pages walked"
    assert problems == {}

    # The URL fields are still shown: a safe link where allowed, plain text otherwise.
    source = Source.objects.exclude(domain="example.com").get()
    page = client.get(reverse("admin:sources_source_change", args=[source.pk])).content.decode()
    assert f'<a href="{source.url}" rel="noopener noreferrer nofollow">{source.url}</a>' in page
    assert "Change risk / priority / URL / owner" in page
    legacy = client.get(reverse("admin:sources_source_change", args=[Source.objects.get(domain="example.com").pk])).content.decode()
    assert "ftp://legacy.example.com/terms" in legacy and "user:pw" not in legacy


def test_every_admin_page_still_opens_for_a_superuser(hosts, client, editor, superuser, run_jobs):
    _registry(hosts, editor, run_jobs)
    client.force_login(superuser)
    for model in admin.site._registry:
        opts = model._meta
        name = f"admin:{opts.app_label}_{opts.model_name}"
        pages = [reverse(f"{name}_changelist")]
        try:
            pages.append(reverse(f"{name}_add"))
        except NoReverseMatch:
            pass
        if opts.managed:  # django-rq's Dashboard has no table
            pages += [reverse(f"{name}_change", args=[pk]) for pk in model._default_manager.values_list("pk", flat=True)[:2]]
        for url in pages:
            response = client.get(url)
            assert response.status_code in (200, 302, 403), (url, response.status_code)
            if response.status_code == 200:
                assert _problems(response.content.decode()) == [], url
