"""Webhooks leave through the one guarded client (issue 21, holes 1 and 2): no redirect is
followed, the name is resolved once and that address is the one connected to, and an attempt's
error says what the guard refused, never what an internal port answered.

Real servers: a receiver on 127.0.0.1 that redirects (or accepts), and a listener on 127.0.0.2
that must receive nothing. The guard is opened to 127.0.0.1 only, so 127.0.0.2 stands for an
internal address."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import override_settings

from integrations.models import Integration, WebhookAttempt
from integrations.services.webhooks import webhook_deliver, webhook_event
from tests.integrations.conftest import service_user

pytestmark = pytest.mark.django_db(transaction=True)


class Server:
    """An HTTP server on `address` answering every request with `status` (and `location`)."""

    def __init__(self, address: str, port: int = 0, status: int = 204, location: str = "") -> None:
        self.requests: list[tuple[str, str]] = []
        self.status, self.location = status, location
        server = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                server.requests.append((self.command, self.path))
                self.send_response(server.status)
                if server.location:
                    self.send_header("Location", server.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST = do_HEAD = _answer  # noqa: N815

            def log_message(self, *args: object) -> None:
                return

        self.httpd = ThreadingHTTPServer((address, port), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_WEBHOOK_RETRY_BASE_SECONDS=0,
                           CITECHECK_WEBHOOK_MAX_ATTEMPTS=1):
        yield started
    for server in started:
        server.close()


def _deliver(url: str) -> Any:
    """One webhook event for a new integration, delivered by the job's service; the attempt row."""
    integration = Integration.objects.create(name="bot-a", user=service_user("bot-a", "Editor"), webhook_url=url, webhook_secret="k" * 32)
    delivery = webhook_event(integration=integration, event="answer.verified", payload={"answer_id": 1})
    assert delivery is not None
    webhook_deliver(delivery_id=delivery.pk)
    return WebhookAttempt.objects.get(delivery=delivery)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirecting_receiver_is_not_followed_to_an_internal_address(servers: list[Server], status: int) -> None:
    listener = Server("127.0.0.2")
    servers.append(listener)
    receiver = Server("127.0.0.1", status=status, location=f"http://127.0.0.2:{listener.port}/internal")
    servers.append(receiver)
    attempt = _deliver(f"http://127.0.0.1:{receiver.port}/hook")
    assert receiver.requests == [("POST", "/hook")]
    assert listener.requests == [], "the redirect was followed to an address the guard refuses"
    assert attempt.status_code == status, "the receiver's own answer is kept"
    assert "redirects are not followed" in attempt.error
    assert attempt.delivery.status == "failed"


@pytest.mark.parametrize("target", ["ftp://127.0.0.1:{port}/x", "http://[::1]:{port}/x"])
def test_a_redirect_to_another_scheme_or_to_ipv6_loopback_opens_nothing(servers: list[Server], target: str) -> None:
    listener = Server("127.0.0.1")
    servers.append(listener)
    receiver = Server("127.0.0.1", status=302, location=target.format(port=listener.port))
    servers.append(receiver)
    attempt = _deliver(f"http://127.0.0.1:{receiver.port}/hook")
    assert listener.requests == []
    assert attempt.status_code == 302 and "redirects are not followed" in attempt.error


def test_the_error_of_a_redirect_to_a_closed_internal_port_says_nothing_about_the_port(servers: list[Server]) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.2", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now: "Connection refused" would tell a port scanner
    receiver = Server("127.0.0.1", status=302, location=f"http://127.0.0.2:{port}/")
    servers.append(receiver)
    attempt = _deliver(f"http://127.0.0.1:{receiver.port}/hook")
    assert "refused" not in attempt.error.lower().replace("redirects are not followed", "")
    assert "redirects are not followed" in attempt.error


def test_an_internal_webhook_address_is_refused_by_the_guard_and_the_error_says_so(servers: list[Server]) -> None:
    listener = Server("127.0.0.2")
    servers.append(listener)
    attempt = _deliver(f"http://127.0.0.2:{listener.port}/hook")
    assert listener.requests == []
    assert "loopback address 127.0.0.2 is not allowed" in attempt.error


class RebindingResolver:
    """DNS for one name that answers 127.0.0.1 (allowed) first and 127.0.0.2 (refused) after."""

    def __init__(self, name: str, real: Any) -> None:
        self.name, self.real, self.calls = name, real, 0

    def __call__(self, host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != self.name:
            return self.real(host, port, *args, **kwargs)
        self.calls += 1
        address = "127.0.0.1" if self.calls == 1 else "127.0.0.2"
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, int(port)))]


def test_dns_rebinding_cannot_move_a_webhook_to_a_refused_address(servers: list[Server], monkeypatch: pytest.MonkeyPatch) -> None:
    receiver = Server("127.0.0.1")
    servers.append(receiver)
    listener = Server("127.0.0.2", port=receiver.port)  # the same port: only the address differs
    servers.append(listener)
    resolver = RebindingResolver("hooks.rebind.test", socket.getaddrinfo)
    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    attempt = _deliver(f"http://hooks.rebind.test:{receiver.port}/hook")
    assert listener.requests == [], "the POST reached the address of a second lookup"
    assert receiver.requests == [("POST", "/hook")]
    assert attempt.status_code == 204 and attempt.delivery.status == "delivered"
    assert resolver.calls == 1, "resolved once, connected to that address"
