"""PDF files: one section per page (the viewers' ``#page=N``), the document's title and date."""

from __future__ import annotations

import io
import logging
import unicodedata
from typing import TYPE_CHECKING, Any

from pypdf import PdfReader
from pypdf.errors import PyPdfError

from citecheck.extraction.model import ContentKind, ExtractionResult, ExtractionStatus
from citecheck.extraction.sections import Outline, Section, collapse, section_passages

logger = logging.getLogger(__name__)

if TYPE_CHECKING:

    pass

















# --------------------------------------------------------------------------- PDF


def _pdf_date(metadata: Any) -> str | None:
    for attribute in ("modification_date", "creation_date"):
        try:
            value = getattr(metadata, attribute)
        except Exception:  # pypdf raises on malformed date strings; the other date may still do
            logger.debug("extract.pdf_date_unreadable", extra={"field": attribute}, exc_info=True)
            continue
        if value is not None:
            return str(value.date().isoformat())
    return None


def extract_pdf(body: bytes | str, max_chars: int) -> ExtractionResult:
    data = body.encode("latin-1", "replace") if isinstance(body, str) else body
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            reader.decrypt("")
        outline = Outline()
        for number, page in enumerate(reader.pages, start=1):
            page_text = (page.extract_text() or "").strip()
            if page_text:
                anchor = outline.anchors.claim(f"page={number}")
                blocks = [unicodedata.normalize("NFC", page_text)]
                outline.sections.append(Section(headings=(), anchor=anchor, blocks=blocks, page=number))
        metadata = reader.metadata
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"unreadable PDF: {exc}", kind=ContentKind.PDF)
    title: str | None = None
    date: str | None = None
    if metadata is not None:
        title = collapse(metadata.title or "") or None
        date = _pdf_date(metadata)
    passages = section_passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, date=date, kind=ContentKind.PDF)
