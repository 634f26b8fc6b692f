"""Tokens created in the admin (shown once, stored hashed) and revoked there; a crash under /api/
answers JSON; the judge budget per answer."""

from __future__ import annotations

import json
import re

import pytest

from claims.models import Answer
from integrations.api.errors import ApiErrorMiddleware
from integrations.models import ApiToken, Integration
from integrations.services.tokens import token_hash
from reviews.models import AuditLog
from tests.integrations.conftest import error_of, service_user

pytestmark = pytest.mark.django_db


def test_a_superuser_creates_a_token_in_the_admin_sees_it_once_and_revokes_it(client, superuser, registry):
    integration = Integration.objects.create(name="shop-bot", user=service_user("shopbot", "Viewer"))
    client.force_login(superuser)
    page = client.post("/admin/integrations/apitoken/add/", {"integration": integration.pk, "name": "prod", "scopes": ["read_evidence"]}, follow=True)
    raw = re.search(r"cc_[0-9a-f]{8}_[A-Za-z0-9_-]+", page.content.decode()).group(0)
    token = ApiToken.objects.get()
    assert token.secret_hash == token_hash(raw) and raw not in str(ApiToken.objects.values_list())
    assert raw.startswith(f"cc_{token.prefix}_")
    assert AuditLog.objects.filter(action="token_create").exists()
    client.logout()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {raw}"}
    assert client.get("/api/v1/passages", **auth).status_code == 200
    client.force_login(superuser)
    client.post("/admin/integrations/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})
    client.logout()
    assert client.get("/api/v1/passages", **auth).status_code == 401
    assert AuditLog.objects.filter(action="token_revoke").exists()


def test_a_crash_under_api_answers_json_in_the_api_format(rf):
    def crash(request):
        raise RuntimeError("boom")

    middleware = ApiErrorMiddleware(crash)
    request = rf.get("/api/v1/anything")

    response = middleware.process_exception(request, RuntimeError("boom"))
    assert response.status_code == 500 and json.loads(response.content)["error"]["code"] == "server_error"
    assert middleware.process_exception(rf.get("/admin/"), RuntimeError("boom")) is None


def test_the_judge_budget_per_answer_is_bounded(api, registry, settings):
    settings.CITECHECK_ANSWER_MAX_JUDGEMENTS = 4
    ids = [pv.pk for pv in registry.pvs()]
    text = "Express delivery takes 1 to 2 working days. Standard delivery takes 3 to 5 working days."
    response = api.post("/answers", {"answer": text, "passage_version_ids": ids})  # 2 claims x 3 passages, no markers
    assert response.status_code == 400 and "pairs" in error_of(response)["message"]
    marked = "Express delivery takes 1 to 2 working days [1]. Standard delivery takes 3 to 5 working days [2]."
    assert api.post("/answers", {"answer": marked, "passage_version_ids": ids}).status_code == 202
    assert Answer.objects.count() == 1
