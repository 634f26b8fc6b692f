"""Lockouts that protect, not exclude (issue 21, hole 3): failures count per (account, address)
and per address; the right password from an address that has not failed still logs in; a token
whose secret is right is never refused by failures counted against its prefix; the client address
is REMOTE_ADDR unless CITECHECK_TRUSTED_PROXIES names the proxy. Lockouts stay audited.

Two client addresses: the test client's REMOTE_ADDR, 127.0.0.1 and 127.0.0.2."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from integrations import throttle
from reviews.models import AuditLog
from tests.integrations.conftest import make_token, service_user

pytestmark = pytest.mark.django_db

ATTACKER, PERSON = "127.0.0.2", "127.0.0.1"


@pytest.fixture(autouse=True)
def _fresh_counters(redis_conn: Any) -> Any:
    throttle._paused_until = 0.0
    with override_settings(CITECHECK_AUTH_FAILURES_MAX=5, CITECHECK_AUTH_LOCKOUT_SECONDS=900):
        yield


def _login(address: str, username: str, password: str, **meta: str) -> Any:
    client = Client(REMOTE_ADDR=address, **meta)
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def test_wrong_passwords_from_one_address_do_not_lock_the_person_out_elsewhere(approver: Any) -> None:
    for _ in range(5):
        assert _login(ATTACKER, "approver", "guess").status_code == 200
    assert _login(ATTACKER, "approver", "pw-approver").status_code == 429, "the address that failed is locked out"
    assert _login(ATTACKER, "APPROVER", "guess").status_code == 429
    assert _login(PERSON, "approver", "pw-approver").status_code == 302, "the right password from another address logs in"
    lockout = AuditLog.objects.filter(action="auth_lockout").first()
    assert lockout is not None and lockout.data["address"] == ATTACKER


def test_one_try_from_each_of_many_addresses_locks_nobody_out(superuser: Any) -> None:
    for n in range(10):
        _login(f"127.0.1.{n}", "root", "guess")
    assert _login(PERSON, "root", "pw-root").status_code == 302


def test_forged_tokens_with_a_real_prefix_do_not_lock_out_the_real_token(client: Any, db: None) -> None:
    token = make_token(service_user("bot", "Editor"))
    prefix = token.split("_")[1]
    forged = Client(REMOTE_ADDR=ATTACKER)
    for n in range(6):
        response = forged.get("/api/v1/passages", HTTP_AUTHORIZATION=f"Bearer cc_{prefix}_forged{n}")
        assert response.status_code in (401, 429)
    assert forged.get("/api/v1/passages", HTTP_AUTHORIZATION=f"Bearer cc_{prefix}_forged").status_code == 429
    for address in (PERSON, ATTACKER):
        real = Client(REMOTE_ADDR=address).get("/api/v1/passages", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert real.status_code == 200, (address, real.content)


def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(approver: Any, editor: Any) -> None:
    proxy = "127.0.0.9"
    with override_settings(CITECHECK_TRUSTED_PROXIES=[proxy]):
        for _ in range(5):
            _login(proxy, "approver", "guess", HTTP_X_FORWARDED_FOR=f"203.0.113.7, {ATTACKER}")
        # Behind the proxy, the person is another client: not locked out by the attacker's failures.
        assert _login(proxy, "approver", "pw-approver", HTTP_X_FORWARDED_FOR=PERSON).status_code == 302
        assert _login(proxy, "approver", "pw-approver", HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 429
        # A client that is not the proxy cannot pick its address by sending the header.
        assert _login(ATTACKER, "approver", "pw-approver", HTTP_X_FORWARDED_FOR=PERSON).status_code == 429
    # Without CITECHECK_TRUSTED_PROXIES the header is never read: every client of the proxy is the proxy.
    for _ in range(5):
        _login(proxy, "editor", "guess", HTTP_X_FORWARDED_FOR=ATTACKER)
    assert _login(proxy, "editor", "pw-editor", HTTP_X_FORWARDED_FOR=PERSON).status_code == 429
