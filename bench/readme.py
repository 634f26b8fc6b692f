"""Writes one benchmark's section of bench/README.md, keeping every other section as it is."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"


def write_section(name: str, body: str, command: str, *, title: str | None = None) -> None:
    """Replace the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` (or
    append it) with a heading, the date, the command that produced the figures, and `body`."""
    start, end = f"<!-- bench:{name}:start -->", f"<!-- bench:{name}:end -->"
    today = dt.date.today().isoformat()
    section = f"{start}\n## {title or name}\n\nMeasured {today} with `{command}`.\n\n{body.rstrip()}\n{end}"
    existing = README.read_text(encoding="utf-8") if README.exists() else "# Benchmarks\n"
    if start in existing and end in existing:
        before, _, rest = existing.partition(start)
        _, _, after = rest.partition(end)
        updated = before + section + after
    else:
        updated = existing.rstrip("\n") + "\n\n" + section + "\n"
    README.write_text(updated, encoding="utf-8")
