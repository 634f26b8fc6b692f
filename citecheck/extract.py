"""Passages from a fetched page: main content only, split by heading structure.

Pure functions, no Django, no network. Used by the extract job, the versioning service and
``manage.py extract_passages``; all three must see exactly the same passages.

What a passage is
-----------------
- ``heading_path`` is a string: the headings above the passage, outermost first, joined with
  ``" > "`` (``"Delivery terms > Express"``); ``""`` for content before the first heading.
  ``headings`` holds the same headings as a tuple for display.
- ``anchor`` names the passage's section. HTML: the ``id`` of the heading, of an element
  inside it (or an ``<a name>``), of an empty ``<a id|name>`` right before it, or of the
  enclosing ``section``/``article``/``div`` whose first heading it is; otherwise a slug of the
  heading text (letters of any script kept). Content before the first heading gets ``"top"`` (``#top`` scrolls to the top of
  any HTML page). PDF: ``"page=N"`` (the PDF viewers' fragment syntax). Text: a slug.
  Anchors are unique per section within a page (a repeated one gets ``-2``, ``-3``, ...).
  When a long section is split, its passages share the section's anchor and differ in
  ``part`` (0, 1, ...) and ``ordinal``. The anchor is untrusted page text: encode it when
  building a URL.
- ``ordinal`` is the 0-based position of the passage in the page.
- ``text`` is verbatim: the main content's text as trafilatura renders it, in Unicode NFC as
  ``trafilatura.extract`` returns it (numbers, units, dates, negations and conditions
  untouched; tables as ``| cell | cell |`` rows; no markup, no link targets). Blocks
  (paragraphs, lists, tables) are separated by a blank line. A section longer than
  ``max_chars`` is split at block boundaries; a single block longer than that is split at
  line ends, then sentence ends, then spaces, and only as a last resort inside a word. Only
  whitespace is lost at a cut. A heading with neither text nor sub-sections becomes a passage
  whose text is the heading, so no heading text is lost.
- ``fingerprint`` is :func:`citecheck.fingerprint.fingerprint` of the text.
- ``page`` is the 1-based PDF page, ``None`` otherwise.

The page's ``title`` is its displayed title (``og:title``, else ``<title>``, else the first
``<h1>``; for a PDF its metadata title; for text its first heading). ``date`` is the page's
date as ``YYYY-MM-DD`` when one is found (HTML: htmldate's fast search, most recent date,
i.e. "last updated" when the page states one; PDF: modification or creation date).

Plain text: paragraphs are separated by blank lines; headings are Markdown ``#`` lines,
underlined (``===``/``---``) lines, and short single-line paragraphs without closing
punctuation that are followed by more text (``Delivery terms``; ``2.1 Islands`` is one level
deeper than ``2 Delivery``).

Status: ``ok``; ``empty`` (readable but no main content); ``unsupported_content`` (neither
HTML, text nor PDF); ``extraction_timeout`` (``deadline_seconds`` passed, see below);
``error`` (the content could not be read, e.g. a broken PDF; ``error`` says why).

Huge pages
----------
With ``deadline_seconds`` the extraction runs in a separate, long-lived extractor process that is
killed (and replaced) when the deadline passes; the result is then ``extraction_timeout``. A
process (rather than ``signal.alarm``) is used because lxml's C code cannot be interrupted from
Python, and because RQ's own job timeout already owns ``SIGALRM`` in the work horse. With
``memory_limit_mb`` the process may grow by at most that much address space while it extracts
a page; past it the page is an ``error`` ("ran out of memory") and the process is replaced, since
its heap may be left in any state. It is forked from the warmed-up worker (``warm_up``) and
reused for page after page, so a page costs one round trip over a pipe instead of a fork; it
retires after ``_EXTRACTOR_MAX_PAGES`` pages or once it has grown by
``_EXTRACTOR_MAX_GROWTH_MB``. A process extracts one page at a time (threads take turns).
Without ``deadline_seconds`` everything runs in-process. The fetcher's size cap bounds the input.
"""

from __future__ import annotations

import contextlib
import io
import logging
import multiprocessing
import multiprocessing.context
import os
import re
import resource
import signal
import stat
import threading
import time
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from charset_normalizer import from_bytes
from htmldate import find_date
from pypdf import PdfReader
from pypdf.errors import PyPdfError
from trafilatura import bare_extraction, utils
from trafilatura.utils import load_html
from trafilatura.xml import xmltotxt

from citecheck.fingerprint import fingerprint

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from lxml.etree import _Element
    from lxml.html import HtmlElement

__all__ = [
    "DEFAULT_MAX_CHARS",
    "HEADING_SEPARATOR",
    "ContentKind",
    "ExtractedPassage",
    "ExtractionResult",
    "ExtractionStatus",
    "PendingExtraction",
    "content_kind",
    "extract_passages",
    "extract_submit",
    "guess_content_type",
    "passages_text",
]

logger = logging.getLogger(__name__)

DEFAULT_MAX_CHARS = 1200
HEADING_SEPARATOR = " > "
TOP_ANCHOR = "top"
_MAX_ANCHOR_CHARS = 80


class ExtractionStatus(StrEnum):
    OK = "ok"
    UNSUPPORTED_CONTENT = "unsupported_content"
    EMPTY = "empty"
    EXTRACTION_TIMEOUT = "extraction_timeout"
    ERROR = "error"


class ContentKind(StrEnum):
    HTML = "html"
    TEXT = "text"
    PDF = "pdf"


@dataclass(frozen=True, slots=True)
class ExtractedPassage:
    heading_path: str
    headings: tuple[str, ...]
    anchor: str
    ordinal: int
    text: str
    fingerprint: str
    part: int = 0
    page: int | None = None


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    status: ExtractionStatus
    passages: list[ExtractedPassage] = field(default_factory=list)
    title: str | None = None
    date: str | None = None
    error: str | None = None
    kind: ContentKind | None = None


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


# --------------------------------------------------------------------------- sections and splitting


@dataclass(slots=True)
class _Section:
    headings: tuple[str, ...]
    anchor: str
    blocks: list[str] = field(default_factory=list)
    page: int | None = None


class _Anchors:
    """Hands out anchors, unique within one page."""

    def __init__(self) -> None:
        self._used: set[str] = set()

    def claim(self, candidate: str) -> str:
        anchor = candidate
        number = 2
        while anchor in self._used:
            anchor = f"{candidate}-{number}"
            number += 1
        self._used.add(anchor)
        return anchor


def _slug(text: str) -> str:
    """URL-fragment slug of a heading; keeps letters of every script (``"Lieferung & Versand"`` -> ``"lieferung-versand"``)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    slug = re.sub(r"[^\w]+", "-", folded).strip("-_")
    return slug[:_MAX_ANCHOR_CHARS].rstrip("-_") or "section"


def _collapse(text: str) -> str:
    return " ".join(text.split())


# Cut points for a block longer than max_chars, tried in order: line ends, sentence ends
# (Latin after whitespace, CJK right after the mark), any whitespace.
_CUTS = (
    re.compile(r"\n\s*"),
    re.compile(r"(?<=[.!?\u2026])\s+|(?<=[\u3002\uff01\uff1f])\s*"),
    re.compile(r"\s+"),
)


def _split_long(text: str, max_chars: int, level: int = 0) -> list[str]:
    """Pieces of ``text`` no longer than ``max_chars``, cut at the coarsest boundary that works.

    Each piece is a verbatim slice of ``text``; only the whitespace at a cut is dropped.
    """
    if len(text) <= max_chars:
        return [text]
    if level >= len(_CUTS):
        return [text[i : i + max_chars] for i in range(0, len(text), max_chars)]
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _CUTS[level].finditer(text):
        if match.start() > start:
            spans.append((start, match.start()))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    pieces: list[str] = []
    run_start: int | None = None
    run_end = 0
    for span_start, span_end in spans:
        if span_end - span_start > max_chars:
            if run_start is not None:
                pieces.append(text[run_start:run_end])
                run_start = None
            pieces.extend(_split_long(text[span_start:span_end], max_chars, level + 1))
        elif run_start is None:
            run_start, run_end = span_start, span_end
        elif span_end - run_start <= max_chars:
            run_end = span_end
        else:
            pieces.append(text[run_start:run_end])
            run_start, run_end = span_start, span_end
    if run_start is not None:
        pieces.append(text[run_start:run_end])
    return pieces


_BLOCK_SEPARATOR = "\n\n"


def _chunk_blocks(blocks: list[str], max_chars: int) -> list[str]:
    """Blocks packed greedily into passages of at most ``max_chars`` characters."""
    pieces: list[str] = []
    for block in blocks:
        pieces.extend(_split_long(block, max_chars))
    chunks: list[str] = []
    current: list[str] = []
    length = 0
    for piece in pieces:
        added = len(piece) + (len(_BLOCK_SEPARATOR) if current else 0)
        if current and length + added > max_chars:
            chunks.append(_BLOCK_SEPARATOR.join(current))
            current, length = [], 0
            added = len(piece)
        current.append(piece)
        length += added
    if current:
        chunks.append(_BLOCK_SEPARATOR.join(current))
    return chunks


def _is_descendant(section: _Section, parent: _Section) -> bool:
    return len(section.headings) > len(parent.headings) and section.headings[: len(parent.headings)] == parent.headings


def _passages(sections: list[_Section], max_chars: int) -> list[ExtractedPassage]:
    passages: list[ExtractedPassage] = []
    for index, section in enumerate(sections):
        blocks = [block for block in (b.strip() for b in section.blocks) if block]
        if not blocks:
            following = sections[index + 1] if index + 1 < len(sections) else None
            if not section.headings or (following is not None and _is_descendant(following, section)):
                continue  # the heading lives on in its sub-sections' heading paths
            blocks = [section.headings[-1]]
        heading_path = HEADING_SEPARATOR.join(section.headings)
        for part, text in enumerate(_chunk_blocks(blocks, max_chars)):
            passages.append(
                ExtractedPassage(
                    heading_path=heading_path,
                    headings=section.headings,
                    anchor=section.anchor,
                    ordinal=len(passages),
                    text=text,
                    fingerprint=fingerprint(text),
                    part=part,
                    page=section.page,
                )
            )
    return passages


class _Outline:
    """Builds sections from a stream of headings and blocks."""

    def __init__(self) -> None:
        self.anchors = _Anchors()
        self.sections: list[_Section] = []
        self._stack: list[tuple[int, str]] = []

    def heading(self, level: int, text: str, anchor: str | None) -> None:
        text = unicodedata.normalize("NFC", text)
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, text))
        headings = tuple(title for _, title in self._stack)
        self.sections.append(_Section(headings=headings, anchor=self.anchors.claim(anchor or _slug(text))))

    def block(self, text: str) -> None:
        if not self.sections:
            self.sections.append(_Section(headings=(), anchor=self.anchors.claim(TOP_ANCHOR)))
        self.sections[-1].blocks.append(unicodedata.normalize("NFC", text))


# --------------------------------------------------------------------------- HTML

_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SECTION_TAGS = frozenset({"section", "article", "div", "main"})
_FIRST_HEADING = ".//h1|.//h2|.//h3|.//h4|.//h5|.//h6"
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _match_key(text: str) -> str:
    return _collapse(unicodedata.normalize("NFKC", text)).casefold()


def _clean_anchor(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value[:200] or None


def _source_anchor(heading: HtmlElement) -> str | None:
    """The id a browser can jump to for this heading in the original page, if any."""
    own = _clean_anchor(heading.get("id"))
    if own:
        return own
    for inner in heading.iterdescendants():
        inner_id = _clean_anchor(inner.get("id") or (inner.get("name") if inner.tag == "a" else None))
        if inner_id:
            return inner_id
    before = heading.getprevious()
    if before is not None and before.tag == "a" and not _collapse(before.text_content()):
        before_id = _clean_anchor(before.get("id") or before.get("name"))
        if before_id:
            return before_id
    parent = heading.getparent()
    for _ in range(3):
        if parent is None or parent.tag not in _SECTION_TAGS:
            break
        parent_id = _clean_anchor(parent.get("id"))
        if parent_id:
            first = parent.xpath(_FIRST_HEADING)
            return parent_id if first and first[0] is heading else None
        parent = parent.getparent()
    return None


def _source_anchors(tree: HtmlElement) -> dict[str, list[str | None]]:
    """Anchors of the source page's headings, by heading text, in document order."""
    anchors: dict[str, list[str | None]] = defaultdict(list)
    for heading in tree.iter(*_HEADING_TAGS):
        key = _match_key(heading.text_content())
        if key:
            anchors[key].append(_source_anchor(heading))
    return anchors


def _html_title(tree: HtmlElement) -> str | None:
    for xpath in ('//meta[@property="og:title"]/@content', '//meta[@name="twitter:title"]/@content', "//title"):
        for found in tree.xpath(xpath):
            text = _collapse(found if isinstance(found, str) else found.text_content())
            if text:
                return text
    for heading in tree.iter("h1"):
        text = _collapse(heading.text_content())
        if text:
            return text
    return None


def _html_date(tree: HtmlElement, url: str | None) -> str | None:
    try:
        found = find_date(tree, url=url, extensive_search=False, original_date=False)
    except Exception:  # htmldate is best effort; a page without a date is still a page
        logger.debug("extract.date_failed", exc_info=True)
        return None
    return found if isinstance(found, str) and _DATE_RE.match(found) else None


def _heading_level(element: _Element) -> int:
    rend = element.get("rend") or ""
    if len(rend) == 2 and rend[0] == "h" and rend[1] in "123456":
        return int(rend[1])
    return 2


_CONTAINER_TAGS = frozenset({"div", "article", "section"})


def _walk_body(body: _Element, outline: _Outline, source_anchors: dict[str, list[str | None]]) -> None:
    for element in body:
        if element.tag == "head":
            title = _collapse("".join(element.itertext()))
            if title:
                candidates = source_anchors.get(_match_key(title))
                outline.heading(_heading_level(element), title, candidates.pop(0) if candidates else None)
            if element.tail and element.tail.strip():
                outline.block(element.tail)
        elif element.tag in _CONTAINER_TAGS and element.find(".//head") is not None:
            if element.text and element.text.strip():
                outline.block(element.text)
            _walk_body(element, outline, source_anchors)
            if element.tail and element.tail.strip():
                outline.block(element.tail)
        else:
            text = xmltotxt(element, False)
            if text:
                outline.block(text)


# libxml2's HTML parser stops reading (silently) at this nesting depth.
PARSER_MAX_DEPTH = 255


def _parser_out_of_memory() -> bool:
    """Whether trafilatura's HTML parser gave up for lack of memory (it then returns no tree)."""

    parser = getattr(utils, "HTML_PARSER", None)
    log = getattr(parser, "error_log", None) or []
    return any("NO_MEMORY" in str(entry.type_name) for entry in log)


# Whether some element sits PARSER_MAX_DEPTH levels deep (the root is level 1), asked of
# libxml2 in C: a walk of the tree in Python costs about 3% of an extraction.
_AT_MAX_DEPTH = "boolean(/*" + "/*" * (PARSER_MAX_DEPTH - 1) + ")"


def _depth_reached(tree: HtmlElement) -> bool:
    """Whether the parse stopped at the parser's depth limit (the rest of the page is lost)."""
    return bool(tree.getroottree().xpath(_AT_MAX_DEPTH))


def _extract_html(body: bytes | str, url: str | None, max_chars: int) -> ExtractionResult:
    tree = load_html(body)
    if tree is None:
        if _parser_out_of_memory():
            raise MemoryError("the HTML parser could not allocate memory")
        return ExtractionResult(status=ExtractionStatus.EMPTY, kind=ContentKind.HTML)
    if _depth_reached(tree):
        return ExtractionResult(
            status=ExtractionStatus.ERROR,
            kind=ContentKind.HTML,
            error=f"the page nests its elements {PARSER_MAX_DEPTH} or more levels deep, beyond what the HTML parser "
            "reads; its content could not be extracted",
        )
    source_anchors = _source_anchors(tree)
    title = _html_title(tree)
    # bare_extraction works on its own copy of the tree, so ours stays intact for the date.
    document = bare_extraction(
        tree,
        url=url,
        output_format="txt",
        include_comments=False,
        include_tables=True,
        include_images=False,
        include_links=False,
        include_formatting=False,
        deduplicate=False,
    )
    date = _html_date(tree, url)
    if document is None or isinstance(document, dict) or document.body is None:
        return ExtractionResult(status=ExtractionStatus.EMPTY, title=title, date=date, kind=ContentKind.HTML)
    outline = _Outline()
    _walk_body(document.body, outline, source_anchors)
    passages = _passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, date=date, kind=ContentKind.HTML)


# --------------------------------------------------------------------------- text/plain

_ATX = re.compile(r"^(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^(=+|-+)[ \t]*$")
_NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?[ \t]+\S")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_LIST_MARK = re.compile(r"^([-*\u2022\u2013+>|]|\d+[.)])\s")


def _decode_text(body: bytes | str, content_type: str) -> str:
    if isinstance(body, str):
        return body
    match = re.search(r"charset=[\"']?([\w.:-]+)", content_type, re.IGNORECASE)
    candidates = [match.group(1)] if match else []
    candidates.append("utf-8-sig")
    for encoding in candidates:
        try:
            return body.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue

    best = from_bytes(body).best()
    return str(best) if best is not None else body.decode("latin-1")


def _heading_like(paragraph: str, has_next: bool) -> int | None:
    """Level of a paragraph that is a heading-like line, else None.

    A short single line with no sentence punctuation at its end, followed by more text:
    ``Delivery terms``, ``2.1 Express``, ``RETURNS``. Numbered headings take their depth
    from the number (``2`` -> 2, ``2.1`` -> 3).
    """
    if not has_next or "\n" in paragraph or len(paragraph) > 80:
        return None
    if paragraph[-1] in ".,;:!?\u3002" or _LIST_MARK.match(paragraph) or not any(c.isalpha() for c in paragraph):
        return None
    numbered = _NUMBERED.match(paragraph)
    if numbered:
        return min(6, numbered.group(1).count(".") + 2)
    return 2


def _extract_text(body: bytes | str, content_type: str, max_chars: int) -> ExtractionResult:
    text = _decode_text(body, content_type).replace("\r\n", "\n").replace("\r", "\n")
    paragraphs = [p.strip() for p in _PARAGRAPH_BREAK.split(text)]
    paragraphs = [p for p in paragraphs if p]
    outline = _Outline()
    title: str | None = None
    for index, paragraph in enumerate(paragraphs):
        lines = paragraph.split("\n")
        heading: tuple[int, str] | None = None
        rest = ""
        atx = _ATX.match(lines[0])
        if atx:
            heading, rest = (len(atx.group(1)), atx.group(2).strip()), "\n".join(lines[1:])
        elif len(lines) >= 2 and _SETEXT.match(lines[1]) and lines[0].strip():
            level = 1 if lines[1].lstrip().startswith("=") else 2
            heading, rest = (level, lines[0].strip()), "\n".join(lines[2:])
        else:
            level_like = _heading_like(paragraph, index + 1 < len(paragraphs))
            if level_like is not None:
                heading = (level_like, paragraph)
        if heading is not None:
            outline.heading(heading[0], heading[1], None)
            if title is None:
                title = heading[1]
            if rest.strip():
                outline.block(rest.strip())
        else:
            outline.block(paragraph)
    passages = _passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, kind=ContentKind.TEXT)


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


def _extract_pdf(body: bytes | str, max_chars: int) -> ExtractionResult:
    data = body.encode("latin-1", "replace") if isinstance(body, str) else body
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            reader.decrypt("")
        outline = _Outline()
        for number, page in enumerate(reader.pages, start=1):
            page_text = (page.extract_text() or "").strip()
            if page_text:
                anchor = outline.anchors.claim(f"page={number}")
                blocks = [unicodedata.normalize("NFC", page_text)]
                outline.sections.append(_Section(headings=(), anchor=anchor, blocks=blocks, page=number))
        metadata = reader.metadata
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"unreadable PDF: {exc}", kind=ContentKind.PDF)
    title: str | None = None
    date: str | None = None
    if metadata is not None:
        title = _collapse(metadata.title or "") or None
        date = _pdf_date(metadata)
    passages = _passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, date=date, kind=ContentKind.PDF)


# --------------------------------------------------------------------------- entry point


def _extract(body: bytes | str, content_type: str, url: str | None, max_chars: int) -> ExtractionResult:
    kind = content_kind(content_type, body)
    if kind is None:
        media_type = content_type.split(";", 1)[0].strip() or "unknown"
        return ExtractionResult(
            status=ExtractionStatus.UNSUPPORTED_CONTENT,
            error=f"content type {media_type!r} is not HTML, text or PDF",
        )
    if kind is ContentKind.PDF:
        return _extract_pdf(body, max_chars)
    if kind is ContentKind.TEXT:
        return _extract_text(body, content_type, max_chars)
    return _extract_html(body, url, max_chars)


def _address_space() -> int:
    """This process's address space in bytes (0 where /proc is missing)."""

    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 0


def _limit_memory(extra_mb: int | None) -> None:
    """Let this (extractor) process grow by at most `extra_mb` MB of address space beyond its size
    now; `None` lifts the limit. Only the soft limit moves, so it can be set again for each page."""

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if extra_mb is None:
        soft = hard
    else:
        soft = _address_space() + extra_mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


# An extractor process retires (and is replaced) after this many pages, or once its address
# space has grown this much beyond its size at start: what a parse leaves behind (fragmented
# heap, caches) then never eats into the next page's memory limit for long.
_EXTRACTOR_MAX_PAGES = 500
_EXTRACTOR_MAX_GROWTH_MB = 256


def _extract_guarded(body: bytes | str, content_type: str, url: str | None, max_chars: int, memory_limit_mb: int | None) -> tuple[ExtractionResult, bool]:
    """One extraction under the memory limit, in the extractor process: (result, out of memory)."""
    try:
        _limit_memory(memory_limit_mb)
        try:
            return _extract(body, content_type, url, max_chars), False
        finally:
            _limit_memory(None)
    except MemoryError:
        error = f"the extraction ran out of memory (limit {memory_limit_mb} MB)"
        return ExtractionResult(status=ExtractionStatus.ERROR, error=error), True
    except Exception as exc:  # reported to the parent as a result, not lost with the process
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"{type(exc).__name__}: {exc}"), False


def _release_inherited_sockets(keep: int) -> None:
    """Point every socket this forked process inherited (the worker's database, Redis and HTTP
    connections) at /dev/null, except `keep`: a long-lived copy would keep them open, so a server
    would not see them closed when the worker closes them. The descriptor numbers stay taken, so
    an inherited object that closes its descriptor later cannot close one of ours."""

    try:
        descriptors = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return  # no /proc: keep them; they close when the process exits
    null = os.open(os.devnull, os.O_RDWR)
    try:
        for fd in descriptors:
            if fd <= 2 or fd in (keep, null):
                continue
            with contextlib.suppress(OSError):
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.dup2(null, fd, inheritable=False)
    finally:
        os.close(null)


def _extractor_main(connection: Connection, parent_end: Connection | None) -> None:
    """The extractor process: pages in, results out, over one pipe, until the pipe closes.

    Each request is ``(request id, body, content_type, url, max_chars, memory_limit_mb)``; it is
    acknowledged with ``(request id, None, False)`` when taken and answered with ``(request id,
    result, retiring)``. After a MemoryError (the heap may be left in any state) or when it has
    served its share, the process says it is retiring and exits.
    """
    # The worker's own handlers (RQ's warm shutdown on SIGTERM) came along with the fork: a SIGTERM
    # must end this process (multiprocessing terminates it so at the worker's exit), and Ctrl-C in
    # a terminal is the worker's to handle; this process ends when the worker's end of the pipe closes.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent_end is not None:  # forked: it holds copies of everything the worker had open
        parent_end.close()  # else the pipe would never report the parent gone
        _release_inherited_sockets(keep=connection.fileno())
    start_size = _address_space()
    for served in range(1, _EXTRACTOR_MAX_PAGES + 1):
        try:
            request_id, body, content_type, url, max_chars, memory_limit_mb = connection.recv()
        except Exception:  # the pipe closed, or a request was cut off mid-write by its sender's death
            return
        connection.send((request_id, None, False))
        result, out_of_memory = _extract_guarded(body, content_type, url, max_chars, memory_limit_mb)
        del body
        retiring = (
            out_of_memory
            or served == _EXTRACTOR_MAX_PAGES
            or _address_space() - start_size > _EXTRACTOR_MAX_GROWTH_MB * 1024 * 1024
        )
        connection.send((request_id, result, retiring))
        if retiring:
            break
    connection.close()


_warm = False


def _warm_in_process() -> None:
    global _warm
    if _warm:
        return
    _warm = True
    sample = (
        "<html><head><title>Warm-up</title><meta name='date' content='2024-01-01'></head><body><main><h1>Warm-up</h1>"
        "<p>A first paragraph of text with enough words in it to be read as the main content here.</p>"
        "<p>A second paragraph follows it, also with enough words to count as main content.</p></main></body></html>"
    )
    _extract(sample.encode(), "text/html", "https://example.org/warm-up", DEFAULT_MAX_CHARS)


def warm_up() -> None:
    """Load and exercise the extractor in this process, then start the long-lived extractor
    process from it (see "Huge pages" above). Called in the RQ worker's main process before it
    forks work-horses: the horses inherit the extractor process, which finds trafilatura, its
    date finder and their data loaded (about 0.1 s a page otherwise)."""
    with _extractor_lock:
        _extractor_ready()


class _Extractor:
    """The long-lived extractor process and this side of its pipe.

    Started in the worker's main process (``warm_up``), it is inherited by every RQ work-horse
    forked from there; horses run one at a time, and request ids keep a late answer to a
    request whose sender is gone from being taken for the next one. Only the process that
    started it (``owner``) can reap it; any process may kill it.
    """

    def __init__(self, context: multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext) -> None:
        parent_end, child_end = context.Pipe(duplex=True)
        inherited = parent_end if context.get_start_method() == "fork" else None
        self.process = context.Process(target=_extractor_main, args=(child_end, inherited), daemon=True, name="citecheck-extractor")
        self.process.start()
        child_end.close()
        self.connection: Connection = parent_end
        self.owner = os.getpid()
        self.closed = False

    def alive(self) -> bool:
        """False when it is known to be gone; a horse only learns that when its request bounces."""
        return not self.closed and (self.owner != os.getpid() or self.process.is_alive())

    def exit_code(self) -> int | None:
        """How a process that went away ended (known to the process that started it only)."""
        if self.owner != os.getpid():
            return None
        self.process.join(1)
        return self.process.exitcode

    def close(self) -> None:
        """Kill the process (whoever started it), close our end, and reap it if it is ours."""
        if self.closed:
            return
        self.closed = True
        if self.owner == os.getpid():
            self.process.kill()  # a no-op once reaped, so a reused pid is never hit
            self.process.join()
        elif self.process.pid is not None:
            # Our parent started it and reaps it only before it forks again, so the pid is still its.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
        self.connection.close()

    def send(self, request: tuple[Any, ...]) -> bool:
        """Send one request; False when the process was gone before it could take it."""
        try:
            self.connection.send(request)
        except OSError:  # BrokenPipeError
            return False
        return True

    def wait(self, request_id: bytes, ends: float) -> tuple[str, ExtractionResult | None, bool]:
        """Wait until `ends` (monotonic) for the answer to the request sent as `request_id`.

        Returns ``(outcome, result, retiring)`` with outcome ``"done"``, ``"timeout"`` (taken, not
        finished in time), ``"busy"`` (not even taken in time), ``"died"`` (went away after taking
        it) or ``"gone"`` (went away before taking it).
        """
        taken = False
        while True:
            remaining = ends - time.monotonic()
            if remaining <= 0 or not self.connection.poll(remaining):
                return ("timeout" if taken else "busy"), None, False
            try:
                answer_id, result, retiring = self.connection.recv()
            except (EOFError, OSError):
                return ("died" if taken else "gone"), None, False
            if answer_id != request_id:
                continue  # the answer to a request whose sender was killed before reading it
            if result is None:
                taken = True
                continue
            return "done", result, retiring


_extractor: _Extractor | None = None
_extractor_lock = threading.Lock()
_fork_hook_registered = False
_starting = False


def _context() -> multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext:
    # fork: the process inherits the loaded modules and starts in milliseconds; spawn where fork is missing.
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _extractor_ready() -> _Extractor:
    """The extractor process, started (again) if there is none or it is gone. Hold the lock."""
    global _extractor, _starting, _fork_hook_registered
    if _extractor is not None and _extractor.alive():
        return _extractor
    _extractor_discard()
    context = _context()
    if context.get_start_method() == "fork":
        _warm_in_process()
    _starting = True
    try:
        _extractor = _Extractor(context)
    finally:
        _starting = False
    if not _fork_hook_registered:
        _fork_hook_registered = True
        os.register_at_fork(before=_replace_before_fork)
    return _extractor


def _extractor_discard() -> None:
    global _extractor
    if _extractor is not None:
        _extractor.close()
        _extractor = None


def _replace_before_fork() -> None:
    """Before this process forks (an RQ work-horse), replace an extractor process that the
    previous horse had to kill or that retired, so that the next horse inherits a live one."""
    if _starting or _extractor is None or _extractor.owner != os.getpid():
        return
    if not _extractor_lock.acquire(blocking=False):
        return  # an extraction is under way in another thread; it replaces the process itself
    try:
        if not _extractor.alive():
            _extractor_ready()
    finally:
        _extractor_lock.release()


class PendingExtraction:
    """A page handed to the extractor process (``extract_submit``); ``result()`` waits for it.

    One page at a time per process: the extractor is this page's from ``extract_submit`` until
    ``result()`` or ``close()``, so this process can do other work (store the previous page) while
    the extractor works on this one.
    """

    def __init__(self, body: bytes | str, content_type: str, url: str | None, max_chars: int, deadline_seconds: float,
                 memory_limit_mb: int | None) -> None:
        # Random, not counted: work-horses forked from one worker would count alike.
        self._request = (os.urandom(12), body, content_type, url, max_chars, memory_limit_mb)
        self._deadline = deadline_seconds
        self._memory_limit_mb = memory_limit_mb
        self._size = f"{len(body)} {'characters' if isinstance(body, str) else 'bytes'}"
        _extractor_lock.acquire()
        self._open = True
        try:
            self._send()
        except BaseException:
            self._release()
            raise

    def _send(self) -> None:
        self._extractor = _extractor_ready()
        self._ends = time.monotonic() + self._deadline
        self._sent = self._extractor.send(self._request)

    def _release(self) -> None:
        if self._open:
            self._open = False
            _extractor_lock.release()

    def close(self) -> None:
        """Give the page up without its result (the extractor process is replaced)."""
        if self._open:
            _extractor_discard()
            self._release()

    def result(self) -> ExtractionResult:
        """Wait for the page's result (until its deadline, counted from the submit)."""
        if not self._open:
            raise RuntimeError("this extraction's result was already taken")
        try:
            for attempt in (1, 2):
                extractor = self._extractor
                try:
                    outcome, result, retiring = extractor.wait(self._request[0], self._ends) if self._sent else ("gone", None, False)
                except BaseException:  # e.g. RQ's job timeout: the process's state is unknown now
                    _extractor_discard()
                    raise
                if outcome == "done" and result is not None:
                    if retiring:
                        _extractor_discard()
                    return result
                exit_code = extractor.exit_code() if outcome in ("died", "gone") else None
                _extractor_discard()
                if outcome in ("gone", "busy") and attempt == 1:
                    # Never taken: killed with an earlier horse, or still busy with a request whose
                    # sender was killed. Not this page's fault: once more on a fresh process.
                    self._send()
                    continue
                if outcome in ("died", "gone"):
                    code = f" (exit code {exit_code})" if exit_code is not None else ""
                    why = " (out of memory?)" if self._memory_limit_mb else ""
                    return ExtractionResult(status=ExtractionStatus.ERROR, error=f"extraction process died{code}{why}")
                break
            return ExtractionResult(
                status=ExtractionStatus.EXTRACTION_TIMEOUT,
                error=f"extraction did not finish within {self._deadline:g} s ({self._size})",
            )
        finally:
            self._release()


def extract_submit(
    body: bytes | str,
    *,
    content_type: str,
    url: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    deadline_seconds: float,
    memory_limit_mb: int | None = None,
) -> PendingExtraction:
    """Hand a page to the long-lived extractor process and return at once; ``.result()`` gives
    what ``extract_passages`` with the same arguments gives. Call ``.result()`` or ``.close()``
    before submitting the next page (from any thread of this process)."""
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    return PendingExtraction(body, content_type, url, max_chars, deadline_seconds, memory_limit_mb)


def extract_passages(
    body: bytes | str,
    *,
    content_type: str,
    url: str | None = None,
    max_chars: int = DEFAULT_MAX_CHARS,
    deadline_seconds: float | None = None,
    memory_limit_mb: int | None = None,
) -> ExtractionResult:
    """Passages of a fetched page (see the module docstring for their shape).

    ``content_type`` is the response's Content-Type header (parameters such as ``charset``
    allowed). ``url`` helps date detection only; nothing is fetched. With ``deadline_seconds``
    the work runs in a child process and gives ``extraction_timeout`` when it takes longer; with
    ``memory_limit_mb`` (needs ``deadline_seconds``) the child may grow by at most that much.
    Never raises for bad content: problems come back as a status with ``error`` set.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    if deadline_seconds is not None:
        return extract_submit(body, content_type=content_type, url=url, max_chars=max_chars, deadline_seconds=deadline_seconds,
                              memory_limit_mb=memory_limit_mb).result()
    try:
        return _extract(body, content_type, url, max_chars)
    except Exception as exc:  # a page that breaks a parser is the page's problem: report it
        logger.warning("extract.failed", extra={"url": url, "error": repr(exc)})
        return ExtractionResult(status=ExtractionStatus.ERROR, error=f"{type(exc).__name__}: {exc}")


def passages_text(passages: Iterable[ExtractedPassage]) -> Iterator[str]:
    """Each passage as heading path plus text, the way the extraction benchmark scores it."""
    for passage in passages:
        yield f"{passage.heading_path} {passage.text}" if passage.heading_path else passage.text
