"""`manage.py check_url` end to end, as a user runs it (a subprocess, no database)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.citecheck.linkcheck.conftest import LocalServer

ROOT = Path(__file__).resolve().parents[3]
JSON_KEYS = ["url", "state", "status_code", "final_url", "redirects", "content_type", "bytes", "elapsed_ms", "error"]


def command_env(*, allow_loopback: bool = True) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CITECHECK_FETCH_ALLOW_NETWORKS", None)
    if allow_loopback:
        env["CITECHECK_FETCH_ALLOW_NETWORKS"] = "127.0.0.0/8"
    # A database that does not exist: the command must not need one.
    env["DATABASE_URL"] = "postgres://nobody:nothing@127.0.0.1:1/absent"
    return env


def run_command(*args: str, allow_loopback: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check_url", *args],
        cwd=ROOT, env=command_env(allow_loopback=allow_loopback), capture_output=True, text=True, timeout=60,
    )


def test_single_ok_url_prints_one_json_object_and_exits_0(server: LocalServer) -> None:
    done = run_command(server.url("/perm1"), "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert list(obj) == JSON_KEYS
    assert obj["state"] == "redirect_permanent"
    assert obj["status_code"] == 200
    assert obj["final_url"] == server.url("/ok")
    assert obj["redirects"] == [{"url": server.url("/perm1"), "status": 301}, {"url": server.url("/perm2"), "status": 308}]
    assert obj["content_type"] == "text/html"
    assert obj["bytes"] > 0


def test_not_found_exits_1(server: LocalServer) -> None:
    done = run_command(server.url("/status/404"), "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout)["state"] == "not_found"


def test_invalid_url_still_prints_the_object_and_starts_fast() -> None:
    # Database and Redis point at refused ports (command_env): the command never touches them.
    # How fast it starts is measured in bench/, not asserted here.
    done = run_command("not a url at all", "--json")
    assert done.returncode == 1
    obj = json.loads(done.stdout)
    assert obj == {**obj, "url": "not a url at all", "state": "invalid_url", "status_code": None, "final_url": None, "redirects": []}


def test_loopback_is_blocked_without_the_setting(server: LocalServer) -> None:
    done = run_command(server.url("/ok"), "--json", allow_loopback=False)
    assert done.returncode == 1
    assert json.loads(done.stdout)["state"] == "blocked"


def test_timeout_option_is_the_total_deadline(server: LocalServer) -> None:
    done = run_command(server.url("/trickle"), "--json", "--timeout", "0.5")
    assert done.returncode == 1
    obj = json.loads(done.stdout)
    assert obj["state"] == "timeout"  # the trickle lasts ten seconds; it stopped at its deadline


def test_without_json_prints_a_readable_line(server: LocalServer) -> None:
    done = run_command(server.url("/mixed"))
    assert done.returncode == 0
    assert done.stdout.startswith("redirect_temporary  200  ")


def test_batch_prints_one_object_per_url_and_a_summary(server: LocalServer, tmp_path: Path) -> None:
    urls = [server.url("/ok"), server.url("/temp"), server.url("/status/404"), "not a url", "file:///etc/passwd", server.url("/status/503")]
    batch = tmp_path / "urls.txt"
    batch.write_text("\n".join(urls) + "\n\n")
    done = run_command("--batch", str(batch), "--concurrency", "4", "--host-concurrency", "2", "--timeout", "5")
    assert done.returncode == 1  # not everything is ok
    objects = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(list(obj) == JSON_KEYS for obj in objects)
    assert {obj["url"]: obj["state"] for obj in objects} == {
        urls[0]: "ok",
        urls[1]: "redirect_temporary",
        urls[2]: "not_found",
        urls[3]: "invalid_url",
        urls[4]: "blocked",
        urls[5]: "server_error",
    }
    assert "checked 6 URLs" in done.stderr


def test_batch_of_good_links_exits_0(server: LocalServer, tmp_path: Path) -> None:
    batch = tmp_path / "urls.txt"
    batch.write_text(f"{server.url('/ok')}\n{server.url('/perm1')}\n")
    done = run_command("--batch", str(batch))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2


@pytest.mark.parametrize("args", [(), ("http://example.com/", "--batch", "x.txt"), ("--batch", "/nonexistent/urls.txt")])
def test_usage_errors_print_nothing_on_stdout(args: tuple[str, ...]) -> None:
    done = run_command(*args)
    assert done.returncode == 2
    assert done.stdout == ""
