"""Unusable or hostile input: a clear one-line message, never a traceback, never a hang."""

from __future__ import annotations

import json
import os
import time

import pytest

from citecheck.citation_check import InputError, check_answer, decode_input, parse_answer, parse_sources

from .helpers import json_answer, ollama_stream, openai_stream

# A cap against a hang (catastrophic backtracking, quadratic scans), never a speed goal: the
# checker's speed is measured in bench/bench_citations.py.
HANG_CAP = 60.0


def reason(call: object, *args: object) -> InputError:
    with pytest.raises(InputError) as info:
        call(*args)  # type: ignore[operator]
    error = info.value
    assert "\n" not in str(error)
    return error


@pytest.mark.parametrize("text", ["", "   \n\t  ", "\ufeff"])
def test_empty_inputs(text: str) -> None:
    assert reason(parse_sources, text).field == "sources"
    assert "is empty" in str(reason(parse_sources, text))
    assert str(reason(parse_answer, text)).startswith("answer: is empty; expected")


def test_only_separators_is_no_sources() -> None:
    assert "no text" in str(reason(parse_sources, "---\n---\n"))


@pytest.mark.parametrize("text", ['["a", "b",', '[{"text": "a"} {"text": "b"}]', "{not json", '["unterminated]'])
def test_sources_that_look_like_json_but_are_not(text: str) -> None:
    message = str(reason(parse_sources, text))
    assert message.startswith("sources: looks like JSON but is not valid JSON (")
    assert "line 1, column" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[]", "empty JSON array"),
        ('{"sources": []}', "not an array"),
        ("[1, 2]", "item 1 of the JSON array is a number"),
        ('[{"title": "no text"}]', "item 1 of the JSON array has no text, content or passage string"),
    ],
)
def test_sources_json_of_the_wrong_kind(text: str, expected: str) -> None:
    assert expected in str(reason(parse_sources, text))


@pytest.mark.parametrize("text", ['{"message": {"content": "x"', '{"answer": "x", "citations": [}'])
def test_answer_that_looks_like_json_but_is_not(text: str) -> None:
    assert str(reason(parse_answer, text)).startswith("answer: starts with '{' but is not valid JSON (")


def test_ollama_stream_with_a_broken_line_names_the_line() -> None:
    lines = ollama_stream("Opens at nine [1].").splitlines()
    lines[2] = lines[2][:-5]
    error = reason(parse_answer, "\n".join(lines))
    assert str(error).startswith("answer: line 3 of the streamed Ollama response is not valid JSON")


def test_openai_stream_with_a_broken_line_names_the_line() -> None:
    lines = openai_stream("Opens at nine [1].").splitlines()
    lines[4] = "data: {\"choices\": [{\"delta\": "
    assert "line 5 of the streamed OpenAI response is not valid JSON" in str(reason(parse_answer, "\n".join(lines)))
    lines[4] = "garbage between events"
    assert "line 5 of the streamed OpenAI response does not start with 'data:'" in str(reason(parse_answer, "\n".join(lines)))


def test_error_responses_are_not_answers() -> None:
    assert "is an error response" in str(reason(parse_answer, '{"error": "model not found"}'))
    assert "without a choices[0]" in str(reason(parse_answer, '{"choices": []}'))


def test_binary_data_is_refused_with_a_clear_message() -> None:
    data = os.urandom(4096) + b"\x00\xff"
    message = str(reason(decode_input, data, "answer"))
    assert message.startswith("answer: ")
    assert "binary" in message or "not UTF-8" in message
    assert "not UTF-8 text (byte 0xff at offset 3)" in str(reason(decode_input, b"abc\xff", "sources"))
    assert "binary" in str(reason(parse_sources, "abc\x00def"))


def test_deeply_nested_json_and_huge_numbers_do_not_crash() -> None:
    assert "nested too deeply" in str(reason(parse_sources, "[" * 100_000 + "]" * 100_000))
    huge = '{"answer": "x", "citations": [{"source": ' + "9" * 5000 + ', "quote": "q"}]}'
    assert "not valid JSON" in str(reason(parse_answer, huge))


def test_quote_of_100_kb_is_checked_quickly() -> None:
    sources = parse_sources(json.dumps(["word " * 40_000, "other"]))
    quote = "WORD " * 20_000  # 100 KB, found only after normalising
    started = time.perf_counter()
    data = check_answer(sources, json_answer("x", [(1, quote), (2, quote), (1, "x" * 100_000)])).to_json()
    assert time.perf_counter() - started < HANG_CAP  # linear work; a quadratic search would run for minutes
    assert [c["result"] for c in data["citations"]] == ["normalized", "not_found", "not_found"]


def test_ten_thousand_sources_are_handled_quickly() -> None:
    texts = [f"Source number {n} says {n * 7}." for n in range(1, 10_001)]
    started = time.perf_counter()
    sources = parse_sources(json.dumps(texts))
    data = check_answer(sources, json_answer("x", [(9_999, "says 69993"), (10_001, "x")])).to_json()
    blocks = parse_sources("\n---\n".join(texts))
    assert time.perf_counter() - started < HANG_CAP
    assert data["source_count"] == 10_000 and len(blocks) == 10_000
    assert [c["result"] for c in data["citations"]] == ["exact", "no_such_source"]
    assert len(data["unreferenced_sources"]) == 9_999


def test_pathological_whitespace_and_markers_do_not_hang() -> None:
    started = time.perf_counter()
    text = "[1]" * 50_000 + "." + " " * 200_000 + "x" + "\n" * 100_000 + "[" * 50_000
    data = check_answer(parse_sources("a\n\nb"), text).to_json()
    sources = parse_sources(json.dumps([" " * 500_000 + "a  b"]))
    folded = check_answer(sources, json_answer("x", [(1, "A B")])).to_json()
    assert time.perf_counter() - started < HANG_CAP
    assert data["invalid_source_numbers"] == []
    assert folded["citations"][0]["result"] == "normalized"
