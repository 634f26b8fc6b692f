"""Plain text and Markdown: headings from ATX/setext marks, numbered lines or short lines before paragraphs."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from charset_normalizer import from_bytes

from citecheck.extraction.model import ContentKind, ExtractionResult, ExtractionStatus
from citecheck.extraction.sections import Outline, section_passages

if TYPE_CHECKING:

    pass

















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


def extract_text(body: bytes | str, content_type: str, max_chars: int) -> ExtractionResult:
    text = _decode_text(body, content_type).replace("\r\n", "\n").replace("\r", "\n")
    paragraphs = [p.strip() for p in _PARAGRAPH_BREAK.split(text)]
    paragraphs = [p for p in paragraphs if p]
    outline = Outline()
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
    passages = section_passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, kind=ContentKind.TEXT)
