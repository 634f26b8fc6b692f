"""An answer sent while the job queue is away says its verification is delayed (issue 20,
item 8), in the API's answer and on its desk page, instead of a bare `pending`."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.desk.kb import build_kb
from tests.faults.services import HungServer
from tests.integrations.conftest import make_token

pytestmark = pytest.mark.django_db(transaction=True)

DELAYED = "Verification is delayed: the job queue is not reachable"


def test_an_answer_sent_while_redis_is_down_says_verification_is_delayed(client, editor, superuser):
    kb = build_kb(editor)
    ids = [kb.pvs["Price list > Tents"].pk]
    server = HungServer()
    try:
        with override_settings(REDIS_URL=server.url):
            auth = "Bearer " + make_token(editor)
            created = client.post("/api/v1/answers", json.dumps({"answer": "The Ridge 2 tent costs £149 [1].", "passage_version_ids": ids}),
                                  content_type="application/json", HTTP_AUTHORIZATION=auth)
            assert created.status_code == 202, created.content
            body = created.json()
            assert body["state"] == "pending"
            assert body["work"]["state"] == "delayed" and DELAYED in body["work"]["message"]
            detail = client.get(f"/api/v1/answers/{body['answer_id']}", HTTP_AUTHORIZATION=auth).json()
            assert detail["work"]["state"] == "delayed" and DELAYED in detail["work"]["message"]
            client.force_login(superuser)
            page = client.get(reverse("admin:desk-trace", args=[body["answer_id"]])).content.decode()
            assert DELAYED in page
            # An answer whose verification reached the queue says nothing of the kind.
            assert DELAYED not in client.get(reverse("admin:desk-trace", args=[kb.answer.pk])).content.decode()
    finally:
        server.close()
