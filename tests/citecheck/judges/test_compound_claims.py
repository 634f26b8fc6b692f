"""Compound sentences split into atomic claims by the built-in rules (citecheck.claim_extraction.split_compound)."""

from __future__ import annotations

import pytest

from citecheck.claim_extraction import split_compound


@pytest.mark.parametrize(("sentence", "parts"), [
    ("You may return any item within 30 days and returns are free worldwide.",
     ["You may return any item within 30 days.", "Returns are free worldwide."]),
    ("Returns are accepted within 30 days and free worldwide.",
     ["Returns are accepted within 30 days.", "Returns are free worldwide."]),
    ("Express delivery takes 1 to 2 working days and costs £9.95.",
     ["Express delivery takes 1 to 2 working days.", "Express delivery costs £9.95."]),
    ("Standard delivery costs £4.95; orders over £50 are delivered free of charge.",
     ["Standard delivery costs £4.95.", "Orders over £50 are delivered free of charge."]),
    ("The Summit sleeping bag costs £89 and is rated to minus 5 °C.",
     ["The Summit sleeping bag costs £89.", "The Summit sleeping bag is rated to minus 5 °C."]),
])
def test_compound_sentences_become_atomic_claims(sentence: str, parts: list[str]) -> None:
    assert split_compound(sentence) == parts


@pytest.mark.parametrize("sentence", [
    "All tents and backpacks carry a 24-month warranty.",  # a list of subjects, one claim
    "The shop is open between 9 am and 5 pm.",  # a range
    "We deliver to the UK, France and Spain.",  # a list of objects
    "The warranty does not cover normal wear and tear, misuse or accidental damage.",
    "The tent is green and blue.",
    "Inflation peaked at 9.1% in June 2022.",
])
def test_sentences_that_are_not_compound_stay_whole(sentence: str) -> None:
    assert split_compound(sentence) == [sentence]
