"""Which extractor a page needs: its content type, or a sniff of the body when the type says nothing."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from citecheck.extraction.model import ContentKind

if TYPE_CHECKING:

    pass

















# --------------------------------------------------------------------------- content types

_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/xml+html"})
_TEXT_TYPES = frozenset({"text/plain", "text/markdown", "text/x-markdown"})
_PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
_UNKNOWN_TYPES = frozenset({"", "application/octet-stream", "binary/octet-stream", "application/unknown"})
_HTML_SNIFF = re.compile(rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]", re.IGNORECASE)


def _sniff(body: bytes | str) -> ContentKind | None:
    head = body[:2048]
    if isinstance(head, str):
        head = head.encode("utf-8", "replace")
    if head.lstrip().startswith(b"%PDF-"):
        return ContentKind.PDF
    if _HTML_SNIFF.search(head):
        return ContentKind.HTML
    return None


def content_kind(content_type: str, body: bytes | str) -> ContentKind | None:
    """Which extractor handles a body, from its Content-Type; ``None`` for unsupported.

    A missing or generic type (``application/octet-stream``) is decided by the body's first
    bytes (``%PDF-``, an HTML doctype/tag); a declared type is trusted otherwise.
    """
    media_type = content_type.split(";", 1)[0].strip().lower()
    if media_type in _HTML_TYPES:
        return ContentKind.HTML
    if media_type in _TEXT_TYPES:
        return ContentKind.TEXT
    if media_type in _PDF_TYPES:
        return ContentKind.PDF
    if media_type in _UNKNOWN_TYPES:
        return _sniff(body)
    return None


_EXTENSION_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".xhtml": "application/xhtml+xml",
    ".txt": "text/plain",
    ".text": "text/plain",
    ".md": "text/markdown",
    ".pdf": "application/pdf",
}


def guess_content_type(filename: str, body: bytes) -> str:
    """Content-Type for a saved page: by extension, else by its first bytes; text if it is UTF-8."""
    lowered = filename.lower()
    for extension, media_type in _EXTENSION_TYPES.items():
        if lowered.endswith(extension):
            return media_type
    sniffed = _sniff(body)
    if sniffed is ContentKind.PDF:
        return "application/pdf"
    if sniffed is ContentKind.HTML:
        return "text/html"
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "application/octet-stream"
    return "text/plain"
