"""Rows of an uploaded file: a JSON array of objects (or an object holding one, or JSON lines) or a
CSV file with a header row. One parser for every import (sources, golden pairs)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from citecheck.errors import InvalidInput


def rows_parse(text: str, *, noun: str, list_keys: tuple[str, ...], columns: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows of `text`, each a dict of column (stripped) to value.

    `noun` names the file in messages ("import", "test pair file"); `list_keys` are the keys under
    which a JSON object may hold the rows; a CSV header needs one of `columns`.
    """
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise InvalidInput(f"the {noun} is empty", field="file")
    if stripped[0] in "[{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError:
            try:
                data = [json.loads(line) for line in stripped.splitlines() if line.strip()]
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"the {noun} looks like JSON but is not valid: {exc}", field="file") from exc
        if isinstance(data, dict):
            data = next((data[key] for key in list_keys if data.get(key)), [data])
        if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
            raise InvalidInput(f"a JSON {noun} must be an array of objects", field="file")
        return data
    reader = csv.DictReader(io.StringIO(stripped))
    if not reader.fieldnames or not set(columns) & {name.strip() for name in reader.fieldnames}:
        wanted = " (or ".join(columns) + ")" * (len(columns) - 1)
        raise InvalidInput(f"a CSV {noun} needs a header row with a {wanted} column", field="file")
    return [{(key or "").strip(): value for key, value in row.items()} for row in reader]
