"""Passages from text and PDF, and what is refused (citecheck.extraction)."""

from __future__ import annotations

import pytest

from citecheck.extraction import ContentKind, ExtractionStatus, content_kind, extract_passages, guess_content_type
from tests.citecheck.extraction.pdfmaker import make_pdf

PLAIN = """Delivery terms

We deliver to all EU countries within 3-5 working days.

Express

Express delivery costs 12,50 € and is not available on Sundays.
Orders after 11:30 ship the next day.

2.1 Islands

No deliveries to islands before 1 March 2025.

# Returns

Items can be returned within 30 days unless they are personalised.
"""


def test_plain_text_is_split_by_paragraphs_and_heading_like_lines() -> None:
    result = extract_passages(PLAIN.encode("utf-8"), content_type="text/plain; charset=utf-8")

    assert result.status is ExtractionStatus.OK
    assert result.kind is ContentKind.TEXT
    assert [(p.heading_path, p.anchor, p.text) for p in result.passages] == [
        ("Delivery terms", "delivery-terms", "We deliver to all EU countries within 3-5 working days."),
        (
            "Express",
            "express",
            "Express delivery costs 12,50 € and is not available on Sundays.\nOrders after 11:30 ship the next day.",
        ),
        ("Express > 2.1 Islands", "2-1-islands", "No deliveries to islands before 1 March 2025."),
        ("Returns", "returns", "Items can be returned within 30 days unless they are personalised."),
    ]
    assert result.title == "Delivery terms"


def test_plain_text_in_a_declared_legacy_charset_is_decoded() -> None:
    body = "Lieferung\n\nVersandkosten: 4,95 € für Bestellungen unter 50 €.\n".encode("cp1252")

    result = extract_passages(body, content_type="text/plain; charset=windows-1252")

    assert result.passages[0].text == "Versandkosten: 4,95 € für Bestellungen unter 50 €."


def test_pdf_passages_carry_their_page_number() -> None:
    body = make_pdf(
        [
            ["Delivery terms", "Orders ship within 2 working days.", "Shipping is not free below 50 EUR."],
            ["Returns", "Returns accepted until 31 March 2025."],
        ],
        title="Shop terms",
        mod_date="D:20250301120000Z",
    )

    result = extract_passages(body, content_type="application/pdf")

    assert result.status is ExtractionStatus.OK
    assert [(p.page, p.anchor) for p in result.passages] == [(1, "page=1"), (2, "page=2")]
    assert "Shipping is not free below 50 EUR." in result.passages[0].text
    assert "Returns accepted until 31 March 2025." in result.passages[1].text
    assert result.title == "Shop terms"
    assert result.date == "2025-03-01"


def test_a_long_pdf_page_is_split_and_keeps_its_page_number() -> None:
    lines = [f"Line {n}: the fee of {n} EUR is not refundable." for n in range(1, 45)]
    result = extract_passages(make_pdf([["Intro"], lines]), content_type="application/pdf", max_chars=400)

    second_page = [p for p in result.passages if p.page == 2]
    assert len(second_page) >= 4
    assert all(len(p.text) <= 400 for p in second_page)
    assert "\n".join(p.text for p in second_page).splitlines() == lines


def test_a_broken_pdf_is_an_error_not_a_crash() -> None:
    result = extract_passages(b"%PDF-1.4\n1 0 obj <<", content_type="application/pdf")

    assert result.status is ExtractionStatus.ERROR
    assert result.error
    assert result.passages == []


@pytest.mark.parametrize("content_type", ["image/png", "application/zip", "video/mp4", "application/json"])
def test_other_content_types_are_recorded_as_unsupported(content_type: str) -> None:
    result = extract_passages(b"\x89PNG\r\n\x1a\n....", content_type=content_type)

    assert result.status is ExtractionStatus.UNSUPPORTED_CONTENT
    assert result.passages == []
    assert content_type in (result.error or "")


def test_a_generic_content_type_is_decided_by_the_body() -> None:
    assert content_kind("application/octet-stream", make_pdf([["x"]])) is ContentKind.PDF
    assert content_kind("", b"<!DOCTYPE html><html><body>x</body></html>") is ContentKind.HTML
    assert content_kind("application/octet-stream", b"\x00\x01binary") is None
    assert content_kind("text/html; charset=ISO-8859-1", b"") is ContentKind.HTML


def test_saved_files_get_their_type_from_extension_then_content() -> None:
    assert guess_content_type("page.PDF", b"") == "application/pdf"
    assert guess_content_type("notes.txt", b"<html>") == "text/plain"
    assert guess_content_type("saved", b"<!doctype html><html>") == "text/html"
    assert guess_content_type("saved", b"%PDF-1.7 ...") == "application/pdf"
    assert guess_content_type("saved", "Plain words, ü".encode()) == "text/plain"
    assert guess_content_type("saved", b"\xff\xfe\x00\x81") == "application/octet-stream"
