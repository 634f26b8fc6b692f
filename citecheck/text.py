"""Sentence splitting, citation markers and match folding for model answers.

Pure functions, no Django. Shared by the citation checker and the claim judge, so the
behaviour here is a contract: change it only together with its tests.

Sentence rules: an answer is split at line ends, after ``.``, ``!`` or ``?``
followed by whitespace, and after the full-width ``。``, ``！``, ``？``. A bracketed number
such as ``[2]``, ``[1, 3]`` or ``[1,3]`` that stands right after a sentence's end
(``... here. [1] Next`` or ``... here.[1] Next``, or alone on the following line) belongs to
that sentence. Each sentence is returned as it stands in the answer, stripped; empty ones
are dropped. The period of an ordered-list number ("2. Install it") does not end a sentence,
so a list item stays one sentence. Abbreviations such as "e.g." may split a sentence in two;
that is accepted.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "MARKER_RE",
    "Marker",
    "Sentence",
    "find_markers",
    "fold_for_match",
    "sentences_with_markers",
    "split_sentences",
]

# A bracketed list of one or more decimal numbers. Digits are capped at 18 per number so
# that int() never sees an absurdly long string; a longer run simply is not a marker.
MARKER_RE = re.compile(r"\[[ \t]*(\d{1,18}(?:[ \t]*,[ \t]*\d{1,18})*)[ \t]*\]")

# The characters str.splitlines() treats as line ends.
_LINE_ENDS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_ASCII_ENDS = frozenset(".!?")
_FULLWIDTH_ENDS = frozenset("。！？")
_INLINE_SPACE = frozenset(" \t")
# Closing quotation marks and brackets that may stand after a sentence's end: `He said "stop." Next`.
_CLOSERS = frozenset('"\u201d\u2019\u00bb\u300d\u300f)\'')

# Curly and other typographic quotes folded onto their straight forms. NFKC already maps
# the full-width quotes (＂ ＇) to straight ones.
_QUOTE_TABLE = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark / apostrophe
        "\u201a": "'",  # single low-9 quotation mark
        "\u201b": "'",  # single high-reversed-9 quotation mark
        "\u02bc": "'",  # modifier letter apostrophe
        "\u2032": "'",  # prime (often typed for an apostrophe)
        "\u201c": '"',  # left double quotation mark
        "\u201d": '"',  # right double quotation mark
        "\u201e": '"',  # double low-9 quotation mark
        "\u201f": '"',  # double high-reversed-9 quotation mark
        "\u2033": '"',  # double prime
    }
)


@dataclass(frozen=True, slots=True)
class Marker:
    """One bracketed citation marker: its numbers and its span [start, end) in the text."""

    numbers: tuple[int, ...]
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of an answer with the citation numbers it carries (in order, repeats kept).

    ``start``/``end`` are offsets into the answer text such that
    ``answer[start:end] == text`` (the sentence is stripped, so the span is too).
    """

    text: str
    numbers: tuple[int, ...]
    start: int
    end: int


def fold_for_match(text: str) -> str:
    """Fold text for the ``normalized`` quote match.

    Defined as: NFKC (full-width letters and digits, ligatures), case folding, NFKC once more
    (case folding can produce characters NFKC maps further), curly quotes and apostrophes to
    straight ones, and every run of whitespace (line breaks included) to one space, with no
    leading or trailing space. Idempotent.

    Speed matters (the checker folds sources of many kilobytes): ASCII is lower-cased in bytes
    and each distinct non-ASCII character is folded once and replaced with ``str.replace``.
    That equals folding the whole string whenever no character can combine with its
    neighbours (combining marks, conjoining Hangul jamo); otherwise the whole string is
    folded the slow way.
    """
    if text.isascii():
        folded = text.lower()
    else:
        data = text.encode("utf-8")
        others = set(data.translate(None, _ASCII_BYTES).decode("utf-8"))
        changes = [(char, _fold_char(char)) for char in others]
        if any(_combines(char) for char in others):
            folded = _fold_slow(text)
        else:
            folded = data.lower().decode("utf-8")
            for char, replacement in changes:
                if replacement != char:
                    folded = folded.replace(char, replacement)
    return _collapse_whitespace(folded)


_ASCII_BYTES = bytes(range(128))
# ASCII characters str.split() treats as whitespace, besides the space and the line feed.
_ASCII_SPACES = "\t\x0b\x0c\r\x1c\x1d\x1e\x1f"


# Whitespace that NFKC leaves alone (all other Unicode whitespace NFKC maps to a space).
_OTHER_SPACES = "\x85\u1680\u2028\u2029"


def _fold_slow(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKC", folded).translate(_QUOTE_TABLE)
        for char in _OTHER_SPACES:
            if char in folded:
                folded = folded.replace(char, " ")
    return folded


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """The slow fold of one character."""
    return _fold_slow(char)


@functools.lru_cache(maxsize=4096)
def _combines(char: str) -> bool:
    """True when the character, or what it folds to, can combine with a neighbour under NFKC."""
    return any(_is_combining(part) for part in char + unicodedata.normalize("NFKC", char) + _fold_char(char))


def _is_combining(char: str) -> bool:
    code = ord(char)
    return (
        unicodedata.category(char).startswith("M")
        or 0x1100 <= code <= 0x11FF
        or 0xA960 <= code <= 0xA97F
        or 0xD7B0 <= code <= 0xD7FF
    )


def _collapse_whitespace(text: str) -> str:
    """Every run of whitespace to one space, none at the ends (text already NFKC-folded).

    Same result as ``" ".join(text.split())`` but several times faster on prose: the rarer
    whitespace characters become line breaks (``str.replace``), lines are stripped and joined,
    and only then is the text searched for runs of spaces inside lines.
    """
    for char in _ASCII_SPACES:
        if char in text:
            text = text.replace(char, "\n")
    if "\n" in text:
        text = " ".join(filter(None, [line.strip(" ") for line in text.split("\n")]))
    else:
        text = text.strip(" ")
    # Each pass at least halves every run of spaces; a few passes cover ordinary text, and
    # split/join keeps the worst case linear.
    for _ in range(4):
        if "  " not in text:
            return text
        text = text.replace("    ", " ").replace("  ", " ")
    return " ".join(text.split())


def find_markers(text: str) -> list[Marker]:
    """Every bracketed citation marker in ``text``, in order."""
    markers: list[Marker] = []
    for match in MARKER_RE.finditer(text):
        numbers = tuple(int(part) for part in match.group(1).replace(" ", "").replace("\t", "").split(","))
        markers.append(Marker(numbers=numbers, start=match.start(), end=match.end()))
    return markers


def _skip_markers(text: str, pos: int, marker_at: dict[int, Marker]) -> int:
    """Position after any markers (each optionally preceded by spaces/tabs) starting at ``pos``."""
    n = len(text)
    while True:
        k = pos
        while k < n and text[k] in _INLINE_SPACE:
            k += 1
        marker = marker_at.get(k)
        if marker is None:
            return pos
        pos = marker.end


def _skip_closers(text: str, pos: int, marker_at: dict[int, Marker]) -> int:
    """Position after the markers and closing quotation marks that end a sentence with it:
    `.[1]`, `."`, `.”`, `?"`, `."[2]`, `.[2]"`."""
    n = len(text)
    while True:
        moved = _skip_markers(text, pos, marker_at)
        while moved < n and text[moved] in _CLOSERS:
            moved += 1
        if moved == pos:
            return pos
        pos = moved


def _is_list_number(piece: str) -> bool:
    """True for the "12" of an ordered-list item "12. text": its period does not end a sentence."""
    piece = piece.strip()
    return 0 < len(piece) <= 3 and piece.isascii() and piece.isdigit()


# Every character that may end a sentence: the cutter jumps from one to the next.
_END_CHAR_RE = re.compile("[" + "".join(re.escape(c) for c in sorted(_LINE_ENDS | _ASCII_ENDS | _FULLWIDTH_ENDS)) + "]")


def _cut_spans(text: str, marker_at: dict[int, Marker]) -> list[tuple[int, int]]:
    """Raw [start, end) pieces of ``text`` between sentence boundaries (not yet stripped)."""
    spans: list[tuple[int, int]] = []
    n = len(text)
    start = 0
    i = 0
    while (found := _END_CHAR_RE.search(text, i)) is not None:
        i = found.start()
        char = text[i]
        if char in _LINE_ENDS:
            spans.append((start, i))
            start = i + 1
            i += 1
            continue
        if char in _ASCII_ENDS and not (char == "." and _is_list_number(text[start:i])):
            end = _skip_closers(text, i + 1, marker_at)
            if end >= n or text[end].isspace():
                spans.append((start, end))
                start = end
                i = end
                continue
        elif char in _FULLWIDTH_ENDS:
            end = _skip_markers(text, i + 1, marker_at)
            spans.append((start, end))
            start = end
            i = end
            continue
        i += 1
    spans.append((start, n))
    return spans


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def sentences_with_markers(text: str) -> list[Sentence]:
    """Split an answer into sentences, each with the citation numbers it carries.

    A piece that holds nothing but markers (e.g. ``[1]`` alone on the line after a sentence)
    is attached to the sentence before it; with no sentence before it, it stands alone.
    """
    markers = find_markers(text)
    marker_at = {marker.start: marker for marker in markers}
    sentences: list[Sentence] = []
    marker_index = 0
    for raw_start, raw_end in _cut_spans(text, marker_at):
        start, end = _strip_span(text, raw_start, raw_end)
        if start == end:
            continue
        numbers: list[int] = []
        only_markers = True
        covered = start
        while marker_index < len(markers) and markers[marker_index].start < end:
            marker = markers[marker_index]
            if marker.start >= start:
                numbers.extend(marker.numbers)
                if text[covered : marker.start].strip():
                    only_markers = False
                covered = marker.end
            marker_index += 1
        if covered == start or text[covered:end].strip():
            only_markers = False
        if only_markers and sentences:
            previous = sentences[-1]
            sentences[-1] = Sentence(
                text=text[previous.start : end],
                numbers=previous.numbers + tuple(numbers),
                start=previous.start,
                end=end,
            )
            continue
        sentences.append(Sentence(text=text[start:end], numbers=tuple(numbers), start=start, end=end))
    return sentences


def split_sentences(text: str) -> list[str]:
    """The answer's sentences as they stand in it, stripped, empty ones dropped.

    Same pieces as :func:`sentences_with_markers`, i.e. a marker right after a sentence end
    is part of that sentence (``"Yes. [1] No."`` -> ``["Yes. [1]", "No."]``).
    """
    return [sentence.text for sentence in sentences_with_markers(text)]
