"""The SourceVersion admin page shows a readable side-by-side diff, with page text escaped."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.urls import reverse

from sources.models import SourceVersion
from sources.services import source_refetch, source_register
from tests.sources.pageserver import PageServer, page_server

pytestmark = pytest.mark.django_db(transaction=True)


def _change_page(client, user, version: SourceVersion) -> str:
    client.force_login(user)
    response = client.get(reverse("admin:sources_sourceversion_change", args=[version.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _diff_rows(html: str) -> list[str]:
    table = html.split('class="citecheck-diff"', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr class=.*?</tr>", table, re.S)


def test_diff_shows_old_and_new_price_side_by_side(shop, editor, superuser, client, run_jobs):
    source = source_register(actor=editor, url=shop.url("/prices"))
    run_jobs()
    first_page = _change_page(client, superuser, SourceVersion.objects.get(source=source))
    assert "First version of this source" in first_page

    shop.state.change()
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    second = SourceVersion.objects.get(source=source, number=2)
    html = _change_page(client, superuser, second)

    assert "Compared with version 1: 1 added, 1 changed, 1 unchanged, 0 removed." in html
    rows = _diff_rows(html)
    assert len(rows) == 3
    tents = next(row for row in rows if "Price list &gt; Tents" in row)
    assert "changed" in tents
    assert re.search(r"<del[^>]*>£149</del>", tents), "the old price is highlighted on the old side"
    assert re.search(r"<ins[^>]*>£169</ins>", tents), "the new price is highlighted on the new side"
    assert tents.index("£149") < tents.index("£169"), "old text left, new text right"
    assert "weighs 2.1 kg" in tents
    stoves = next(row for row in rows if "Price list &gt; Stoves" in row)
    assert "added" in stoves and "The Flare camping stove costs £39" in stoves
    bags = next(row for row in rows if "Sleeping bags" in row)
    assert "unchanged" in bags and "<del" not in bags and "<ins" not in bags


@pytest.fixture
def site() -> Iterator[PageServer]:
    with page_server() as server:
        yield server


# Markup written as text on the page: every change kind (unchanged, changed, added, removed) and
# the heading carry some, so each way the diff renders text is checked.
HOSTILE_V1 = """<!doctype html><html><head><title>Offers</title></head><body><main><article>
<h1>Offers</h1>
<h2>&lt;img src=x onerror=alert(1)&gt; Winter sale</h2>
<p>Gloves cost 10 EUR until 31 January. &lt;script&gt;alert(2)&lt;/script&gt;</p>
<h2>Payment</h2>
<p>We accept cards. &lt;script&gt;alert(3)&lt;/script&gt;</p>
<h2>Returns</h2>
<p>Sale items can be returned within 14 days. &lt;script&gt;alert(4)&lt;/script&gt;</p>
</article></main></body></html>"""

HOSTILE_V2 = """<!doctype html><html><head><title>Offers</title></head><body><main><article>
<h1>Offers</h1>
<h2>&lt;img src=x onerror=alert(1)&gt; Winter sale</h2>
<p>Gloves cost 12 EUR until 31 January. &lt;script&gt;alert(2)&lt;/script&gt; &lt;script&gt;alert(5)&lt;/script&gt;</p>
<h2>Payment</h2>
<p>We accept cards. &lt;script&gt;alert(3)&lt;/script&gt;</p>
<h2>Vouchers</h2>
<p>Vouchers are valid for a year. &lt;script&gt;alert(6)&lt;/script&gt;</p>
</article></main></body></html>"""


def test_page_text_in_the_diff_is_escaped(site, editor, superuser, client, run_jobs):
    site.pages["/offers"] = ("text/html; charset=utf-8", HOSTILE_V1.encode())
    source = source_register(actor=editor, url=site.url("/offers"))
    run_jobs()
    site.pages["/offers"] = ("text/html; charset=utf-8", HOSTILE_V2.encode())
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    second = SourceVersion.objects.get(source=source, number=2)
    assert second.diff_summary == {"added": 1, "changed": 1, "unchanged": 1, "removed": 1}
    texts = " ".join(m.passage_version.text for m in second.members.select_related("passage_version"))
    assert "<script>alert(2)</script>" in texts, "the page really carries markup as text"

    html = _change_page(client, superuser, second)

    assert "<script>alert(" not in html
    assert "<img src=x" not in html
    for number in range(2, 7):
        assert f"&lt;script&gt;alert({number})&lt;/script&gt;" in html, f"alert({number}) is shown as text"
    assert "&lt;img src=x onerror=alert(1)&gt; Winter sale" in html
    rows = _diff_rows(html)
    gloves = next(row for row in rows if "Gloves" in row)
    assert re.search(r"<del[^>]*>10</del>", gloves) and re.search(r"<ins[^>]*>12</ins>", gloves)
    removed = next(row for row in rows if "Sale items can be returned within 14 days." in row)
    assert "removed" in removed
