"""Menus, cookie banners and footers of real pages never become passages (so never evidence)."""

from __future__ import annotations

import pytest

from sources.demo.site import PAGES
from sources.models import PassageVersion, SourceVersion
from sources.services import source_refetch, source_register

pytestmark = pytest.mark.django_db(transaction=True)

# Text that only the demo layout's <nav>, cookie banner and <footer> carry.
BOILERPLATE = [
    "Sign in to see your basket",
    "Home |",
    "We use cookies",
    "Accept all cookies",
    "All rights reserved",
    "newsletter",
    "Northwind Outfitters Ltd",
]


def test_no_passage_of_any_demo_page_holds_navigation_cookie_or_footer_text(shop, editor, run_jobs):
    sources = [source_register(actor=editor, url=shop.url(path)) for path in [*PAGES, "/prices"]]
    run_jobs()
    shop.state.change()
    price_source = sources[-1]
    source_refetch(actor=editor, source_id=price_source.pk)
    run_jobs()

    assert SourceVersion.objects.filter(source=price_source).count() == 2
    for source in sources:
        assert SourceVersion.objects.filter(source=source, extraction_status="ok").exists(), source.canonical_url
    texts = list(PassageVersion.objects.values_list("passage__source__canonical_url", "text"))
    assert {url for url, _ in texts} == {source.canonical_url for source in sources}, "every page yielded passages"
    for url, text in texts:
        for phrase in BOILERPLATE:
            assert phrase.lower() not in text.lower(), f"{phrase!r} leaked into a passage of {url}: {text!r}"
    all_text = " ".join(text for _, text in texts)
    # The main content is all there, so the check above is not passing on an empty extraction.
    assert "Express delivery takes 1 to 2 working days and costs £9.95." in all_text
    assert "The Flare camping stove costs £39" in all_text
