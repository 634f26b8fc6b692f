"""Golden pairs that cannot mislead an approver (issue 20, item 6): a version tested with no pairs
is not shown as passed, a pair added after the run is counted as not run, a pair can be added and
the pairs run again from the source page at any time, and the queue says "no golden pairs"."""

from __future__ import annotations

import pytest
from django.utils import timezone

from citecheck.errors import InvalidInput, PermissionRefused
from citecheck.fingerprint import fingerprint
from reviews import testpairs
from reviews.models import AuditLog, TestPair, TestRun
from reviews.selectors.queue import QueueCategory, QueueFilters, review_queue
from sources.models import ChangeKind, Passage, PassageVersion, SourceVersion, VersionPassage
from sources.services.kept import queue_state_refresh
from tests.desk.kb import build_kb, candidate

pytestmark = pytest.mark.django_db


def _untested_candidate(source) -> SourceVersion:
    version = SourceVersion.objects.create(source=source, number=2, content_hash="h-none", body_compressed=SourceVersion.compress(b"z"),
                                           extraction_status="ok", compared_to=source.versions.get(is_active=True), diff_summary={"changed": 1})
    for m in VersionPassage.objects.filter(source_version__source=source, source_version__is_active=True):
        VersionPassage.objects.create(source_version=version, passage_version=m.passage_version, ordinal=m.ordinal, change_kind=ChangeKind.UNCHANGED)
    TestRun.objects.create(source_version=version, status="passed", finished_at=timezone.now(), passed_count=0, failed_count=0, judge="builtin")
    queue_state_refresh(source_ids=[source.pk])  # rows made here, not by the services: keep the queue as they would
    return version


def test_no_pairs_is_not_passed_and_a_late_pair_is_counted(client, editor):
    kb = build_kb(editor)
    TestPair.objects.filter(source=kb.delivery).delete()
    version = _untested_candidate(kb.delivery)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.delivery.pk}/").content.decode()
    assert "no golden pairs" in html
    assert "passed (0 passed, 0 failed)" not in html and "0/0" not in html
    assert "none: this source has no golden pairs, so nothing was tested" in html
    assert f"Add a golden pair to {kb.delivery}" in html
    detail = next(i.detail for i in review_queue(filters=QueueFilters(category=QueueCategory.APPROVAL)).items if i.title.endswith(f"version {version.number}"))
    assert "no golden pairs" in detail

    TestPair.objects.create(source=kb.delivery, claim="Express delivery costs £9.95.")  # added after the run
    html = client.get(f"/admin/desk/sources/{kb.delivery.pk}/").content.decode()
    assert "1 pair(s) not run against this version" in html
    assert "not run against this version" in html
    assert f"Add a golden pair to {kb.delivery}" in html, "adding a pair stays one click away once there are pairs"


def test_the_active_version_can_run_its_pairs_again(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.prices.pk}/").content.decode()
    assert "Run the golden pairs of version 1 again" in html


# --- adding a pair from the source page: the passage picker (issue 20, item 6) ------------------

def _picker(client, source, **params) -> str:
    response = client.get(f"/admin/desk/sources/{source.pk}/pairs/add/", params)
    assert response.status_code == 200
    return response.content.decode()


def test_the_picker_lists_only_this_sources_passages_with_heading_path_id_and_text(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.delivery.pk}/").content.decode()
    assert f'href="/admin/desk/sources/{kb.delivery.pk}/pairs/add/?version=1"' in html, "the source page links to the desk's picker"

    html = _picker(client, kb.delivery, version=1)
    express = kb.pvs["Delivery terms > Express delivery"]
    assert "Delivery terms &gt; Express delivery" in html
    assert f"passage {express.passage_id}, version id {express.pk}" in html
    assert "Express delivery takes 1 to 2 working days and costs £9.95." in html
    assert "Price list" not in html and "Ridge 2" not in html and "Ember stove" not in html, "no other source's passages"
    assert html.count('name="expected_passage"') == 2, "one radio per passage of the version, plus 'no particular passage'"


def test_searching_a_word_from_the_middle_of_a_passage_finds_it(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    html = _picker(client, kb.prices, q="tent")
    assert "The Ridge 2 tent costs £149." in html and "Ember stove" not in html
    assert "1 passage(s) match “tent”" in html
    html = _picker(client, kb.delivery, q="working DAYS")
    assert "Express delivery takes 1 to 2 working days" in html
    html = _picker(client, kb.prices, q="%")
    assert "No passage of version 1 matches “%”" in html, "the search is a literal match, not a LIKE pattern"
    html = _picker(client, kb.prices, q="Express")
    assert "No passage of version 1 matches" in html, "another source's words find nothing here"


def test_the_picker_escapes_page_text(client, editor):
    kb = build_kb(editor)
    version = kb.prices.versions.get(number=1)
    text = 'Sale <script>alert("x")</script> <img src=x onerror=alert(1)> ends soon.'
    passage = Passage.objects.create(source=kb.prices, key="Price list > Sale#0", heading_path="Price list > <b>Sale</b>", ordinal=5)
    pv = PassageVersion.objects.create(passage=passage, text=text, fingerprint=fingerprint(text), first_version=version, change_kind=ChangeKind.ADDED,
                                       first_seen_at=timezone.now(), last_seen_at=timezone.now())
    VersionPassage.objects.create(source_version=version, passage_version=pv, ordinal=5, change_kind=ChangeKind.ADDED)
    client.force_login(editor)
    html = _picker(client, kb.prices, q="alert")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>Sale</b>" not in html


def test_a_pair_added_through_the_picker_appears_on_the_source_page_and_counts(client, editor):
    kb = build_kb(editor)
    version = candidate(kb.prices)
    client.force_login(editor)
    tents = kb.pvs["Price list > Tents"].passage
    html = _picker(client, kb.prices, version=version.number, q="Ridge")
    assert f'id="passage-{tents.pk}"' in html
    response = client.post(f"/admin/desk/sources/{kb.prices.pk}/pairs/add/", {
        "action": "add", "version": version.number, "claim": "The Ridge 2 tent is sold for £149.", "expected_status": "supported",
        "expected_passage": tents.pk, "expected_quote": "costs £149"})
    assert response.status_code == 302 and response["Location"].endswith(f"/admin/desk/sources/{kb.prices.pk}/?version=2#pairs-h")
    pair = TestPair.objects.get(claim="The Ridge 2 tent is sold for £149.")
    assert (pair.source, pair.expected_passage, pair.created_by) == (kb.prices, tents, editor)
    assert AuditLog.objects.filter(action="testpair_create", object_id=str(kb.prices.pk), actor=editor).exists()

    html = client.get(response["Location"]).content.decode()
    assert "Added the golden pair “The Ridge 2 tent is sold for £149.” to Price list" in html
    assert "The Ridge 2 tent is sold for £149.</td><td>supported in “Price list &gt; Tents”" in html
    assert "passed (1 passed, 0 failed); 1 pair(s) not run against this version" in html, "the summary counts the new pair"
    assert "1 pair(s) not run against it" in html, "so does the versions table"


def test_a_pair_is_refused_in_words(client, editor, viewer):
    kb = build_kb(editor)
    other = kb.pvs["Delivery terms > Express delivery"].passage
    tents = kb.pvs["Price list > Tents"].passage
    with pytest.raises(InvalidInput, match="not a passage of Price list"):
        testpairs.testpair_create(actor=editor, source_id=kb.prices.pk, claim="Express costs £9.95.", expected_passage_id=other.pk)
    with pytest.raises(InvalidInput, match="quote does not appear"):
        testpairs.testpair_create(actor=editor, source_id=kb.prices.pk, claim="A tent.", expected_passage_id=tents.pk, expected_quote="£999")
    with pytest.raises(InvalidInput, match="already has a golden pair"):
        testpairs.testpair_create(actor=editor, source_id=kb.prices.pk, claim="  The Ridge 2   tent costs £149. ")
    with pytest.raises(PermissionRefused):
        testpairs.testpair_create(actor=viewer, source_id=kb.prices.pk, claim="Viewers only read.")
    assert AuditLog.objects.filter(action="testpair_create", allowed=False, actor=viewer).exists()

    client.force_login(editor)
    html = client.post(f"/admin/desk/sources/{kb.prices.pk}/pairs/add/", {
        "action": "add", "claim": "A tent.", "expected_status": "supported", "expected_passage": tents.pk, "expected_quote": "£999"}).content.decode()
    assert "This golden pair cannot be added: the expected quote does not appear" in html
    assert 'value="A tent."' not in html and "A tent.</textarea>" in html, "what was typed stays in the form"
    assert TestPair.objects.filter(source=kb.prices).count() == 1


# --- the page follows a run of the pairs again to its end --------------------------------------

def test_run_again_comes_back_to_the_version_whose_pairs_run(client, editor):
    kb = build_kb(editor)
    candidate(kb.prices)  # version 2 waits: the page's default version
    active = kb.prices.versions.get(number=1)
    client.force_login(editor)
    html = client.get(f"/admin/desk/sources/{kb.prices.pk}/?version=1").content.decode()
    assert f'data-desk-status-url="/admin/desk/sources/{kb.prices.pk}/status.json?version=1"' in html
    response = client.post(f"/admin/desk/versions/{active.pk}/decide/", {"decision": "retest"})
    assert response["Location"] == f"/admin/desk/sources/{kb.prices.pk}/?version=1#pairs-h"
    html = client.get(response["Location"]).content.decode()
    assert "Golden pairs against version 1" in html and "Running the golden pairs — waiting for a worker" in html


def test_the_status_follows_an_older_version_on_screen(client, editor):
    kb = build_kb(editor)
    for number in (2, 3, 4, 5):
        candidate(kb.prices, number=number)
    old = kb.prices.versions.get(number=2)
    client.force_login(editor)
    url = f"/admin/desk/sources/{kb.prices.pk}/status.json"
    before = client.get(url, {"version": 2}).json()
    TestRun.objects.create(source_version=old, status="passed", finished_at=timezone.now(), passed_count=1, judge="builtin")
    after = client.get(url, {"version": 2}).json()
    assert after["revision"] != before["revision"], "a finished run of version 2 changes what the page polls"
