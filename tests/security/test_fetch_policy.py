"""Issue 11 item 1: a domain block holds on every hop of a fetch, and the domain follows the URL.

Two real servers on 127.0.0.1 ("domain A") and 127.0.0.2 ("domain B"): an IP literal is its own
registrable domain, so blocking 127.0.0.2 is blocking domain B.
"""

from __future__ import annotations

import pytest

from citecheck.errors import IllegalTransition
from reviews.models import BlockSwitch
from reviews.services import block_apply, block_lift
from sources.models import DomainPolicy, EditorialTask, FetchResult, Source, SourceVersion, TaskKind
from sources.selectors import export_passages, safe_link
from sources.services import canonical_proposal_decide, links_check, source_refetch, source_register, version_activate

from .conftest import PAGE

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_temporary_redirect_to_a_blocked_domain_is_refused_before_it_is_requested(hosts, editor, approver, run_jobs):
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/terms"] = (200, {}, PAGE)
    a.routes["/terms"] = (302, {"Location": b.base + "/terms"}, b"")
    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="hostile site")
    source = source_register(actor=editor, url=a.base + "/terms")
    run_jobs()

    fetch = FetchResult.objects.get(source=source)
    assert fetch.link_state == "blocked"
    assert "redirect to " + b.base in fetch.error and "domain 127.0.0.2 is blocked (hostile site)" in fetch.error
    assert b.hits == [], "the blocked domain is never requested"
    assert not SourceVersion.objects.filter(source=source).exists()
    assert not export_passages().exists()
    source.refresh_from_db()
    assert source.link_state == "blocked"
    assert EditorialTask.objects.filter(source=source, kind=TaskKind.EDITORIAL_ATTENTION).exists()


def test_a_permanent_redirect_accepted_moves_the_domain_and_a_later_block_holds(hosts, editor, editor2, approver, approver2, run_jobs):
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/terms"] = (200, {}, PAGE)
    a.routes["/terms"] = (301, {"Location": b.base + "/terms"}, b"")
    source = source_register(actor=editor, url=a.base + "/terms", priority="primary")
    run_jobs()
    version = SourceVersion.objects.get(source=source)
    version_activate(actor=approver, version_id=version.pk)
    task = EditorialTask.objects.get(source=source, kind=TaskKind.CANONICAL_CHANGE)
    canonical_proposal_decide(actor=editor2, task_id=task.pk, accept=True, reason="moved for good")
    source.refresh_from_db()
    assert (source.canonical_url, source.domain) == (b.base + "/terms", "127.0.0.2"), "the domain follows the canonical URL"
    [exported] = export_passages()
    assert safe_link(exported)["href"].startswith(b.base)

    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="taken over")
    assert not export_passages().exists(), "the export drops the blocked domain's passages"
    assert safe_link(exported) is None, "no link is rendered to a blocked domain"
    hits = len(b.hits)
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    assert len(b.hits) == hits, "a fetch of the blocked domain is never sent"


def test_blocking_a_domain_re_checks_the_sources_that_reached_it_by_redirect(hosts, editor, approver, run_jobs):
    """Content fetched through a temporary redirect onto B, before B was blocked, is withheld
    once B is blocked: the block asks for a re-check of every such source, which meets it."""
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/terms"] = (200, {}, PAGE)
    a.routes["/terms"] = (302, {"Location": b.base + "/terms"}, b"")
    a.routes["/other"] = (200, {}, PAGE)
    source = source_register(actor=editor, url=a.base + "/terms", priority="primary")
    direct = source_register(actor=editor, url=a.base + "/other", priority="primary")
    run_jobs()
    for each in (source, direct):
        version_activate(actor=approver, version_id=SourceVersion.objects.get(source=each).pk)
    assert {pv.passage.source_id for pv in export_passages()} == {source.pk, direct.pk}
    assert Source.objects.get(pk=source.pk).domain == "127.0.0.1", "registered on A: a temporary redirect does not move it"
    fetched_from_b, fetched_direct = len(b.hits), len(a.hits)

    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="taken over")
    run_jobs()

    latest = FetchResult.objects.filter(source=source).order_by("-fetched_at", "-id").first()
    assert latest.link_state == "blocked" and "domain 127.0.0.2 is blocked" in latest.error
    assert len(b.hits) == fetched_from_b, "the re-check stops at the hop: the blocked domain is not requested"
    assert Source.objects.get(pk=source.pk).evidence_status == "suspended"
    assert {pv.passage.source_id for pv in export_passages()} == {direct.pk}, "only the page that never touched B stays exported"
    assert FetchResult.objects.filter(source=direct).count() == 1 and len(a.hits) == fetched_direct + 1, "only the redirected source is re-checked"


def test_a_proposal_to_a_domain_blocked_meanwhile_cannot_be_accepted(hosts, editor, editor2, approver, run_jobs):
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/terms"] = (200, {}, PAGE)
    a.routes["/terms"] = (301, {"Location": b.base + "/terms"}, b"")
    source = source_register(actor=editor, url=a.base + "/terms")
    run_jobs()
    task = EditorialTask.objects.get(source=source, kind=TaskKind.CANONICAL_CHANGE)
    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="hostile site")
    with pytest.raises(IllegalTransition, match="127.0.0.2 is blocked"):
        canonical_proposal_decide(actor=editor2, task_id=task.pk, accept=True, reason="moved")
    source.refresh_from_db()
    assert (source.canonical_url, source.domain) == (a.base + "/terms", "127.0.0.1")


def test_safe_link_checks_the_domain_of_the_url_it_renders(hosts, editor, approver, run_jobs):
    a = hosts("127.0.0.1")
    a.routes["/terms"] = (200, {}, PAGE)
    source = source_register(actor=editor, url=a.base + "/terms", priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=source).pk)
    [exported] = export_passages()
    # A stored domain that disagrees with the URL (rows written before the fix) is not trusted.
    Source.objects.filter(pk=source.pk).update(domain="example.org")
    DomainPolicy.objects.create(domain="127.0.0.1", allowed_for_links=False)
    exported = export_passages().get(pk=exported.pk)
    assert safe_link(exported) is None


def test_credentials_are_stripped_at_registration_and_ipv6_literals_register(hosts, editor, run_jobs):
    source = source_register(actor=editor, url="https://user:secret@example.com/terms", fetch=False)
    assert "secret" not in source.url and "user@" not in source.url
    assert source.url == source.canonical_url == "https://example.com/terms"

    loopback = source_register(actor=editor, url="http://[::1]/terms")
    public = source_register(actor=editor, url="http://[2001:DB8::1]/x", fetch=False)
    assert (loopback.canonical_url, loopback.domain) == ("http://[::1]/terms", "::1")
    assert public.canonical_url == "http://[2001:db8::1]/x"
    run_jobs()
    fetch = FetchResult.objects.get(source=loopback)
    assert fetch.link_state == "blocked" and "loopback address ::1 is not allowed" in fetch.error


def test_an_ipv4_mapped_literal_is_stored_bracketed_and_fetches(hosts, editor, run_jobs):
    a = hosts("127.0.0.3")
    a.routes["/terms"] = (200, {}, PAGE)
    port = a.server.server_address[1]
    source = source_register(actor=editor, url=f"http://[::ffff:127.0.0.3]:{port}/terms")
    assert source.canonical_url.startswith("http://[") and f"]:{port}/terms" in source.canonical_url
    run_jobs()
    fetch = FetchResult.objects.get(source=source)
    assert fetch.link_state == "ok", fetch.error
    assert SourceVersion.objects.filter(source=source).exists()


def test_the_bulk_link_check_refuses_a_redirect_to_a_blocked_domain_too(hosts, editor, approver):
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/x"] = (200, {}, PAGE)
    a.routes["/x"] = (302, {"Location": b.base + "/x"}, b"")
    a.routes["/ok"] = (200, {}, PAGE)
    moved = source_register(actor=editor, url=a.base + "/x", fetch=False)
    fine = source_register(actor=editor, url=a.base + "/ok", fetch=False)
    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="hostile site")
    counts = links_check(source_ids=[moved.pk, fine.pk])
    assert counts == {"blocked": 1, "ok": 1}
    assert b.hits == []
    assert "domain 127.0.0.2 is blocked" in FetchResult.objects.get(source=moved).error


def test_evidence_fetched_through_a_redirect_is_withheld_once_its_target_domain_is_blocked(hosts, editor, approver, run_jobs):
    a, b = hosts("127.0.0.1"), hosts("127.0.0.2")
    b.routes["/terms"] = (200, {}, PAGE)
    a.routes["/terms"] = (302, {"Location": b.base + "/terms"}, b"")
    source = source_register(actor=editor, url=a.base + "/terms", priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=source).pk)
    assert export_passages().exists(), "B was allowed when the page was fetched"

    block_apply(actor=approver, target="domain", domain="127.0.0.2", reason="taken over")
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    source.refresh_from_db()
    assert (source.link_state, source.evidence_status) == ("blocked", "suspended")
    assert not export_passages().exists(), "content from the blocked domain leaves the export"

    block_lift(actor=approver, switch_id=BlockSwitch.objects.get(domain="127.0.0.2").pk, reason="cleaned up")
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    source.refresh_from_db()
    assert source.evidence_status == "verified" and export_passages().exists()
