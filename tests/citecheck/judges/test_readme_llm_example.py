"""The README's "Judges" example, run as written against a local OpenAI-compatible server (the
protocol Ollama, vLLM and llama.cpp server speak under /v1): its exports and its command."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from pathlib import Path

from tests.citecheck.judges.openai_server import OpenAIServer, verdict_reply

ROOT = Path(__file__).resolve().parents[3]
PASSAGE = ("Express delivery takes 1 to 2 working days and costs £9.95. "
           "Face masks lowered transmission of SARS-CoV-2 among household contacts.")


def readme_example() -> tuple[dict[str, str], list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Judges\n.*?```sh\n(.*?)```", text, re.DOTALL)
    assert block, "README has no Judges example"
    env: dict[str, str] = {}
    command: list[str] = []
    for line in block.group(1).splitlines():
        if line.startswith("export "):
            for item in shlex.split(line[len("export "):]):
                key, _, value = item.partition("=")
                env[key] = value
        elif line.startswith(".venv/bin/python"):
            command = shlex.split(line)
    assert command and env["OPENAI_BASE_URL"].endswith("/v1")
    return env, command


def run(command: list[str], env: dict[str, str], cwd: Path) -> dict:
    full = {**os.environ, **env, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none",
            "REDIS_URL": "redis://127.0.0.1:1/0", "NO_PROXY": "127.0.0.1"}
    args = [str(ROOT / command[0]), str(ROOT / command[1]), *command[2:]]
    done = subprocess.run(args, cwd=cwd, env=full, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_readme_example_runs_against_an_openai_compatible_server(llm_server: OpenAIServer, tmp_path: Path) -> None:
    env, command = readme_example()
    env["OPENAI_BASE_URL"] = llm_server.base_url  # the documented server, here on a free local port
    (tmp_path / "passage.txt").write_text(PASSAGE, encoding="utf-8")
    span = "Face masks lowered transmission of SARS-CoV-2 among household contacts."
    llm_server.script = [verdict_reply("supported", span, "masks lowered transmission")]

    # As written: the built-in judge is sure (the price is in the passage), so the model is not asked.
    verdict = run(command, env, tmp_path)
    assert (verdict["status"], verdict["judge"], verdict["confidence"]) == ("supported", "builtin", "high")
    assert llm_server.requests == []

    # A claim the built-in judge cannot decide goes to the configured model, with the configured name.
    claim_at = command.index("--claim") + 1
    unsure = [*command[:claim_at], "Wearing masks reduces the spread of the coronavirus.", *command[claim_at + 1:]]
    verdict = run(unsure, env, tmp_path)
    assert (verdict["status"], verdict["judge"], verdict["span"]) == ("supported", "openai", span)
    assert len(llm_server.requests) == 1 and llm_server.requests[0]["model"] == env["CITECHECK_JUDGE_MODEL"]
