"""Cross-source rules in both verification modes, claim and answer states, the report card
(citecheck.verification), and the wording templates (citecheck.state_wording)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from citecheck.state_wording import DEFAULT_TEMPLATES, answer_wording, render, validate_template
from citecheck.verification import (
    ANSWER_PRECEDENCE,
    EvidenceRecord,
    answer_state,
    claim_state,
    follow_up_queries,
    freshness_expires_at,
    freshness_lapsed,
    registrable_domain,
    render_citations,
    report_card,
    source_quality,
)

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def ev(source_id: int, domain: str, status: str = "supported", **kwargs: object) -> EvidenceRecord:
    kwargs.setdefault("fetched_at", NOW - timedelta(days=1))
    kwargs.setdefault("span", f"span of source {source_id}")
    return EvidenceRecord(source_id=source_id, domain=domain, status=status, **kwargs)  # type: ignore[arg-type]


def research(claim: str, records: list[EvidenceRecord], **kwargs: object):  # type: ignore[no-untyped-def]
    return claim_state(claim, records, mode="research", now=NOW, **kwargs)  # type: ignore[arg-type]


def kb(claim: str, records: list[EvidenceRecord], **kwargs: object):  # type: ignore[no-untyped-def]
    return claim_state(claim, records, mode="knowledge_base", now=NOW, **kwargs)  # type: ignore[arg-type]


def test_research_two_subdomains_of_one_site_are_one_source() -> None:
    claim = "The museum opens at 10:00."
    one_site = research(claim, [ev(1, "www.museum.example.co.uk"), ev(2, "tickets.museum.example.co.uk")])
    assert one_site.state == "single_source" and one_site.independent_supporters == 1 and not one_site.verified
    two_sites = research(claim, [ev(1, "www.museum.example.co.uk"), ev(3, "visitcity.org")])
    assert two_sites.state == "supported" and two_sites.verified and two_sites.confidence == "medium"
    three = research(claim, [ev(1, "museum.example.co.uk"), ev(3, "visitcity.org"), ev(4, "gov.example")])
    assert three.verified and three.confidence == "high"
    assert registrable_domain("https://a.b.example.com/x?y") == "example.com"


def test_seed_000_cpi_on_bls_gov_and_reuters_is_verified_in_research() -> None:
    records = [ev(1, "bls.gov", tier=1.0, span="Inflation peaked at 9.1% in June 2022"),
               ev(2, "reuters.com", tier=1.0, span="US inflation hit 9.1% peak in mid-2022")]
    result = research("Inflation peaked at 9.1%.", records)
    assert result.state == "supported" and result.verified and result.independent_supporters == 2
    card = report_card([result], mode="research")
    assert card["verification_rate_display"] == "100%" and card["gaps"] == []
    assert {s["domain"] for s in card["top_sources"]} == {"bls.gov", "reuters.com"}


def test_knowledge_base_one_approved_primary_source_is_the_authority() -> None:
    shop = [ev(1, "shop.example", priority="primary")]
    result = kb("Returns are accepted within 30 days.", shop)
    assert result.state == "supported" and result.verified and not result.explanation_only
    assert research("Returns are accepted within 30 days.", shop).state == "single_source"
    blog = kb("Returns are accepted within 30 days.", [ev(2, "blog.example", priority="supplementary")])
    assert blog.state == "supported" and blog.explanation_only and not blog.verified
    card = report_card([result, blog], mode="knowledge_base")
    assert card["verified"] == 1 and card["explanation_only"] == 1 and card["verification_rate"] == 0.5


def test_knowledge_base_contradiction_by_a_primary_source_is_a_correction_not_a_conflict() -> None:
    price = ev(3, "shop.example", "contradicted", priority="primary", span="The Ridge 2 tent costs £169 and weighs 2.1 kg.",
               document="Price list", link_text="Price list — Tents")
    result = kb("The Ridge 2 tent costs £149.", [price])
    assert result.state == "contradicted"
    assert result.correction is not None and result.correction["span"] == "The Ridge 2 tent costs £169 and weighs 2.1 kg."
    state = answer_state([result])
    assert state.state == "contradicted"
    assert answer_wording(state.state, [result.to_dict()]) == "The approved price list says the Ridge 2 tent costs £169 (Price list — Tents)."
    # A supplementary source saying otherwise does not overrule the primary one.
    backed = kb("The Ridge 2 tent costs £149.", [ev(1, "shop.example"), ev(2, "blog.example", "contradicted", priority="supplementary")])
    assert backed.state == "supported" and any("supplementary" in n for n in backed.notes)


def test_conflicting_only_when_approved_sources_disagree_with_each_other() -> None:
    both = kb("Express delivery costs £7.95.",
              [ev(1, "shop.example", span="Express delivery costs £7.95.", link_text="Delivery — Express"),
               ev(2, "shop.example", "contradicted", span="Express delivery costs £9.95.", link_text="FAQ — Delivery")])
    assert both.state == "conflicting"
    assert [s["span"] for s in both.supporting] == ["Express delivery costs £7.95."]
    assert [s["span"] for s in both.contradicting] == ["Express delivery costs £9.95."]
    text = answer_wording("conflicting", [both.to_dict()], contact="Northwind customer service")
    assert "Delivery — Express says “Express delivery costs £7.95”" in text and "FAQ — Delivery says “Express delivery costs £9.95”" in text
    assert "Northwind customer service" in text
    research_weak = research("Express delivery costs £7.95.",
                             [ev(2, "forum.example", "contradicted", tier=0.0, priority="supplementary", page_date=NOW - timedelta(days=3000))])
    assert research_weak.state == "no_evidence" and research_weak.contradicting  # shown, not credible enough


def test_unusable_evidence_is_pending_never_no_evidence() -> None:
    for usability in ("blocked", "missing", "unverified", "judge_error"):
        result = kb("Delivery takes 3 days.", [ev(1, "shop.example", usability=usability)])
        assert result.state == "unavailable", usability
        assert result.pending
    absent = kb("Delivery takes 3 days.", [ev(1, "shop.example", "unsupported", confidence="low")])
    assert absent.state == "no_evidence" and absent.needs_review, "an unsure 'not found' is no finding either: a person looks"
    assert report_card([absent])["needs_review"] == ["Delivery takes 3 days."]
    unsure = kb("Delivery takes 3 days.", [ev(1, "shop.example", confidence="low")])
    assert unsure.state == "unavailable" and "needs a person or the LLM judge" in unsure.pending[0]
    assert report_card([unsure])["needs_review"] == ["Delivery takes 3 days."]
    state = answer_state([unsure, kb("Returns are free.", [ev(2, "shop.example")])])
    assert state.state == "pending"
    assert "verification is pending" in answer_wording("pending", [unsure.to_dict()])


def test_partly_supported_names_the_confirmed_part() -> None:
    partial = kb("Returns are free worldwide.", [ev(1, "shop.example", "partly_supported", span="Returns are free for customers in the United Kingdom.")])
    assert partial.state == "partly_supported"
    fine = kb("You may return any item within 30 days.", [ev(2, "shop.example")])
    state = answer_state([fine, partial])
    assert state.state == "partly_supported"
    text = answer_wording(state.state, [fine.to_dict(), partial.to_dict()])
    assert text == ("The approved sources confirm You may return any item within 30 days; “Returns are free for customers "
                    "in the United Kingdom”, but I can't confirm Returns are free worldwide.")


def test_answer_state_precedence() -> None:
    contradicted = kb("A costs £1.", [ev(1, "s.example", "contradicted")])
    conflicting = kb("B costs £2.", [ev(1, "s.example"), ev(2, "s.example", "contradicted")])
    outdated = kb("C costs £3.", [ev(1, "s.example", usability="changed")])
    pending = kb("D costs £4.", [ev(1, "s.example", usability="judge_error")])
    supported = kb("E costs £5.", [ev(1, "s.example")])
    nothing = kb("F costs £6.", [ev(1, "s.example", "unsupported")])
    ordered = [contradicted, conflicting, outdated, pending, supported, nothing]
    assert ANSWER_PRECEDENCE == ("contradicted", "conflicting", "outdated", "pending", "supported", "partly_supported", "no_evidence")
    for i, expected in enumerate(["contradicted", "conflicting", "outdated", "pending", "partly_supported", "no_evidence"]):
        assert answer_state(ordered[i:]).state == expected
    assert answer_state([supported]).state == "supported"


@pytest.mark.parametrize(("risk", "age_days", "expected"),
                         [("high", 20, "supported"), ("high", 45, "outdated"), ("normal", 120, "supported"),
                          ("normal", 200, "outdated"), ("low", 300, "supported"), ("low", 400, "outdated")])
def test_outdated_by_the_freshness_window_of_the_risk_level(risk: str, age_days: int, expected: str) -> None:
    records = [ev(1, "shop.example", risk_level=risk, fetched_at=NOW - timedelta(days=age_days))]
    result = kb("Delivery takes 3 days.", records)
    assert result.state == expected
    if expected == "outdated":
        text = answer_wording("outdated", [result.to_dict()])
        assert (NOW - timedelta(days=age_days)).date().isoformat() in text and "Delivery" in text
    assert kb("Delivery takes 3 days.", records, freshness_days={risk: 1000}).state == "supported"


@pytest.mark.parametrize("risk", ["high", "normal", "low"])
def test_the_freshness_deadline_is_the_first_moment_the_claim_turns_outdated(risk: str) -> None:
    records = [ev(1, "shop.example", risk_level=risk, fetched_at=NOW - timedelta(days=3, hours=5)),
               ev(2, "shop.example", status="unsupported", fetched_at=NOW - timedelta(days=900)),  # decides nothing
               ev(3, "shop.example", usability="blocked", fetched_at=NOW - timedelta(days=900))]  # pending, not deciding
    deadline = freshness_expires_at(records, now=NOW)
    assert deadline is not None
    before, at = deadline - timedelta(seconds=1), deadline
    assert claim_state("Delivery takes 3 days.", records, now=before).state == "supported"
    assert claim_state("Delivery takes 3 days.", records, now=at).state == "unavailable"  # the blocked one now speaks
    assert claim_state("Delivery takes 3 days.", records[:1], now=at).state == "outdated"
    assert freshness_lapsed(records, now=before) == [] and freshness_lapsed(records, now=at) == [records[0]]
    assert freshness_expires_at(records, now=at) is None, "a lapsed passage has no deadline of its own"


def test_templates_exist_for_every_state_and_language_and_render_safely() -> None:
    for language in ("en", "pl", "lt"):
        texts = DEFAULT_TEMPLATES[(language, "")]
        for key in ("supported", "partly_supported", "contradicted", "conflicting", "outdated", "no_evidence", "pending",
                    "explanation_only", "single_source"):
            assert validate_template(texts[key]) == [], (language, key)
    assert answer_wording("no_evidence", [{"claim": "Pristatymo terminas yra 3 dienos.", "state": "no_evidence"}], language="lt") == (
        "Patvirtintuose šaltiniuose nerandu dabartinės informacijos apie: Pristatymo terminas.")
    assert answer_wording("no_evidence", [{"claim": "Dostawa kosztuje 15 zł.", "state": "no_evidence"}], language="pl") == (
        "Nie znajduję w zatwierdzonych źródłach aktualnej informacji o: Dostawa.")
    assert validate_template("{topic.__class__.__mro__}") and validate_template("{0}") and validate_template("{topic!r}")
    assert render("About {topic}: {topic.__class__} {x}", {"topic": "<b>x</b>"}) == "About <b>x</b>: {topic.__class__} {x}"
    custom = answer_wording("no_evidence", [{"claim": "Shipping is free.", "state": "no_evidence"}],
                            lookup=lambda key, lang, mode: "Sorry, nothing about {topic}." if key == "no_evidence" else None)
    assert custom == "Sorry, nothing about Shipping."
    broken = answer_wording("no_evidence", [{"claim": "Shipping is free.", "state": "no_evidence"}],
                            lookup=lambda key, lang, mode: "Sorry {topic.__dict__}")
    assert broken.startswith("I can't find"), "an invalid stored template falls back to the default"


def test_report_card_and_gaps_follow_the_mode() -> None:
    verified = research("Adult tickets cost €12.", [ev(1, "museum.example", tier=0.9), ev(2, "www.visitcity.org", tier=1.0)])
    single = research("The café opens at 9:00.", [ev(1, "museum.example")])
    missing = research("Guided tours cost €5 per person.", [])
    conflict = research("Child tickets cost €6.", [ev(1, "museum.example"), ev(3, "news.example", "contradicted", tier=0.8)])
    card = report_card([verified, single, missing, conflict], mode="research", threshold=0.70)
    assert (card["total_claims"], card["verified"], card["contradicted"], card["conflicting"]) == (4, 1, 0, 1)
    assert card["verification_rate"] == 0.25 and card["verification_rate_display"] == "25%" and not card["meets_threshold"]
    assert [gap["claim"] for gap in card["gaps"]] == ["The café opens at 9:00.", "Guided tours cost €5 per person.", "Child tickets cost €6."]
    assert all(gap["queries"] and "independent source" in gap["follow_up"] for gap in card["gaps"])
    assert card["top_sources"][0]["domain"] == "visitcity.org"
    assert card["contradictions"][0]["contradicting"][0]["domain"] == "news.example"
    assert report_card([verified, verified, verified, single], mode="research")["gaps"] == []
    kb_card = report_card([kb("Guided tours cost €5 per person.", [])], mode="knowledge_base")
    assert kb_card["mode"] == "knowledge_base" and "primary source" in kb_card["gaps"][0]["follow_up"]


def test_quality_score_has_its_parts_and_orders_evidence() -> None:
    high = source_quality(tier=1.0, page_date=NOW - timedelta(days=30), priority="primary", now=NOW)
    low = source_quality(tier=0.1, page_date=NOW - timedelta(days=2500), priority="supplementary", now=NOW)
    assert high.score > low.score and high.parts == {"tier": 1.0, "recency": 1.0, "priority": 1.0}
    result = research("Adult tickets cost €12.", [ev(1, "blog.example", tier=0.2), ev(2, "gov.example", tier=1.0)])
    assert [s["domain"] for s in result.supporting] == ["gov.example", "blog.example"]


def test_follow_up_queries_and_citations() -> None:
    queries = follow_up_queries("Guided tours cost €5 per person.")
    assert queries[0] == '"Guided tours cost person"' and any("5" in q for q in queries)
    lines, bibliography = render_citations([
        ("Adult tickets cost €12.", [{"source_id": 7, "title": "Tickets", "url": "https://museum.example/tickets"}]),
        ("The café opens at 9:00.", []),
    ], unverified_label="[UNVERIFIED]")
    assert lines == ["Adult tickets cost €12. [1]", "[UNVERIFIED] The café opens at 9:00."]
    assert [(b["number"], b["source_id"]) for b in bibliography] == [(1, 7)]
