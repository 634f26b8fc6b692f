"""Mechanical citation checker: do the numbers and quotes in a model's answer match the sources?

Pure logic, no Django. It does not judge truth; the claim judge does that.

Typical use::

    sources = parse_sources(sources_text)          # or build Source objects from the registry
    report = check_answer(sources, answer_text, known_urls={...})
    report.to_json()                               # the object the command and the API print
    report.exit_code                               # 0 nothing flagged, 1 something flagged

Unusable input raises :class:`InputError` with a one-line reason naming the input.

Performance: each quote is first looked up verbatim (``in``); only when that fails is the
quote folded and looked up in the folded source, and each source is folded at most once
per check. Both steps are linear in the source's size.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from citecheck.text import MARKER_RE, Sentence, fold_for_match, sentences_with_markers

__all__ = [
    "AnswerFormat",
    "AnswerShape",
    "CitationReport",
    "InputError",
    "MarkerCheck",
    "MarkerResult",
    "ParsedAnswer",
    "QuoteCheck",
    "QuoteCitation",
    "QuoteResult",
    "Source",
    "TextQuoteCheck",
    "check_answer",
    "check_parsed_answer",
    "decode_input",
    "find_quotes",
    "find_urls",
    "parse_answer",
    "parse_sources",
    "render_text",
]


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

_SOURCES_EXPECTED = (
    "expected a JSON array of strings or of objects with text/content/passage, "
    "or text blocks separated by '---' lines or blank lines"
)
_ANSWER_EXPECTED = (
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


# --------------------------------------------------------------------------- decoding


def decode_input(data: bytes, field: str) -> str:
    """Bytes of a file or request body as text: UTF-8 (a BOM is dropped), never binary."""
    if b"\x00" in data:
        raise InputError(field, "looks like binary data (it contains NUL bytes); expected UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            field, f"is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); expected UTF-8 text"
        ) from None
    return text.removeprefix("\ufeff")


def _check_text(text: str, field: str, expected: str) -> str:
    if "\x00" in text:
        raise InputError(field, "looks like binary data (it contains NUL characters); expected UTF-8 text")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InputError(field, f"is empty; {expected}")
    return text


def _json_error(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc).split("\n", 1)[0]


def _loads(text: str) -> tuple[Any, Exception | None]:
    """json.loads that never raises: (value, None) or (None, error)."""
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, int-digit limit, deep nesting
        return None, exc


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "a string"


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


# --------------------------------------------------------------------------- sources


def parse_sources(text: str) -> list[Source]:
    """Numbered sources (from 1) from a JSON array or from text blocks.

    JSON: an array of strings, or of objects whose text is ``text``, else ``content``, else
    ``passage`` (``title``, ``url`` and ``id`` are kept). Text: blocks separated by lines that
    hold only ``---``, or, when there is no such line, by one or more blank lines.
    """
    text = _check_text(text, "sources", _SOURCES_EXPECTED)
    stripped = text.strip()
    if stripped[0] in "[{":
        value, error = _loads(stripped)
        if error is None:
            if not isinstance(value, list):
                raise InputError("sources", f"is a JSON object, not an array; {_SOURCES_EXPECTED}")
            return _sources_from_json(value)
        second = stripped[1:].lstrip()[:1]
        if stripped[0] == "{" or second in ('"', "{", "[", "]"):
            raise InputError("sources", f"looks like JSON but is not valid JSON ({_json_error(error)}); {_SOURCES_EXPECTED}")
    return _sources_from_blocks(text)


def _sources_from_json(items: list[Any]) -> list[Source]:
    if not items:
        raise InputError("sources", f"is an empty JSON array; {_SOURCES_EXPECTED}")
    sources: list[Source] = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, str):
            sources.append(Source(number=number, text=item))
            continue
        if not isinstance(item, dict):
            raise InputError(
                "sources", f"item {number} of the JSON array is {_type_name(item)}; expected a string or an object with text"
            )
        body = next((item[key] for key in ("text", "content", "passage") if isinstance(item.get(key), str)), None)
        if body is None:
            raise InputError("sources", f"item {number} of the JSON array has no text, content or passage string")
        sources.append(
            Source(
                number=number,
                text=body,
                title=_display_value(item.get("title")),
                url=_display_value(item.get("url")),
                id=_display_value(item.get("id")),
            )
        )
    return sources


def _display_value(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _sources_from_blocks(text: str) -> list[Source]:
    lines = text.splitlines()
    if any(line.strip() == "---" for line in lines):
        is_separator = [line.strip() == "---" for line in lines]
    else:
        is_separator = [not line.strip() for line in lines]
    blocks: list[str] = []
    current: list[str] = []
    for line, separator in zip(lines, is_separator, strict=True):
        if separator:
            blocks.append("\n".join(current).strip())
            current = []
        else:
            current.append(line)
    blocks.append("\n".join(current).strip())
    bodies = [block for block in blocks if block]
    if not bodies:
        raise InputError("sources", f"holds no text, only separators; {_SOURCES_EXPECTED}")
    return [Source(number=number, text=body) for number, body in enumerate(bodies, start=1)]


# --------------------------------------------------------------------------- answers


def parse_answer(text: str) -> ParsedAnswer:
    """Detect the answer's transport format and shape and pull out its content and metadata."""
    text = _check_text(text, "answer", _ANSWER_EXPECTED)
    stripped = text.strip()
    if stripped.startswith("data:"):
        content, finish_reason, prompt_tokens, notes = _read_openai_stream(text)
        return _with_shape(AnswerFormat.OPENAI_CHAT_STREAM, content, finish_reason, prompt_tokens, notes)
    if stripped.startswith("{"):
        value, error = _loads(stripped)
        if error is None:
            envelope = _read_envelope(value)
            if envelope is not None:
                answer_format, content, finish_reason, prompt_tokens, notes = envelope
                return _with_shape(answer_format, content, finish_reason, prompt_tokens, notes)
            # A bare JSON answer (e.g. {"answer": ..., "citations": [...]}) is the content itself.
            return _with_shape(AnswerFormat.TEXT, text, None, None, ())
        first_line = stripped.split("\n", 1)[0].strip()
        first, first_error = _loads(first_line)
        if first_error is None and isinstance(first, dict) and ("message" in first or "done" in first):
            content, finish_reason, prompt_tokens, notes = _read_ollama_stream(text)
            return _with_shape(AnswerFormat.OLLAMA_CHAT_STREAM, content, finish_reason, prompt_tokens, notes)
        raise InputError("answer", f"starts with '{{' but is not valid JSON ({_json_error(error)}); {_ANSWER_EXPECTED}")
    return _with_shape(AnswerFormat.TEXT, text, None, None, ())


_Envelope = tuple[AnswerFormat, str, str | None, int | None, tuple[str, ...]]


def _read_envelope(value: Any) -> _Envelope | None:
    """An Ollama or OpenAI response object, or None when the JSON is not one."""
    if not isinstance(value, dict):
        return None
    if "choices" in value:
        choices = value["choices"]
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise InputError("answer", "is an OpenAI-style response without a choices[0] object")
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            raise InputError("answer", "is an OpenAI-style response without choices[0].message")
        content, notes = _content_of(message, "choices[0].message.content")
        usage = value.get("usage")
        prompt_tokens = _whole_number(usage.get("prompt_tokens")) if isinstance(usage, dict) else None
        return AnswerFormat.OPENAI_CHAT, content, _str_or_none(choice.get("finish_reason")), prompt_tokens, notes
    if isinstance(value.get("message"), dict):
        content, notes = _content_of(value["message"], "message.content")
        prompt_tokens = _whole_number(value.get("prompt_eval_count"))
        return AnswerFormat.OLLAMA_CHAT, content, _str_or_none(value.get("done_reason")), prompt_tokens, notes
    if isinstance(value.get("error"), str | dict) and not ({"answer", "text", "citations"} & value.keys()):
        detail = value["error"] if isinstance(value["error"], str) else value["error"].get("message", "")
        raise InputError("answer", f"is an error response, not an answer: {str(detail)[:200]}")
    return None


def _content_of(message: dict[str, Any], where: str) -> tuple[str, tuple[str, ...]]:
    content = message.get("content")
    if isinstance(content, str):
        return content, ()
    if content is None:
        return "", (f"The response has no {where}; there is no answer text to check.",)
    raise InputError("answer", f"{where} is {_type_name(content)}; expected a string")


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _read_ollama_stream(text: str) -> tuple[str, str | None, int | None, tuple[str, ...]]:
    pieces: list[str] = []
    notes: list[str] = []
    last: dict[str, Any] = {}
    for line_number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line:
            continue
        value, error = _loads(line)
        if error is not None:
            raise InputError(
                "answer",
                f"line {line_number} of the streamed Ollama response is not valid JSON ({_json_error(error)}); "
                "expected one JSON object per line",
            )
        if not isinstance(value, dict):
            raise InputError(
                "answer", f"line {line_number} of the streamed Ollama response is {_type_name(value)}; expected an object"
            )
        if isinstance(value.get("error"), str):
            notes.append(f"The stream reports an error at line {line_number}: {value['error'][:200]}")
        message = value.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), str):
            pieces.append(message["content"])
        last = value
    if last.get("done") is not True:
        notes.append("The Ollama stream ends before its final object (done: true); the answer may be incomplete.")
    prompt_tokens = _whole_number(last.get("prompt_eval_count"))
    return "".join(pieces), _str_or_none(last.get("done_reason")), prompt_tokens, tuple(notes)


def _read_openai_stream(text: str) -> tuple[str, str | None, int | None, tuple[str, ...]]:
    pieces: list[str] = []
    notes: list[str] = []
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    done = False
    for line_number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line or line.startswith((":", "event:", "id:", "retry:")):
            continue  # blank lines separate events; ':' lines are SSE comments
        if not line.startswith("data:"):
            raise InputError(
                "answer", f"line {line_number} of the streamed OpenAI response does not start with 'data:'"
            )
        payload = line[5:].strip()
        if payload == "[DONE]":
            done = True
            continue
        value, error = _loads(payload)
        if error is not None:
            raise InputError(
                "answer",
                f"line {line_number} of the streamed OpenAI response is not valid JSON ({_json_error(error)}); "
                "expected 'data: {...}' lines ending with 'data: [DONE]'",
            )
        if not isinstance(value, dict):
            raise InputError(
                "answer", f"line {line_number} of the streamed OpenAI response is {_type_name(value)}; expected an object"
            )
        if "error" in value and "choices" not in value:
            error_value = value["error"]
            detail = error_value.get("message", "") if isinstance(error_value, dict) else error_value
            notes.append(f"The stream reports an error at line {line_number}: {str(detail)[:200]}")
        usage = value.get("usage")
        if isinstance(usage, dict) and _whole_number(usage.get("prompt_tokens")) is not None:
            prompt_tokens = _whole_number(usage.get("prompt_tokens"))
        for choice in value.get("choices") or ():
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("content"), str):
                pieces.append(delta["content"])
            if isinstance(choice.get("finish_reason"), str):
                finish_reason = choice["finish_reason"]
    if not done:
        notes.append("The OpenAI stream ends without 'data: [DONE]'; the answer may be incomplete.")
    return "".join(pieces), finish_reason, prompt_tokens, tuple(notes)


def _with_shape(
    answer_format: AnswerFormat,
    content: str,
    finish_reason: str | None,
    prompt_tokens: int | None,
    notes: tuple[str, ...],
) -> ParsedAnswer:
    body = _unfence(content.strip())
    if body.startswith("{"):
        value, error = _loads(body)
        if error is None and isinstance(value, dict):
            answer_text = next((value[key] for key in ("answer", "text") if isinstance(value.get(key), str)), None)
            raw_citations = value.get("citations")
            if answer_text is not None and isinstance(raw_citations, list):
                citations = _read_citations(raw_citations)
                return ParsedAnswer(
                    answer_format=answer_format,
                    shape=AnswerShape.JSON_CITATIONS,
                    content=content,
                    answer_text=answer_text,
                    citations=citations,
                    finish_reason=finish_reason,
                    prompt_tokens=prompt_tokens,
                    notes=notes,
                )
        elif error is not None:
            notes = notes + (
                f"The answer looks like JSON but is not valid JSON ({_json_error(error)}); it was checked as text.",
            )
    return ParsedAnswer(
        answer_format=answer_format,
        shape=AnswerShape.TEXT,
        content=content,
        answer_text=content,
        finish_reason=finish_reason,
        prompt_tokens=prompt_tokens,
        notes=notes,
    )


def _unfence(body: str) -> str:
    """The inside of a ``` or ```json fence around the whole content (closing fence optional)."""
    if not body.startswith("```"):
        return body
    first_line, _, rest = body.partition("\n")
    if first_line[3:].strip().lower() not in ("", "json"):
        return body
    rest = rest.rstrip()
    return rest.removesuffix("```").strip()


_NUMBER_TEXT = re.compile(r"\s*\[?\s*(\d{1,18})\s*\]?\s*")


def _read_citations(items: list[Any]) -> tuple[QuoteCitation, ...]:
    citations: list[QuoteCitation] = []
    for item in items:
        raw_source: Any = item.get("source") if isinstance(item, dict) else item
        quote: Any = item.get("quote") if isinstance(item, dict) else None
        source: int | str | None
        number = _whole_number(raw_source)
        if number is not None:
            source = number
        elif isinstance(raw_source, str) and (match := _NUMBER_TEXT.fullmatch(raw_source)):
            source = int(match.group(1))
        elif raw_source is None:
            source = None
        else:
            source = raw_source if isinstance(raw_source, str) else json.dumps(raw_source)[:100]
        if not isinstance(quote, str):
            quote = ""
        citations.append(QuoteCitation(source=source, quote=quote))
    return tuple(citations)


# --------------------------------------------------------------------------- URLs

_URL_RE = re.compile(r"""https?://[^\s<>"'`\\\[\]{}|^]+""", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)'\"*_~"


def find_urls(text: str) -> list[str]:
    """http(s) URLs in text, in order, without trailing punctuation, each once."""
    found: dict[str, None] = {}
    for match in _URL_RE.finditer(text):
        url = match.group(0)
        while url and url[-1] in _URL_TRAILING:
            if url[-1] == ")" and url.count("(") >= url.count(")"):
                break  # a balanced parenthesis is part of the URL (Wikipedia-style)
            url = url[:-1]
        if len(url) > len("https://"):
            found.setdefault(url, None)
    return list(found)


def _url_key(url: str) -> str:
    """Comparison key: scheme and host lower-cased, fragment and trailing slash dropped."""
    url = url.strip()
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    path = parts.path.rstrip("/")
    key = f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}"
    return f"{key}?{parts.query}" if parts.query else key


# --------------------------------------------------------------------------- quotes in text

# Quoted spans: straight "…", curly “…”, low-high „…“ / „…”, guillemets «…» and CJK 「…」 『…』.
# Single quotes are left alone: they are apostrophes far more often than quotation marks.
_QUOTED_RE = re.compile(
    r'"(?P<straight>[^"\n]{2,}?)"'
    r"|\u201c(?P<curly>[^\u201d\n]{2,}?)\u201d"
    r"|\u201e(?P<low>[^\u201c\u201d\n]{2,}?)[\u201c\u201d]"
    r"|\u00ab\s?(?P<guillemets>[^\u00bb\n]{2,}?)\s?\u00bb"
    r"|\u300c(?P<cjk>[^\u300d\n]{1,}?)\u300d"
    r"|\u300e(?P<cjk2>[^\u300f\n]{1,}?)\u300f"
)
_TRAILING_MARKERS_RE = re.compile(r"(?:[ \t]*\[[ \t]*\d{1,18}(?:[ \t]*,[ \t]*\d{1,18})*[ \t]*\])+[ \t]*$")
_BEFORE_MARKER_RE = re.compile(r"[\s.,;:!?。、*_)]{0,3}")


def _markers_after(text: str, pos: int) -> list[int]:
    """The numbers of the markers that stand right after a quote ("…" [2][1] -> [2, 1])."""

    numbers: list[int] = []
    pos = _BEFORE_MARKER_RE.match(text, pos).end()  # type: ignore[union-attr]
    while (marker := MARKER_RE.match(text, pos)) is not None:
        numbers.extend(int(part) for part in re.split(r"[ \t]*,[ \t]*", marker.group(1).strip()))
        pos = marker.end()
        while pos < len(text) and text[pos] in " \t":
            pos += 1
    return list(dict.fromkeys(numbers))


def find_quotes(text: str) -> list[tuple[str, int, int]]:
    """Quoted spans in ``text``: (the words inside the quotation marks, start, end of the whole
    quoted span). Markdown emphasis or code marks around the words are dropped."""
    found = []
    for match in _QUOTED_RE.finditer(text):
        inner = next(group for group in match.groups() if group is not None)
        # A marker inside the quotation marks ("lorry.[2]") belongs to the sentence, not the quote.
        inner = _TRAILING_MARKERS_RE.sub("", inner)
        inner = inner.strip().strip("*_`").strip()
        if len(inner) >= 2 or (inner and not inner.isascii()):
            found.append((inner, match.start(), match.end()))
    return found


def _check_text_quotes(sentences: Sequence[Sentence], by_number: dict[int, Source]) -> list[TextQuoteCheck]:
    folded: dict[int, str] = {}
    checks: list[TextQuoteCheck] = []
    for sentence in sentences:
        if not sentence.numbers:
            continue  # a quote with no source number has nothing to be checked against
        for quote, start, end in find_quotes(sentence.text):
            inside = [int(part) for m in MARKER_RE.finditer(sentence.text, start, end) for part in re.split(r"[ \t]*,[ \t]*", m.group(1).strip())]
            candidates = list(dict.fromkeys(inside + _markers_after(sentence.text, end))) or list(dict.fromkeys(sentence.numbers))
            results = [(n, _check_quote(QuoteCitation(source=n, quote=quote), by_number, folded)) for n in candidates]
            hit = next(((n, r) for n, r in results if r in (QuoteResult.EXACT, QuoteResult.NORMALIZED)), None)
            number, result = hit or results[0]
            checks.append(TextQuoteCheck(source=number, quote=quote, sentence=sentence, result=result))
    return checks


# --------------------------------------------------------------------------- checks


def check_answer(
    sources: Sequence[Source], answer_raw: str, *, known_urls: Iterable[str] = frozenset()
) -> CitationReport:
    """Parse ``answer_raw`` (any supported format) and check it against ``sources``.

    ``known_urls`` are URLs the answer may mention besides the sources' own ``url`` values
    (inside Citecheck: the registered sources' URLs). Raises :class:`InputError`.
    """
    return check_parsed_answer(sources, parse_answer(answer_raw), known_urls=known_urls)


def check_parsed_answer(
    sources: Sequence[Source], answer: ParsedAnswer, *, known_urls: Iterable[str] = frozenset()
) -> CitationReport:
    """Check an already parsed answer against ``sources`` (numbers must be unique)."""
    by_number: dict[int, Source] = {source.number: source for source in sources}
    if len(by_number) != len(sources):
        raise ValueError("source numbers must be unique")
    numbers_desc = _numbering(by_number)
    warnings: list[str] = []
    quote_checks: list[QuoteCheck] = []
    marker_checks: list[MarkerCheck] = []
    cited: set[int] = set()
    invalid: set[int] = set()
    text_quotes: list[TextQuoteCheck] = []
    sentences = tuple(sentences_with_markers(answer.answer_text)) if answer.shape is AnswerShape.TEXT else ()

    if answer.shape is AnswerShape.JSON_CITATIONS:
        folded_sources: dict[int, str] = {}
        for index, citation in enumerate(answer.citations, start=1):
            result = _check_quote(citation, by_number, folded_sources)
            quote_checks.append(QuoteCheck(index=index, source=citation.source, quote=citation.quote, result=result))
            if isinstance(citation.source, int):
                if citation.source in by_number:
                    cited.add(citation.source)
                else:
                    invalid.add(citation.source)
            label = f"[{citation.source}]" if citation.source is not None else "(none given)"
            if result is QuoteResult.NO_SUCH_SOURCE:
                if isinstance(citation.source, int):
                    warnings.append(f"Citation #{index} cites source {label}, but there is no such source ({numbers_desc}).")
                else:
                    warnings.append(f"Citation #{index}: the source number {label} is not a whole number.")
            elif result is QuoteResult.NOT_FOUND:
                if citation.quote.strip():
                    warnings.append(f"Citation #{index}: the quote is not in source {label}.")
                else:
                    warnings.append(f"Citation #{index} has no quote to check against source {label}.")
        no_citations = not answer.citations
        uncited: tuple[Sentence, ...] = ()
    else:
        for sentence in sentences:
            for number in dict.fromkeys(sentence.numbers):
                ok = number in by_number
                marker_checks.append(
                    MarkerCheck(
                        source=number, sentence=sentence, result=MarkerResult.OK if ok else MarkerResult.NO_SUCH_SOURCE
                    )
                )
                (cited if ok else invalid).add(number)
        for number in sorted(invalid):
            warnings.append(f"The answer cites [{number}], but there is no such source ({numbers_desc}).")
        no_citations = not marker_checks
        text_quotes = _check_text_quotes(sentences, by_number)
        for quote_check in text_quotes:
            if quote_check.result is QuoteResult.NOT_FOUND:
                warnings.append(f"The quote \u201c{quote_check.quote}\u201d is not in source [{quote_check.source}].")
        uncited = tuple(sentence for sentence in sentences if not sentence.numbers)
        if uncited and not no_citations:
            count = len(uncited)
            warnings.append(f"{count} sentence{'s carry' if count != 1 else ' carries'} no source number.")

    unreferenced = tuple(number for number in sorted(by_number) if number not in cited)
    if unreferenced and not no_citations:
        warnings.append(f"Sources nobody cited: {', '.join(f'[{n}]' for n in unreferenced)}.")

    allowed = {_url_key(url) for url in known_urls}
    allowed.update(_url_key(source.url) for source in sources if source.url)
    unknown = tuple(url for url in find_urls(answer.answer_text) if _url_key(url) not in allowed)
    for url in unknown:
        warnings.append(f"The answer links to {url}, which is not one of the sources.")

    if no_citations:
        warnings.insert(0, "The answer has no citations at all.")
    if answer.truncated:
        warnings.insert(
            0,
            "The answer was cut off at the token limit (finish/done reason \"length\"): "
            "its end, and perhaps some citations, are missing.",
        )
    warnings.extend(answer.notes)

    return CitationReport(
        answer_format=answer.answer_format,
        shape=answer.shape,
        source_count=len(sources),
        quote_checks=tuple(quote_checks),
        marker_checks=tuple(marker_checks),
        invalid_source_numbers=tuple(sorted(invalid)),
        sentences=sentences,
        uncited_sentences=uncited,
        unreferenced_sources=unreferenced,
        unknown_urls=unknown,
        truncated=answer.truncated,
        no_citations=no_citations,
        prompt_tokens=answer.prompt_tokens,
        warnings=tuple(warnings),
        answer_text=answer.answer_text,
        text_quotes=tuple(text_quotes),
    )


def _numbering(by_number: dict[int, Source]) -> str:
    if not by_number:
        return "no sources were given"
    low, high = min(by_number), max(by_number)
    if high - low + 1 == len(by_number):
        return f"sources are numbered {low} to {high}" if high > low else f"the only source is [{low}]"
    return f"{len(by_number)} sources were given"


def _check_quote(citation: QuoteCitation, by_number: dict[int, Source], folded_sources: dict[int, str]) -> QuoteResult:
    source = by_number.get(citation.source) if isinstance(citation.source, int) else None
    if source is None:
        return QuoteResult.NO_SUCH_SOURCE
    quote = citation.quote
    if not quote.strip():
        return QuoteResult.NOT_FOUND
    if quote in source.text:
        return QuoteResult.EXACT
    folded_quote = fold_for_match(quote)
    folded_source = folded_sources.get(source.number)
    if folded_source is None:
        # Fold a source only when a quote needs it, and only once per check.
        folded_source = folded_sources[source.number] = fold_for_match(source.text)
    if folded_quote and folded_quote in folded_source:
        return QuoteResult.NORMALIZED
    return QuoteResult.NOT_FOUND


# --------------------------------------------------------------------------- text report


_DISCLAIMER = (
    "This checks only that numbers and quotes match the sources. It does not say whether the "
    "answer is right or whether a source really supports a sentence."
)


def _cell(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.replace("|", "\\|")


def render_text(report: CitationReport) -> str:
    """A readable Markdown report (the command's output without ``--json``)."""
    lines = [
        f"Sources: {report.source_count}. Answer: {FORMAT_LABELS[report.answer_format]}; "
        + f"shape: {SHAPE_LABELS[report.shape]}.",
    ]
    if report.prompt_tokens is not None:
        lines.append(f"Prompt tokens: {report.prompt_tokens}")
    lines.append("Result: " + ("PROBLEMS FOUND" if report.flagged else "OK, nothing flagged"))
    if report.warnings:
        lines.append("")
        lines.extend(f"- {warning}" for warning in report.warnings)
    lines += ["", "Citations"]
    if report.shape is AnswerShape.JSON_CITATIONS:
        lines += ["| # | Source | Quote | Result |", "|---|---|---|---|"]
        for check in report.quote_checks:
            lines.append(
                f"| {check.index} | [{_cell(str(check.source), 20)}] | {_cell(check.quote)} | {RESULT_LABELS[check.result]} |"
            )
    else:
        lines += ["| Source | Sentence | Result |", "|---|---|---|"]
        for marker in report.marker_checks:
            lines.append(f"| [{marker.source}] | {_cell(marker.sentence.text)} | {RESULT_LABELS[marker.result]} |")
    if not (report.quote_checks or report.marker_checks):
        lines.append("(none)")
    if report.text_quotes:
        lines += ["", "Quotes in the text", "| Source | Quote | Result |", "|---|---|---|"]
        for quote_check in report.text_quotes:
            lines.append(f"| [{quote_check.source}] | {_cell(quote_check.quote)} | {RESULT_LABELS[quote_check.result]} |")
    if report.shape is AnswerShape.TEXT:
        lines += ["", "Sentences without a source number"]
        lines += [f"- {_cell(sentence.text, 200)}" for sentence in report.uncited_sentences] or ["(none)"]
    lines += ["", "Sources nobody cited: " + (", ".join(f"[{n}]" for n in report.unreferenced_sources) or "none")]
    if report.unknown_urls:
        lines += ["", "Links that are not sources:"] + [f"- {url}" for url in report.unknown_urls]
    lines += [
        "",
        _DISCLAIMER,
    ]
    return "\n".join(lines)
