"""`manage.py extract_passages` on saved pages: no database, JSON lines on stdout and nothing else."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from citecheck.fingerprint import fingerprint
from tests.citecheck.extraction.pdfmaker import make_pdf
from tests.citecheck.extraction.test_extract_html import FOOTER, NAV, SHOP_PAGE

ROOT = Path(__file__).resolve().parents[3]
KEYS = ["file", "heading_path", "anchor", "ordinal", "text", "fingerprint"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    # A database URL that cannot work proves that the command never touches the database.
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none"}
    return subprocess.run(
        [sys.executable, "manage.py", "extract_passages", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_json_output_is_one_object_per_passage_per_line(tmp_path: Path) -> None:
    page = tmp_path / "delivery.html"
    page.write_text(SHOP_PAGE, encoding="utf-8")
    notes = tmp_path / "notes.txt"
    notes.write_text("Returns\n\nItems can be returned within 30 days unless they are personalised.\n", encoding="utf-8")
    pdf = tmp_path / "terms.pdf"
    pdf.write_bytes(make_pdf([["Orders ship within 2 working days."], ["Vouchers expire after 3 years."]]))

    completed = _run(str(page), str(notes), str(pdf), "--json", "--url", "https://shop.example/delivery")

    assert completed.returncode == 0, completed.stderr
    records = [json.loads(line) for line in completed.stdout.splitlines()]
    assert all(list(record) == KEYS for record in records)
    html_records = [r for r in records if r["file"] == str(page)]
    assert [r["heading_path"] for r in html_records][:2] == ["Delivery terms", "Delivery terms > Standard"]
    assert [r["anchor"] for r in html_records][3] == "express"
    assert [r["ordinal"] for r in html_records] == list(range(len(html_records)))
    assert all(r["fingerprint"] == fingerprint(r["text"]) for r in records)
    assert not any(NAV.split()[3] in r["text"] or FOOTER[:20] in r["text"] for r in records)
    assert [(r["heading_path"], r["text"]) for r in records if r["file"] == str(notes)] == [
        ("Returns", "Items can be returned within 30 days unless they are personalised.")
    ]
    assert [(r["anchor"], r["text"]) for r in records if r["file"] == str(pdf)] == [
        ("page=1", "Orders ship within 2 working days."),
        ("page=2", "Vouchers expire after 3 years."),
    ]


def test_readable_listing_without_json(tmp_path: Path) -> None:
    page = tmp_path / "delivery.html"
    page.write_text(SHOP_PAGE, encoding="utf-8")

    completed = _run(str(page))

    assert completed.returncode == 0, completed.stderr
    assert "Delivery terms > Express > Islands" in completed.stdout
    assert "#express-islands" in completed.stdout
    assert "title: Delivery terms of Example Shop" in completed.stdout


def test_an_unreadable_file_exits_2_with_the_reason_on_stderr(tmp_path: Path) -> None:
    good = tmp_path / "notes.txt"
    good.write_text("Returns\n\nWithin 30 days.\n", encoding="utf-8")
    missing = tmp_path / "missing.html"

    completed = _run(str(missing), str(good), "--json")

    assert completed.returncode == 2
    assert str(missing) in completed.stderr
    assert [json.loads(line)["text"] for line in completed.stdout.splitlines()] == ["Within 30 days."]


def test_unsupported_content_is_reported_and_prints_no_passage(tmp_path: Path) -> None:
    image = tmp_path / "logo.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe")

    completed = _run(str(image), "--json")

    assert completed.returncode == 1
    assert completed.stdout == ""
    assert "unsupported_content" in completed.stderr
