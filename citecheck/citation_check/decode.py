"""Reading input: bytes as UTF-8 text, JSON with errors a person can act on, values named by their type."""

from __future__ import annotations

import json
from typing import Any

from citecheck.citation_check.model import InputError

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


def check_text(text: str, field: str, expected: str) -> str:
    if "\x00" in text:
        raise InputError(field, "looks like binary data (it contains NUL characters); expected UTF-8 text")
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise InputError(field, f"is empty; {expected}")
    return text


def json_error(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc).split("\n", 1)[0]


def loads_json(text: str) -> tuple[Any, Exception | None]:
    """json.loads that never raises: (value, None) or (None, error)."""
    try:
        return json.loads(text), None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, int-digit limit, deep nesting
        return None, exc


def type_name(value: Any) -> str:
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


def whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
