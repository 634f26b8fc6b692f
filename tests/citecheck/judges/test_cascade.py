"""The cascade (issue 13): the LLM is asked only where the built-in judge is unsure, against a real
OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json

from citecheck.judges.cascade import CascadeJudge
from citecheck.judges.factory import get_judge
from tests.citecheck.judges.openai_server import OpenAIServer, completion, verdict_reply

SURE = ("Delivery takes five working days.", "Delivery takes 5 working days.")
SURE_NO = ("Delivery takes seven working days.", "Delivery takes 5 working days.")
UNSURE_PASSAGE = "Face masks lowered transmission of SARS-CoV-2 among household contacts."
UNSURE = ("Wearing masks reduces the spread of the coronavirus.", UNSURE_PASSAGE)


def test_only_low_confidence_pairs_reach_the_llm(llm_server: OpenAIServer) -> None:
    llm_server.script = [verdict_reply("supported", UNSURE_PASSAGE, "masks lowered transmission")]
    judge = get_judge("openai", base_url=llm_server.base_url, model="m", timeout=5, cascade=True)
    assert isinstance(judge, CascadeJudge)

    sure = judge.judge(*SURE)
    sure_no = judge.judge(*SURE_NO)
    assert (sure.judge, sure.status, sure_no.status) == ("builtin", "supported", "contradicted")
    assert llm_server.requests == []  # confident built-in verdicts stand: nothing asked

    unsure = judge.judge(*UNSURE)
    assert len(llm_server.requests) == 1
    asked = llm_server.requests[0]["messages"][1]["content"]
    assert UNSURE[0] in asked and UNSURE_PASSAGE in asked
    assert (unsure.judge, unsure.status, unsure.span) == ("openai", "supported", UNSURE_PASSAGE)
    assert "the built-in judge could not decide" in unsure.rationale
    assert judge.asked == 1 and judge.judged == 3 and abs(judge.asked_share - 1 / 3) < 1e-9


def test_an_llm_failure_in_the_cascade_is_a_judge_error_not_the_guess(llm_server: OpenAIServer) -> None:
    llm_server.script = [completion("I am not sure.")]
    judge = get_judge("cascade", base_url=llm_server.base_url, model="m", timeout=5, max_format_retries=0)
    verdict = judge.judge(*UNSURE)
    assert verdict.status == "unavailable" and verdict.error  # the claim stays pending, nothing is cached
    assert len(llm_server.requests) == 1


def test_without_cascade_the_llm_is_asked_every_time(llm_server: OpenAIServer) -> None:
    llm_server.script = [completion(json.dumps({"status": "unsupported", "span": None, "rationale": "x"}))]
    judge = get_judge("openai", base_url=llm_server.base_url, model="m", timeout=5)
    judge.judge(*SURE)
    judge.judge(*UNSURE)
    assert len(llm_server.requests) == 2
