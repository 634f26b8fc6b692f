"""Sections into passages: heading paths, unique anchors, long sections split at sentence and word ends."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citecheck.extraction.model import HEADING_SEPARATOR, MAX_ANCHOR_CHARS, TOP_ANCHOR, ExtractedPassage
from citecheck.fingerprint import fingerprint

if TYPE_CHECKING:

    pass

















# --------------------------------------------------------------------------- sections and splitting


@dataclass(slots=True)
class Section:
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
    return slug[:MAX_ANCHOR_CHARS].rstrip("-_") or "section"


def collapse(text: str) -> str:
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


def _is_descendant(section: Section, parent: Section) -> bool:
    return len(section.headings) > len(parent.headings) and section.headings[: len(parent.headings)] == parent.headings


def section_passages(sections: list[Section], max_chars: int) -> list[ExtractedPassage]:
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


class Outline:
    """Builds sections from a stream of headings and blocks."""

    def __init__(self) -> None:
        self.anchors = _Anchors()
        self.sections: list[Section] = []
        self._stack: list[tuple[int, str]] = []

    def heading(self, level: int, text: str, anchor: str | None) -> None:
        text = unicodedata.normalize("NFC", text)
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, text))
        headings = tuple(title for _, title in self._stack)
        self.sections.append(Section(headings=headings, anchor=self.anchors.claim(anchor or _slug(text))))

    def block(self, text: str) -> None:
        if not self.sections:
            self.sections.append(Section(headings=(), anchor=self.anchors.claim(TOP_ANCHOR)))
        self.sections[-1].blocks.append(unicodedata.normalize("NFC", text))
