"""The LLM judge against a real instruction-tuned model of your choice (issue 13), when one is running.

The slow suite always runs the chain against SmolLM2-135M (tests/citecheck/judges/test_local_model.py, issue 24);
that model is too small to judge well. This test is for a bigger one: it runs only when a real
OpenAI-compatible server is named: ``CITECHECK_REAL_MODEL_URL`` (its ``/v1`` base URL, e.g. printed by
``manage.py serve_local_judge --model FILE.gguf``) and ``CITECHECK_REAL_MODEL``.
It then sends a dev subset of HealthVer through ``manage.py judge_claim --batch`` with
``OPENAI_BASE_URL`` and prints the figures; every answer must be a valid verdict or a recorded error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data" / "judge-eval" / "healthver_dev.jsonl"
URL = os.environ.get("CITECHECK_REAL_MODEL_URL", "")
MODEL = os.environ.get("CITECHECK_REAL_MODEL", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (URL and MODEL), reason=(
        "no real model named: set CITECHECK_REAL_MODEL_URL and CITECHECK_REAL_MODEL to a running OpenAI-compatible "
        "server (e.g. manage.py serve_local_judge --model FILE.gguf; model hubs are never used)")),
    pytest.mark.skipif(not DATA.is_file(), reason="../shared/data/judge-eval is absent"),
]


def test_a_real_model_judges_a_dev_subset(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()[:60]]
    batch = tmp_path / "pairs.jsonl"
    batch.write_text("\n".join(json.dumps({"claim": r["claim"], "passage": r["passage"]}) for r in rows) + "\n",
                     encoding="utf-8")
    env = {**os.environ, "OPENAI_BASE_URL": URL, "CITECHECK_JUDGE_MODEL": MODEL, "CITECHECK_JUDGE": "openai",
           "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "REDIS_URL": "redis://127.0.0.1:1/0"}
    done = subprocess.run([sys.executable, "manage.py", "judge_claim", "--judge", "openai", "--batch", str(batch)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(verdicts) == len(rows)
    for verdict in verdicts:
        assert verdict["status"] in {"supported", "partly_supported", "contradicted", "unsupported", "unavailable"}
        assert verdict["status"] != "unavailable" or verdict["error"] or not verdict["span"]
    answered = [(r["label"], v["status"]) for r, v in zip(rows, verdicts, strict=True) if not v["error"]]
    right = sum(1 for gold, got in answered if gold == got)
    print(f"real model {MODEL}: {len(answered)}/{len(rows)} answered, accuracy on answered "
          f"{right / max(1, len(answered)):.3f}, errors {len(rows) - len(answered)}")
