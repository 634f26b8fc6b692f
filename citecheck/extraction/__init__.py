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

from citecheck.extraction.content import content_kind, guess_content_type
from citecheck.extraction.model import (
    DEFAULT_MAX_CHARS,
    HEADING_SEPARATOR,
    ContentKind,
    ExtractedPassage,
    ExtractionResult,
    ExtractionStatus,
)
from citecheck.extraction.process import PendingExtraction, extract_passages, extract_submit, passages_text, warm_up

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
    "warm_up",
]
