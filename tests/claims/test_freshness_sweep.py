"""A passage passing its freshness window is a move of evidence with nothing else moving: the
answer resting on it is verified again at that moment (the sweeper), turns `outdated` and reaches
the queue; once a check confirms the page again, the next sweep makes it `supported` again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db.models import F
from django.utils import timezone

from claims.models import Answer, AnswerState
from claims.services import answer_submit, answers_freshness_sweep
from reviews.selectors.queue import answers_needing_a_person
from sources.models import CheckTimes, PassageVersion, SourceVersion
from sources.services import source_refetch, source_register, version_activate

pytestmark = pytest.mark.django_db(transaction=True)


def _time_passes(*, source_id: int, answer_id: int, by: timedelta) -> None:
    """Move every stored moment that matters here back by `by`: the same as the clock moving on."""
    CheckTimes.objects.filter(source_id=source_id).update(last_ok_at=F("last_ok_at") - by, last_checked_at=F("last_checked_at") - by)
    Answer.objects.filter(pk=answer_id).update(fresh_until=F("fresh_until") - by, verified_at=F("verified_at") - by)


def test_an_answer_is_verified_again_when_its_evidence_passes_the_freshness_window(shop, editor, approver, run_jobs, capsys):
    source = source_register(actor=editor, url=shop.url("/prices"), priority="primary")
    run_jobs()
    version_activate(actor=approver, version_id=SourceVersion.objects.get(source=source).pk, reason="prices checked")
    run_jobs()
    tent = PassageVersion.objects.get(memberships__source_version__source=source, text__contains="Ridge 2")
    answer = answer_submit(actor=editor, raw_response="The Ridge 2 tent costs £149 [1].", passage_version_ids=[tent.pk])
    run_jobs()
    given = Answer.objects.get(pk=answer.pk)
    assert given.state == AnswerState.SUPPORTED
    window = settings.CITECHECK_FRESHNESS_DAYS[source.risk_level]
    last_ok = CheckTimes.objects.get(source=source).last_ok_at
    assert given.fresh_until == last_ok + timedelta(days=window + 1), "the deadline is when the passage's age goes over the window"
    assert answers_freshness_sweep() == 0, "nothing is due before the deadline"

    _time_passes(source_id=source.pk, answer_id=answer.pk, by=timedelta(days=window + 2))
    assert answers_freshness_sweep() == 1
    assert answers_freshness_sweep() == 0, "one request per deadline, even with two schedulers"
    run_jobs()
    stale = Answer.objects.get(pk=answer.pk)
    assert stale.state == AnswerState.OUTDATED, (stale.state, stale.state_wording)
    assert f"over the {window}-day window" in str(stale.report["claims"][0])
    assert stale.report["changes"][0]["reason"] == "evidence passed its freshness window"
    assert answers_needing_a_person().filter(pk=answer.pk).exists(), "an outdated answer is in the review queue"
    next_check = CheckTimes.objects.get(source=source).next_check_at
    assert stale.fresh_until is not None and stale.fresh_until >= max(next_check, timezone.now() - timedelta(minutes=1)), (
        "a lapsed passage is looked at again after the source's next check, which can confirm the page")

    # The page is checked again and still says the same: once the deadline comes, the answer is current again.
    source_refetch(actor=editor, source_id=source.pk)
    run_jobs()
    Answer.objects.filter(pk=answer.pk).update(fresh_until=timezone.now() - timedelta(seconds=1))
    call_command("run_due_checks")
    assert "queued 1 answer verification(s)" in capsys.readouterr().out
    run_jobs()
    assert Answer.objects.get(pk=answer.pk).state == AnswerState.SUPPORTED
