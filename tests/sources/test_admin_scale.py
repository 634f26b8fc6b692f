"""Every desk list stays fast as tables grow: the number of queries does not depend on the rows
shown, counts are bounded, compressed bodies are never read for a list, orderings use an index."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sources.benchdata import bench_data_generate
from sources.models import PassageVersion, Source, SourceVersion

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12  # session, user, permissions, the bounded count, the page, filters' choices


@pytest.fixture
def data(db) -> dict[str, int]:
    return bench_data_generate(scale=0.002)  # 20 sources, 400 passage versions, 100 answers, 200 audit rows


def _desk_admins() -> list[tuple[str, str]]:
    return sorted(
        (model._meta.app_label, model._meta.model_name)
        for model in admin.site._registry
        if model._meta.app_label in ("sources", "claims", "reviews", "dispatch")
    )


def _queries(client, url: str, params: dict[str, str] | None = None) -> tuple[int, str, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, params or {})
    assert response.status_code == 200, url
    return len(captured.captured_queries), response.content.decode(), [q["sql"] for q in captured.captured_queries]


@pytest.mark.parametrize(("app_label", "model_name"), _desk_admins())
def test_list_query_count_does_not_grow_with_the_rows_shown(app_label, model_name, data, superuser, client):
    client.force_login(superuser)
    url = reverse(f"admin:{app_label}_{model_name}_changelist")
    model_admin = next(a for m, a in admin.site._registry.items() if m._meta.model_name == model_name and m._meta.app_label == app_label)
    full, html, sqls = _queries(client, url)
    assert full <= MAX_QUERIES, f"{url}: {full} queries\n" + "\n".join(sqls)
    counts = [s for s in sqls if "COUNT(" in s.upper()]
    assert len(counts) <= 1, f"{url} counts its rows more than once: {counts}"
    if any(f.startswith("=id") for f in model_admin.search_fields):
        first = model_admin.model._default_manager.order_by("-pk").values_list("pk", flat=True).first()
        if first is not None:
            one, _, _ = _queries(client, url, {"q": str(first)})
            # A search adds at most one query (its bounded lookup of matching ids), whatever it finds;
            # on PostgreSQL the plain list's row estimate is one query too, which a search replaces.
            assert one <= full + 1, f"{url}: {full} queries for a page of rows, {one} for one row found by a search"


def test_passage_version_list_reads_no_body_and_sorts_by_its_key(data, superuser, client):
    client.force_login(superuser)
    _, html, sqls = _queries(client, reverse("admin:sources_passageversion_changelist"))
    page = [s for s in sqls if "sources_passageversion" in s and "LIMIT" in s.upper()]
    assert page, sqls
    assert not any("body_compressed" in s for s in sqls)
    assert all("ordinal" not in s.upper().split("ORDER BY", 1)[-1].lower() for s in page)
    assert '"sources_passageversion"."text"' not in page[-1], "the list does not load passage texts"
    assert "Price list" in html or "Delivery terms" in html or "Warranty" in html


def test_source_version_list_and_page_never_read_compressed_bodies(data, superuser, client):
    client.force_login(superuser)
    _, _, list_sqls = _queries(client, reverse("admin:sources_sourceversion_changelist"))
    version = SourceVersion.objects.filter(number=2).first()
    _, html, page_sqls = _queries(client, reverse("admin:sources_sourceversion_change", args=[version.pk]))
    assert not any("body_compressed" in s for s in list_sqls + page_sqls)
    assert "8 changed, 8 unchanged" in html, "the diff summary reads as text, not JSON"
    assert '{"changed"' not in html and "{&quot;changed" not in html


def test_source_page_fetch_list_is_bounded(data, superuser, client):
    source = Source.objects.order_by("pk").first()
    client.force_login(superuser)
    count, html, _ = _queries(client, reverse("admin:sources_source_change", args=[source.pk]))
    assert html.count('/admin/sources/fetchresult/') >= 15
    assert count <= 14


def test_passage_search_is_exact_on_ids_and_fingerprints(data, superuser, client):
    pv = PassageVersion.objects.order_by("pk")[3]
    client.force_login(superuser)
    for q in (str(pv.pk), f"#{pv.pk}", pv.fingerprint):
        html = client.get(reverse("admin:sources_passageversion_changelist"), {"q": q}).content.decode()
        assert reverse("admin:sources_passageversion_change", args=[pv.pk]) in html
    newest = PassageVersion.objects.order_by("-pk").first()
    words = newest.text.split()[-6:]  # ends with "Reference <id>."
    html = client.get(reverse("admin:sources_passageversion_changelist"), {"q": " ".join(words)}).content.decode()
    assert reverse("admin:sources_passageversion_change", args=[newest.pk]) in html
    assert reverse("admin:sources_passageversion_change", args=[pv.pk]) not in html


def test_generator_refuses_a_database_with_sources_unless_reset(data):

    with pytest.raises(CommandError, match="--reset"):
        call_command("generate_bench_data", "--scale", "0.001")
    call_command("generate_bench_data", "--scale", "0.001", "--reset")
    assert Source.objects.count() == 10


def test_an_id_search_compares_numbers_not_text(data, superuser, client):
    """Django's own `=id` search is UPPER(id::text) = UPPER('12'): no index serves it."""

    pv = PassageVersion.objects.order_by("pk")[5]
    client.force_login(superuser)
    _, html, sqls = _queries(client, reverse("admin:sources_passageversion_changelist"), {"q": str(pv.pk)})
    assert reverse("admin:sources_passageversion_change", args=[pv.pk]) in html
    lookup = next(s for s in sqls if '"sources_passageversion"."id" AS "pk"' in s)
    assert f'"sources_passageversion"."id" = {pv.pk}' in lookup and "UPPER" not in lookup


def test_a_phrase_search_finds_the_phrase_not_its_words_newest_first(data, superuser, client):
    """A quoted phrase matches as one piece of text, case-insensitively; on PostgreSQL the trigram
    index is asked for its rarest-looking word only, the phrase being checked on those rows."""
    newest = PassageVersion.objects.order_by("-pk").first()
    other = PassageVersion.objects.order_by("pk").first()
    url = reverse("admin:sources_passageversion_changelist")
    client.force_login(superuser)
    # "Reference <id>." is in one text; the id's digits in others' prices or ids do not match it.
    _, html, sqls = _queries(client, url, {"q": f'"rEFERENCE {newest.pk}."'})
    assert reverse("admin:sources_passageversion_change", args=[newest.pk]) in html
    assert "1 passage version" in html, html
    if connection.vendor == "postgresql":
        lookup = next(s for s in sqls if '"sources_passageversion"."id" AS "pk"' in s)
        assert f"LIKE UPPER('%{newest.pk}%')" in lookup and "STRPOS" in lookup, lookup
    words = other.text.split()
    _, html, _ = _queries(client, url, {"q": f'"{words[-1]} {words[0]}"'})  # both words are in it, not as a phrase
    assert "0 passage versions" in html
    # A phrase in every text: the newest matches, a bounded count.
    _, html, _ = _queries(client, url, {"q": '"orders placed BEFORE 2 pm"'})
    assert reverse("admin:sources_passageversion_change", args=[newest.pk]) in html
    assert "more than 200 passage versions" in html
