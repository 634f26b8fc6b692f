"""Degraded mode both ways: block with a preview, lift through block_lift, restore exactly."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from citecheck.errors import IllegalTransition, InvalidInput, PermissionRefused
from claims.services import answer_verify
from reviews.models import AuditLog, BlockSwitch
from reviews.services import block_apply, block_lift, site_switch_set
from sources.models import DomainPolicy, Passage, PassageVersion, Source
from sources.selectors import export_passages, passage_usability
from tests.desk.kb import build_kb

pytestmark = pytest.mark.django_db


def _snapshot(kb) -> tuple:
    """What the bot and the checks see: the export, each cited passage's usability, the claim states."""
    exported = sorted(export_passages().values_list("pk", flat=True))
    usable = {pv.pk: passage_usability(PassageVersion.objects.select_related("passage__source").get(pk=pv.pk)) for pv in kb.pvs.values()}
    report = answer_verify(answer_id=kb.answer.pk).report
    claims = [(c["state"], sorted(e["passage_id"] for e in c["supporting"] if e["status"] == "supported")) for c in report["claims"]]
    stages = dict(Source.objects.values_list("pk", "stage"))
    return exported, usable, claims, stages


TARGETS = {
    "source": lambda kb: {"target": "source", "source_id": kb.prices.pk},
    "domain": lambda kb: {"target": "domain", "domain": "example.net"},
    "passage": lambda kb: {"target": "passage", "passage_version_id": kb.pvs["Price list > Tents"].pk},
}


@pytest.mark.parametrize("kind", sorted(TARGETS))
def test_block_then_lift_restores_export_and_checks_exactly(kind, editor, approver):
    kb = build_kb(editor)
    before = _snapshot(kb)
    assert len(before[0]) == 3 and set(before[1].values()) == {"active"}

    switch, affected = block_apply(actor=editor, reason="wrong figures published", **TARGETS[kind](kb))
    assert affected == [kb.answer.pk], "the answer that cited the blocked evidence is listed"
    during = _snapshot(kb)
    gone = set(before[0]) - set(during[0])
    assert gone, "blocked evidence leaves the export at once"
    assert {during[1][pk] for pk in gone} == {"blocked"}
    assert during[2] != before[2], "answer verification no longer accepts the blocked evidence"

    block_lift(actor=approver, switch_id=switch.pk, reason="figures corrected")
    assert _snapshot(kb) == before, "lifting restores exactly what the block took away"
    lift = AuditLog.objects.get(action="block_lift", object_id=str(switch.pk))
    assert (lift.actor_name, lift.reason, lift.to_state) == ("approver", "figures corrected", "lifted")


def test_a_passage_version_id_blocks_its_own_passage_and_the_screen_names_it(client, editor):
    kb = build_kb(editor)
    tents = kb.pvs["Price list > Tents"]
    # A second text of the stove passage, so passage ids and passage-version ids no longer line up.
    stoves = kb.pvs["Price list > Stoves"]
    PassageVersion.objects.create(passage=stoves.passage, text="The Ember stove costs £65.", fingerprint="f" * 64, first_version=stoves.first_version,
                                  change_kind="changed", first_seen_at=stoves.first_seen_at, last_seen_at=stoves.last_seen_at)
    client.force_login(editor)
    preview = client.get(reverse("admin:desk-block"), {"target": "passage", "passage_version_id": tents.pk})
    text = preview.content.decode()
    assert "You are about to block the passage “Price list &gt; Tents” of Price list" in text
    assert "Stoves" not in text
    response = client.post(reverse("admin:desk-block"), {"target": "passage", "passage_version_id": tents.pk, "reason": "price under review", "confirm": "yes"})
    assert response.status_code == 302
    switch = BlockSwitch.objects.get()
    assert switch.passage_id == tents.passage_id
    assert Passage.objects.get(pk=tents.passage_id).is_blocked
    assert not Passage.objects.get(pk=stoves.passage_id).is_blocked
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert "Unblock the passage" not in page, "unblocking is for approvers"
    with pytest.raises(InvalidInput, match="belongs to passage"):
        block_apply(actor=editor, target="passage", passage_id=stoves.passage_id, passage_version_id=tents.pk, reason="x")


def test_the_preview_shows_what_a_block_affects_and_changes_nothing(client, editor):
    kb = build_kb(editor)
    client.force_login(editor)
    response = client.post(reverse("admin:desk-block"), {"target": "source", "source_id": kb.prices.pk, "reason": ""})
    text = response.content.decode()
    assert "You are about to block the source Price list" in text
    assert "<strong>2</strong> passage(s), of which <strong>2</strong> leave the export" in text
    assert "<strong>1</strong> answer(s)" in text and "<strong>1</strong> golden test pair(s)" in text
    assert not BlockSwitch.objects.exists() and export_passages().count() == 3
    refused = client.post(reverse("admin:desk-block"), {"target": "source", "source_id": kb.prices.pk, "reason": " ", "confirm": "yes"})
    assert "A block needs a reason." in refused.content.decode()
    assert not BlockSwitch.objects.exists()


def test_switches_cannot_be_deleted_and_a_blocked_domain_policy_neither(client, editor, superuser):
    kb = build_kb(editor)
    switch, _ = block_apply(actor=editor, target="domain", domain="delivery.example.net", reason="incident")
    client.force_login(superuser)
    assert client.get(reverse("admin:reviews_blockswitch_delete", args=[switch.pk])).status_code == 403
    assert client.post(reverse("admin:reviews_blockswitch_delete", args=[switch.pk]), {"post": "yes"}).status_code == 403
    listing = client.get(reverse("admin:reviews_blockswitch_changelist")).content.decode()
    assert "delete_selected" not in listing and "Lift this block" in listing
    policy = DomainPolicy.objects.get(domain="example.net")
    assert client.post(reverse("admin:sources_domainpolicy_delete", args=[policy.pk]), {"post": "yes"}).status_code == 403
    assert BlockSwitch.objects.filter(pk=switch.pk, lifted_at__isnull=True).exists()
    assert DomainPolicy.objects.get(pk=policy.pk).is_blocked
    assert kb.delivery.pk not in {pv.passage.source_id for pv in export_passages()}


def test_sources_on_a_blocked_domain_show_as_blocked(client, editor):
    kb = build_kb(editor)
    block_apply(actor=editor, target="domain", domain="example.net", reason="domain compromised")
    client.force_login(editor)
    listing = client.get(reverse("admin:sources_source_changelist")).content.decode()
    assert "✖ blocked (domain)" in listing
    page = client.get(reverse("admin:desk-source", args=[kb.delivery.pk])).content.decode()
    assert "blocked (its domain is blocked)" in page and "domain compromised" in page


def test_lifting_needs_an_approver_a_reason_and_happens_once(editor, approver, approver2):
    kb = build_kb(editor)
    switch, _ = block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="wrong prices")
    with pytest.raises(PermissionRefused, match="the Approver role"):
        block_lift(actor=editor, switch_id=switch.pk, reason="fixed")
    with pytest.raises(InvalidInput):
        block_lift(actor=approver, switch_id=switch.pk, reason="  ")
    block_lift(actor=approver, switch_id=switch.pk, reason="fixed")
    with pytest.raises(IllegalTransition, match="already lifted by approver"):
        block_lift(actor=approver2, switch_id=switch.pk, reason="again")
    assert AuditLog.objects.filter(action="block_lift", allowed=False, actor_name="editor").exists()


def test_unblock_from_the_incidents_page(client, editor, approver):
    kb = build_kb(editor)
    switch, _ = block_apply(actor=editor, target="source", source_id=kb.prices.pk, reason="wrong prices")
    client.force_login(editor)
    page = client.get(reverse("admin:desk-incidents")).content.decode()
    assert "Source Price list" in page and "wrong prices" in page and f"answer {kb.answer.pk}" in page
    assert "an Approver can unblock" in page
    client.force_login(approver)
    assert "Unblock Source Price list" in client.get(reverse("admin:desk-incidents")).content.decode()
    response = client.post(reverse("admin:desk-block-lift", args=[switch.pk]), {"reason": "prices corrected"}, follow=True)
    text = response.content.decode()
    assert "Unblocked: Source Price list" in text
    assert "nothing is blocked" in text and "prices corrected" in text, "the lifted block moves to the history"


def test_incident_switch_banner_on_every_page(client, editor, approver):
    client.force_login(editor)
    assert "Incident mode" not in client.get(reverse("admin:index")).content.decode()
    site_switch_set(actor=approver, pause_activations=True, reason="bad import under investigation")
    for url in (reverse("admin:index"), reverse("admin:sources_source_changelist"), reverse("link-health"), reverse("admin:desk-incidents")):
        text = client.get(url).content.decode()
        assert "Incident mode:" in text and "activations are paused" in text and "bad import under investigation" in text, url
    client.force_login(approver)
    response = client.post(reverse("admin:desk-switches"), {"reason": "over", "pause_activations": "", "primary_only": ""}, follow=True)
    assert "Incident switches saved: activations are allowed" in response.content.decode()
    assert "Incident mode:" not in client.get(reverse("admin:index")).content.decode()


def test_approvers_unblock_a_passage_from_the_source_page(client, editor, approver):
    kb = build_kb(editor)
    tents = kb.pvs["Price list > Tents"]
    switch, _ = block_apply(actor=editor, target="passage", passage_id=tents.passage_id, reason="price under review")
    client.force_login(approver)
    page = client.get(reverse("admin:desk-source", args=[kb.prices.pk])).content.decode()
    assert f'href="{reverse("admin:desk-block-lift", args=[switch.pk])}">Unblock the passage “Price list &gt; Tents”' in page


def test_incidents_page_queries_do_not_grow_with_blocks(client, editor, approver, django_assert_max_num_queries):
    kb = build_kb(editor)
    client.force_login(editor)
    p = {h.split(" > ")[-1]: pv.passage_id for h, pv in kb.pvs.items()}
    batches = [
        [{"target": "passage", "passage_id": p["Tents"]}, {"target": "passage", "passage_id": p["Stoves"]},
         {"target": "source", "source_id": kb.delivery.pk}, {"target": "domain", "domain": "example.org"}],
        [{"target": "passage", "passage_id": p["Express delivery"]}, {"target": "source", "source_id": kb.prices.pk},
         {"target": "domain", "domain": "example.net"}, {"target": "passage", "passage_id": p["Tents"]}],
    ]
    used = []
    for batch in batches:
        switches = [block_apply(actor=editor, reason="incident", **target)[0] for target in batch]
        block_lift(actor=approver, switch_id=switches[0].pk, reason="over")
        client.get(reverse("admin:desk-incidents"))
        with django_assert_max_num_queries(20), CaptureQueriesContext(connection) as ctx:
            text = client.get(reverse("admin:desk-incidents")).content.decode()
        used.append(len(ctx.captured_queries))
    assert "Blocked now (6)" in text
    assert used[0] == used[1], f"queries grew with the blocks: {used}"
