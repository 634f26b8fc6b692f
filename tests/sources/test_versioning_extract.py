"""`version_extract` (the extract job's service) stores exactly the passages the extractor finds, with
their keys, and diffs the next version against them, in a fixed number of queries (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck.extraction import extract_passages
from reviews.models import AuditLog
from sources.models import Source, SourceVersion, Stage, VersionPassage
from sources.services import version_extract
from sources.services.versioning import passage_keys, versions_extract
from tests.citecheck.extraction.test_extract_html import SHOP_PAGE

pytestmark = pytest.mark.django_db

EVAL_PAGES = Path(__file__).resolve().parents[3] / "shared" / "data" / "extraction-eval" / "pages"
SHOP = SHOP_PAGE.encode()
SHOP_EDITED = SHOP.replace(b"Personalised items cannot be returned.", b"Personalised items can be returned within 14 days.").replace(
    b"</article>", b"<h2>Gift wrap</h2><p>Gift wrap costs 3 EUR per parcel and is available for every order.</p></article>"
)


def _pages() -> list[tuple[bytes, bytes]]:
    """(first body, edited body) of real pages: the shop page, and some of the extraction corpus when it is there."""
    pages = [(SHOP, SHOP_EDITED)]
    if EVAL_PAGES.is_dir():
        for path in sorted(EVAL_PAGES.glob("*.html"))[100:104]:
            body = path.read_bytes()
            pages.append((body, body.replace(b"<p>", b"<p>New words here. ", 1)))
    return pages


def _version(source: Source, number: int, body: bytes) -> SourceVersion:
    Source.objects.filter(pk=source.pk).update(stage=Stage.FETCHED)
    return SourceVersion.objects.create(
        source=source, number=number, content_hash=f"{source.pk}-{number}", content_type="text/html", body_compressed=SourceVersion.compress(body)
    )


def _stored(version: SourceVersion) -> list[tuple[int, str, str, str, str, str]]:
    members = VersionPassage.objects.filter(source_version=version).exclude(change_kind="removed").select_related("passage_version__passage")
    return [
        (m.ordinal, m.passage_version.passage.key, m.passage_version.passage.heading_path, m.passage_version.passage.anchor,
         m.passage_version.text, m.change_kind)
        for m in members.order_by("ordinal")
    ]


def _expected(body: bytes, url: str, before: dict[str, str] | None) -> tuple[list[tuple[int, str, str, str, str, str]], dict[str, int]]:
    """What the version must hold, from an in-process extraction: key kept and same text
    `unchanged`, key kept and other text `changed`, new key `added`, key gone `removed`."""
    passages = extract_passages(body, content_type="text/html", url=url).passages
    rows, summary = [], {"added": 0, "changed": 0, "removed": 0, "unchanged": 0}
    for ordinal, (key, passage) in enumerate(zip(passage_keys(passages), passages, strict=True)):
        if before is None or key not in before:
            kind = "added"
        else:
            kind = "unchanged" if before[key] == passage.fingerprint else "changed"
        summary[kind] += 1
        rows.append((ordinal, key, passage.heading_path, passage.anchor, passage.text, kind))
    if before is not None:
        summary["removed"] = len(set(before) - set(passage_keys(passages)))
    return rows, summary


def test_versions_hold_exactly_the_extracted_passages_and_the_second_is_diffed_against_the_first(settings):
    settings.CITECHECK_EXTRACT_DEADLINE = 30
    for n, (first_body, edited_body) in enumerate(_pages()):
        url = f"https://p{n}.example.org/"
        source = Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=f"p{n}.example.org", stage=Stage.FETCHED)
        first = _version(source, 1, first_body)
        version_extract(version_id=first.pk)
        first.refresh_from_db()
        rows, summary = _expected(first_body, url, None)
        assert first.extraction_status == "ok"
        assert (_stored(first), first.diff_summary) == (rows, summary)

        before = {
            m.passage_version.passage.key: m.passage_version.fingerprint
            for m in VersionPassage.objects.filter(source_version=first).select_related("passage_version__passage")
        }
        second = _version(source, 2, edited_body)
        version_extract(version_id=second.pk)
        second.refresh_from_db()
        rows, summary = _expected(edited_body, url, before)
        assert (_stored(second), second.diff_summary) == (rows, summary)
        assert second.compared_to_id == first.pk
        if n == 0:  # the shop page: Returns edited, Gift wrap new
            assert second.diff_summary == {"added": 1, "changed": 1, "removed": 0, "unchanged": 6}


def test_a_first_import_takes_a_fixed_number_of_queries_and_audits_both_stages(django_assert_max_num_queries, settings):
    settings.CITECHECK_EXTRACT_DEADLINE = 30
    source = Source.objects.create(url="https://q.example.org/", canonical_url="https://q.example.org/", normalized_url="https://q.example.org/",
                                   domain="q.example.org", stage=Stage.FETCHED)
    version = _version(source, 1, SHOP)

    with django_assert_max_num_queries(19):  # whatever the number of passages (here 7)
        version_extract(version_id=version.pk)

    source.refresh_from_db()
    assert source.stage == Stage.VERSIONED
    assert source.title == "Delivery terms of Example Shop"
    steps = AuditLog.objects.filter(object_type="sources.source", object_id=str(source.pk), action="stage_change").order_by("id")
    assert [(a.from_state, a.to_state, a.reason) for a in steps] == [
        ("fetched", "extracted", "7 passages"),
        ("extracted", "versioned", "7 added"),
    ]
    assert {a.object_repr for a in steps} == {"Delivery terms of Example Shop"}


def test_pages_stored_together_hold_what_each_would_alone_in_the_queries_of_one(settings, django_assert_max_num_queries):
    """The extract job stores taken-along pages a few to a transaction (`versions_extract`): every
    version holds exactly its own passages and diff, first imports and second versions alike,
    and five pages cost no more queries than one page stored alone."""
    settings.CITECHECK_EXTRACT_DEADLINE = 30
    pages = [(SHOP.replace(b"Example Shop", f"Example Shop {n}".encode()), SHOP_EDITED) for n in range(2)] + _pages()
    sources = []
    for n in range(len(pages)):
        url = f"https://g{n}.example.org/"
        sources.append(Source.objects.create(url=url, canonical_url=url, normalized_url=url, domain=f"g{n}.example.org", stage=Stage.FETCHED))

    def run(versions: list[SourceVersion]) -> list[tuple[int, Exception | None]]:
        done: list[tuple[int, Exception | None]] = []
        chunks = iter([[v.pk for v in versions[1:]], []])
        versions_extract(version_id=versions[0].pk, take_next=lambda: next(chunks), finished=lambda pk, error: done.append((pk, error)),
                         store_every=len(versions))
        return done

    firsts = [_version(source, 1, body) for source, (body, _) in zip(sources, pages, strict=True)]
    with django_assert_max_num_queries(19):  # one page alone takes up to 19 (see above)
        assert run(firsts[:5]) == [(v.pk, None) for v in firsts[:5]]
    if firsts[5:]:
        assert run(firsts[5:]) == [(v.pk, None) for v in firsts[5:]]
    befores = []
    for source, version, (body, _) in zip(sources, firsts, pages, strict=True):
        version.refresh_from_db()
        assert (_stored(version), version.diff_summary) == _expected(body, source.canonical_url, None)
        befores.append({m.passage_version.passage.key: m.passage_version.fingerprint
                        for m in VersionPassage.objects.filter(source_version=version).select_related("passage_version__passage")})

    seconds = [_version(source, 2, edited) for source, (_, edited) in zip(sources, pages, strict=True)]
    assert run(seconds) == [(v.pk, None) for v in seconds]
    for source, version, first, before, (_, edited) in zip(sources, seconds, firsts, befores, pages, strict=True):
        version.refresh_from_db()
        assert version.compared_to_id == first.pk
        assert (_stored(version), version.diff_summary) == _expected(edited, source.canonical_url, before)
        source.refresh_from_db()
        assert source.stage == Stage.VERSIONED
