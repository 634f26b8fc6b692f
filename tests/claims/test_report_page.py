"""The answer page's verification report, rendered from its template: the product's words, and
model or page text (claims, spans, titles) always escaped, links only where the registry made one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from claims.models import Answer

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'


def test_the_report_shows_claims_sides_and_card_with_hostile_text_escaped(superuser, client):
    report = {
        "card": {"rule": "approved sources only", "total_claims": 1, "verified": 0, "unverified": 0, "contradicted": 1, "conflicting": 0,
                 "verification_rate_display": "0%", "gaps": [{"claim": HOSTILE, "follow_up": "find a source", "queries": ["express price"]}]},
        "retry": {"error": "HTTP 500", "failures": 2, "retry_in": 29.6},
        "claims": [{
            "claim": f"Express costs £4.95 {HOSTILE}", "state": "contradicted", "confidence": "high", "sentence": "Express costs £4.95.",
            "correction": {"link_text": "Delivery terms", "span": "costs £9.95"},
            "supporting": [],
            "contradicting": [{"title": f"Delivery {HOSTILE}", "domain": "shop.example", "priority": "primary", "span": "£9.95",
                               "url": "https://shop.example/delivery#express", "quality": {"score": 0.9, "parts": {"tier": 1.0}}}],
            "partial": [{"title": "Legacy row", "domain": "old.example", "priority": "supplementary", "span": "x", "url": "javascript:alert(1)"}],
        }],
        "bibliography": [{"title": "Delivery terms", "url": "https://shop.example/delivery"}],
    }
    answer = Answer.objects.create(raw_response="Express costs £4.95 [1].", answer_text="Express costs £4.95 [1].", state="conflicting", report=report)
    client.force_login(superuser)
    html = client.get(reverse("admin:claims_answer_change", args=[answer.pk])).content.decode()
    assert HOSTILE not in html and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "Verification pending: HTTP 500 (2 judge call(s) failed); it runs again by itself in about 30 s." in html
    assert "<strong>Correction</strong> (Delivery terms): <q>costs £9.95</q>" in html
    assert "<p>Supporting:</p>\n<p>none</p>" in html, "an empty side says none"
    assert 'href="https://shop.example/delivery#express"' in html and 'rel="noopener noreferrer nofollow"' in html
    assert "javascript:" not in html, "a URL the registry would not produce is shown as text, never as a link"
    assert "quality 0.90 (tier 1.00)" in html and "quality unknown" in html
    assert "1 claim(s): 0 verified, 0 not verified, 1 contradicted, 0 conflicting; verification rate 0%" in html
    assert "<h4>Sources</h4>" in html
