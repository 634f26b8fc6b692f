"""The export as of a time through the API and the command: paging carries the moment, a
moment before the history is complete is refused with the time it starts from."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from citecheck.fingerprint import fingerprint
from reviews.services.degraded import block_apply, block_lift
from sources.models import ChangeKind, HistoryStart, PassageVersion, SourceVersion, VersionPassage, VersionPeriod
from sources.services import version_activate
from sources.services.activation import version_test

pytestmark = pytest.mark.django_db


def test_as_of_pages_replay_the_moment_before_a_block(api, registry, editor, approver):
    before = timezone.now()
    live = api.get("/passages", limit=2).json()
    assert "as_of" not in live
    switch, _ = block_apply(actor=editor, target="source", source_id=registry.sources[0].pk, reason="complaint about express delivery")
    after_block = timezone.now()
    assert {i["source_id"] for i in api.get("/passages").json()["items"]} == {registry.sources[1].pk}

    first = api.get("/passages", as_of=before.isoformat(), limit=2).json()
    assert first["as_of"] == before.isoformat()
    assert [i["passage_version_id"] for i in first["items"]] == [i["passage_version_id"] for i in live["items"]]
    # Blocked since: listed as it was, but its text does not leave through the API.
    for then, was in zip(first["items"], live["items"], strict=True):
        assert then == {**was, "text": "", "url": None, "link_html": None, "blocked_now": True}
    rest = api.get("/passages", cursor=first["next_cursor"], limit=2).json()
    assert rest["as_of"] == before.isoformat() and rest["next_cursor"] is None
    assert [i["passage_version_id"] for i in first["items"] + rest["items"]] == [pv.pk for pv in registry.pvs()]
    assert all("blocked_now" not in i and i["text"] for i in rest["items"]), "the other source is not blocked"

    block_lift(actor=approver, switch_id=switch.pk, reason="checked")
    during = api.get("/passages", as_of=after_block.isoformat()).json()
    assert {i["source_id"] for i in during["items"]} == {registry.sources[1].pk}, "the lift does not rewrite the past"


def test_as_of_before_history_is_refused_naming_when_it_starts(api, registry):
    start = timezone.now() - timedelta(hours=1)
    HistoryStart.objects.create(pk=1, complete_from=start)
    response = api.get("/passages", as_of=(start - timedelta(minutes=5)).isoformat())
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "as_of" and start.isoformat() in error["message"]
    assert api.get("/passages", as_of=start.isoformat()).status_code == 200
    assert api.get("/passages", as_of="2026-03-03T09:00:00").status_code == 400, "a time without offset is ambiguous"
    assert api.get("/passages", as_of=(timezone.now() + timedelta(days=1)).isoformat()).status_code == 400
    assert api.get("/passages", as_of=start.isoformat(), changed_since=start.isoformat()).status_code == 400
    assert api.get("/passages", as_of=start.isoformat(), after=1).status_code == 400, "the deprecated id to continue after has no place as of a time"


def test_command_as_of(registry, editor):
    before = timezone.now()
    block_apply(actor=editor, target="domain", domain="example.org", reason="incident")
    out = StringIO()
    call_command("export_passages", "--as-of", before.isoformat(), stdout=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {i["source_id"] for i in lines if i["type"] == "passage"} == {s.pk for s in registry.sources}
    out = StringIO()
    call_command("export_passages", stdout=out)
    assert {json.loads(line).get("source_id") for line in out.getvalue().splitlines()} - {None} == {registry.sources[0].pk}
    HistoryStart.objects.create(pk=1, complete_from=before)
    with pytest.raises(CommandError, match="history is complete from"):
        call_command("export_passages", "--as-of", (before - timedelta(seconds=1)).isoformat(), stdout=StringIO())


def test_trace_as_given_through_the_api_keeps_block_reasons_and_blocked_text_in_the_desk(api, registry, editor):
    pvs = registry.pvs()
    answer_id = api.post("/answers", {"answer": "Express delivery takes 1 to 2 working days [1].", "passage_version_ids": [pvs[0].pk]}).json()["answer_id"]
    block_apply(actor=editor, target="source", source_id=registry.sources[0].pk, reason="internal: legal asked us to pull this")
    given = api.get(f"/answers/{answer_id}/trace", as_of="given").json()
    entry = given["claims"][0]["evidence"][0]
    assert entry["at_moment"]["citable"] is True and entry["at_moment"]["blocks"] == []
    assert entry["passage_version"]["text"] == "", "blocked now: no text through the API"
    assert given["point_in_time"]["moments"][0]["label"] == "as it was given"
    later = api.get(f"/answers/{answer_id}/trace", as_of=timezone.now().isoformat()).json()
    moment = later["claims"][0]["evidence"][0]["at_moment"]
    assert moment["citable"] is False and moment["blocks"][0]["target"] == "source"
    assert "reason" not in moment["blocks"][0] and "legal" not in json.dumps(later)
    assert api.get(f"/answers/{answer_id}/trace", as_of="yesterday").status_code == 400


def all_pages(api, **params) -> list[dict]:
    page = api.get("/passages", **params).json()
    items = page["items"]
    while page["next_cursor"]:
        page = api.get("/passages", cursor=page["next_cursor"], limit=params["limit"]).json()
        items += page["items"]
    return items


def test_as_of_pages_follow_the_activations_and_give_each_passage_once(api, registry, approver):
    """As of a time the export is in the order of the activations that made each passage citable
    (so a page reads only what was citable then), with exactly the live export's passage versions:
    page boundaries inside a period and between two periods that began in the same microsecond
    lose nothing and repeat nothing."""
    delivery, returns = registry.sources
    express, standard = PassageVersion.objects.filter(passage__source=delivery).order_by("pk")
    v2 = SourceVersion.objects.create(source=delivery, number=2, content_hash="v2", body_compressed=SourceVersion.compress(b"v2"),
                                      extraction_status="ok", compared_to=registry.versions[0])
    text = "Standard delivery takes 2 to 4 working days."
    changed = PassageVersion.objects.create(passage=standard.passage, text=text, fingerprint=fingerprint(text), section_heading="Standard delivery",
                                            first_version=v2, change_kind=ChangeKind.CHANGED, first_seen_at=timezone.now(), last_seen_at=timezone.now())
    VersionPassage.objects.create(source_version=v2, passage_version=express, ordinal=0, change_kind=ChangeKind.UNCHANGED)
    VersionPassage.objects.create(source_version=v2, passage_version=changed, ordinal=1, change_kind=ChangeKind.CHANGED, previous=standard)
    version_test(version_id=v2.pk)  # no golden pairs: a passed run
    version_activate(actor=approver, version_id=v2.pk, reason="checked")
    [returns_pv] = PassageVersion.objects.filter(passage__source=returns)
    live = all_pages(api, limit=1000)
    assert [i["passage_version_id"] for i in live] == [express.pk, returns_pv.pk, changed.pk]

    now = timezone.now()
    for limit in (1, 2, 1000):
        then = all_pages(api, as_of=now.isoformat(), limit=limit)
        assert [i["passage_version_id"] for i in then] == [returns_pv.pk, express.pk, changed.pk], "returns was activated first"
        assert sorted(then, key=lambda i: i["passage_version_id"]) == live

    # Two periods that began in the same microsecond: the period id breaks the tie.
    began = VersionPeriod.objects.get(source_version=v2).active_from
    VersionPeriod.objects.filter(source=returns).update(active_from=began)
    for limit in (1, 2):
        assert [i["passage_version_id"] for i in all_pages(api, as_of=now.isoformat(), limit=limit)] == [returns_pv.pk, express.pk, changed.pk]
