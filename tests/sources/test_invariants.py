"""Model invariants and the stage machine: refusals are clear and write nothing."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from citecheck.errors import Conflict, IllegalTransition, PermissionRefused
from claims.models import Judgement
from reviews.models import AuditLog
from reviews.services import block_apply, block_lift
from sources.models import ChangeKind, Passage, PassageVersion, Source, SourceVersion, Stage
from sources.services import source_register, source_transition

pytestmark = pytest.mark.django_db


def _source(editor, path="/a") -> Source:
    return source_register(actor=editor, url=f"https://example.org{path}", fetch=False)


def _version(source: Source, number: int = 1) -> SourceVersion:
    return SourceVersion.objects.create(source=source, number=number, content_hash=f"h{number}", body_compressed=SourceVersion.compress(b"x"))


def _passage_version(source: Source, version: SourceVersion) -> PassageVersion:
    passage = Passage.objects.create(source=source, key="k#0", heading_path="A")
    now = timezone.now()
    return PassageVersion.objects.create(passage=passage, text="Delivery takes 3 days.", fingerprint="f" * 64, first_version=version, change_kind=ChangeKind.ADDED, first_seen_at=now, last_seen_at=now)


def test_passage_versions_cannot_be_rewritten(editor):
    source = _source(editor)
    pv = _passage_version(source, _version(source))
    pv.text = "Delivery takes 30 days."
    with pytest.raises(ValueError, match="immutable"):
        pv.save()
    with pytest.raises(ValueError, match="immutable"):
        PassageVersion.objects.filter(pk=pv.pk).update(text="changed")
    assert PassageVersion.objects.get(pk=pv.pk).text == "Delivery takes 3 days."


def test_only_one_active_version_per_source(editor):
    source = _source(editor)
    v1, v2 = _version(source, 1), _version(source, 2)
    SourceVersion.objects.filter(pk=v1.pk).update(is_active=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        SourceVersion.objects.filter(pk=v2.pk).update(is_active=True)


def test_the_same_question_is_judged_once_per_judge_model_and_prompt(editor):
    source = _source(editor)
    pv = _passage_version(source, _version(source))
    key = {"claim_text_hash": "c" * 64, "passage_fingerprint": pv.fingerprint, "judge": "builtin", "model": "", "prompt_version": "1"}
    Judgement.objects.create(**key, claim_text="x", passage_version=pv, status="supported")
    with pytest.raises(IntegrityError), transaction.atomic():
        Judgement.objects.create(**key, claim_text="x", passage_version=pv, status="unsupported")
    Judgement.objects.create(**{**key, "prompt_version": "2"}, claim_text="x", passage_version=pv, status="unsupported")
    assert Judgement.objects.count() == 2


def test_illegal_stage_transition_is_refused_and_writes_nothing(editor):
    source = _source(editor)
    before = AuditLog.objects.count()
    with pytest.raises(IllegalTransition, match="registered; it cannot go to active"):
        with transaction.atomic():
            source_transition(source=source, to=Stage.ACTIVE, actor=editor)
    assert Source.objects.get(pk=source.pk).stage == Stage.REGISTERED
    assert AuditLog.objects.count() == before


def test_legal_transition_is_audited(editor):
    source = _source(editor)
    with transaction.atomic():
        source_transition(source=source, to=Stage.FETCHED, actor=None, reason="first fetch")
    row = AuditLog.objects.filter(action="stage_change").get()
    assert (row.from_state, row.to_state, row.actor_name) == ("registered", "fetched", "system")


def test_viewer_cannot_register_and_the_refusal_is_audited(viewer):
    with pytest.raises(PermissionRefused, match="needs the Editor role"):
        source_register(actor=viewer, url="https://example.org/x", fetch=False)
    assert not Source.objects.exists()
    refusal = AuditLog.objects.get(allowed=False)
    assert (refusal.actor_name, refusal.action) == ("viewer", "source_register")


def test_block_and_unblock_a_source(editor, approver):
    source = _source(editor)
    switch, affected = block_apply(actor=editor, target="source", source_id=source.pk, reason="wrong prices published")
    source.refresh_from_db()
    assert source.is_blocked and source.stage == Stage.BLOCKED and affected == []
    with pytest.raises(PermissionRefused):
        block_lift(actor=editor, switch_id=switch.pk, reason="fixed")  # unblocking is for approvers
    block_lift(actor=approver, switch_id=switch.pk, reason="fixed")
    source.refresh_from_db()
    assert not source.is_blocked and source.stage == Stage.REGISTERED


def test_duplicate_registration_points_at_the_existing_source(editor):
    first = source_register(actor=editor, url="https://Example.org/a?utm_source=x#top", fetch=False)
    with pytest.raises(Conflict, match=f"source {first.pk}"):
        source_register(actor=editor, url="https://example.org:443/a", fetch=False)
