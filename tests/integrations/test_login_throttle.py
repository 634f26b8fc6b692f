"""Failed admin logins are throttled per (account, address) and per address (429 + Retry-After) and audited."""

from __future__ import annotations

import pytest

from reviews.models import AuditLog

pytestmark = pytest.mark.django_db


def test_wrong_passwords_lock_the_admin_login_and_the_lockout_is_audited(client, editor, settings):
    settings.CITECHECK_AUTH_FAILURES_MAX = settings.CITECHECK_AUTH_ADDRESS_FAILURES_MAX = 5
    for _ in range(5):
        response = client.post("/admin/login/", {"username": "editor", "password": "wrong"})
        assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    locked = client.post("/admin/login/", {"username": "editor", "password": "pw-editor"})
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert AuditLog.objects.filter(action="auth_lockout", object_id__startswith="login:").count() == 2  # account+address and address


def test_a_right_password_before_the_limit_logs_in(client, editor):
    client.post("/admin/login/", {"username": "editor", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "editor", "password": "pw-editor"})
    assert response.status_code == 302
