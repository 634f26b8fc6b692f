"""POST /api/v1/answers makes a fixed number of queries whatever the number of claims and
citations, and its outbox costs one INSERT with the answer and one UPDATE when it is sent."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dispatch.models import WorkRequest, WorkStatus
from tests.integrations.conftest import build_source

# Committed for real: the outbox row is sent after commit, before the response is built.
pytestmark = pytest.mark.django_db(transaction=True)
TRANSACTION = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")


def _body(ids: list[int]) -> dict[str, Any]:
    text = " ".join(f"Section {k} says delivery takes {k} working days [{k}]." for k in range(1, len(ids) + 1))
    return {"question": "How long?", "answer": text, "passage_version_ids": ids}


def _post(api: Any, body: dict[str, Any], key: str) -> tuple[Any, list[str]]:
    """The request and the statements it sent (the post-commit outbox send included), less the
    transaction's own BEGIN and COMMIT; a savepoint would be a round trip of its own."""
    with CaptureQueriesContext(connection) as ctx:
        response = api.post("/answers", body, headers={"Idempotency-Key": key})
    assert response.status_code == 202, response.content
    sql = [q["sql"] for q in ctx.captured_queries]
    assert not [s for s in sql if s.startswith(("SAVEPOINT", "RELEASE"))], sql
    return response, [s for s in sql if not s.startswith(TRANSACTION)]


def test_query_count_does_not_grow_with_citations(api, registry, ):
    build_source(url="https://shop.example.com/more", title="More", passages=[(f"S{k}", f"s{k}", f"Section {k} text.") for k in range(5)])
    ids = [pv.pk for pv in registry.pvs()]
    _post(api, _body(ids[:1]), "warm-up")  # the token's last use is recorded once a minute

    one, one_sql = _post(api, _body(ids[:1]), "one")
    five, five_sql = _post(api, _body(ids[:5]), "five")

    assert len(one.json()["passages"]) == 1 and len(five.json()["passages"]) == 5
    assert len(five_sql) == len(one_sql), "\n".join(five_sql)
    # token; domain rules; the cited passage versions with their states; the answer, claims,
    # citations, audit row, outbox row, ownership and key; the outbox row claimed as sent.
    assert len(five_sql) == 11, "\n".join(five_sql)
    outbox = [sql for sql in five_sql if "dispatch_workrequest" in sql]
    assert [sql.split()[0] for sql in outbox] == ["INSERT", "UPDATE"], outbox


def test_the_response_says_queued_as_the_outbox_row_does(api, registry, ):
    ids = [pv.pk for pv in registry.pvs()]
    response, _ = _post(api, _body(ids[:2]), "k")
    work = response.json()["work"]
    row = WorkRequest.objects.get(pk=work["work_request_id"])
    assert row.status == WorkStatus.QUEUED and row.send_attempts == 1 and row.enqueued_at is not None
    assert work["state"] == "queued" and work["updated_at"] == row.enqueued_at.isoformat()
    assert row.kwargs == {"answer_id": response.json()["answer_id"]}
