"""The built-in judge on real-text kinds of pairs (issue 13): paraphrase, synonyms, number words,
and calibrated abstention. Sentences written for these tests, in the style of the public dev sets
(health-science abstracts, encyclopaedia claims against web pages, shop pages)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck.judges.builtin import UNDECIDED, BuiltinJudge
from citecheck.judges.builtin.combiner import load_combiner
from citecheck.judges.builtin.paraphrase import FEATURE_NAMES, align, features

JUDGE = BuiltinJudge()


@pytest.mark.parametrize(
    ("claim", "passage"),
    [
        ("Delivery takes five working days.", "Delivery takes 5 working days."),
        ("Patients need three doses.", "Patients need 3 doses for full protection."),
        ("The warranty lasts twenty-four months.", "Every appliance carries a 24-month warranty."),
        ("Shipping costs £4.", "Delivery costs £4 for every order."),  # synonym: shipping / delivery
    ],
)
def test_number_words_and_synonyms_are_supported_with_high_confidence(claim: str, passage: str) -> None:
    verdict = JUDGE.judge(claim, passage)
    assert (verdict.status, verdict.confidence) == ("supported", "high")
    assert verdict.span and verdict.span in passage


def test_a_different_number_in_words_is_contradicted() -> None:
    verdict = JUDGE.judge("Delivery takes seven working days.", "Delivery takes 5 working days.")
    assert verdict.status == "contradicted"


def test_paraphrase_features_see_through_other_words() -> None:
    claim = "Wearing masks reduces the spread of the coronavirus."
    passage = ("The trial enrolled 400 households. Face masks lowered transmission of SARS-CoV-2 among "
               "household contacts. Adherence was high.")
    values, best = features(claim, passage, "en", "unsupported")
    named = dict(zip(FEATURE_NAMES, values, strict=True))
    # "reduces"/"lowered" and "spread"/"transmission" and "coronavirus"/"SARS-CoV-2" meet
    assert named["wcov_best"] >= 0.6
    assert passage[best.start : best.end].startswith("Face masks lowered transmission")
    off = dict(zip(FEATURE_NAMES, features(claim, "The weather is mild, with rainy winters.", "en", "unsupported")[0],
                   strict=True))
    assert off["wcov_best"] == 0.0 and off["missing_max"] > named["missing_max"]


def test_alignment_picks_the_sentence_that_holds_the_claim() -> None:
    passage = ("The city has two museums. The older one was established by the council in 1901. "
               "It opened to the public two years later.")
    best = align("The museum was founded in 1901 by the city council.", passage, "en")
    assert "1901" in passage[best.start : best.end]


def test_when_unsure_it_says_so_instead_of_guessing() -> None:
    verdict = JUDGE.judge(
        "Wearing masks reduces the spread of the coronavirus.",
        "Face masks lowered transmission of SARS-CoV-2 among household contacts in one small trial.",
    )
    assert verdict.status != "supported"
    if verdict.status == "unsupported":
        assert verdict.confidence == "low" and UNDECIDED in verdict.rationale


def test_a_faithful_paraphrase_is_never_called_contradicted() -> None:
    verdict = JUDGE.judge("The museum was founded in 1901 by the city council.",
                          "The city council established the museum in 1901, and it opened two years later.")
    assert verdict.status in {"supported", "unsupported"}
    assert verdict.status == "supported" or verdict.confidence == "low"


def test_a_finding_of_no_effect_is_never_support() -> None:
    verdict = JUDGE.judge("Vitamin D cures COVID-19.",
                          "Vitamin D supplementation had no significant effect on recovery from COVID-19.")
    assert verdict.status in {"contradicted", "unsupported"}


def test_off_topic_passage_is_a_confident_unsupported() -> None:
    verdict = JUDGE.judge("Smith won the election in 2004.", "The weather in the region is mild, with rainy winters.")
    assert verdict.status == "unsupported" and verdict.confidence in {"high", "medium"}
    assert UNDECIDED not in verdict.rationale


def test_every_low_confidence_verdict_is_an_honest_unsupported() -> None:
    pairs = [
        ("Hand sanitizer kills the virus.", "Ethanol-based hand rubs inactivated the virus within 30 seconds in tests."),
        ("The drug lowers blood pressure.", "Further studies are needed to determine whether the drug may affect blood pressure."),
        ("Wearing masks reduces the spread of the coronavirus.", "Face masks lowered transmission among household contacts."),
    ]
    verdicts = [JUDGE.judge(claim, passage) for claim, passage in pairs]
    assert any(v.confidence == "low" for v in verdicts)
    for verdict in verdicts:
        assert verdict.status != "supported"
        if verdict.confidence == "low":
            assert verdict.status == "unsupported" and verdict.span is None and UNDECIDED in verdict.rationale


def test_the_shipped_combiner_is_loaded_and_deterministic() -> None:
    combiner = load_combiner()
    assert combiner.version.startswith("lr-")  # not the neutral fallback
    values, _ = features("Delivery takes 5 days.", "Delivery takes five days.", "en", "supported")
    assert combiner.probabilities(values) == combiner.probabilities(values)
    assert abs(sum(combiner.probabilities(values).values()) - 1) < 1e-9


def test_on_a_long_page_the_rules_read_the_part_that_is_about_the_claim() -> None:
    filler = " ".join(f"Section {i} of the page describes the history of the town and its market." for i in range(8))
    page = (f"{filler} The guitarist Brian Lane died in 2001, aged 57. He joined the band in 1963. "
            f"{filler} The band's 1960s records were reissued in 1998.")
    assert len(page) > 600
    verdict = JUDGE.judge("Brian Lane died in 2001.", page)
    assert verdict.status in {"supported", "partly_supported"}  # never contradicted by the far-away 1998
    assert verdict.span is not None and verdict.span in page and "2001" in verdict.span
    assert page[verdict.span_start : verdict.span_start + len(verdict.span)] == verdict.span  # type: ignore[operator]


_ALPHABET = "abcdefgh xyz ABC 0123456789 .,;:-–?!()£€%'\n ząłó"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim=st.text(alphabet=_ALPHABET, max_size=80), passage=st.text(alphabet=_ALPHABET, max_size=900))
def test_any_text_gives_a_valid_verdict(claim: str, passage: str) -> None:
    verdict = JUDGE.judge(claim, passage)
    assert verdict.status in {"supported", "partly_supported", "contradicted", "unsupported", "unavailable"}
    assert verdict.confidence in {"high", "medium", "low"} and not verdict.error
    if verdict.span is not None:
        assert passage[verdict.span_start : verdict.span_start + len(verdict.span)] == verdict.span  # type: ignore[operator]
    if verdict.confidence == "low":
        assert verdict.status == "unsupported" and verdict.span is None


def test_a_contradiction_names_the_sign_an_editor_can_check() -> None:
    verdict = JUDGE.judge("Vitamin D cures COVID-19.",
                          "Vitamin D supplementation had no significant effect on recovery from COVID-19 in patients.")
    if verdict.status == "contradicted":
        assert "a finding of no effect" in verdict.rationale and verdict.span and "no significant effect" in verdict.span
