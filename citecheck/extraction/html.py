"""HTML pages: main content only (trafilatura), headings and their anchors, the displayed title and date."""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING

from htmldate import find_date
from trafilatura import bare_extraction, utils
from trafilatura.utils import load_html
from trafilatura.xml import xmltotxt

from citecheck.extraction.model import ContentKind, ExtractionResult, ExtractionStatus
from citecheck.extraction.sections import Outline, collapse, section_passages

logger = logging.getLogger(__name__)

if TYPE_CHECKING:

    from lxml.etree import _Element
    from lxml.html import HtmlElement

















# --------------------------------------------------------------------------- HTML

_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_SECTION_TAGS = frozenset({"section", "article", "div", "main"})
_FIRST_HEADING = ".//h1|.//h2|.//h3|.//h4|.//h5|.//h6"
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _match_key(text: str) -> str:
    return collapse(unicodedata.normalize("NFKC", text)).casefold()


def _clean_anchor(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value[:200] or None


def _source_anchor(heading: HtmlElement) -> str | None:
    """The id a browser can jump to for this heading in the original page, if any."""
    own = _clean_anchor(heading.get("id"))
    if own:
        return own
    for inner in heading.iterdescendants():
        inner_id = _clean_anchor(inner.get("id") or (inner.get("name") if inner.tag == "a" else None))
        if inner_id:
            return inner_id
    before = heading.getprevious()
    if before is not None and before.tag == "a" and not collapse(before.text_content()):
        before_id = _clean_anchor(before.get("id") or before.get("name"))
        if before_id:
            return before_id
    parent = heading.getparent()
    for _ in range(3):
        if parent is None or parent.tag not in _SECTION_TAGS:
            break
        parent_id = _clean_anchor(parent.get("id"))
        if parent_id:
            first = parent.xpath(_FIRST_HEADING)
            return parent_id if first and first[0] is heading else None
        parent = parent.getparent()
    return None


def _source_anchors(tree: HtmlElement) -> dict[str, list[str | None]]:
    """Anchors of the source page's headings, by heading text, in document order."""
    anchors: dict[str, list[str | None]] = defaultdict(list)
    for heading in tree.iter(*_HEADING_TAGS):
        key = _match_key(heading.text_content())
        if key:
            anchors[key].append(_source_anchor(heading))
    return anchors


def _html_title(tree: HtmlElement) -> str | None:
    for xpath in ('//meta[@property="og:title"]/@content', '//meta[@name="twitter:title"]/@content', "//title"):
        for found in tree.xpath(xpath):
            text = collapse(found if isinstance(found, str) else found.text_content())
            if text:
                return text
    for heading in tree.iter("h1"):
        text = collapse(heading.text_content())
        if text:
            return text
    return None


def _html_date(tree: HtmlElement, url: str | None) -> str | None:
    try:
        found = find_date(tree, url=url, extensive_search=False, original_date=False)
    except Exception:  # htmldate is best effort; a page without a date is still a page
        logger.debug("extract.date_failed", exc_info=True)
        return None
    return found if isinstance(found, str) and _DATE_RE.match(found) else None


def _heading_level(element: _Element) -> int:
    rend = element.get("rend") or ""
    if len(rend) == 2 and rend[0] == "h" and rend[1] in "123456":
        return int(rend[1])
    return 2


_CONTAINER_TAGS = frozenset({"div", "article", "section"})


def _walk_body(body: _Element, outline: Outline, source_anchors: dict[str, list[str | None]]) -> None:
    for element in body:
        if element.tag == "head":
            title = collapse("".join(element.itertext()))
            if title:
                candidates = source_anchors.get(_match_key(title))
                outline.heading(_heading_level(element), title, candidates.pop(0) if candidates else None)
            if element.tail and element.tail.strip():
                outline.block(element.tail)
        elif element.tag in _CONTAINER_TAGS and element.find(".//head") is not None:
            if element.text and element.text.strip():
                outline.block(element.text)
            _walk_body(element, outline, source_anchors)
            if element.tail and element.tail.strip():
                outline.block(element.tail)
        else:
            text = xmltotxt(element, False)
            if text:
                outline.block(text)


# libxml2's HTML parser stops reading (silently) at this nesting depth.
PARSER_MAX_DEPTH = 255


def _parser_out_of_memory() -> bool:
    """Whether trafilatura's HTML parser gave up for lack of memory (it then returns no tree)."""

    parser = getattr(utils, "HTML_PARSER", None)
    log = getattr(parser, "error_log", None) or []
    return any("NO_MEMORY" in str(entry.type_name) for entry in log)


# Whether some element sits PARSER_MAX_DEPTH levels deep (the root is level 1), asked of
# libxml2 in C: a walk of the tree in Python costs about 3% of an extraction.
_AT_MAX_DEPTH = "boolean(/*" + "/*" * (PARSER_MAX_DEPTH - 1) + ")"


def _depth_reached(tree: HtmlElement) -> bool:
    """Whether the parse stopped at the parser's depth limit (the rest of the page is lost)."""
    return bool(tree.getroottree().xpath(_AT_MAX_DEPTH))


def extract_html(body: bytes | str, url: str | None, max_chars: int) -> ExtractionResult:
    tree = load_html(body)
    if tree is None:
        if _parser_out_of_memory():
            raise MemoryError("the HTML parser could not allocate memory")
        return ExtractionResult(status=ExtractionStatus.EMPTY, kind=ContentKind.HTML)
    if _depth_reached(tree):
        return ExtractionResult(
            status=ExtractionStatus.ERROR,
            kind=ContentKind.HTML,
            error=f"the page nests its elements {PARSER_MAX_DEPTH} or more levels deep, beyond what the HTML parser "
            "reads; its content could not be extracted",
        )
    source_anchors = _source_anchors(tree)
    title = _html_title(tree)
    # bare_extraction works on its own copy of the tree, so ours stays intact for the date.
    document = bare_extraction(
        tree,
        url=url,
        output_format="txt",
        include_comments=False,
        include_tables=True,
        include_images=False,
        include_links=False,
        include_formatting=False,
        deduplicate=False,
    )
    date = _html_date(tree, url)
    if document is None or isinstance(document, dict) or document.body is None:
        return ExtractionResult(status=ExtractionStatus.EMPTY, title=title, date=date, kind=ContentKind.HTML)
    outline = Outline()
    _walk_body(document.body, outline, source_anchors)
    passages = section_passages(outline.sections, max_chars)
    status = ExtractionStatus.OK if passages else ExtractionStatus.EMPTY
    return ExtractionResult(status=status, passages=passages, title=title, date=date, kind=ContentKind.HTML)
