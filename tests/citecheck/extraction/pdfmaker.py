"""A minimal hand-written PDF (Helvetica text, one content stream per page) for the tests.

pypdf reads but does not lay out text, so the tests build their PDFs here instead of pulling in a
PDF-writing library.
"""

from __future__ import annotations


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(pages: list[list[str]], *, title: str | None = None, mod_date: str | None = None) -> bytes:
    """A PDF whose page i shows the lines pages[i] top to bottom (Latin-1 text only)."""
    objects: list[bytes] = []
    page_count = len(pages)
    font_id = 3 + 2 * page_count
    info_id = font_id + 1
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(page_count))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {page_count} >>".encode())
    for index, lines in enumerate(pages):
        content_id = 4 + 2 * index
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {content_id} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        commands = ["BT", "/F1 11 Tf", "14 TL", "72 720 Td"]
        for line in lines:
            commands.append(f"({_escape(line)}) Tj T*")
        commands.append("ET")
        stream = "\n".join(commands).encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    info = []
    if title is not None:
        info.append(f"/Title ({_escape(title)})")
    if mod_date is not None:
        info.append(f"/ModDate ({mod_date})")
    objects.append(f"<< {' '.join(info)} >>".encode("latin-1"))

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, info_id, xref)
    return bytes(out)
