"""Sentence splitting, citation markers and match folding (citecheck.text)."""

from __future__ import annotations

import pytest

from citecheck.text import find_markers, fold_for_match, sentences_with_markers, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Line one\nLine two\r\nLine three", ["Line one", "Line two", "Line three"]),
        ("Version 2.5 is out. Next", ["Version 2.5 is out.", "Next"]),  # no split without whitespace after '.'
        ("第一句。第二句！第三句？第四句", ["第一句。", "第二句！", "第三句？", "第四句"]),
        ("東京は首都です。[1]大阪は都市です。", ["東京は首都です。[1]", "大阪は都市です。"]),
        ("  padded .  \n\n\n  next  ", ["padded .", "next"]),
        ("", []),
        (" \n \t\n", []),
        ("wait... what", ["wait...", "what"]),
        ("e.g. this splits", ["e.g.", "this splits"]),  # documented: abbreviations may split
    ],
)
def test_sentences_are_split_at_the_issue_rules(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_marker_right_after_a_sentence_end_belongs_to_that_sentence() -> None:
    sentences = sentences_with_markers("Paris is the capital. [1] Lyon is a city [2]. Nice is warm.")
    assert [(s.text, s.numbers) for s in sentences] == [
        ("Paris is the capital. [1]", (1,)),
        ("Lyon is a city [2].", (2,)),
        ("Nice is warm.", ()),
    ]


def test_marker_glued_to_the_period_and_marker_alone_on_the_next_line_attach_to_the_sentence() -> None:
    sentences = sentences_with_markers("First.[1] Second.\n[2, 3]\nThird")
    assert [(s.text, s.numbers) for s in sentences] == [("First.[1]", (1,)), ("Second.\n[2, 3]", (2, 3)), ("Third", ())]


def test_list_items_and_headings_are_their_own_sentences() -> None:
    text = "# Storage\n- vectors use 4 bytes per dimension [1]\n- headers use 8 bytes\n1. Index builds are slow [2]"
    sentences = sentences_with_markers(text)
    assert [(s.text, s.numbers) for s in sentences] == [
        ("# Storage", ()),
        ("- vectors use 4 bytes per dimension [1]", (1,)),
        ("- headers use 8 bytes", ()),
        ("1. Index builds are slow [2]", (2,)),
    ]


def test_sentence_offsets_point_at_the_text_in_the_answer() -> None:
    text = "Alpha beta. [1]  Gamma?\nDelta"
    for sentence in sentences_with_markers(text):
        assert text[sentence.start : sentence.end] == sentence.text


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("[2]", [(2,)]),
        ("[1, 3] and [1,3] and [ 4 ]", [(1, 3), (1, 3), (4,)]),
        ("[0] [12]", [(0,), (12,)]),
        ("[a] [1.5] [-1] [] [1,] [1 2]", []),
        ("[" + "9" * 40 + "]", []),  # absurdly long numbers are not markers (no int() blow-up)
    ],
)
def test_bracketed_numbers_are_markers(text: str, numbers: list[tuple[int, ...]]) -> None:
    assert [marker.numbers for marker in find_markers(text)] == numbers


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("ＦＵＬＬ－ｗｉｄｔｈ ２０２６", "full-width 2026"),
        ("Case  AND\n\twhitespace\r\n runs", "case and whitespace runs"),
        ("“curly” ‘single’ it’s", "\"curly\" 'single' it's"),
        ("Straße", "strasse"),
        ("\u00a0non\u2009breaking\u3000spaces\u2028and\x85more ", "non breaking spaces and more"),
        ("ﬁne ㎒", "fine mhz"),
        ("ｶﾞ", "ガ"),  # half-width kana with a voicing mark composes, as whole-string NFKC does
        ("e\u0301", "é"),
    ],
)
def test_fold_for_match(raw: str, folded: str) -> None:
    assert fold_for_match(raw) == folded


def test_fold_for_match_is_idempotent_on_mixed_text() -> None:
    text = "ΣΊΣΥΦΟΣ “Ｑ” İstanbul ǰ ﬃ  \n x"
    once = fold_for_match(text)
    assert fold_for_match(once) == once
