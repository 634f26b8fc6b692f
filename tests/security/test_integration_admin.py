"""Integrations are audited, checked objects (issue 21, holes 7 and 8): the admin changes them
only through services that write an audit row with from/to (never the secret); a webhook URL is
judged by the fetch guard when it is saved; the secret is generated, shown once and never again;
the service user is picked by name. Also: a wording template has a length limit, and the API
reads only JSON bodies."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings

from citecheck.errors import InvalidInput
from claims.models import WordingTemplate
from claims.services.wording import wording_template_update
from integrations import throttle
from integrations.models import Integration
from integrations.services.integrations import integration_create, integration_disable
from integrations.services.tokens import token_create
from integrations.services.webhooks import webhook_deliver, webhook_event
from reviews.models import AuditLog
from tests.integrations.conftest import service_user

pytestmark = pytest.mark.django_db

ADD = "/admin/integrations/integration/add/"


def _change(pk: int) -> str:
    return f"/admin/integrations/integration/{pk}/change/"


def _messages(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


@pytest.fixture
def admin_client(client: Any, superuser: Any) -> Any:
    client.force_login(superuser)
    return client


def _post(admin_client: Any, url: str, *, name: str, user: Any, webhook_url: str = "", secret: str = "") -> Any:
    # `user` (a pk) and `service_user` (a name): whichever the form asks for.
    return admin_client.post(url, {"name": name, "user": user.pk, "service_user": user.username,
                                   "webhook_url": webhook_url, "webhook_secret": secret}, follow=True)


@pytest.mark.parametrize("url", ["ftp://hooks.example.com/x", "http://127.0.0.1:8080/hook", "http://169.254.169.254/", "http://[::1]/", "file:///etc/passwd"])
def test_the_admin_refuses_a_webhook_url_the_guard_refuses(admin_client: Any, url: str) -> None:
    response = _post(admin_client, ADD, name="bot-a", user=service_user("bot-a", "Editor"), webhook_url=url, secret="x" * 32)
    assert not Integration.objects.filter(name="bot-a").exists(), f"{url} was saved"
    assert response.status_code == 200


def test_changes_are_audited_with_from_and_to_and_the_secret_is_shown_once(admin_client: Any) -> None:
    first, second = service_user("bot-a", "Editor"), service_user("bot-b", "Viewer")
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=[]):
        created = _post(admin_client, ADD, name="bot-a", user=first, webhook_url="https://hooks.example.com/a", secret="")
    integration = Integration.objects.get(name="bot-a")
    assert len(integration.webhook_secret) >= 32, "a webhook needs a secret: one is generated"
    shown = [m for m in _messages(created) if integration.webhook_secret in m]
    assert len(shown) == 1, "the secret is shown once, when it is made"

    page = admin_client.get(_change(integration.pk)).content.decode()
    assert integration.webhook_secret not in page, "the change page never shows the secret again"

    changed = _post(admin_client, _change(integration.pk), name="bot-a", user=second, webhook_url="https://hooks.example.com/b")
    assert changed.status_code == 200
    integration.refresh_from_db()
    assert integration.user == second
    rows = {row.action: row for row in AuditLog.objects.filter(object_type__icontains="integration")}
    assert {"integration_create", "integration_service_user_change", "integration_webhook_change"} <= set(rows), sorted(rows)
    user_row = rows["integration_service_user_change"]
    assert (user_row.from_state, user_row.to_state) == ("bot-a", "bot-b")
    hook_row = rows["integration_webhook_change"]
    assert hook_row.data["from"] == "https://hooks.example.com/a" and hook_row.data["to"] == "https://hooks.example.com/b"
    for row in AuditLog.objects.all():
        assert integration.webhook_secret not in str(row.data) + row.reason, "no audit row holds the secret"


def test_the_service_user_is_picked_by_name(admin_client: Any) -> None:
    service_user("bot-a", "Editor")
    form = admin_client.get(ADD).content.decode()
    assert re.search(r'<option value="bot-a"[^>]*>bot-a</option>', form), "a list of service users by name"


def test_a_wording_template_has_a_length_limit(editor: Any) -> None:
    template = WordingTemplate.objects.first()
    assert template is not None
    before = template.text
    with pytest.raises(InvalidInput, match="characters"):
        wording_template_update(actor=editor, template_id=template.pk, text="Confirmed. " + "x" * 2_000_000)
    template.refresh_from_db()
    assert template.text == before


def test_the_api_reads_only_json_bodies(client: Any) -> None:
    body = '{"sources": "[1] A\\nExpress delivery takes 2 days.", "answer": "Express delivery takes 2 days [1]."}'
    assert client.post("/api/v1/check-citations", data=body, content_type="application/json").status_code == 200
    refused = client.post("/api/v1/check-citations", data=body, content_type="text/plain")
    assert refused.status_code == 415, refused.content
    assert refused.json()["error"]["field"] == "Content-Type"


def test_a_disabled_integration_gets_no_webhook_and_its_tokens_are_refused(client: Any, superuser: Any, redis_conn: Any) -> None:
    throttle._paused_until = 0.0  # no lockout or Redis pause left by an earlier test
    integration, secret = integration_create(actor=superuser, name="bot-a", service_user=service_user("bot-a", "Editor").username,
                                             webhook_url="https://hooks.example.com/a")
    _, token = token_create(actor=None, integration_id=integration.pk, scopes=["read_evidence"])
    assert client.get("/api/v1/passages", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
    pending = webhook_event(integration=integration, event="answer.verified", payload={"answer_id": 1})
    assert pending is not None
    integration_disable(actor=superuser, integration_id=integration.pk, reason="retired")
    integration.refresh_from_db()
    assert client.get("/api/v1/passages", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401
    assert webhook_event(integration=integration, event="answer.verified", payload={"answer_id": 2}) is None
    assert webhook_deliver(delivery_id=pending.pk) == "failed", "a delivery queued before the switch is not sent"
    assert AuditLog.objects.filter(action="integration_disable", to_state="disabled").exists()
    assert secret not in str(list(AuditLog.objects.values_list("data", flat=True)))
