"""Property-based tests (hypothesis) of the quote rules and the fast fold."""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citecheck.citation_check import Source, check_answer
from citecheck.text import fold_for_match

from .helpers import json_answer

# Text with the troublemakers: whitespace of all kinds, curly quotes, full-width forms,
# letters that change under case folding, combining marks and CJK.
ALPHABET = st.sampled_from(
    list("abcXYZ 019.,!?\n\t") + ["\u00a0", "\u3000", "“", "”", "’", "Ａ", "１", "ß", "İ", "Σ", "ς", "\u0301", "é", "漢", "。", "ﬁ", "ｶ", "ﾞ"]
)
TEXT = st.text(alphabet=ALPHABET, min_size=1, max_size=120)


def reference_fold(text: str) -> str:
    """The definition, written the slow and obvious way."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    for curly, straight in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'")):
        folded = folded.replace(curly, straight)
    return " ".join(folded.split())


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_fast_fold_equals_the_definition(text: str) -> None:
    assert fold_for_match(text) == reference_fold(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6), st.data())
def test_a_quote_cut_from_a_source_is_always_found(texts: list[str], data: st.DataObject) -> None:
    number = data.draw(st.integers(1, len(texts)))
    text = texts[number - 1]
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    quote = text[start:end]
    assume(quote.strip())
    sources = [Source(number=n, text=t) for n, t in enumerate(texts, start=1)]
    report = check_answer(sources, json_answer("x", [(number, quote)]))
    assert report.quote_checks[0].result.value == "exact"


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, min_size=2, max_size=6, unique=True), st.data())
def test_moving_a_source_to_another_number_breaks_its_quotes(texts: list[str], data: st.DataObject) -> None:
    old = data.draw(st.integers(1, len(texts)))
    text = texts[old - 1]
    start = data.draw(st.integers(0, len(text) - 1))
    quote = text[start : data.draw(st.integers(start + 1, len(text)))]
    assume(quote.strip())
    new = data.draw(st.integers(1, len(texts)).filter(lambda n: n != old))
    moved = list(texts)
    moved.insert(new - 1, moved.pop(old - 1))
    sources = [Source(number=n, text=t) for n, t in enumerate(moved, start=1)]
    now_at_old = moved[old - 1]
    result = check_answer(sources, json_answer("x", [(old, quote)])).quote_checks[0].result.value
    if quote in now_at_old:
        assert result == "exact"
    elif reference_fold(quote) in reference_fold(now_at_old):
        assert result == "normalized"
    else:
        assert result == "not_found"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=40).filter(str.strip), min_size=1, max_size=5), st.integers(0, 9))
def test_number_is_valid_exactly_when_a_source_has_it(texts: list[str], number: int) -> None:
    sources = [Source(number=n, text=t) for n, t in enumerate(texts, start=1)]
    data = check_answer(sources, f"Claim [{number}].").to_json()
    valid = 1 <= number <= len(texts)
    assert data["citations"][0]["result"] == ("ok" if valid else "no_such_source")
    assert data["invalid_source_numbers"] == ([] if valid else [number])
