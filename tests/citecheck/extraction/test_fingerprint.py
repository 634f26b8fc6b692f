"""Fingerprints of passage text (citecheck.fingerprint)."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from citecheck.fingerprint import content_hash, fingerprint, normalize_text

TEXT = "Express delivery costs 12.50 EUR and is not available on Sundays."


def test_whitespace_and_unicode_form_do_not_change_the_fingerprint() -> None:
    variants = [
        "  Express delivery costs 12.50 EUR\n\tand is not available on Sundays.  ",
        "Express\u00a0delivery costs 12.50 EUR and is not available on Sundays.",  # no-break space
        "Express delivery costs １２.５０ EUR and is not available on Sundays.",  # full-width digits
        "Express deli\u00advery costs 12.50 EUR and is not avail\u200bable on Sundays.",  # soft hyphen, ZWSP
    ]
    for variant in variants:
        assert fingerprint(variant) == fingerprint(TEXT), variant
    assert fingerprint(unicodedata.normalize("NFD", "Café à 5 €")) == fingerprint(unicodedata.normalize("NFC", "Café à 5 €"))


def test_any_changed_word_or_number_changes_the_fingerprint() -> None:
    assert fingerprint(TEXT.replace("12.50", "12.60")) != fingerprint(TEXT)
    assert fingerprint(TEXT.replace("12.50", "1250")) != fingerprint(TEXT)
    assert fingerprint(TEXT.replace("is not", "is")) != fingerprint(TEXT)
    assert fingerprint(TEXT.replace("Sundays", "Saturdays")) != fingerprint(TEXT)
    assert fingerprint(TEXT.replace("not", "NOT")) != fingerprint(TEXT)  # case is kept on purpose


def test_normalized_text_is_what_a_reader_sees_in_one_line() -> None:
    assert normalize_text("  A\u00a0 b\n\n c\u00ad d ") == "A b c d"
    assert len(fingerprint("")) == 64


def test_content_hash_is_over_the_exact_bytes() -> None:
    assert content_hash(b"<p>a</p>") == content_hash(b"<p>a</p>")
    assert content_hash(b"<p>a</p>") != content_hash(b"<p>a</p>\n")
    assert content_hash(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


words = st.text(alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs", "Cf")), min_size=1, max_size=8)
whitespace = st.text(alphabet=" \t\n\r\u00a0\u2003\u3000", min_size=1, max_size=4)


@given(st.text())
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once
    assert fingerprint(once) == fingerprint(text)


@given(st.lists(words, min_size=1, max_size=8), st.data())
def test_whitespace_between_words_never_matters(tokens: list[str], data: st.DataObject) -> None:
    spaced = "".join(token + data.draw(whitespace) for token in tokens)
    assert fingerprint(spaced) == fingerprint(" ".join(tokens))


@given(st.text(max_size=40), st.integers(min_value=0, max_value=9), st.text(max_size=40))
def test_changing_a_digit_changes_the_fingerprint(before: str, digit: int, after: str) -> None:
    changed = (digit + 1) % 10
    assert fingerprint(f"{before} {digit} {after}") != fingerprint(f"{before} {changed} {after}")


@given(st.text())
def test_nfc_and_nfd_forms_share_a_fingerprint(text: str) -> None:
    assert fingerprint(unicodedata.normalize("NFD", text)) == fingerprint(unicodedata.normalize("NFC", text))
