"""The demo knowledge base loads idempotently."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from claims.models import Answer, Claim
from dispatch.models import WorkRequest
from reviews.models import TestPair
from reviews.roles import roles_sync
from sources.demo.loader import DEMO_HOST, DEMO_QUESTION, demo_answer, demo_load, demo_test_pairs, demo_user
from sources.demo.site import serve
from sources.models import DomainPolicy, Source, SourceVersion
from sources.services import version_activate

pytestmark = pytest.mark.django_db


def test_demo_loads_twice_without_duplicates(redis_conn):
    call_command("load_demo", "--port", "8765")
    counts = (Source.objects.count(), DomainPolicy.objects.count(), WorkRequest.objects.count(), TestPair.objects.count())
    assert counts[0] == 7
    call_command("load_demo", "--port", "8765")
    assert (Source.objects.count(), DomainPolicy.objects.count(), WorkRequest.objects.count(), TestPair.objects.count()) == counts
    assert set(Source.objects.values_list("stage", flat=True)) == {"registered"}


@pytest.mark.django_db(transaction=True)
def test_the_demo_answer_waits_for_approval_then_shows_the_wrong_price(redis_conn, run_jobs, settings):
    """An editor's day without a shell: the demo brings a chatbot answer; once an approver
    activates the cited pages it is verified again by itself, and the wrong price is caught."""

    roles_sync()  # the groups a migration makes (a transactional test starts from an emptied database)
    server, _shop = serve(DEMO_HOST, 0)
    port = server.server_address[1]
    settings.CITECHECK_FETCH_ALLOW_NETWORKS = [f"{DEMO_HOST}/32"]
    settings.CITECHECK_JUDGE = "builtin"
    try:
        demo_load(port=port)
        assert not demo_answer(port=port), "no answer before its passages exist"
        run_jobs()
        assert demo_test_pairs(port=port) == 4
        assert demo_answer(port=port) and not demo_answer(port=port), "submitted once"
        run_jobs()
        answer = Answer.objects.get(question=DEMO_QUESTION)
        assert answer.state == "pending", "nothing is approved yet: verification waits, it is not outdated"
        assert "not approved yet (waiting for an approver)" in str(answer.report), "and the report says why"
        assert set(Claim.objects.filter(answer=answer).values_list("state", flat=True)) == {"unavailable"}
        approver = demo_user("demo-approver", "Approver")
        run_jobs()  # golden pairs
        for path in ("/delivery", "/returns"):
            version = SourceVersion.objects.get(source__canonical_url__endswith=path)
            version_activate(actor=approver, version_id=version.pk)
            if path == "/delivery":  # high risk: two approvers
                version_activate(actor=demo_user("demo-approver-2", "Approver"), version_id=version.pk)
        run_jobs()
        states = dict(Claim.objects.filter(answer__question=DEMO_QUESTION).values_list("text", "state"))
        assert states["Express delivery costs £4.95."] == "contradicted", states
        assert states["Express delivery takes 1 to 2 working days."] == "supported", states
        answer.refresh_from_db()
        assert answer.state == "conflicting" or answer.state == "contradicted", answer.state
    finally:
        server.shutdown()
        server.server_close()
