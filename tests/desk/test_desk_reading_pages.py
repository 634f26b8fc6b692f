"""The desk's reading pages: the overview (SVG charts with the same numbers in tables), /health/
in the product's words with the desk's navigation, readable names, read-only pages without
Save or Add, the favicon."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from claims.models import Answer, Citation
from reviews.models import SiteSwitch, TestRun
from reviews.selectors.queue import QueueFilters, review_queue
from sources.benchdata import bench_data_generate
from sources.models import FetchResult, LinkState, PassageVersion, VersionPassage

pytestmark = pytest.mark.django_db


@pytest.fixture
def data(db) -> None:
    bench_data_generate(scale=0.002)


def _row(html: str, label: str) -> list[str]:
    row = re.search(rf"<tr><th scope=\"row\"><a [^>]*>{re.escape(label)}</a></th>(.*?)</tr>", html, re.S)
    assert row, label
    return re.findall(r"<td>(\d+)</td>", row.group(1))


def test_overview_charts_and_tables_show_the_same_numbers(data, viewer, client):
    client.force_login(viewer)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("admin:desk-overview"))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("<svg class=\"cc-chart\"") == 3 and "<script" not in html.split('id="content-main"', 1)[1]
    # The overview counts exactly what the review queue counts, category by category.
    queue = review_queue(filters=QueueFilters())
    assert queue.total > 0
    for category, label, count in queue.counts:
        assert _row(html, label[:1].upper() + label[1:])[-1] == str(count), category
        assert f'href="/admin/desk/queue/?category={category}"' in html, "each row opens the queue at its category"
    assert _row(html, "Answers contradicted, conflicting, outdated or pending too long")[-1] != "0"
    # the queue chart draws one titled rectangle per non-empty age bucket
    assert html.count("waiting under a day") + html.count("waiting 1 to 7 days") + html.count("waiting over 7 days") >= 3
    assert len(captured.captured_queries) <= 25


def test_health_page_uses_words_and_the_desk_navigation(data, viewer, client):
    FetchResult.objects.filter(pk=FetchResult.objects.order_by("-fetched_at").values("pk")[:1]).update(link_state=LinkState.REDIRECT_PERMANENT)
    client.force_login(viewer)
    with CaptureQueriesContext(connection) as captured:
        html = client.get(reverse("link-health")).content.decode()
    headers = re.findall(r'<th scope="col">([^<]+)</th>', html)
    assert "redirect (permanent)" in headers and "ok" in headers
    assert not [h for h in headers if "_" in h or h.isupper()], headers
    assert "Log out" in html and "viewer" in html, "user and logout links of the desk"
    # The history per day is kept as fetches are recorded (LinkStateDay): no scan of the fetches.
    assert not [q["sql"] for q in captured.captured_queries if "sources_fetchresult" in q["sql"]]
    assert any("sources_linkstateday" in q["sql"] for q in captured.captured_queries)


def test_rows_have_readable_names(data, superuser, client):
    member = VersionPassage.objects.select_related("source_version__source", "passage_version__passage").filter(
        source_version__number=2, passage_version__passage__heading_path="Price list > Tents").first()
    assert str(member) == "Price list › Tents, v2"
    pv = PassageVersion.objects.select_related("passage").first()
    assert str(pv).endswith(f", passage version {pv.pk}") and "object (" not in str(pv)
    assert str(Citation.objects.select_related("claim").first()).startswith("Citation [")
    assert str(TestRun.objects.select_related("source_version__source").first()).startswith("Golden pairs on ")
    assert str(SiteSwitch(pk=1)) == "Incident switches: all off"
    client.force_login(superuser)
    index = client.get(reverse("admin:index")).content.decode()
    assert "Site switches" in index and "Site switchs" not in index and "Audit log" in index
    for name in ("claims_citation", "reviews_testrun", "reviews_approval", "sources_passageversion", "sources_searchhit"):
        assert "object (" not in client.get(reverse(f"admin:{name}_changelist")).content.decode(), name


def test_read_only_pages_have_no_save_or_add(data, superuser, client):
    client.force_login(superuser)
    pv = PassageVersion.objects.first()
    page = client.get(reverse("admin:sources_passageversion_change", args=[pv.pk])).content.decode()
    assert 'name="_save"' not in page and 'name="_continue"' not in page
    answer = Answer.objects.first()
    page = client.get(reverse("admin:claims_answer_change", args=[answer.pk])).content.decode()
    # No "Add another Claim": the inline offers no add (its script shows the button only below max).
    assert not re.search(r">\s*Add another", page) and 'class="add-row"' not in page
    assert 'name="claims-MAX_NUM_FORMS" value="0"' in page
    assert reverse("admin:desk-trace", args=[answer.pk]) in page
    for name in ("claims_judgement", "claims_citation", "reviews_approval", "sources_passageversion", "sources_fetchresult"):
        listing = client.get(reverse(f"admin:{name}_changelist")).content.decode().split('id="content-main"', 1)[1]
        assert "addlink" not in listing, name


def test_every_page_links_the_favicon(superuser, client):
    assert finders.find("citecheck/favicon.svg")
    client.force_login(superuser)
    for url in (reverse("admin:index"), reverse("link-health")):
        assert re.search(r'<link rel="icon" href="[^"]*citecheck/favicon\.svg"', client.get(url).content.decode()), url


def test_refusals_and_missing_pages_are_in_the_products_words(viewer, client):
    client.force_login(viewer)
    missing = client.get(reverse("admin:desk-trace", args=[424242]))
    assert missing.status_code == 404 and "There is no answer 424242." in missing.content.decode()
    forbidden = client.get(reverse("admin:sources_source_add"))
    assert forbidden.status_code == 403
    assert "your role does not include this page" in forbidden.content.decode()
