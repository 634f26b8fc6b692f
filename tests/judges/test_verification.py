"""Cross-source rules, answer states and the report card (citecheck.verification)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from citecheck.verification import (
    EvidenceRecord,
    answer_state,
    answer_wording,
    claim_state,
    follow_up_queries,
    registrable_domain,
    render_citations,
    report_card,
    source_quality,
)

NOW = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def ev(source_id: int, domain: str, status: str = "supported", **kwargs: object) -> EvidenceRecord:
    kwargs.setdefault("fetched_at", NOW - timedelta(days=1))
    return EvidenceRecord(source_id=source_id, domain=domain, status=status, **kwargs)  # type: ignore[arg-type]


def test_two_subdomains_of_one_site_are_one_source() -> None:
    claim = "The museum opens at 10:00."
    one_site = claim_state(claim, [ev(1, "www.museum.example.co.uk"), ev(2, "tickets.museum.example.co.uk")], now=NOW)
    assert one_site.state == "single_source" and one_site.independent_supporters == 1 and one_site.confidence == "low"
    two_sites = claim_state(claim, [ev(1, "www.museum.example.co.uk"), ev(3, "visitcity.org")], now=NOW)
    assert two_sites.state == "verified" and two_sites.confidence == "medium"
    three = claim_state(claim, [ev(1, "museum.example.co.uk"), ev(3, "visitcity.org"), ev(4, "gov.example")], now=NOW)
    assert three.state == "verified" and three.confidence == "high"
    assert registrable_domain("https://a.b.example.com/x?y") == "example.com"


def test_supplementary_only_evidence_never_verifies_and_regulated_claims_need_a_primary_source() -> None:
    blogs = [ev(1, "blog-a.com", priority="supplementary"), ev(2, "blog-b.net", priority="supplementary")]
    general = claim_state("The museum building dates from the 1890s.", blogs, kind="general", now=NOW)
    assert general.state == "single_source" and general.supplementary_only
    for claim, kind in [("Adult tickets cost €12.", "price"), ("Returns are accepted within 30 days.", "deadline"),
                        ("The warranty does not cover accidental damage.", "terms")]:
        result = claim_state(claim, blogs, now=NOW)
        assert result.kind == kind
        assert result.state == "unverified", claim
        assert any("primary source" in note for note in result.notes)
    with_primary = claim_state("Adult tickets cost €12.", blogs + [ev(3, "museum.example", priority="primary")], now=NOW)
    assert with_primary.state == "verified"


def test_conflicting_lists_both_sides_and_contradicted_needs_a_credible_source() -> None:
    both = claim_state("Express delivery costs £7.95.",
                       [ev(1, "shop.example", span="Express delivery costs £7.95."),
                        ev(2, "courier.example", "contradicted", tier=0.9, span="Express delivery costs £9.95.")], now=NOW)
    assert both.state == "conflicting" and both.confidence == "low"
    assert [s["span"] for s in both.supporting] == ["Express delivery costs £7.95."]
    assert [s["span"] for s in both.contradicting] == ["Express delivery costs £9.95."]
    against = claim_state("Express delivery costs £7.95.", [ev(2, "courier.example", "contradicted", tier=0.9)], now=NOW)
    assert against.state == "contradicted"
    weak = claim_state("Express delivery costs £7.95.",
                       [ev(2, "forum.example", "contradicted", tier=0.0, priority="supplementary",
                           page_date=NOW - timedelta(days=3000))], now=NOW)
    assert weak.state == "unverified" and weak.contradicting  # shown, but not credible enough to flip the state
    nothing = claim_state("Express delivery costs £7.95.", [ev(1, "shop.example", "unsupported")], now=NOW)
    assert nothing.state == "unverified"


def test_quality_score_has_its_parts_and_orders_evidence() -> None:
    high = source_quality(tier=1.0, page_date=NOW - timedelta(days=30), priority="primary", now=NOW)
    low = source_quality(tier=0.1, page_date=NOW - timedelta(days=2500), priority="supplementary", now=NOW)
    assert high.score > low.score
    assert set(high.parts) == {"tier", "recency", "priority"}
    assert high.parts == {"tier": 1.0, "recency": 1.0, "priority": 1.0} and high.score == 1.0
    assert low.parts["recency"] == 0.2 and low.parts["priority"] == 0.5
    result = claim_state("Adult tickets cost €12.", [ev(1, "blog.example", tier=0.2), ev(2, "gov.example", tier=1.0)], now=NOW)
    assert [s["domain"] for s in result.supporting] == ["gov.example", "blog.example"]


def _claims(*specs: tuple[str, list[EvidenceRecord]]) -> list:
    return [(claim_state(text, records, now=NOW), records) for text, records in specs]


def test_every_answer_state() -> None:
    fresh = [ev(1, "shop.example"), ev(2, "other.example")]
    supported = answer_state(_claims(("Delivery takes 3 days.", fresh), ("Returns are free.", fresh)), now=NOW)
    assert supported.state == "supported"
    partly = answer_state(_claims(("Delivery takes 3 days.", fresh), ("The shop has a café.", [])), now=NOW)
    assert partly.state == "partly_supported" and "The shop has a café." in partly.wording
    conflicting = answer_state(_claims(("Delivery takes 3 days.", fresh + [ev(3, "x.example", "contradicted", tier=1.0)])),
                               now=NOW)
    assert conflicting.state == "conflicting"
    gone = answer_state(_claims(("Delivery takes 3 days.", [ev(1, "shop.example", is_current=False)])), now=NOW)
    assert gone.state == "outdated" and "no longer on the live page" in gone.reasons[0]
    none = answer_state(_claims(("Delivery takes 3 days.", [ev(1, "shop.example", "unsupported")])), now=NOW,
                        topic="delivery time")
    assert none.state == "no_evidence"
    assert none.wording == "I can't find the current delivery time in the approved sources."


@pytest.mark.parametrize(("risk", "age_days", "expected"),
                         [("high", 20, "supported"), ("high", 45, "outdated"), ("normal", 120, "supported"),
                          ("normal", 200, "outdated"), ("low", 300, "supported"), ("low", 400, "outdated")])
def test_outdated_by_the_freshness_window_of_the_risk_level(risk: str, age_days: int, expected: str) -> None:
    records = [ev(1, "shop.example", risk_level=risk, fetched_at=NOW - timedelta(days=age_days))]
    result = answer_state(_claims(("Delivery takes 3 days.", records)), now=NOW)
    assert result.state == expected
    if expected == "outdated":
        assert (NOW - timedelta(days=age_days)).date().isoformat() in result.wording
    custom = answer_state(_claims(("Delivery takes 3 days.", records)), now=NOW, freshness_days={risk: 1000})
    assert custom.state == "supported"


def test_wording_per_language_and_overrides() -> None:
    assert answer_wording("no_evidence", "pl", topic="czas dostawy") == (
        "Nie znajduję w zatwierdzonych źródłach aktualnej informacji o: czas dostawy.")
    assert answer_wording("supported", "de") == answer_wording("supported", "en")  # falls back to English
    overrides = {"en": {"no_evidence": "Sorry, no verified answer about {topic}."}}
    assert answer_wording("no_evidence", "en", overrides=overrides, topic="returns") == "Sorry, no verified answer about returns."
    for state in ("supported", "partly_supported", "outdated", "conflicting", "no_evidence"):
        for language in ("en", "pl"):
            text = answer_wording(state, language)
            assert text and "{" not in text


def test_report_card_and_gaps_under_the_threshold() -> None:
    verified = claim_state("Adult tickets cost €12.", [ev(1, "museum.example", tier=0.9), ev(2, "www.visitcity.org", tier=1.0)],
                           now=NOW)
    single = claim_state("The café opens at 9:00.", [ev(1, "museum.example")], now=NOW)
    missing = claim_state("Guided tours cost €5 per person.", [], now=NOW)
    conflict = claim_state("Child tickets cost €6.", [ev(1, "museum.example"), ev(3, "news.example", "contradicted", tier=0.8)],
                           now=NOW)
    card = report_card([verified, single, missing, conflict], threshold=0.70)
    assert (card["total_claims"], card["verified"], card["contradicted"], card["conflicting"]) == (4, 1, 0, 1)
    assert card["unverified"] == 2 and card["verification_rate"] == 0.25 and card["verification_rate_display"] == "25%"
    assert card["meets_threshold"] is False
    assert [gap["claim"] for gap in card["gaps"]] == ["The café opens at 9:00.", "Guided tours cost €5 per person.",
                                                       "Child tickets cost €6."]
    assert all(gap["queries"] for gap in card["gaps"])
    assert card["top_sources"][0]["domain"] == "visitcity.org"  # www.visitcity.org -> registrable domain
    assert card["contradictions"][0]["contradicting"][0]["domain"] == "news.example"
    good = report_card([verified, verified, verified, single], threshold=0.70)
    assert good["meets_threshold"] is True and good["gaps"] == []


def test_follow_up_queries_and_citations() -> None:
    queries = follow_up_queries("Guided tours cost €5 per person.")
    assert queries[0] == '"Guided tours cost person"' and any("5" in q for q in queries)
    assert follow_up_queries("Dostawa kurierem kosztuje 15 zł.", "pl")[1].endswith("oficjalna strona")
    lines, bibliography = render_citations([
        ("Adult tickets cost €12.", [{"source_id": 7, "title": "Tickets", "url": "https://museum.example/tickets"}]),
        ("Child tickets cost €6.", [{"source_id": 7, "title": "Tickets", "url": "https://museum.example/tickets"},
                                    {"source_id": 9, "title": "Prices", "url": "https://city.example/prices"}]),
        ("The café opens at 9:00.", []),
    ], unverified_label="[UNVERIFIED]")
    assert lines == ["Adult tickets cost €12. [1]", "Child tickets cost €6. [1][2]", "[UNVERIFIED] The café opens at 9:00."]
    assert [(b["number"], b["source_id"]) for b in bibliography] == [(1, 7), (2, 9)]
