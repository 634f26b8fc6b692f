"""A model's answer in any of its formats: Ollama and OpenAI JSON (also streamed), a JSON answer with a
citation list, or plain text with [n] markers."""

from __future__ import annotations

import json
import re
from typing import Any

from citecheck.citation_check.decode import check_text, json_error, loads_json, type_name, whole_number
from citecheck.citation_check.model import ANSWER_EXPECTED, AnswerFormat, AnswerShape, InputError, ParsedAnswer, QuoteCitation

# --------------------------------------------------------------------------- answers


def parse_answer(text: str) -> ParsedAnswer:
    """Detect the answer's transport format and shape and pull out its content and metadata."""
    text = check_text(text, "answer", ANSWER_EXPECTED)
    stripped = text.strip()
    if stripped.startswith("data:"):
        content, finish_reason, prompt_tokens, notes = _read_openai_stream(text)
        return _with_shape(AnswerFormat.OPENAI_CHAT_STREAM, content, finish_reason, prompt_tokens, notes)
    if stripped.startswith("{"):
        value, error = loads_json(stripped)
        if error is None:
            envelope = _read_envelope(value)
            if envelope is not None:
                answer_format, content, finish_reason, prompt_tokens, notes = envelope
                return _with_shape(answer_format, content, finish_reason, prompt_tokens, notes)
            # A bare JSON answer (e.g. {"answer": ..., "citations": [...]}) is the content itself.
            return _with_shape(AnswerFormat.TEXT, text, None, None, ())
        first_line = stripped.split("\n", 1)[0].strip()
        first, first_error = loads_json(first_line)
        if first_error is None and isinstance(first, dict) and ("message" in first or "done" in first):
            content, finish_reason, prompt_tokens, notes = _read_ollama_stream(text)
            return _with_shape(AnswerFormat.OLLAMA_CHAT_STREAM, content, finish_reason, prompt_tokens, notes)
        raise InputError("answer", f"starts with '{{' but is not valid JSON ({json_error(error)}); {ANSWER_EXPECTED}")
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
        prompt_tokens = whole_number(usage.get("prompt_tokens")) if isinstance(usage, dict) else None
        return AnswerFormat.OPENAI_CHAT, content, _str_or_none(choice.get("finish_reason")), prompt_tokens, notes
    if isinstance(value.get("message"), dict):
        content, notes = _content_of(value["message"], "message.content")
        prompt_tokens = whole_number(value.get("prompt_eval_count"))
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
    raise InputError("answer", f"{where} is {type_name(content)}; expected a string")


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
        value, error = loads_json(line)
        if error is not None:
            raise InputError(
                "answer",
                f"line {line_number} of the streamed Ollama response is not valid JSON ({json_error(error)}); "
                "expected one JSON object per line",
            )
        if not isinstance(value, dict):
            raise InputError(
                "answer", f"line {line_number} of the streamed Ollama response is {type_name(value)}; expected an object"
            )
        if isinstance(value.get("error"), str):
            notes.append(f"The stream reports an error at line {line_number}: {value['error'][:200]}")
        message = value.get("message")
        if isinstance(message, dict) and isinstance(message.get("content"), str):
            pieces.append(message["content"])
        last = value
    if last.get("done") is not True:
        notes.append("The Ollama stream ends before its final object (done: true); the answer may be incomplete.")
    prompt_tokens = whole_number(last.get("prompt_eval_count"))
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
        value, error = loads_json(payload)
        if error is not None:
            raise InputError(
                "answer",
                f"line {line_number} of the streamed OpenAI response is not valid JSON ({json_error(error)}); "
                "expected 'data: {...}' lines ending with 'data: [DONE]'",
            )
        if not isinstance(value, dict):
            raise InputError(
                "answer", f"line {line_number} of the streamed OpenAI response is {type_name(value)}; expected an object"
            )
        if "error" in value and "choices" not in value:
            error_value = value["error"]
            detail = error_value.get("message", "") if isinstance(error_value, dict) else error_value
            notes.append(f"The stream reports an error at line {line_number}: {str(detail)[:200]}")
        usage = value.get("usage")
        if isinstance(usage, dict) and whole_number(usage.get("prompt_tokens")) is not None:
            prompt_tokens = whole_number(usage.get("prompt_tokens"))
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
        value, error = loads_json(body)
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
                f"The answer looks like JSON but is not valid JSON ({json_error(error)}); it was checked as text.",
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
        number = whole_number(raw_source)
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
