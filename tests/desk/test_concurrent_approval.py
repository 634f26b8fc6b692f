"""Two approvers acting on the same version at once: exactly one decision wins, the other is
told why, nothing is half-applied. Needs PostgreSQL (row locks); SQLite serialises writers."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction

from citecheck.errors import ServiceError
from reviews.models import Approval, AuditLog
from sources.models import SourceVersion
from sources.services import version_activate
from tests.desk.kb import build_kb, candidate

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_approvers_at_once_exactly_one_wins(editor, approver, approver2):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL: run with DATABASE_URL=postgres://… (CI does)")
    kb = build_kb(editor)
    v2 = candidate(kb.prices)
    outcomes: dict[str, str] = {}
    holding = threading.Event()
    release = threading.Event()

    def hold_the_row() -> None:
        # Lock the version so both approvers queue up on it, then let them race.
        with transaction.atomic():
            SourceVersion.objects.select_for_update().get(pk=v2.pk)
            holding.set()
            release.wait(10)
        connections.close_all()

    def approve(user) -> None:
        try:
            version_activate(actor=user, version_id=v2.pk, reason=f"approved by {user.username}")
            outcomes[user.username] = "won"
        except ServiceError as exc:
            outcomes[user.username] = exc.message
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_row)
    holder.start()
    assert holding.wait(10)
    racers = [threading.Thread(target=approve, args=(u,)) for u in (approver, approver2)]
    for t in racers:
        t.start()
    time.sleep(0.5)  # both are now waiting on the row lock
    release.set()
    for t in [holder, *racers]:
        t.join(20)

    winners = [name for name, outcome in outcomes.items() if outcome == "won"]
    assert len(winners) == 1, outcomes
    loser = ({"approver", "approver2"} - set(winners)).pop()
    assert f"was already activated by {winners[0]}; nothing was changed" in outcomes[loser]
    assert SourceVersion.objects.get(pk=v2.pk).is_active
    assert list(Approval.objects.filter(source_version=v2).values_list("approver__username", flat=True)) == winners
    assert AuditLog.objects.filter(action="version_activate", object_id=str(v2.pk)).count() == 1
