"""RQ entry points of reviews."""

from __future__ import annotations

from sources.services import version_test


def run_tests(version_id: int, again: bool = False) -> None:
    version_test(version_id=version_id, again=again)
