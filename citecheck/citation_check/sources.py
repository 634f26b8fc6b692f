"""The sources sent with an answer: a JSON array or numbered blocks of text."""

from __future__ import annotations

from typing import Any

from citecheck.citation_check.decode import check_text, json_error, loads_json, type_name
from citecheck.citation_check.model import SOURCES_EXPECTED, InputError, Source

# --------------------------------------------------------------------------- sources


def parse_sources(text: str) -> list[Source]:
    """Numbered sources (from 1) from a JSON array or from text blocks.

    JSON: an array of strings, or of objects whose text is ``text``, else ``content``, else
    ``passage`` (``title``, ``url`` and ``id`` are kept). Text: blocks separated by lines that
    hold only ``---``, or, when there is no such line, by one or more blank lines.
    """
    text = check_text(text, "sources", SOURCES_EXPECTED)
    stripped = text.strip()
    if stripped[0] in "[{":
        value, error = loads_json(stripped)
        if error is None:
            if not isinstance(value, list):
                raise InputError("sources", f"is a JSON object, not an array; {SOURCES_EXPECTED}")
            return _sources_from_json(value)
        second = stripped[1:].lstrip()[:1]
        if stripped[0] == "{" or second in ('"', "{", "[", "]"):
            raise InputError("sources", f"looks like JSON but is not valid JSON ({json_error(error)}); {SOURCES_EXPECTED}")
    return _sources_from_blocks(text)


def _sources_from_json(items: list[Any]) -> list[Source]:
    if not items:
        raise InputError("sources", f"is an empty JSON array; {SOURCES_EXPECTED}")
    sources: list[Source] = []
    for number, item in enumerate(items, start=1):
        if isinstance(item, str):
            sources.append(Source(number=number, text=item))
            continue
        if not isinstance(item, dict):
            raise InputError(
                "sources", f"item {number} of the JSON array is {type_name(item)}; expected a string or an object with text"
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
        raise InputError("sources", f"holds no text, only separators; {SOURCES_EXPECTED}")
    return [Source(number=number, text=body) for number, body in enumerate(bodies, start=1)]
