"""manage.py judge_claim as a user runs it: a separate process, no database, no Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.citecheck.judges.openai_server import OpenAIServer, verdict_reply

ROOT = Path(__file__).resolve().parents[3]
PASSAGE = "Adult tickets cost €12 and child tickets cost €6. Audio guides are included in the ticket price."


def command_env(env: dict[str, str] | None = None) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "REDIS_URL": "redis://127.0.0.1:1/0", **(env or {})}


def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    full_env = command_env(env)
    return subprocess.run([sys.executable, "manage.py", "judge_claim", *args], cwd=ROOT, env=full_env, input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_single_pair_readable_and_json(tmp_path: Path) -> None:
    passage = tmp_path / "passage.txt"
    passage.write_text(PASSAGE, encoding="utf-8")
    # Database and Redis point at refused ports: the command never needs them.
    readable = run("--claim", "Child tickets cost €12.", "--passage-file", str(passage))
    assert readable.returncode == 0, readable.stderr
    assert "status: contradicted" in readable.stdout and "[heuristic]" in readable.stdout
    as_json = run("--claim", "Adult tickets cost €12.", "--passage-file", str(passage), "--json")
    verdict = json.loads(as_json.stdout)
    assert verdict["status"] == "supported" and verdict["judge"] == "builtin"
    assert verdict["span"] == "Adult tickets cost €12 and child tickets cost €6."


def test_batch_prints_one_object_per_line_in_order(tmp_path: Path) -> None:
    rows = [
        {"claim": "Adult tickets cost €12.", "passage": PASSAGE},
        {"claim": "Audio guides are excluded from the ticket price.", "passage": PASSAGE},
        {"claim": "The museum has a café.", "passage": PASSAGE},
        {"claim": "Delivery costs £3.", "passage": ""},
    ]
    batch = tmp_path / "pairs.jsonl"
    batch.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    result = run("--batch", str(batch))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [json.loads(line)["status"] for line in lines] == ["supported", "contradicted", "unsupported", "unavailable"]
    assert all({"status", "span", "judge"} <= json.loads(line).keys() for line in lines)


def test_batch_bad_line_keeps_alignment_and_exits_2() -> None:
    stdin = json.dumps({"claim": "Adult tickets cost €12.", "passage": PASSAGE}) + "\n{not json\n" + json.dumps({"claim": 1})
    result = run("--batch", "-", stdin=stdin)
    assert result.returncode == 2
    statuses = [json.loads(line)["status"] for line in result.stdout.splitlines()]
    assert statuses == ["supported", "unavailable", "unavailable"]


def test_missing_arguments_exit_2() -> None:
    result = run("--claim", "x")
    assert result.returncode == 2 and "judge_claim:" in result.stderr and result.stdout == ""


def test_openai_judge_from_settings(llm_server: OpenAIServer, tmp_path: Path) -> None:
    llm_server.script = [verdict_reply("supported", "Adult tickets cost €12 and child tickets cost €6.")]
    passage = tmp_path / "passage.txt"
    passage.write_text(PASSAGE, encoding="utf-8")
    env = {"OPENAI_BASE_URL": llm_server.base_url, "OPENAI_API_KEY": "k", "CITECHECK_JUDGE_MODEL": "local-model"}
    result = run("--claim", "Adults pay €12.", "--passage-file", str(passage), "--judge", "openai", "--json", env=env)
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "supported" and verdict["judge"] == "openai" and verdict["model"] == "local-model"
    assert llm_server.requests[0]["model"] == "local-model"
