"""manage.py check_citations, run as a user runs it (a real subprocess, no database)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import SEED_ANSWER, SEED_SOURCES, json_answer, openai_stream

ROOT = Path(__file__).resolve().parents[3]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    # Point the database somewhere unusable: the command must not need it.
    env["DATABASE_URL"] = "postgres://nobody:nothing@127.0.0.1:9/none"
    env.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", "check_citations", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=30,
        env=env,
    )


@pytest.fixture
def seed_files(tmp_path: Path) -> tuple[Path, Path]:
    sources = tmp_path / "sources.txt"  # format comes from the content, not the name
    sources.write_text(json.dumps(SEED_SOURCES))
    answer = tmp_path / "answer.md"
    answer.write_text(SEED_ANSWER)
    return sources, answer


def test_json_output_has_exactly_the_issue_keys_and_exit_1_when_flagged(seed_files: tuple[Path, Path]) -> None:
    sources, answer = seed_files
    result = run("--sources", str(sources), "--answer", str(answer), "--json")
    assert result.returncode == 1, result.stderr
    assert result.stderr == b""
    data = json.loads(result.stdout)  # exactly one JSON object, nothing else on stdout
    assert list(data) == [
        "answer_format",
        "shape",
        "source_count",
        "citations",
        "invalid_source_numbers",
        "uncited_sentences",
        "unreferenced_sources",
        "unknown_urls",
        "truncated",
        "no_citations",
        "prompt_tokens",
        "warnings",
        "quotes",
    ]
    assert data["citations"][1] == {"source": 4, "quote": "4 bytes per dimension plus 8", "result": "not_found"}


def test_clean_answer_from_stdin_exits_0_and_prints_a_table(tmp_path: Path) -> None:
    sources = tmp_path / "s"
    sources.write_text("Opens at 9:00 on weekdays.\n---\nLoans last three weeks.\n")
    answer = openai_stream(json_answer("Opens at nine, loans last three weeks.", [(1, "opens at 9:00"), (2, "Loans last")]))
    result = run("--sources", str(sources), "--answer", "-", stdin=answer.encode())
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "Result: OK, nothing flagged" in out
    assert "| 1 | [1] | opens at 9:00 | found after normalising |" in out
    assert "| 2 | [2] | Loans last | found exactly |" in out


def test_sources_from_stdin_and_cjk_output(tmp_path: Path) -> None:
    answer = tmp_path / "a"
    answer.write_text("図書館は九時に開きます。[1]延長できますか？", encoding="utf-8")
    result = run("--sources", "-", "--answer", str(answer), "--json", stdin="図書館は九時に開きます。".encode())
    assert result.returncode == 1
    assert json.loads(result.stdout.decode("utf-8"))["uncited_sentences"] == ["延長できますか？"]


@pytest.mark.parametrize(
    ("sources_bytes", "answer_bytes", "expected"),
    [
        (b"", b"x", "--sources {s}: is empty; expected"),
        (b'["a",', b"x", "--sources {s}: looks like JSON but is not valid JSON"),
        (b"a", b"\x00\x01\x02binary", "--answer {a}: looks like binary data"),
        (b"a", b"\xff\xfe\xfa", "--answer {a}: is not UTF-8 text"),
        (b"a", b'{"message": {"content": "x"}, "done": false}\n{"message": {"con', "--answer {a}: line 2 of the streamed Ollama"),
    ],
)
def test_unusable_input_exits_2_with_one_line_on_stderr(
    tmp_path: Path, sources_bytes: bytes, answer_bytes: bytes, expected: str
) -> None:
    s, a = tmp_path / "s.json", tmp_path / "a.json"
    s.write_bytes(sources_bytes)
    a.write_bytes(answer_bytes)
    result = run("--sources", str(s), "--answer", str(a), "--json")
    assert result.returncode == 2
    assert result.stdout == b""
    stderr = result.stderr.decode()
    assert stderr.count("\n") == 1 and "Traceback" not in stderr
    assert stderr.startswith("check_citations: " + expected.format(s=s, a=a))


def test_missing_file_and_double_stdin_exit_2(tmp_path: Path) -> None:
    missing = run("--sources", str(tmp_path / "nope"), "--answer", "-", stdin=b"x")
    assert missing.returncode == 2 and b"cannot be read (No such file or directory)" in missing.stderr
    both = run("--sources", "-", "--answer", "-", stdin=b"x")
    assert both.returncode == 2 and b"cannot both be standard input" in both.stderr
