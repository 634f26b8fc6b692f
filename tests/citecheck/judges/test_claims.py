"""Claim extraction: which sentences of an answer need evidence."""

from __future__ import annotations

from citecheck.claim_extraction import extract_claims, needs_evidence, strip_citation_markers


def test_facts_need_evidence_small_talk_does_not() -> None:
    answer = (
        "Hi! Thanks for asking. Standard delivery takes 3 to 5 working days [1]. "
        "Returns are free for UK customers.[2] Please bring your receipt to the counter. "
        "Gift cards cannot be exchanged. Orders placed on Friday ship on Monday. Would you like the tracking link?"
    )
    claims = extract_claims(answer)
    table = [(c.text, c.needs_evidence, c.reason, c.citations) for c in claims]
    assert table == [
        ("Hi!", False, "greeting", ()),
        ("Thanks for asking.", False, "greeting", ()),
        ("Standard delivery takes 3 to 5 working days.", True, "number", (1,)),
        ("Returns are free for UK customers.", True, "number", (2,)),
        ("Please bring your receipt to the counter.", True, "instruction", ()),
        ("Gift cards cannot be exchanged.", True, "condition", ()),
        ("Orders placed on Friday ship on Monday.", True, "date", ()),
        ("Would you like the tracking link?", False, "question", ()),
    ]
    for claim in claims:
        assert answer[claim.start : claim.end] == claim.original


def test_polish_answer() -> None:
    answer = "Dzień dobry! Dostawa kosztuje 12 zł [1, 3]. Zwrot jest możliwy tylko z paragonem. Czy mogę jeszcze pomóc?"
    table = [(c.text, c.needs_evidence, c.citations) for c in extract_claims(answer)]
    assert table == [
        ("Dzień dobry!", False, ()),
        ("Dostawa kosztuje 12 zł.", True, (1, 3)),
        ("Zwrot jest możliwy tylko z paragonem.", True, ()),
        ("Czy mogę jeszcze pomóc?", False, ()),
    ]


def test_transition_before_a_fact_is_not_a_free_pass() -> None:
    assert needs_evidence("Here is what I found:") == (False, "transition")
    assert needs_evidence("Here is what I found: express delivery costs £7.95.")[0] is True
    assert needs_evidence("The museum has a café on the ground floor.") == (True, "fact")
    assert needs_evidence("[1]") == (False, "empty")


def test_strip_citation_markers() -> None:
    assert strip_citation_markers("Delivery takes 3 days [1][2].") == ("Delivery takes 3 days.", (1, 2))
    assert strip_citation_markers("Costs £5 [1, 3] per item.") == ("Costs £5 per item.", (1, 3))
    assert strip_citation_markers("No markers.") == ("No markers.", ())
