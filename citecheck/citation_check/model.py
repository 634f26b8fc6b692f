"""What the checker reads and reports: answer formats and shapes, sources, citations, check results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from citecheck.text import Sentence


class AnswerFormat(StrEnum):
    OLLAMA_CHAT = "ollama_chat"
    OLLAMA_CHAT_STREAM = "ollama_chat_stream"
    OPENAI_CHAT = "openai_chat"
    OPENAI_CHAT_STREAM = "openai_chat_stream"
    TEXT = "text"


class AnswerShape(StrEnum):
    JSON_CITATIONS = "json_citations"
    TEXT = "text"


class QuoteResult(StrEnum):
    EXACT = "exact"
    NORMALIZED = "normalized"
    NOT_FOUND = "not_found"
    NO_SUCH_SOURCE = "no_such_source"


class MarkerResult(StrEnum):
    OK = "ok"
    NO_SUCH_SOURCE = "no_such_source"


FORMAT_LABELS: dict[AnswerFormat, str] = {
    AnswerFormat.OLLAMA_CHAT: "Ollama /api/chat response",
    AnswerFormat.OLLAMA_CHAT_STREAM: "streamed Ollama /api/chat response",
    AnswerFormat.OPENAI_CHAT: "OpenAI-compatible chat completion",
    AnswerFormat.OPENAI_CHAT_STREAM: "streamed OpenAI-compatible chat completion",
    AnswerFormat.TEXT: "plain text",
}
SHAPE_LABELS: dict[AnswerShape, str] = {
    AnswerShape.JSON_CITATIONS: "JSON with citations",
    AnswerShape.TEXT: "text with bracketed source numbers",
}
RESULT_LABELS: dict[str, str] = {
    QuoteResult.EXACT: "found exactly",
    QuoteResult.NORMALIZED: "found after normalising",
    QuoteResult.NOT_FOUND: "not in this source",
    QuoteResult.NO_SUCH_SOURCE: "no such source",
    MarkerResult.OK: "ok",
}

SOURCES_EXPECTED = (
    "expected a JSON array of strings or of objects with text/content/passage, "
    "or text blocks separated by '---' lines or blank lines"
)
ANSWER_EXPECTED = (
    "expected an Ollama /api/chat response (plain or streamed), an OpenAI-compatible chat "
    "completion (plain or streamed), a JSON answer with citations, or plain text"
)


class InputError(ValueError):
    """Unusable input. ``field`` is the input concerned ("sources" or "answer"); ``reason`` is one line."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = " ".join(reason.split())
        super().__init__(f"{field}: {self.reason}")


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Source:
    """One numbered source as sent to the model. ``title``/``url``/``id`` are for display only."""

    number: int
    text: str
    title: str | None = None
    url: str | None = None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class QuoteCitation:
    """One ``{"source": n, "quote": "..."}`` item of a JSON-shaped answer.

    ``source`` is the number as given; a value that is not a whole number is kept as it was
    written (it can never match a source).
    """

    source: int | str | None
    quote: str


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    """An answer with its transport format and shape worked out.

    ``content`` is the model's message text; ``answer_text`` is the prose to split into
    sentences (for the JSON shape the ``answer``/``text`` field, otherwise ``content``).
    """

    answer_format: AnswerFormat
    shape: AnswerShape
    content: str
    answer_text: str
    citations: tuple[QuoteCitation, ...] = ()
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def truncated(self) -> bool:
        return self.finish_reason == "length"


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """Result for one citation of a JSON-shaped answer (``index`` counts from 1 in answer order)."""

    index: int
    source: int | str | None
    quote: str
    result: QuoteResult

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "quote": self.quote, "result": self.result.value}


@dataclass(frozen=True, slots=True)
class MarkerCheck:
    """One bracketed number in one sentence of a text-shaped answer."""

    source: int
    sentence: Sentence
    result: MarkerResult

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "sentence": self.sentence.text, "result": self.result.value}


@dataclass(frozen=True, slots=True)
class TextQuoteCheck:
    """A quoted span in a sentence of a text or Markdown answer, checked against the source
    numbered right after it (or, failing that, against the sentence's sources)."""

    source: int
    quote: str
    sentence: Sentence
    result: QuoteResult

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "quote": self.quote, "sentence": self.sentence.text, "result": self.result.value}


@dataclass(frozen=True, slots=True)
class CitationReport:
    answer_format: AnswerFormat
    shape: AnswerShape
    source_count: int
    quote_checks: tuple[QuoteCheck, ...]
    marker_checks: tuple[MarkerCheck, ...]
    invalid_source_numbers: tuple[int, ...]
    sentences: tuple[Sentence, ...]
    uncited_sentences: tuple[Sentence, ...]
    unreferenced_sources: tuple[int, ...]
    unknown_urls: tuple[str, ...]
    truncated: bool
    no_citations: bool
    prompt_tokens: int | None
    warnings: tuple[str, ...]
    answer_text: str = field(repr=False, default="")
    text_quotes: tuple[TextQuoteCheck, ...] = ()

    @property
    def flagged(self) -> bool:
        """True when anything is wrong; every finding produces a warning line."""
        return bool(self.warnings)

    @property
    def exit_code(self) -> int:
        return 1 if self.flagged else 0

    def to_json(self) -> dict[str, Any]:
        """Exactly the keys of the command's ``--json`` output and the API response."""
        checks: Iterable[QuoteCheck | MarkerCheck] = (
            self.quote_checks if self.shape is AnswerShape.JSON_CITATIONS else self.marker_checks
        )
        return {
            "answer_format": self.answer_format.value,
            "shape": self.shape.value,
            "source_count": self.source_count,
            "citations": [check.to_json() for check in checks],
            "invalid_source_numbers": list(self.invalid_source_numbers),
            "uncited_sentences": [sentence.text for sentence in self.uncited_sentences],
            "unreferenced_sources": list(self.unreferenced_sources),
            "unknown_urls": list(self.unknown_urls),
            "truncated": self.truncated,
            "no_citations": self.no_citations,
            "prompt_tokens": self.prompt_tokens,
            "warnings": list(self.warnings),
            "quotes": [check.to_json() for check in self.text_quotes],  # quoted spans of a text answer
        }
