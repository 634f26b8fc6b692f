"""A client generated from the OpenAPI schema by a well-known generator (openapi-python-client)
reads well (functions named by operation id, modules by tag) and works against a live server."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.integrations.conftest import build_source, make_token, service_user

pytestmark = pytest.mark.django_db(transaction=True)
GENERATOR = Path(sys.executable).with_name("openapi-python-client")

OPERATIONS = {
    "evidence": {"list_passages", "check_citations"},
    "answers": {"submit_answer", "get_answer", "trace_answer"},
    "sources": {"register_source", "register_sources", "get_source", "fetch_source", "activate_version"},
    "blocks": {"create_block", "list_blocks", "lift_block"},
}


@pytest.fixture
def generated(live_server, tmp_path, settings, monkeypatch):
    """The client package `cc_client`, generated from the live server's own schema."""
    if not GENERATOR.exists():
        pytest.skip("openapi-python-client is not installed (requirements-dev.txt)")
    settings.ALLOWED_HOSTS = ["*"]
    schema = tmp_path / "openapi.json"
    schema.write_bytes(urllib.request.urlopen(f"{live_server.url}/api/v1/openapi.json", timeout=30).read())
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(GENERATOR), "generate", "--path", str(schema), "--output-path", str(tmp_path / "cc_client"), "--meta", "none"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [m for m in sys.modules if m == "cc_client" or m.startswith("cc_client.")]:
        del sys.modules[name]
    return tmp_path / "cc_client"


def test_the_generated_client_is_named_by_operation_and_tag(generated):
    modules = {tag.name: {f.stem for f in tag.glob("*.py") if f.stem != "__init__"} for tag in (generated / "api").iterdir() if tag.is_dir()}
    assert modules == OPERATIONS


def test_the_generated_client_lists_passages_and_submits_an_answer(generated, live_server):
    build_source(url="https://shop.example.com/delivery", title="Delivery terms", passages=[
        ("Express delivery", "express", "Express delivery takes 1 to 2 working days."),
    ])
    token = make_token(service_user("generated-bot", "Editor"))
    client_module = importlib.import_module("cc_client")
    list_passages = importlib.import_module("cc_client.api.evidence.list_passages")
    submit_answer = importlib.import_module("cc_client.api.answers.submit_answer")
    answer_in = importlib.import_module("cc_client.models.answer_in")
    client = client_module.AuthenticatedClient(base_url=live_server.url, token=token)

    page = list_passages.sync(client=client, limit=10)
    assert [item.section_heading for item in page.items] == ["Express delivery"]
    passage_version_id = page.items[0].passage_version_id

    body = answer_in.AnswerIn(answer="Express delivery takes 1 to 2 working days [1].", passage_version_ids=[passage_version_id],
                              question="How fast is express delivery?")
    created = submit_answer.sync(client=client, body=body, idempotency_key="generated-client-1")
    assert created.answer_id > 0 and created.url.endswith(f"/answers/{created.answer_id}")
    again = submit_answer.sync(client=client, body=body, idempotency_key="generated-client-1")
    assert again.answer_id == created.answer_id, "the Idempotency-Key the client sent was honoured"
    assert json.loads(json.dumps(created.to_dict()))["answer_id"] == created.answer_id
