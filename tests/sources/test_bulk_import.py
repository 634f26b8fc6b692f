"""Bulk import of sources: good, duplicate and bad rows; search-result datasets."""

from __future__ import annotations

import json

import pytest

from citecheck.errors import InvalidInput, PermissionRefused
from reviews.models import AuditLog
from sources.models import PassageVersion, Provenance, SearchHit, Source
from sources.services import source_register, sources_import

pytestmark = pytest.mark.django_db(transaction=True)

CSV = """url,title,priority,risk
https://www.example.org/delivery,Delivery,primary,high
https://WWW.Example.org:443/returns?utm_source=news#top,Returns,,
https://shop.example.co.uk/faq,FAQ,supplementary,low
https://www.example.org/returns,Returns again,,
not a url,Broken,,
ftp://files.example.org/terms.txt,FTP terms,,
https://www.example.org/warranty,Warranty,urgent,
https://www.example.org/already,Already there,,
"""


def _rejected(report: dict) -> dict[int, str]:
    return {row["row"]: row["reason"] for row in report["rejected"]}


def test_csv_import_counts_good_duplicate_and_bad_rows(editor):
    source_register(actor=editor, url="https://www.example.org/already", fetch=False)
    audit_before = AuditLog.objects.count()

    report = sources_import(actor=editor, text=CSV, fetch=False).as_dict()

    assert (report["created"], report["duplicate"], report["invalid"]) == (3, 2, 3)
    reasons = _rejected(report)
    assert set(reasons) == {4, 5, 6, 7, 8}
    assert "already registered" in reasons[4] and "already registered" in reasons[8]
    assert "invalid_url" in reasons[5] and "invalid_url" in reasons[6]
    assert "priority" in reasons[7] and "urgent" in reasons[7]
    assert sorted(Source.objects.values_list("normalized_url", flat=True)) == [
        "https://shop.example.co.uk/faq",
        "https://www.example.org/already",
        "https://www.example.org/delivery",
        "https://www.example.org/returns",
    ]
    returns = Source.objects.get(normalized_url="https://www.example.org/returns")
    assert returns.title == "Returns", "the first row of a URL wins; the duplicate wrote nothing"
    assert Source.objects.get(normalized_url="https://www.example.org/delivery").risk_level == "high"
    assert set(Source.objects.exclude(normalized_url__endswith="/already").values_list("provenance", flat=True)) == {Provenance.IMPORT}
    assert AuditLog.objects.count() - audit_before == 3, "one audit row per created source, none for rejected rows"


def test_json_import_reports_each_rejected_row(editor):
    rows = [
        {"url": "https://docs.example.net/a", "title": "A", "type": "faq"},
        {"url": "https://docs.example.net/a#section", "title": "A again"},
        {"url": "javascript:alert(1)", "title": "Script"},
        {"url": "", "title": "No URL"},
        {"url": "https://docs.example.net/b", "type": "spreadsheet"},
    ]
    report = sources_import(actor=editor, text=json.dumps(rows), fetch=False).as_dict()

    assert (report["created"], report["duplicate"], report["invalid"]) == (1, 1, 3)
    reasons = _rejected(report)
    assert set(reasons) == {2, 3, 4, 5}
    assert all(reason.strip() for reason in reasons.values())
    assert "document_type" in reasons[5]
    assert list(Source.objects.values_list("title", "document_type")) == [("A", "faq")]


def test_unparseable_import_and_missing_permission_write_nothing(editor, viewer):
    with pytest.raises(InvalidInput, match="not valid"):
        sources_import(actor=editor, text='[{"url": "https://a.example/"', fetch=False)
    with pytest.raises(InvalidInput, match="header"):
        sources_import(actor=editor, text="address\nhttps://a.example/\n", fetch=False)
    with pytest.raises(PermissionRefused):
        sources_import(actor=viewer, text="url\nhttps://a.example/\n", fetch=False)
    assert not Source.objects.exists()


def _search_rows(base: str) -> list[dict]:
    common = {"runId": "run-2026-11-30", "engine": "duckduckgo", "executedQuery": "northwind express delivery cost"}
    return [
        {**common, "rank": 1, "rankOnPage": 1, "title": "Delivery terms — Northwind", "canonicalUrl": base + "/delivery",
         "resultDomain": "127.0.0.1", "snippet": "Express delivery is always free, next day, everywhere.",
         "isSponsored": False, "observedAt": "2026-11-30T10:15:00Z"},
        {**common, "rank": 2, "rankOnPage": 2, "title": "Cheap tents! Sponsored", "canonicalUrl": base + "/prices",
         "resultDomain": "127.0.0.1", "snippet": "Buy now, best tents", "isSponsored": True, "observedAt": "2026-11-30T10:15:00Z"},
        {**common, "rank": 3, "rankOnPage": 3, "title": "Returns", "canonicalUrl": base + "/returns",
         "resultDomain": "127.0.0.1", "snippet": "Returns within 365 days, no questions asked.",
         "isSponsored": "false", "observedAt": "2026-11-30T10:15:00Z"},
        {**common, "rank": 4, "rankOnPage": 4, "title": "Broken", "canonicalUrl": "htp:/broken",
         "resultDomain": "", "snippet": "", "isSponsored": False, "observedAt": ""},
    ]


def test_search_result_rows_keep_provenance_and_the_snippet_is_never_evidence(shop, editor, run_jobs):
    rows = _search_rows(shop.base)
    report = sources_import(actor=editor, text=json.dumps(rows)).as_dict()

    assert (report["created"], report["duplicate"], report["invalid"], report["skipped_sponsored"]) == (2, 0, 1, 1)
    assert _rejected(report).keys() == {4}
    assert not Source.objects.filter(canonical_url__endswith="/prices").exists(), "sponsored results are skipped by default"

    delivery = Source.objects.get(canonical_url=shop.url("/delivery"))
    assert delivery.provenance == Provenance.SEARCH_RESULT
    hit = SearchHit.objects.get(source=delivery)
    assert (hit.run_id, hit.engine, hit.executed_query, hit.rank, hit.rank_on_page) == (
        "run-2026-11-30", "duckduckgo", "northwind express delivery cost", 1, 1
    )
    assert hit.snippet == "Express delivery is always free, next day, everywhere."
    assert hit.observed_at is not None and hit.observed_at.isoformat().startswith("2026-11-30T10:15")
    assert not hit.is_sponsored

    run_jobs()
    texts = list(PassageVersion.objects.filter(passage__source__in=[delivery]).values_list("text", flat=True))
    assert any("costs £9.95" in text for text in texts), "the page itself was fetched and extracted"
    all_texts = " ".join(PassageVersion.objects.values_list("text", flat=True))
    for row in rows:
        if row["snippet"]:
            assert row["snippet"] not in all_texts, "a search snippet is a hint, never evidence"
    assert "always free" not in all_texts


def test_sponsored_results_are_imported_only_when_asked(editor):
    rows = _search_rows("https://shop.example.com")
    report = sources_import(actor=editor, text=json.dumps(rows), include_sponsored=True, fetch=False).as_dict()

    assert (report["created"], report["skipped_sponsored"]) == (3, 0)
    sponsored = SearchHit.objects.get(source__canonical_url="https://shop.example.com/prices")
    assert sponsored.is_sponsored
    assert sponsored.source.provenance == Provenance.SEARCH_RESULT


def test_search_result_csv_rows(editor):
    header = "runId,engine,executedQuery,rank,rankOnPage,title,canonicalUrl,resultDomain,snippet,isSponsored,observedAt"
    text = "\n".join(
        [
            header,
            'r1,bing,tent warranty,1,1,Warranty,https://shop.example.com/warranty,shop.example.com,"24 months, they say",false,2026-11-29T08:00:00+00:00',
            "r1,bing,tent warranty,2,2,Ad,https://ads.example.com/x,ads.example.com,Ad text,true,2026-11-29T08:00:00+00:00",
            "r1,bing,tent warranty,3,3,Again,https://SHOP.example.com/warranty?utm_medium=cpc,shop.example.com,dup,false,2026-11-29T08:00:00+00:00",
        ]
    )
    report = sources_import(actor=editor, text=text, fetch=False).as_dict()

    assert (report["created"], report["duplicate"], report["invalid"], report["skipped_sponsored"]) == (1, 1, 0, 1)
    hit = SearchHit.objects.get()
    assert (hit.engine, hit.rank, hit.snippet) == ("bing", 1, "24 months, they say")
