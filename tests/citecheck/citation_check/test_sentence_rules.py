"""Sentence rules of the citation checker on shapes real LLM answers have (issue 20, item 7): a
sentence ends inside its closing quote, and a marker inside or just after a quotation belongs
to the sentence, not to the quote."""

from __future__ import annotations

import json

import pytest

from citecheck.citation_check import check_answer, parse_sources
from citecheck.text import sentences_with_markers

SOURCES = parse_sources(json.dumps([
    "Deliveries are made by lorry. Parcels over 30 kg go by freight.",
    "Standard delivery takes 3 to 5 working days and costs £4.95.",
    "Express delivery costs £9.95.",
]))


def _split(text: str) -> list[tuple[str, tuple[int, ...]]]:
    return [(s.text, s.numbers) for s in sentences_with_markers(text)]


@pytest.mark.parametrize("closing", ['."', ".”", '?"', "!”", ".’", ".»"])
def test_a_sentence_ends_inside_its_closing_quote(closing):
    text = f"The page says “deliveries are made by lorry{closing} Standard delivery costs £4.95 [2]."
    pieces = _split(text)
    assert len(pieces) == 2, pieces
    assert pieces[0][1] == (), "the first sentence cites nothing and is reported as such"
    assert pieces[1] == ("Standard delivery costs £4.95 [2].", (2,))
    report = check_answer(SOURCES, text).to_json()
    assert any(s.startswith("The page says") for s in report["uncited_sentences"]), report["uncited_sentences"]


@pytest.mark.parametrize("text", [
    'Goods travel "by lorry.[1]" Standard delivery costs £4.95 [2].',
    'Goods travel "by lorry" [1]. Standard delivery costs £4.95 [2].',
    'Goods travel "by lorry."[1] Standard delivery costs £4.95 [2].',
    'Goods travel “by lorry.” [1] Standard delivery costs £4.95 [2].',
])
def test_a_marker_inside_or_after_a_quotation_belongs_to_the_sentence(text):
    pieces = _split(text)
    assert [numbers for _, numbers in pieces] == [(1,), (2,)], pieces
    quotes = check_answer(SOURCES, text).to_json()["quotes"]
    assert [q["quote"].rstrip(".") for q in quotes] == ["by lorry"], quotes
    assert all(q["result"] != "not_found" for q in quotes), quotes


@pytest.mark.parametrize("text, numbers", [
    ("Express delivery costs £9.95 [2] [3]. Standard costs £4.95 [2].", [(2, 3), (2,)]),
    ("Express delivery costs £9.95 [2][3]. Standard costs £4.95 [2].", [(2, 3), (2,)]),
    ("Express delivery costs £9.95. [3] Standard costs £4.95.[2]", [(3,), (2,)]),
    ("Delivery options:\n1. Express costs £9.95 [3]\n2. Standard costs £4.95 [2]", [(), (3,), (2,)]),
])
def test_markers_before_and_after_punctuation_and_list_intros(text, numbers):
    assert [n for _, n in _split(text)] == numbers
