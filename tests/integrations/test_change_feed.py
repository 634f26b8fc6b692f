"""Incremental sync through the real pipeline: add, change, block, unblock and page removal,
each seen by `changed_since` as the current object or a tombstone with its reason."""

from __future__ import annotations

import pytest

from sources.models import SourceVersion
from sources.services import source_refetch, source_register, version_activate
from tests.integrations.conftest import Api, make_token, service_user
from tests.sources.pageserver import page_server

pytestmark = pytest.mark.django_db(transaction=True)

SECTIONS = {
    "Express delivery": "Express delivery takes 1 to 2 working days and costs £4.95 per order.",
    "Standard delivery": "Standard delivery takes 3 to 5 working days and is free over £50.",
    "Collection": "You can collect your order from any of our 40 shops within 7 days.",
}


def page(sections: dict[str, str]) -> bytes:
    body = "".join(f'<h2 id="{h.lower().replace(" ", "-")}">{h}</h2><p>{t} {t}</p>' for h, t in sections.items())
    return f"<html><head><title>Delivery terms</title></head><body><main><h1>Delivery terms</h1>{body}</main></body></html>".encode()


def _activate_latest(source, approver):
    version = SourceVersion.objects.filter(source=source).order_by("-number").first()
    version_activate(actor=approver, version_id=version.pk)
    return version


def test_incremental_sync_with_tombstones(client, editor, approver, run_jobs):
    api = Api(client=client, token=make_token(service_user("bot", "Editor")))
    with page_server() as site:
        site.pages["/delivery"] = ("text/html; charset=utf-8", page(SECTIONS))
        source = source_register(actor=editor, url=site.url("/delivery"), priority="primary")
        run_jobs()
        _activate_latest(source, approver)

        full = api.get("/passages").json()
        by_heading = {i["section_heading"]: i for i in full["items"]}
        assert set(by_heading) >= set(SECTIONS)
        cursor = full["sync_cursor"]
        assert api.get("/passages", changed_since=cursor).json()["items"] == []

        # change one section, add one, remove one from the page
        changed = dict(SECTIONS)
        changed["Express delivery"] = "Express delivery takes 1 to 2 working days and costs £5.95 per order."
        del changed["Collection"]
        changed["Returns"] = "Returns are free within 30 days of delivery for every order."
        site.pages["/delivery"] = ("text/html; charset=utf-8", page(changed))
        source_refetch(actor=editor, source_id=source.pk)
        run_jobs()
        _activate_latest(source, approver)

        feed = api.get("/passages", changed_since=cursor).json()
        items = feed["items"]
        tombstones = {i["passage_version_id"]: i for i in items if i["type"] == "tombstone"}
        upserts = {i["section_heading"]: i for i in items if i["type"] == "passage"}
        old_express = by_heading["Express delivery"]["passage_version_id"]
        assert tombstones[old_express]["reason"] == "superseded"
        assert tombstones[old_express]["replacement_passage_version_id"] == upserts["Express delivery"]["passage_version_id"]
        assert "£5.95" in upserts["Express delivery"]["text"]
        assert tombstones[by_heading["Collection"]["passage_version_id"]]["reason"] == "removed_from_page"
        assert "Returns" in upserts
        assert by_heading["Standard delivery"]["passage_version_id"] not in tombstones, "unchanged text is not reported"
        cursor = feed["sync_cursor"]

        # block the Returns passage, then lift the block
        returns = upserts["Returns"]
        block = api.post("/blocks", {"target": "passage_version", "passage_version_id": returns["passage_version_id"], "reason": "wrong"})
        assert block.status_code == 201
        feed = api.get("/passages", changed_since=cursor).json()
        assert feed["items"] == [{"type": "tombstone", "passage_version_id": returns["passage_version_id"], "passage_id": returns["passage_id"],
                                  "reason": "blocked", "replacement_passage_version_id": None}]
        cursor = feed["sync_cursor"]
        approver_api = Api(client=client, token=make_token(service_user("approverbot", "Approver"), ["block"]))
        assert approver_api.post(f"/blocks/{block.json()['block_id']}/lift", {"reason": "fixed"}).status_code == 200
        feed = api.get("/passages", changed_since=cursor).json()
        assert [(i["type"], i["passage_version_id"]) for i in feed["items"]] == [("passage", returns["passage_version_id"])]

        # a time works as well as a cursor, and an empty feed keeps the cursor
        later = api.get("/passages", changed_since=feed["sync_cursor"]).json()
        assert later["items"] == [] and later["sync_cursor"] == feed["sync_cursor"]

        # the page disappears: its evidence is suspended and every passage leaves the export
        del site.pages["/delivery"]
        source_refetch(actor=editor, source_id=source.pk)
        run_jobs()
        feed = api.get("/passages", changed_since=later["sync_cursor"]).json()
        reasons = {i["passage_version_id"]: i["reason"] for i in feed["items"] if i["type"] == "tombstone"}
        exported = {i["passage_version_id"] for i in api.get("/passages").json()["items"] if i["source_id"] == source.pk}
        assert exported == set() and reasons and set(reasons.values()) == {"source_suspended"}
