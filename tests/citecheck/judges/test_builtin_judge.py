"""The built-in judge on every rule of issue 6, in English and Polish.

These pairs are written for the tests and are not the benchmark's labelled set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck.judges import STATUSES, Verdict, validate_verdict
from citecheck.judges.builtin import HEURISTIC_PREFIX, BuiltinJudge
from citecheck.judges.builtin.analysis import _analyse_claim, _analyse_passage
from citecheck.judges.builtin.paraphrase import _passage, _read
from citecheck.judges.builtin.words import forget_words
from citecheck.judges.factory import get_judge

JUDGE = BuiltinJudge()

SHOP_EN = (
    "Standard delivery takes 3 to 5 working days and costs £4.50. Express delivery takes 1 to 2 working days "
    "and costs £8.00. Orders over £40 get free standard delivery. Gift cards cannot be returned."
)
MUSEUM_EN = (
    "Adult tickets cost €12 and child tickets cost €6. The first payment is due on 1 March and the second on 1 June. "
    "Bags heavier than 10 kg must be left in the cloakroom. Audio guides are included in the ticket price."
)
TAX_EN = "The 2025 tax return must be filed by 31 January 2026. Late filing may lead to a penalty of £100."
WARRANTY_EN = "Every kettle comes with a twelve-month warranty. Spare parts are available for 1,000 days after purchase."
SHOP_PL = (
    "Dostawa kurierem trwa od 2 do 3 dni roboczych i kosztuje 15 zł. Odbiór osobisty jest bezpłatny. "
    "Zwrot towaru jest możliwy w ciągu 14 dni. Karty podarunkowe nie podlegają zwrotowi."
)
OFFICE_PL = (
    "Wniosek należy złożyć do 31 marca 2025 r. Bilet normalny kosztuje 8 zł, a bilet ulgowy 4 zł. "
    "Do wniosku można dołączyć skan dokumentu. Opłata skarbowa wynosi 17 zł."
)
NAV_EN = "Home | Products | Delivery | Returns | Contact\nSign in\nBasket"
NAV_PL = "Strona główna » Oferta » Kontakt\nZaloguj się | Koszyk"

CASES = [
    # numbers as words or digits
    ("number_words", "en", "Standard delivery takes three to five working days.", SHOP_EN, "supported"),
    ("number_words", "en", "Every kettle comes with a 12-month warranty.", WARRANTY_EN, "supported"),
    ("number_words", "en", "Spare parts are available for 1000 days after purchase.", WARRANTY_EN, "supported"),
    ("number_words", "pl", "Zwrot towaru jest możliwy w ciągu czternastu dni.", SHOP_PL, "supported"),
    ("number_words", "pl", "Dostawa kurierem trwa od dwóch do trzech dni roboczych.", SHOP_PL, "supported"),
    # units and ranges
    ("ranges", "en", "Standard delivery takes 1 to 2 working days.", SHOP_EN, "contradicted"),
    ("ranges", "pl", "Dostawa kurierem trwa od 4 do 6 dni roboczych.", SHOP_PL, "contradicted"),
    ("units", "en", "Bags heavier than 10 pounds must be left in the cloakroom.", MUSEUM_EN, "contradicted"),
    ("units", "en", "Bags heavier than 10,000 g must be left in the cloakroom.", MUSEUM_EN, "supported"),
    ("units", "en", "Standard delivery takes 3 to 5 weeks.", SHOP_EN, "contradicted"),
    ("units", "pl", "Zwrot towaru jest możliwy w ciągu 14 tygodni.", SHOP_PL, "contradicted"),
    # negation and modals
    ("negation", "en", "Gift cards can be returned.", SHOP_EN, "contradicted"),
    ("negation", "en", "Audio guides are excluded from the ticket price.", MUSEUM_EN, "contradicted"),
    ("negation", "en", "Audio guides are included in the ticket price.", MUSEUM_EN, "supported"),
    ("negation", "pl", "Karty podarunkowe podlegają zwrotowi.", SHOP_PL, "contradicted"),
    ("modal", "en", "Bags heavier than 10 kg may be left in the cloakroom.", MUSEUM_EN, "contradicted"),
    ("modal", "en", "Late filing must lead to a penalty of £100.", TAX_EN, "contradicted"),
    ("modal", "pl", "Do wniosku nie można dołączyć skanu dokumentu.", OFFICE_PL, "contradicted"),
    ("modal", "pl", "Do wniosku można dołączyć skan dokumentu.", OFFICE_PL, "supported"),
    # dates and years
    ("date", "en", "The 2025 tax return must be filed by 31 January 2026.", TAX_EN, "supported"),
    ("date", "en", "The 2025 tax return must be filed by 31 January 2027.", TAX_EN, "contradicted"),
    ("date", "pl", "Wniosek należy złożyć do 30 kwietnia 2025 r.", OFFICE_PL, "contradicted"),
    # numbers tied to their quantity
    ("binding", "en", "Child tickets cost €12.", MUSEUM_EN, "contradicted"),
    ("binding", "en", "Adult tickets cost €12 and child tickets cost €6.", MUSEUM_EN, "supported"),
    ("binding", "en", "Adult tickets cost €6 and child tickets cost €12.", MUSEUM_EN, "contradicted"),
    ("binding", "en", "The second payment is due on 1 March.", MUSEUM_EN, "contradicted"),
    ("binding", "en", "Express delivery costs £4.50.", SHOP_EN, "contradicted"),
    ("binding", "pl", "Bilet ulgowy kosztuje 8 zł.", OFFICE_PL, "contradicted"),
    ("binding", "pl", "Bilet ulgowy kosztuje 4 zł.", OFFICE_PL, "supported"),
    # changed number for a stated quantity vs a number for an unstated one
    ("changed", "en", "Express delivery costs £9.00.", SHOP_EN, "contradicted"),
    ("unstated", "en", "International delivery costs £20.", SHOP_EN, "unsupported"),
    ("changed", "pl", "Opłata skarbowa wynosi 25 zł.", OFFICE_PL, "contradicted"),
    ("unstated", "pl", "Opłata za duplikat wynosi 50 zł.", OFFICE_PL, "unsupported"),
    # compound claims part by part
    ("compound", "en", "Express delivery takes 1 to 2 working days and costs £8.00.", SHOP_EN, "supported"),
    ("compound", "en", "Express delivery costs £8.00 and includes Saturday delivery.", SHOP_EN, "partly_supported"),
    ("compound", "en", "Express delivery costs £8.00 and takes 3 to 5 working days.", SHOP_EN, "contradicted"),
    ("compound", "pl", "Zwrot towaru jest możliwy w ciągu 14 dni, a kurier przyjeżdża o 10:00.", SHOP_PL, "partly_supported"),
    # on topic but silent, navigation, empty
    ("silent", "en", "Orders can be collected from our Leeds store.", SHOP_EN, "unsupported"),
    ("silent", "pl", "Sklep przyjmuje płatności BLIK.", SHOP_PL, "unsupported"),
    ("navigation", "en", "Returns are free within 30 days.", NAV_EN, "unsupported"),
    ("navigation", "pl", "Dostawa kosztuje 15 zł.", NAV_PL, "unsupported"),
    ("empty", "en", "Delivery costs £4.50.", "   ", "unavailable"),
]


@pytest.mark.parametrize(("rule", "language", "claim", "passage", "expected"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_builtin_rules(rule: str, language: str, claim: str, passage: str, expected: str) -> None:
    verdict = JUDGE.judge(claim, passage)
    assert verdict.status == expected, verdict.rationale
    assert verdict.heuristic is True and verdict.rationale.startswith(HEURISTIC_PREFIX)
    assert verdict.judge == "builtin"
    if expected in ("supported", "partly_supported", "contradicted"):
        assert verdict.span and verdict.span in passage
        assert passage[verdict.span_start : verdict.span_start + len(verdict.span)] == verdict.span  # type: ignore[operator]
    else:
        assert verdict.span is None


def test_span_is_the_sentence_that_backs_the_verdict() -> None:
    verdict = JUDGE.judge("Child tickets cost €12.", MUSEUM_EN)
    assert verdict.span == "Adult tickets cost €12 and child tickets cost €6."
    verdict = JUDGE.judge("Late filing may lead to a penalty of £100.", TAX_EN)
    assert verdict.span == "Late filing may lead to a penalty of £100."


def test_never_supported_when_any_part_is_contradicted() -> None:
    claims = [
        "Standard delivery takes 3 to 5 working days and express delivery costs £4.50.",
        "Adult tickets cost €12, child tickets cost €12.",
        "Gift cards cannot be returned, and standard delivery costs £5.",
    ]
    for claim in claims:
        assert JUDGE.judge(claim, MUSEUM_EN + " " + SHOP_EN).status == "contradicted", claim


def test_deterministic_and_labelled() -> None:
    first = JUDGE.judge("Express delivery costs £8.00.", SHOP_EN)
    assert all(JUDGE.judge("Express delivery costs £8.00.", SHOP_EN) == first for _ in range(3))
    assert first.model.startswith("rules") and first.prompt_version


def test_equivalent_and_authorship() -> None:
    assert JUDGE.equivalent("Express delivery costs £8.00.", "Express delivery costs £8.00")
    assert JUDGE.equivalent("Standard delivery takes three to five days.", "Standard delivery takes 3-5 days.")
    assert not JUDGE.equivalent("Express delivery costs £8.00.", "Express delivery costs £9.00.")
    assert not JUDGE.equivalent("Gift cards can be returned.", "Gift cards cannot be returned.")
    page = "Delivery times in 2025\nBy Jane Smith and Piotr Nowak\nDepartment of Transport\nPublished in: Logistics Weekly\n..."
    assert JUDGE.authorship(page) == {"authors": ["Jane Smith", "Piotr Nowak"], "affiliation": "Department of Transport",
                                      "publication": "Logistics Weekly"}
    assert JUDGE.authorship("Standard delivery takes 3 days.") == {"authors": None, "affiliation": None, "publication": None}


def test_validate_verdict_rejects_a_span_not_in_the_passage() -> None:
    bad = Verdict(status="supported", span="Delivery is free.", rationale="r", judge="x")
    checked = validate_verdict(bad, SHOP_EN)
    assert checked.status == "unavailable" and "span not found" in checked.rationale and checked.span is None
    odd = Verdict(status="maybe", span=None, rationale="r", judge="x")
    assert validate_verdict(odd, SHOP_EN).status == "unavailable"
    unsupported = Verdict(status="unsupported", span="Gift cards cannot be returned.", rationale="r", judge="x")
    assert validate_verdict(unsupported, SHOP_EN).span is None
    assert set(STATUSES) == {"supported", "partly_supported", "contradicted", "unsupported", "unavailable"}


def test_get_judge_defaults_to_builtin() -> None:
    assert isinstance(get_judge("builtin"), BuiltinJudge)
    with pytest.raises(ValueError):
        get_judge("oracle")


def test_verdicts_do_not_depend_on_which_words_the_judge_has_seen() -> None:
    """The per-word memos (folded words, stems, word weights) only save time: a worker that has judged
    thousands of pairs gives each pair the verdict a fresh worker gives it, in every language."""
    rows = Path(__file__).resolve().parents[3] / "bench" / "data" / "judge_pairs.jsonl"
    pairs = [(claim, passage) for _rule, _lang, claim, passage, _expected in CASES]
    pairs += [(row["claim"], row["passage"]) for row in map(json.loads, rows.read_text(encoding="utf-8").splitlines())
              if row["split"] == "dev"]

    def judged(cold: bool) -> list[tuple[str, str | None, str]]:
        out = []
        for claim, passage in pairs:
            if cold:
                forget_words()
            for cache in (_analyse_claim, _analyse_passage, _passage, _read):
                cache.cache_clear()
            verdict = JUDGE.judge(claim, passage)
            out.append((verdict.status, verdict.span, verdict.rationale))
        return out

    cold = judged(cold=True)
    for claim, passage in reversed(pairs):  # every word of every pair seen, in another order
        JUDGE.judge(claim, passage)
    assert judged(cold=False) == cold
    assert {status for status, _span, _why in cold} >= {"supported", "contradicted", "unsupported"}


@pytest.mark.parametrize(("claim", "passage", "expected"), [
    ("Registration is required.", "Registration is not required.", "contradicted"),
    ("Registruotis nebūtina.", "Registruotis nebūtina.", "supported"),
    ("Rejestracja jest obowiązkowa.", "Rejestracja nie jest wymagana.", "contradicted"),
    ("Acme offers a two-year warranty.", "Menu\nProducts\nSupport\n© 2025 Acme Ltd.", "unsupported"),
])
def test_a_short_sentence_is_evidence_and_a_menu_is_not(claim: str, passage: str, expected: str) -> None:
    """A passage of one short sentence ("Registruotis nebūtina.") is judged like any other; a menu with a
    copyright line is still navigation, not evidence."""
    verdict = JUDGE.judge(claim, passage)
    assert verdict.status == expected, verdict.rationale
    assert ("navigation" in verdict.rationale) == (expected == "unsupported")
