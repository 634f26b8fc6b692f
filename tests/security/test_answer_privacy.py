"""What an integration reads about answers (issue 21, holes 4, 5 and 8): only its own answers
(another integration's ids answer 404), never a blocked passage's text or span nor the block's
internal reason, and an Idempotency-Key that is its own and refuses a different body."""

from __future__ import annotations

import json
from typing import Any

import pytest

from claims.models import Answer
from integrations import throttle
from reviews.services import block_apply
from sources.models import PassageVersion
from tests.integrations.conftest import Api, build_source, error_of, make_token, service_user

pytestmark = pytest.mark.django_db

SECRET_TEXT = "costs £4.95 when ordered before noon"
REASON = "legal hold 7731: do not show"


@pytest.fixture
def evidence(db: None) -> Any:
    _, _ = build_source(url="https://shop.example.com/delivery", title="Delivery terms", passages=[
        ("Express delivery", "express", f"Express delivery takes 1 to 2 working days and {SECRET_TEXT}."),
    ])

    return PassageVersion.objects.get()


@pytest.fixture
def bots(client: Any, redis_conn: Any) -> tuple[Api, Api]:
    """Two integrations, each with its own service user (both Editors, read_evidence on)."""
    throttle._paused_until = 0.0
    a = Api(client=client, token=make_token(service_user("bot-a", "Editor")))
    b = Api(client=client, token=make_token(service_user("bot-b", "Editor")))
    return a, b


def _submit(api: Api, pv: Any, **headers: str) -> Any:
    return api.post("/answers", {"question": "How much is express delivery?", "answer": "Express delivery takes 1 to 2 working days [1].",
                                 "passage_version_ids": [pv.pk]}, headers=headers or None)


def test_an_integration_cannot_read_trace_or_enumerate_another_integrations_answers(bots: tuple[Api, Api], evidence: Any, run_jobs: Any) -> None:
    a, b = bots
    answer_id = _submit(a, evidence).json()["answer_id"]
    run_jobs()
    assert a.get(f"/answers/{answer_id}").status_code == 200
    for path in (f"/answers/{answer_id}", f"/answers/{answer_id}/trace"):
        response = b.get(path)
        assert response.status_code == 404, (path, response.content)
        assert "How much is express" not in response.content.decode()
    # The 404 of a foreign id is the 404 of an id that does not exist: ids reveal nothing.
    assert error_of(b.get(f"/answers/{answer_id}"))["message"].replace(str(answer_id), "N") == \
        error_of(b.get(f"/answers/{answer_id + 1000}"))["message"].replace(str(answer_id + 1000), "N")


def test_a_desk_viewer_still_sees_every_answer(bots: tuple[Api, Api], evidence: Any, client: Any, viewer: Any) -> None:
    a, _ = bots
    answer_id = _submit(a, evidence).json()["answer_id"]
    client.force_login(viewer)
    assert client.get(f"/api/v1/answers/{answer_id}/trace").status_code == 200


def test_blocked_text_span_and_reason_never_leave_through_the_api(bots: tuple[Api, Api], evidence: Any, run_jobs: Any) -> None:
    a, _ = bots
    answer_id = _submit(a, evidence).json()["answer_id"]
    run_jobs()
    before = a.get(f"/answers/{answer_id}/trace").json()
    assert SECRET_TEXT in before["claims"][0]["evidence"][0]["passage_version"]["text"], "before the block the trace shows the passage"
    block_apply(actor=None, target="passage", reason=REASON, passage_version_id=evidence.pk)
    run_jobs()
    trace = a.get(f"/answers/{answer_id}/trace")
    detail = a.get(f"/answers/{answer_id}")
    check = a.post("/check-citations", {"sources": [evidence.pk], "answer": "Express delivery takes 1 to 2 working days [1]."})
    for response in (trace, detail, check):
        assert response.status_code == 200, response.content
        text = json.dumps(response.json(), ensure_ascii=False)
        assert SECRET_TEXT not in text
        assert "7731" not in text, "the block's internal reason is for desk users only"
    [entry] = trace.json()["claims"][0]["evidence"]
    shown = entry["passage_version"]
    assert shown["id"] == evidence.pk and shown["passage_id"] == evidence.passage_id and shown["blocked"] is True
    assert not shown.get("text") and not shown.get("span")
    assert all(not j.get("span") for j in entry["judgements"])


def test_idempotency_keys_are_per_integration_and_a_different_body_is_a_422(bots: tuple[Api, Api], evidence: Any) -> None:
    a, b = bots
    first = _submit(a, evidence, **{"Idempotency-Key": "order-1"}).json()
    other = _submit(b, evidence, **{"Idempotency-Key": "order-1"})
    assert other.status_code == 202 and other.json()["answer_id"] != first["answer_id"], "bot B's key is its own"
    assert other.json()["idempotent_replay"] is False
    changed = a.post("/answers", {"answer": "Something else entirely [1].", "passage_version_ids": [evidence.pk]},
                     headers={"Idempotency-Key": "order-1"})
    assert changed.status_code == 422, changed.content
    assert error_of(changed)["field"] == "Idempotency-Key" and "Idempotency-Key" in error_of(changed)["message"]
    assert Answer.objects.count() == 2
    again = _submit(a, evidence, **{"Idempotency-Key": "order-1"}).json()
    assert again["answer_id"] == first["answer_id"] and again["idempotent_replay"] is True


def test_block_reasons_are_not_shown_to_other_integrations(bots: tuple[Api, Api], evidence: Any) -> None:
    a, b = bots
    block_apply(actor=None, target="source", reason=REASON, source_id=evidence.passage.source_id)
    for response in (b.get("/blocks"), b.get(f"/sources/{evidence.passage.source_id}")):
        assert response.status_code == 200, response.content
        assert "7731" not in response.content.decode()
    assert b.get("/blocks").json()[0]["source_id"] == evidence.passage.source_id
