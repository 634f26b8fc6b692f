"""The LLM judge against replies real models give (issue 13): each is read where it can be, and
otherwise becomes a recorded judge error (status ``unavailable``, ``error`` set), never a verdict.
A real OpenAI-compatible server on 127.0.0.1 returns each case."""

from __future__ import annotations

import json
from typing import Any

import pytest

from citecheck.judges.llm import LLMJudge, verbatim_span
from tests.citecheck.judges.openai_server import OpenAIServer, Reply, completion, verdict_reply

PASSAGE = (
    "Standard delivery takes 3 to 5 working days and costs £3.95. "
    "Express delivery takes 1 to 2 working days and costs £7.95."
)
SPAN = "Standard delivery takes 3 to 5 working days and costs £3.95."
CLAIM = "Standard delivery takes 3 to 5 working days."


def make_judge(server: OpenAIServer, **kwargs: Any) -> LLMJudge:
    kwargs.setdefault("timeout", 5)
    kwargs.setdefault("sleep", lambda seconds: None)
    return LLMJudge(base_url=server.base_url, model="test-model", api_key="k", **kwargs)


GOOD = json.dumps({"status": "supported", "span": SPAN, "rationale": "stated"})


@pytest.mark.parametrize(
    "content",
    [
        f"Sure! Here is my verdict:\n{GOOD}\nLet me know if you need more.",
        f"```json\n{GOOD}\n```",
        f"My answer follows.\n```\n{GOOD}\n```\nThanks.",
        json.dumps({"Status": "Supported", "SPAN": SPAN, "Rationale": "stated"}),
        json.dumps({"status": "SUPPORTED", "span": SPAN, "rationale": "stated"}),
    ],
    ids=["json-in-prose", "code-fence", "fence-in-prose", "key-case", "status-case"],
)
def test_usable_replies_are_read(llm_server: OpenAIServer, content: str) -> None:
    llm_server.script = [completion(content)]
    verdict = make_judge(llm_server).judge(CLAIM, PASSAGE)
    assert (verdict.status, verdict.span, verdict.error) == ("supported", SPAN, "")
    assert len(llm_server.requests) == 1


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (completion(json.dumps({"status": "mostly_supported", "span": SPAN, "rationale": "x"})), "invalid status"),
        (completion(json.dumps({"status": "supported", "span": "Standard delivery is free.", "rationale": "x"})),
         "span not found"),
        (completion('{"status": "supported", "span": "Standard deliv'), "cut off"),
        (completion('{"status": "supported", "span": "Standard deliv', finish_reason="length"), "cut off"),
        (completion("I think the passage supports the claim."), "not valid JSON"),
        (completion(json.dumps({"status": "supported", "span": None, "rationale": "x"})), "without a span"),
        (completion(json.dumps({"status": "unavailable", "span": None, "rationale": "cannot read it"})), "could not judge"),
    ],
    ids=["status-outside-five", "span-not-verbatim", "truncated-json", "finish-length", "prose-only",
         "backed-without-span", "model-says-unavailable"],
)
def test_broken_replies_are_recorded_errors_and_retried_once(llm_server: OpenAIServer, reply: Reply, reason: str) -> None:
    llm_server.script = [reply]
    verdict = make_judge(llm_server).judge(CLAIM, PASSAGE)
    assert verdict.status == "unavailable" and verdict.span is None
    assert reason in verdict.error and verdict.error == verdict.rationale
    expected_requests = 1 if reason == "could not judge" else 2  # malformed replies are asked again once
    assert len(llm_server.requests) == expected_requests


def test_a_retry_that_gets_a_good_reply_gives_the_verdict(llm_server: OpenAIServer) -> None:
    llm_server.script = [completion("not json at all"), completion(GOOD)]
    verdict = make_judge(llm_server).judge(CLAIM, PASSAGE)
    assert (verdict.status, verdict.error) == ("supported", "")
    assert verdict.prompt_tokens == 240  # both calls' tokens are counted
    assert len(llm_server.requests) == 2


def test_a_timeout_is_retried_once_then_recorded(llm_server: OpenAIServer) -> None:
    llm_server.script = [Reply(body={}, delay=1.0)]
    verdict = make_judge(llm_server, timeout=0.3).judge(CLAIM, PASSAGE)
    assert verdict.status == "unavailable" and "timed out" in verdict.error
    assert len(llm_server.requests) == 2


def test_a_near_verbatim_span_is_replaced_by_the_passage_own_words(llm_server: OpenAIServer) -> None:
    passage = "Returns are free within 30 days. Refunds reach the card in 5 working days."
    sloppy = "Returns are  free within 30 days"  # the model doubled a space and dropped the full stop
    llm_server.script = [verdict_reply("supported", sloppy)]
    verdict = make_judge(llm_server).judge("Returns are free within 30 days.", passage)
    assert verdict.status == "supported" and verdict.span == "Returns are free within 30 days"
    assert verdict.span in passage


def test_verbatim_span_never_invents() -> None:
    passage = "It's the “best” offer – valid until 5 May.\nNothing else applies."
    assert verbatim_span("It's the \"best\" offer - valid until 5 May.", passage) == "It's the “best” offer – valid until 5 May."
    assert verbatim_span("It is the best offer, valid until 6 May.", passage) is None
    assert verbatim_span("", passage) is None
    for span in ("Nothing else  applies.", "nothing else applies"):
        found = verbatim_span(span, passage)
        assert found is not None and found in passage


def test_an_empty_passage_is_no_judge_error(llm_server: OpenAIServer) -> None:
    verdict = make_judge(llm_server).judge(CLAIM, "  ")
    assert verdict.status == "unavailable" and verdict.error == "" and not llm_server.requests


def test_errors_are_never_cached(llm_server: OpenAIServer) -> None:
    class Cache(dict):
        def get(self, key):  # type: ignore[override]
            return super().get(key)

        def set(self, key, verdict):  # type: ignore[no-untyped-def]
            self[key] = verdict

    cache = Cache()
    llm_server.script = [completion("garbage")]
    judge = make_judge(llm_server, cache=cache, max_format_retries=0)
    assert judge.judge(CLAIM, PASSAGE).error
    assert not cache
    llm_server.script = [completion(GOOD)]
    assert judge.judge(CLAIM, PASSAGE).status == "supported" and len(cache) == 1
