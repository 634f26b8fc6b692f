"""Webhooks to a real local receiver (signature, replay window, retry with every attempt
recorded) and the example client run against a live server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.test import override_settings

from examples.citecheck_client import verify_webhook
from integrations.models import DeliveryStatus, WebhookAttempt, WebhookDelivery
from reviews.services import block_apply
from tests.integrations.conftest import Api, build_source, make_token, service_user

pytestmark = pytest.mark.django_db(transaction=True)
SECRET = "s3cret-for-tests"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def receiver():
    """A webhook receiver on 127.0.0.1 that fails its first request with 500, then accepts."""
    received: list[tuple[dict[str, str], bytes]] = []
    state = {"fail_next": 1}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((dict(self.headers), body))
            failing = state["fail_next"] > 0
            state["fail_next"] -= 1
            self.send_response(500 if failing else 204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with override_settings(CITECHECK_FETCH_ALLOW_NETWORKS=["127.0.0.1/32"], CITECHECK_WEBHOOK_RETRY_BASE_SECONDS=0):
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", received
    server.shutdown()
    server.server_close()


def test_verified_and_retracted_webhooks_are_signed_retried_and_recorded(client, receiver, run_jobs):
    url, received = receiver
    _, _ = build_source(url="https://shop.example.com/delivery", title="Delivery terms",
                        passages=[("Express delivery", "express", "Express delivery takes 1 to 2 working days.")])
    api = Api(client=client, token=make_token(service_user("bot", "Editor"), webhook_url=url, secret=SECRET))
    pv = api.get("/passages").json()["items"][0]
    answer = api.post("/answers", {"answer": "Express delivery takes 1 to 2 working days [1].", "passage_version_ids": [pv["passage_version_id"]]}).json()
    run_jobs()
    delivery = WebhookDelivery.objects.get(event="answer.verified")
    assert delivery.status == DeliveryStatus.DELIVERED and delivery.attempts == 2
    assert [a.status_code for a in WebhookAttempt.objects.filter(delivery=delivery)] == [500, 204]
    headers, body = received[-1]
    event = verify_webhook(secret=SECRET, headers=headers, body=body)
    assert event["event"] == "answer.verified" and event["answer_id"] == answer["answer_id"]
    with pytest.raises(ValueError, match="signature"):
        verify_webhook(secret="wrong", headers=headers, body=body)
    with pytest.raises(ValueError, match="replay"):
        verify_webhook(secret=SECRET, headers=headers, body=body, now=int(headers["Citecheck-Timestamp"]) + 3600)

    assert api.post("/blocks", {"target": "passage_version", "passage_version_id": pv["passage_version_id"], "reason": "wrong"}).status_code == 201
    run_jobs()
    retracted = WebhookDelivery.objects.get(event="evidence.retracted")
    assert retracted.status == DeliveryStatus.DELIVERED
    events = [verify_webhook(secret=SECRET, headers=h, body=b) for h, b in received]
    [event] = [e for e in events if e["event"] == "evidence.retracted"]
    assert event["passage_version_ids"] == [pv["passage_version_id"]] and event["answer_ids"] == [answer["answer_id"]]


def test_the_example_client_syncs_and_submits_against_a_live_server(live_server, tmp_path, settings):
    settings.ALLOWED_HOSTS = ["*"]
    source, _ = build_source(url="https://shop.example.com/delivery", title="Delivery terms", passages=[
        ("Express delivery", "express", "Express delivery takes 1 to 2 working days."),
        ("Standard delivery", "standard", "Standard delivery takes 3 to 5 working days."),
    ])
    token = make_token(service_user("bot", "Editor"))
    env = {**os.environ, "CITECHECK_URL": live_server.url, "CITECHECK_TOKEN": token, "CITECHECK_INDEX": str(tmp_path / "index.json")}

    def run(*args: str) -> dict:
        done = subprocess.run([sys.executable, str(ROOT / "examples" / "citecheck_client.py"), *args], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    assert run("sync")["passages"] == 2
    index = json.loads((tmp_path / "index.json").read_text())
    express = next(p for p in index["passages"].values() if p["section_heading"] == "Express delivery")

    block_apply(actor=None, target="passage", reason="wrong", passage_version_id=express["passage_version_id"])
    assert run("sync")["passages"] == 1, "the tombstone purged the blocked passage"
    result = run("answer", "Standard delivery takes 3 to 5 working days [1].", str(next(iter(json.loads((tmp_path / "index.json").read_text())["passages"]))))
    assert result["state"] == "pending" and result["links"][0].startswith('<a href="https://shop.example.com/delivery#standard" rel="noopener noreferrer nofollow">')
