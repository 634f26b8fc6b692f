"""Passages from HTML pages (citecheck.extraction): structure, anchors, main content only, verbatim text."""

from __future__ import annotations

import html
import time

from citecheck.extraction import ExtractionResult, ExtractionStatus, extract_passages
from citecheck.fingerprint import fingerprint

NAV = "Home Shop all products Gift cards Sale Customer account"
COOKIE = "We use cookies to improve your experience. Accept all cookies"
FOOTER = "Copyright 2024 Example Shop GmbH. All rights reserved. Imprint Privacy policy"

SHOP_PAGE = f"""<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>Delivery | Example Shop</title>
<meta property="og:title" content="Delivery terms of Example Shop">
<meta property="article:modified_time" content="2025-02-03T10:00:00+00:00">
</head><body>
<div id="cookie-banner" class="cookie-consent cookie-banner"><p>{COOKIE}</p><button>OK</button></div>
<header><nav class="main-menu"><ul>
  <li><a href="/">Home</a></li><li><a href="/shop">Shop all products</a></li><li><a href="/gift">Gift cards</a></li>
  <li><a href="/sale">Sale</a></li><li><a href="/account">Customer account</a></li>
</ul></nav></header>
<main><article>
<h1>Delivery terms</h1>
<p>We deliver to all EU countries. Orders placed before 14:00 CET ship the same day, except on public holidays.</p>
<section id="standard-delivery">
  <h2>Standard</h2>
  <p>Standard delivery takes 3–5 working days and costs 4.95 EUR. Orders over 50 EUR ship free of charge.</p>
  <h3>Details</h3>
  <p>Parcels heavier than 31.5 kg are delivered by freight forwarder and are not eligible for free shipping.</p>
</section>
<h2 id="express">Express</h2>
<p>Express delivery is not available on Sundays. It costs 12.50 EUR for parcels up to 2 kg.</p>
<table><tr><th>Zone</th><th>Price</th></tr><tr><td>Germany</td><td>12.50 EUR</td></tr><tr><td>Austria</td><td>15.90 EUR</td></tr></table>
<h3><a id="express-islands"></a>Islands</h3>
<p>Deliveries to the North Sea islands are not possible before 1 March 2025, unless the order is prepaid.</p>
<h3>Details</h3>
<p>Express orders received after 11:30 are dispatched on the next working day.</p>
<h2>Returns</h2>
<p>You may return unused items within 30 days. Personalised items cannot be returned.</p>
</article></main>
<footer class="site-footer"><p>{FOOTER}</p><ul><li><a href="/imprint">Imprint</a></li><li><a href="/privacy">Privacy policy</a></li></ul></footer>
</body></html>"""


def _shop() -> ExtractionResult:
    return extract_passages(
        SHOP_PAGE.encode("utf-8"), content_type="text/html; charset=utf-8", url="https://shop.example/delivery"
    )


def test_passages_follow_the_heading_structure_with_anchors() -> None:
    result = _shop()

    assert result.status is ExtractionStatus.OK
    assert [(p.heading_path, p.anchor) for p in result.passages] == [
        ("Delivery terms", "delivery-terms"),  # no id anywhere: slug of the heading
        ("Delivery terms > Standard", "standard-delivery"),  # id of the section it opens
        ("Delivery terms > Standard > Details", "details"),  # not the first heading of that section
        ("Delivery terms > Express", "express"),  # id on the heading
        ("Delivery terms > Express > Islands", "express-islands"),  # empty <a id> inside the heading
        ("Delivery terms > Express > Details", "details-2"),  # same heading again: unique anchor
        ("Delivery terms > Returns", "returns"),
    ]
    assert [p.ordinal for p in result.passages] == list(range(7))
    assert result.passages[2].headings == ("Delivery terms", "Standard", "Details")


def test_title_and_date_of_the_page_are_recorded() -> None:
    result = _shop()

    assert result.title == "Delivery terms of Example Shop"
    assert result.date == "2025-02-03"


def test_navigation_cookie_banner_and_footer_never_become_passages() -> None:
    everything = " ".join(f"{p.heading_path} {p.text}" for p in _shop().passages)

    for chrome in (COOKIE, FOOTER, "Shop all products", "Gift cards", "Customer account", "Accept all cookies", "Imprint"):
        assert chrome not in everything


def test_numbers_units_dates_conditions_and_negations_survive_verbatim() -> None:
    texts = {p.heading_path: p.text for p in _shop().passages}

    assert "Orders placed before 14:00 CET ship the same day, except on public holidays." in texts["Delivery terms"]
    assert "Standard delivery takes 3–5 working days and costs 4.95 EUR." in texts["Delivery terms > Standard"]
    assert "heavier than 31.5 kg" in texts["Delivery terms > Standard > Details"]
    assert "are not eligible for free shipping" in texts["Delivery terms > Standard > Details"]
    express = texts["Delivery terms > Express"]
    assert "Express delivery is not available on Sundays. It costs 12.50 EUR for parcels up to 2 kg." in express
    assert "| Austria | 15.90 EUR |" in express  # tables are kept, row by row
    assert (
        "Deliveries to the North Sea islands are not possible before 1 March 2025, unless the order is prepaid."
        == texts["Delivery terms > Express > Islands"]
    )
    assert texts["Delivery terms > Returns"] == (
        "You may return unused items within 30 days. Personalised items cannot be returned."
    )


def test_each_passage_carries_the_fingerprint_of_its_text() -> None:
    for passage in _shop().passages:
        assert passage.fingerprint == fingerprint(passage.text)
        assert len(passage.fingerprint) == 64


def _article(paragraphs: list[str], heading: str = "Terms") -> bytes:
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return (
        "<!doctype html><html><head><title>T</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/a'>About us</a></nav>"
        f"<main><article><h2 id='terms'>{heading}</h2>{body}</article></main></body></html>"
    ).encode()


def test_a_long_section_is_split_at_paragraph_boundaries_without_losing_text() -> None:
    paragraphs = [
        f"Clause {n}: the customer may cancel within {n * 7} days; a fee of {n}.50 EUR applies unless the goods are unopened. "
        + "The seller confirms the cancellation in writing. " * 4
        for n in range(1, 9)
    ]
    result = extract_passages(_article(paragraphs), content_type="text/html", max_chars=700)

    passages = result.passages
    assert len(passages) > 2
    assert all(len(p.text) <= 700 for p in passages)
    assert {p.heading_path for p in passages} == {"Terms"}
    assert {p.anchor for p in passages} == {"terms"}
    assert [p.part for p in passages] == list(range(len(passages)))
    # every paragraph whole in exactly one passage, in order
    pieces = [piece for p in passages for piece in p.text.split("\n\n")]
    assert pieces == [p.strip() for p in paragraphs]


def test_a_paragraph_longer_than_the_limit_is_cut_at_sentence_ends() -> None:
    sentences = [f"Sentence {n} says the fee is {n},00 € and is not refundable." for n in range(1, 40)]
    paragraph = " ".join(sentences)
    result = extract_passages(_article([paragraph]), content_type="text/html", max_chars=300)

    texts = [p.text for p in result.passages]
    assert len(texts) >= 8
    assert all(len(t) <= 300 and t.endswith("refundable.") for t in texts)
    assert " ".join(texts) == paragraph


def test_a_heading_without_text_or_subsections_is_kept() -> None:
    page = (
        "<html><body><main><article><h2>Payment</h2><h2>Vouchers</h2>"
        "<p>Vouchers are valid for 3 years and cannot be exchanged for cash. They are redeemable online only.</p>"
        "<p>Vouchers bought before 2023 keep their original conditions and remain valid until 31 December 2026.</p>"
        "</article></main></body></html>"
    )
    passages = extract_passages(page, content_type="text/html").passages

    assert [(p.heading_path, p.text[:8]) for p in passages] == [("Payment", "Payment"), ("Vouchers", "Vouchers")]


def test_a_page_without_main_content_is_empty() -> None:
    result = extract_passages(b"<html><body><nav><a href='/'>Home</a></nav></body></html>", content_type="text/html")

    assert result.status is ExtractionStatus.EMPTY
    assert result.passages == []


def test_the_deadline_run_gives_the_same_passages_as_in_process() -> None:
    direct = _shop()
    bounded = extract_passages(
        SHOP_PAGE.encode(), content_type="text/html", url="https://shop.example/delivery", deadline_seconds=30
    )

    assert bounded == direct


def test_a_huge_page_past_its_deadline_fails_cleanly_with_extraction_timeout() -> None:
    paragraph = "Orders over 50 EUR ship free of charge within 3 working days, unless stated otherwise. " * 3
    sections = "".join(f"<section id='s{n}'><h2>Part {n}</h2><p>{paragraph}</p><p>{paragraph}</p></section>" for n in range(6000))
    page = f"<html><body><main><article>{sections}</article></main></body></html>".encode()
    assert len(page) > 3_000_000

    started = time.monotonic()
    result = extract_passages(page, content_type="text/html", deadline_seconds=0.2)
    elapsed = time.monotonic() - started

    assert result.status is ExtractionStatus.EXTRACTION_TIMEOUT
    assert result.passages == []
    assert result.error is not None and "0.2 s" in result.error
    assert elapsed < 60  # a cap against a hang; the deadline itself shows in the status
