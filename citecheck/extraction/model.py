"""What extraction produces: passages with their location, and the result of one page."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:

    pass

















logger = logging.getLogger(__name__)

DEFAULT_MAX_CHARS = 1200
HEADING_SEPARATOR = " > "
TOP_ANCHOR = "top"
MAX_ANCHOR_CHARS = 80


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
