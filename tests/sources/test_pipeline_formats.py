"""Plain text, PDF and unsupported pages through the real pipeline (real server, real worker)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citecheck.errors import IllegalTransition
from sources.models import ExtractionStatus, FetchResult, Passage, PassageVersion, SourceVersion, Stage
from sources.services import source_register, version_activate
from tests.citecheck.extraction.pdfmaker import make_pdf
from tests.sources.pageserver import PageServer, page_server

pytestmark = pytest.mark.django_db(transaction=True)

PLAIN = """Opening hours

The shop is open Monday to Friday from 9:00 to 17:30.

Holidays

The shop is not open on 25 December, unless a pre-order was placed.
"""


@pytest.fixture
def site() -> Iterator[PageServer]:
    with page_server() as server:
        yield server


def test_plain_text_page_becomes_passages(site, editor, approver, run_jobs):
    site.pages["/hours.txt"] = ("text/plain; charset=utf-8", PLAIN.encode())
    source = source_register(actor=editor, url=site.url("/hours.txt"), document_type="text")
    run_jobs()

    version = SourceVersion.objects.get(source=source)
    assert version.extraction_status == ExtractionStatus.OK
    assert version.content_type.startswith("text/plain")
    passages = {p.passage.heading_path: p.text for p in PassageVersion.objects.filter(passage__source=source).select_related("passage")}
    assert passages == {
        "Opening hours": "The shop is open Monday to Friday from 9:00 to 17:30.",
        "Holidays": "The shop is not open on 25 December, unless a pre-order was placed.",
    }
    source.refresh_from_db()
    assert source.stage == Stage.TESTED
    version_activate(actor=approver, version_id=version.pk, reason="checked the text page")
    source.refresh_from_db()
    assert source.stage == Stage.ACTIVE


def test_pdf_passages_keep_their_page_number(site, editor, run_jobs):
    pdf = make_pdf(
        [
            ["Warranty terms", "Every stove carries a 36-month warranty."],
            ["Exclusions", "The warranty does not cover gas cartridges."],
        ],
        title="Northwind warranty (PDF)",
    )
    site.pages["/warranty.pdf"] = ("application/pdf", pdf)
    source = source_register(actor=editor, url=site.url("/warranty.pdf"), document_type="pdf")
    run_jobs()

    version = SourceVersion.objects.get(source=source)
    assert version.extraction_status == ExtractionStatus.OK
    by_page = {
        pv.location.get("page"): pv.text
        for pv in PassageVersion.objects.filter(passage__source=source)
    }
    assert set(by_page) == {1, 2}, f"every PDF passage is located by its page: {by_page}"
    assert "36-month warranty" in by_page[1]
    assert "does not cover gas cartridges" in by_page[2]
    assert sorted(Passage.objects.filter(source=source).values_list("anchor", flat=True)) == ["page=1", "page=2"]
    source.refresh_from_db()
    assert source.title == "Northwind warranty (PDF)"


def test_unsupported_content_is_recorded_for_the_editor(site, editor, approver, run_jobs):
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    site.pages["/logo.png"] = ("image/png", png)
    source = source_register(actor=editor, url=site.url("/logo.png"))
    run_jobs()

    fetch = FetchResult.objects.get(source=source)
    assert fetch.link_state == "ok", "the link itself is fine; only its content cannot be used"
    version = SourceVersion.objects.get(source=source)
    assert version.extraction_status == ExtractionStatus.UNSUPPORTED_CONTENT
    assert "image/png" in version.extraction["error"]
    assert not Passage.objects.filter(source=source).exists()
    source.refresh_from_db()
    assert source.stage == Stage.NEEDS_REVIEW
    with pytest.raises(IllegalTransition, match="unsupported_content"):
        version_activate(actor=approver, version_id=version.pk)
