"""CITECHECK_CLAIM_SPLITTER=llm: answer intake asks the LLM's split_claims (a real OpenAI-compatible
server on 127.0.0.1) for compound sentences only, and each atomic claim is judged on its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings

from claims.models import AnswerState
from claims.services import answer_submit
from tests.citecheck.judges.openai_server import OpenAIServer, Reply, completion, verdict_reply
from tests.claims.conftest import passage, register_active
from tests.faults.test_judge_outage import _claim_block, _passage_block

pytestmark = pytest.mark.django_db(transaction=True)


def test_llm_splitter_at_intake(demo_shop, editor, approver, run_jobs):
    base, _ = demo_shop
    returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    window = passage(returns, "Returns policy > Return window")
    server = OpenAIServer().start()
    splits: list[str] = []

    def reply(body: dict[str, Any]) -> Reply:
        user = body["messages"][1]["content"]
        if "Split the SENTENCE" in user:
            splits.append(user)
            return completion(json.dumps({"claims": ["You may return any item within 30 days of delivery.",
                                                      "Returns are free for every customer worldwide."]}))
        claim, text = _claim_block(body), _passage_block(body)
        if "30 days" in claim:
            return verdict_reply("supported", text.split(". ")[0].rstrip(".") + ".")
        return verdict_reply("unsupported", None)

    server.handler = reply
    try:
        with override_settings(CITECHECK_JUDGE="openai", OPENAI_BASE_URL=server.base_url, CITECHECK_JUDGE_MODEL="test-model",
                               CITECHECK_JUDGE_TIMEOUT=5.0, CITECHECK_CLAIM_SPLITTER="llm"):
            answer = answer_submit(actor=editor, passage_version_ids=[window.pk], raw_response=(
                "Hello! You may return any item within 30 days of delivery and returns are free worldwide [1]. "
                "Refunds go to the original payment method [1]."))
            run_jobs()
    finally:
        server.stop()
    assert len(splits) == 1, "only the compound sentence is sent to the splitter"
    answer.refresh_from_db()
    states = dict(answer.claims.filter(needs_citation=True).values_list("text", "state"))
    assert states == {"You may return any item within 30 days of delivery.": "supported",
                      "Returns are free for every customer worldwide.": "no_evidence",
                      "Refunds go to the original payment method.": "no_evidence"}
    assert answer.state == AnswerState.PARTLY_SUPPORTED
