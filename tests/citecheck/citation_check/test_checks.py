"""The checks of issue 5, one rule per test, on every answer format."""

from __future__ import annotations

import json

import pytest

from citecheck.citation_check import (
    AnswerFormat,
    AnswerShape,
    QuoteResult,
    Source,
    check_answer,
    parse_answer,
    parse_sources,
    render_text,
)

from .helpers import (
    SEED_ANSWER,
    SEED_SOURCES,
    json_answer,
    ollama_chat,
    ollama_stream,
    openai_chat,
    openai_stream,
)

SOURCES = parse_sources(
    json.dumps(
        [
            "The library opens at 9:00 on weekdays.\nOn Saturdays it opens at 10:00.",
            "Loans last “three weeks” and can be renewed twice.",
            "Ｆｉｎｅｓ are ０．２０ EUR per day.",
        ]
    )
)

EXPECTED_KEYS = {
    "answer_format",
    "shape",
    "source_count",
    "citations",
    "invalid_source_numbers",
    "uncited_sentences",
    "unreferenced_sources",
    "unknown_urls",
    "truncated",
    "no_citations",
    "prompt_tokens",
    "warnings",
    "quotes",
}


def results(raw: str, sources: list[Source] = SOURCES) -> list[str]:
    return [c["result"] for c in check_answer(sources, raw).to_json()["citations"]]


# ---------------------------------------------------------------- the seed's own example


def test_seed_example_flags_the_quote_missing_from_source_4() -> None:
    report = check_answer(parse_sources(json.dumps(SEED_SOURCES)), SEED_ANSWER)
    data = report.to_json()
    assert set(data) == EXPECTED_KEYS
    assert data["answer_format"] == "ollama_chat"
    assert data["shape"] == "json_citations"
    assert data["source_count"] == 4
    assert data["prompt_tokens"] == 306
    assert data["citations"] == [
        {"source": 2, "quote": "hnsw.ef_search is 40 by default", "result": "exact"},
        {"source": 4, "quote": "4 bytes per dimension plus 8", "result": "not_found"},
    ]
    assert data["unreferenced_sources"] == [1, 3]
    assert "Citation #2: the quote is not in source [4]." in data["warnings"]
    assert report.exit_code == 1
    table = render_text(report)
    assert "| 2 | [4] | 4 bytes per dimension plus 8 | not in this source |" in table


# ---------------------------------------------------------------- JSON shape rules


def test_exact_quote() -> None:
    assert results(json_answer("Opens at nine [1].", [(1, "opens at 9:00 on weekdays")])) == ["exact"]


def test_quote_across_a_line_break_matches_after_normalising() -> None:
    assert results(json_answer("x", [(1, "on weekdays. On Saturdays")])) == ["normalized"]


@pytest.mark.parametrize(
    "quote",
    [
        "LOANS LAST",  # case
        'loans last "three weeks"',  # curly vs straight quotes
        "Fines are 0.20 EUR",  # full-width letters and digits in the source
        "can  be\trenewed\n twice",  # whitespace runs
    ],
)
def test_normalised_quotes(quote: str) -> None:
    number = 3 if "Fines" in quote else 2
    assert results(json_answer("x", [(number, quote)])) == ["normalized"]


def test_paraphrase_is_not_found() -> None:
    report = check_answer(SOURCES, json_answer("x", [(2, "loans last four weeks")]))
    assert [c.result for c in report.quote_checks] == [QuoteResult.NOT_FOUND]
    assert report.to_json()["warnings"][0] == "Citation #1: the quote is not in source [2]."


def test_quote_under_the_wrong_number_never_matches() -> None:
    # The quote is verbatim in source 1, but the answer says source 2.
    assert results(json_answer("x", [(2, "opens at 9:00 on weekdays")])) == ["not_found"]


@pytest.mark.parametrize("number", [0, -1, 4, 99])
def test_number_outside_1_to_n_is_no_such_source(number: int) -> None:
    data = check_answer(SOURCES, json_answer("x", [(number, "opens at 9:00")])).to_json()
    assert data["citations"][0]["result"] == "no_such_source"
    assert data["invalid_source_numbers"] == [number]
    assert any(f"[{number}], but there is no such source (sources are numbered 1 to 3)" in w for w in data["warnings"])


def test_source_number_written_as_text_is_read_and_nonsense_is_reported() -> None:
    raw = json.dumps({"answer": "x", "citations": [{"source": "[2]", "quote": "Loans last"}, {"source": "two", "quote": "Loans"}]})
    data = check_answer(SOURCES, raw).to_json()
    assert [(c["source"], c["result"]) for c in data["citations"]] == [(2, "exact"), ("two", "no_such_source")]
    assert data["invalid_source_numbers"] == []


def test_empty_quote_is_not_counted_as_found() -> None:
    data = check_answer(SOURCES, json_answer("x", [(1, "  ")])).to_json()
    assert data["citations"][0]["result"] == "not_found"
    assert data["unreferenced_sources"] == [2, 3]  # source 1 still counts as cited


def test_not_found_quote_still_counts_as_cited() -> None:
    data = check_answer(SOURCES, json_answer("x", [(1, "nothing like this"), (2, "Loans last")])).to_json()
    assert data["unreferenced_sources"] == [3]


def test_citations_are_reported_in_answer_order() -> None:
    raw = json_answer("x", [(3, "EUR per day"), (1, "Saturdays"), (2, "renewed twice")])
    assert [c["source"] for c in check_answer(SOURCES, raw).to_json()["citations"]] == [3, 1, 2]


def test_empty_citation_list_warns_no_citations() -> None:
    report = check_answer(SOURCES, json_answer("I do not know.", []))
    data = report.to_json()
    assert data["no_citations"] is True
    assert data["unreferenced_sources"] == [1, 2, 3]
    assert data["warnings"][0] == "The answer has no citations at all."
    assert report.exit_code == 1


def test_clean_answer_exits_zero_with_no_warnings() -> None:
    raw = json_answer("ok", [(1, "opens at 9:00"), (2, "LOANS LAST"), (3, "EUR per day")])
    report = check_answer(SOURCES, raw)
    assert report.warnings == ()
    assert report.exit_code == 0


# ---------------------------------------------------------------- text shape rules


def test_text_shape_markers_sentences_and_unreferenced() -> None:
    text = (
        "# Opening hours\n"
        "The library opens at 9:00 on weekdays. [1] Loans last three weeks [2].\n"
        "- Fines are small [1, 7]\n"
        "- Ask at the desk.\n"
        "Is it open on Sunday?"
    )
    data = check_answer(SOURCES, text).to_json()
    assert data["shape"] == "text"
    assert data["citations"] == [
        {"source": 1, "sentence": "The library opens at 9:00 on weekdays. [1]", "result": "ok"},
        {"source": 2, "sentence": "Loans last three weeks [2].", "result": "ok"},
        {"source": 1, "sentence": "- Fines are small [1, 7]", "result": "ok"},
        {"source": 7, "sentence": "- Fines are small [1, 7]", "result": "no_such_source"},
    ]
    assert data["invalid_source_numbers"] == [7]
    assert data["uncited_sentences"] == ["# Opening hours", "- Ask at the desk.", "Is it open on Sunday?"]
    assert data["unreferenced_sources"] == [3]
    assert data["no_citations"] is False


def test_cjk_sentences() -> None:
    sources = parse_sources("図書館は九時に開きます。\n\n貸出期間は三週間です。")
    data = check_answer(sources, "図書館は九時に開きます。[1]貸出は三週間です！延長できますか？").to_json()
    assert data["citations"] == [{"source": 1, "sentence": "図書館は九時に開きます。[1]", "result": "ok"}]
    assert data["uncited_sentences"] == ["貸出は三週間です！", "延長できますか？"]
    assert data["unreferenced_sources"] == [2]


def test_text_without_any_number_warns_no_citations() -> None:
    data = check_answer(SOURCES, "The library is nice. It has books.").to_json()
    assert data["no_citations"] is True
    assert data["citations"] == []
    assert data["uncited_sentences"] == ["The library is nice.", "It has books."]


def test_unknown_urls_are_reported_and_source_urls_are_not() -> None:
    sources = parse_sources(json.dumps([{"text": "Opens at 9.", "url": "https://library.example/hours", "title": "Hours"}]))
    text = (
        "See https://library.example/hours/ [1] or (https://evil.example/x?a=1), "
        "also http://registered.example/page#top."
    )
    report = check_answer(sources, text, known_urls={"http://registered.example/page"})
    assert report.to_json()["unknown_urls"] == ["https://evil.example/x?a=1"]


# ---------------------------------------------------------------- formats


CONTENT = json_answer("Opens at nine [1].", [(1, "opens at 9:00 on weekdays"), (2, "LOANS LAST")])


@pytest.mark.parametrize(
    ("raw", "answer_format", "truncated", "prompt_tokens"),
    [
        (ollama_chat(CONTENT), "ollama_chat", False, 306),
        (ollama_chat(CONTENT, done_reason="length"), "ollama_chat", True, 306),
        (ollama_chat(CONTENT, prompt_eval_count=None), "ollama_chat", False, None),
        (ollama_stream(CONTENT), "ollama_chat_stream", False, 306),
        (ollama_stream(CONTENT, done_reason="length", prompt_eval_count=99), "ollama_chat_stream", True, 99),
        (openai_chat(CONTENT), "openai_chat", False, 512),
        (openai_chat(CONTENT, finish_reason="length"), "openai_chat", True, 512),
        (openai_chat(CONTENT, prompt_tokens=None), "openai_chat", False, None),
        (openai_stream(CONTENT), "openai_chat_stream", False, None),
        (openai_stream(CONTENT, finish_reason="length", prompt_tokens=77), "openai_chat_stream", True, 77),
        (CONTENT, "text", False, None),
        ("```json\n" + CONTENT + "\n```", "text", False, None),
        ("```\n" + CONTENT + "\n```", "text", False, None),
    ],
)
def test_every_answer_format(raw: str, answer_format: str, truncated: bool, prompt_tokens: int | None) -> None:
    data = check_answer(SOURCES, raw).to_json()
    assert data["answer_format"] == answer_format
    assert data["shape"] == "json_citations"
    assert [c["result"] for c in data["citations"]] == ["exact", "normalized"]
    assert data["truncated"] is truncated
    assert data["prompt_tokens"] == prompt_tokens
    assert any("cut off" in w for w in data["warnings"]) is truncated


def test_stream_pieces_are_joined_in_order() -> None:
    text = "Opens at nine. [1] Loans last three weeks [2]."
    for raw in (ollama_stream(text, pieces=20), openai_stream(text, pieces=20)):
        parsed = parse_answer(raw)
        assert parsed.content == text
        assert parsed.shape is AnswerShape.TEXT


def test_truncated_json_answer_is_checked_as_text_with_a_warning() -> None:
    cut = CONTENT[: len(CONTENT) // 2]
    for raw in (ollama_chat(cut, done_reason="length"), openai_stream(cut, finish_reason="length")):
        data = check_answer(SOURCES, raw).to_json()
        assert data["truncated"] is True
        assert data["shape"] == "text"
        assert any("looks like JSON but is not valid JSON" in w for w in data["warnings"])


def test_stream_cut_off_before_its_end_is_flagged() -> None:
    ollama_cut = "\n".join(ollama_stream("Opens at nine [1].").splitlines()[:-1])
    openai_cut = openai_stream("Opens at nine [1].", done=False)
    assert any("ends before its final object" in w for w in check_answer(SOURCES, ollama_cut).warnings)
    assert any("without 'data: [DONE]'" in w for w in check_answer(SOURCES, openai_cut).warnings)


def test_openai_message_without_content_is_checked_as_an_empty_answer() -> None:
    data = check_answer(SOURCES, openai_chat(None)).to_json()
    assert data["answer_format"] == "openai_chat"
    assert data["no_citations"] is True


def test_text_shape_is_used_when_json_lacks_citations() -> None:
    raw = ollama_chat(json.dumps({"answer": "Opens at nine [1]."}))
    parsed = parse_answer(raw)
    assert parsed.answer_format is AnswerFormat.OLLAMA_CHAT
    assert parsed.shape is AnswerShape.TEXT


# ---------------------------------------------------------------- sources


def test_sources_json_objects_text_content_passage() -> None:
    sources = parse_sources(
        json.dumps(
            [
                {"text": "A", "title": "T", "url": "https://x.example/", "id": 7},
                {"content": "B"},
                {"passage": "C", "text": None},
            ]
        )
    )
    assert [(s.number, s.text) for s in sources] == [(1, "A"), (2, "B"), (3, "C")]
    assert (sources[0].title, sources[0].url, sources[0].id) == ("T", "https://x.example/", "7")


def test_sources_text_blocks_split_by_dashes_keep_blank_lines_inside() -> None:
    sources = parse_sources("first part\n\nstill first\n---\nsecond\n  ---  \nthird\n")
    assert [s.text for s in sources] == ["first part\n\nstill first", "second", "third"]


def test_sources_text_blocks_split_by_blank_lines() -> None:
    sources = parse_sources("[1] first\nline two\n\n\n[2] second\n \nthird")
    assert [s.text for s in sources] == ["[1] first\nline two", "[2] second", "third"]


def test_sources_registry_style_objects_work_with_known_urls() -> None:
    sources = [Source(number=1, text="Opens at 9.", title="Hours — Weekdays", url="https://lib.example/h", id="pv-1")]
    report = check_answer(sources, "Opens at 9, see https://lib.example/other [1].", known_urls=["https://lib.example/other"])
    assert report.exit_code == 0
