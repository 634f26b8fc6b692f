"""The built-in judge: decides from the passage's own words, with no model.

Deterministic and fast (thousands of pairs per second on one core); English and Polish.
Every verdict it gives is labelled heuristic (``heuristic=True`` and a ``[heuristic]``
rationale prefix), because rules over words are a first line of defence, not understanding.

How it reads a claim against a passage:

1. Both texts are tokenised; numbers written as words or digits ("three", "1,000", "14,99",
   "twelve-month", "dwuletnia") become *quantities* with a dimension and unit (money with its
   currency, durations, mass, length, volume, percentages, clock times, dates, counts of a
   noun), a range ("3 to 5", "od 3 do 5") and a bound ("up to" = max, "at least" = min).
   "Free of charge" is a price of zero.
2. Each sentence is cut into *segments* at commas and conjunctions. A quantity belongs to the
   words of its segment; a segment with no subject of its own ("... and the last on 1 January")
   inherits the previous segment's words, minus words it replaces from the same *contrast group*
   (first/last, adult/child, standard/express, ...).
3. Each quantity of the claim is matched to the passage quantity of the same dimension whose
   words fit best. Same value -> that part is supported (if every word of the claim's segment is
   found there); a different value for the same quantity -> contradicted, even when the claim's
   number appears elsewhere in the passage; no quantity of that kind for those words -> unstated.
4. A part of the claim with no number is matched to the passage segment that holds all of its
   words; a flipped negation or modal ("may"/"may not", "includes"/"excludes", "is required"/
   "is not required", "must"/"may") -> contradicted.
5. Parts combine: any contradicted -> ``contradicted``; all supported -> ``supported``; some
   supported and some unstated -> ``partly_supported``; nothing supported -> ``unsupported``.
   A passage of menu/navigation text only -> ``unsupported``; an empty passage -> ``unavailable``.
   It never answers ``supported`` when a part is contradicted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from citecheck.judges import Verdict, empty_authorship, validate_verdict
from citecheck.judges import lexicon as lx
from citecheck.text import sentences_with_markers

__all__ = ["BUILTIN_VERSION", "HEURISTIC_PREFIX", "BuiltinJudge", "detect_language"]

BUILTIN_VERSION = "builtin-1"
HEURISTIC_PREFIX = "[heuristic] "
JUDGE_NAME = "builtin"

# --- folding & tokenising --------------------------------------------------------------------

_FOLD = str.maketrans(
    "ąćęłńóśźżĄĆĘŁŃÓŚŹŻàáâäãåèéêëìíîïòôöõùúûüýÿçñÀÁÂÄÃÅÈÉÊËÌÍÎÏÒÔÖÕÙÚÛÜÝÇÑ’",
    "acelnoszzacelnoszzaaaaaaeeeeiiiioooouuuuyycnaaaaaaeeeeiiiioooouuuuycn'",
)


def _fold(word: str) -> str:
    return word.lower().translate(_FOLD)


_TOKEN_RE = re.compile(
    r"(?P<iso>\b\d{4}-\d{1,2}-\d{1,2}\b)"
    r"|(?P<dnum>\b\d{1,2}[./]\d{1,2}[./]\d{4}\b)"
    r"|(?P<clock>\b\d{1,2}:\d{2}\b)"
    r"|(?P<num>\d{1,3}(?:[,\u00a0\u202f ]\d{3})+(?!\d)(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
    r"|(?P<word>[^\W\d_]+(?:['’\-][^\W\d_]+)*)"
    r"|(?P<sym>[€$£¥%+\-–—/|»›·&•>])"
    r"|(?P<punct>[,;:.!?()])"
)

W, NUM, SYM, PUNCT, DATE, CLOCK = "w", "n", "s", "p", "d", "c"


@dataclass(slots=True)
class _Tok:
    kind: str
    text: str  # folded
    start: int
    end: int
    value: float = 0.0
    date: tuple[int | None, int | None, frozenset[int] | None] | None = None
    is_word_number: bool = False


def _parse_number(raw: str, lang: str) -> float:
    text = raw.replace("\u00a0", "").replace("\u202f", "")
    if " " in text:
        text = text.replace(" ", "")
    if "," in text and "." in text:
        text = text.replace(",", "")
    elif "," in text:
        head, _, tail = text.rpartition(",")
        if len(tail) == 3 and text.count(",") >= 1 and lang == lx.EN:
            text = text.replace(",", "")
        elif len(tail) == 3 and text.count(",") > 1:
            text = text.replace(",", "")
        else:
            text = head.replace(",", "") + "." + tail
    elif "." in text and lang == lx.PL:
        head, _, tail = text.rpartition(".")
        if len(tail) == 3:
            text = text.replace(".", "")
    try:
        return float(text)
    except ValueError:
        return 0.0


def _tokenize(text: str, lang: str, base: int = 0) -> list[_Tok]:
    toks: list[_Tok] = []
    number_words = lx.NUMBER_WORDS[lang]
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        raw = match.group()
        start, end = match.start() + base, match.end() + base
        if kind == "word":
            folded = _fold(raw)
            if "-" in folded:
                # "twelve-month", "six-berth": a number word first is split off; other
                # hyphenated words ("e-books", "non-refundable", "check-in") stay whole.
                first, _, rest = folded.partition("-")
                if first in number_words:
                    cut = match.start() + len(first) + base
                    toks.append(_Tok(NUM, first, start, cut, float(number_words[first]), is_word_number=True))
                    toks.append(_Tok(SYM, "-", cut, cut + 1))
                    for piece in re.finditer(r"[^-]+", rest):
                        p_start = cut + 1 + piece.start()
                        value = number_words.get(piece.group())
                        if value is not None:
                            toks.append(_Tok(NUM, piece.group(), p_start, p_start + len(piece.group()), float(value),
                                             is_word_number=True))
                        else:
                            toks.append(_Tok(W, piece.group(), p_start, p_start + len(piece.group())))
                    continue
            value = number_words.get(folded)
            if value is not None:
                toks.append(_Tok(NUM, folded, start, end, float(value), is_word_number=True))
            else:
                toks.append(_Tok(W, folded, start, end))
        elif kind == "num":
            toks.append(_Tok(NUM, raw, start, end, _parse_number(raw, lang)))
        elif kind == "iso":
            y, m, d = (int(part) for part in raw.split("-"))
            toks.append(_Tok(DATE, raw, start, end, date=(y, m, frozenset({d}))))
        elif kind == "dnum":
            d, m, y = (int(part) for part in re.split(r"[./]", raw))
            toks.append(_Tok(DATE, raw, start, end, date=(y, m, frozenset({d}))))
        elif kind == "clock":
            hours, minutes = raw.split(":")
            toks.append(_Tok(CLOCK, raw, start, end, float(int(hours) * 60 + int(minutes))))
        elif kind == "sym":
            toks.append(_Tok(SYM, raw, start, end))
        else:
            toks.append(_Tok(PUNCT, raw, start, end))
    return _merge_number_words(toks)


_TENS = {20, 30, 40, 50, 60, 70, 80, 90}


def _merge_number_words(toks: list[_Tok]) -> list[_Tok]:
    """"twenty-one" -> 21, "two hundred" -> 200, "dwa tysiace" -> 2000."""
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == NUM and tok.is_word_number:
            value = tok.value
            end = tok.end
            j = i + 1
            while j < len(toks):
                nxt = toks[j]
                hyphen = nxt.kind == SYM and nxt.text == "-" and j + 1 < len(toks)
                candidate = toks[j + 1] if hyphen else nxt
                if candidate.kind != NUM or not candidate.is_word_number:
                    break
                if candidate.text in lx.MULTIPLIER_WORDS:
                    value = (value or 1) * lx.MULTIPLIER_WORDS[candidate.text]
                elif value in _TENS and 1 <= candidate.value <= 9:
                    value += candidate.value
                elif value >= 100 and candidate.value < 100 and value % 100 == 0:
                    value += candidate.value
                else:
                    break
                end = candidate.end
                j = j + 2 if hyphen else j + 1
            if j > i + 1:
                out.append(_Tok(NUM, tok.text, tok.start, end, value, is_word_number=True))
                i = j
                continue
        elif tok.kind == NUM and i + 1 < len(toks) and toks[i + 1].text in lx.MULTIPLIER_WORDS:
            mult = toks[i + 1]
            out.append(_Tok(NUM, tok.text, tok.start, mult.end, tok.value * lx.MULTIPLIER_WORDS[mult.text]))
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


# --- stemming ----------------------------------------------------------------------------------

_EN_SUFFIXES = ("ing", "ed", "es", "er", "s", "e", "ly")


def _stem_en(word: str) -> str:
    word = lx.SYNONYMS[lx.EN].get(word, word)
    for _ in range(2):
        for suffix in _EN_SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        else:
            break
    return word[:5]


_PL_ENDINGS = ("ami", "ach", "owi", "ego", "emu", "ych", "ich", "ymi", "imi", "ow", "om", "em", "ej", "ie",
               "ym", "im", "a", "o", "e", "y", "i", "u")


def _stem_pl(word: str) -> str:
    word = lx.SYNONYMS[lx.PL].get(word, word)
    for _ in range(2):
        for ending in _PL_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
        else:
            break
    return word[:5]


_STEMMERS = {lx.EN: _stem_en, lx.PL: _stem_pl}


@lru_cache(maxsize=65536)
def _stem(word: str, lang: str) -> str:
    return _STEMMERS[lang](word)


def _contrast_groups(lang: str) -> list[frozenset[str]]:
    return [frozenset(_stem(_fold(word), lang) for word in group) for group in lx.CONTRAST_GROUPS]


_GROUPS = {lang: _contrast_groups(lang) for lang in (lx.EN, lx.PL)}
_GROUP_WORDS = {lang: frozenset().union(*groups) for lang, groups in _GROUPS.items()}
_IMPLIED = {
    lang: {dim: frozenset(_stem(_fold(word), lang) for word in words) for dim, words in lx.IMPLIED_BY_DIMENSION.items()}
    for lang in (lx.EN, lx.PL)
}


def detect_language(text: str) -> str:
    """``pl`` when the text looks Polish (letters with Polish diacritics or Polish function
    words outnumbering English ones), else ``en``."""
    if re.search(r"[ąćęłńśźżĄĆĘŁŃŚŹŻ]", text):
        return lx.PL
    words = re.findall(r"[a-z]+", text[:2000].lower())
    pl_hits = sum(1 for word in words if word in _PL_MARKERS)
    en_hits = sum(1 for word in words if word in _EN_MARKERS)
    return lx.PL if pl_hits > en_hits else lx.EN


_PL_MARKERS = {"nie", "jest", "sa", "w", "na", "oraz", "sie", "dla", "przez", "od", "z", "ze", "za", "lub"}
_EN_MARKERS = {"the", "is", "are", "and", "of", "to", "in", "for", "with", "not", "on", "be", "you"}


# --- quantities -------------------------------------------------------------------------------


@dataclass(slots=True)
class Quantity:
    dim: str  # money, duration, mass, length, volume, percent, clock, date, count
    unit: str  # EUR, day, workday, kg, count noun stem, "*" (free), ...
    lo: float  # in the dimension's base unit (money: main currency unit)
    hi: float
    raw_lo: float  # as written, in ``unit``
    raw_hi: float
    start: int
    end: int
    tok_start: int
    tok_end: int
    bound: str | None = None
    alts: tuple[float, ...] | None = None
    date: tuple[int | None, int | None, frozenset[int] | None] | None = None
    head: frozenset[str] = frozenset()
    text: str = ""

    def describe(self) -> str:
        return self.text


def _twelve_hour(hour: float, half: str) -> float:
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    return hour * 60


def _is_year(value: float) -> bool:
    return float(value).is_integer() and 1900 <= value <= 2100


def _prev_word(toks: Sequence[_Tok], index: int) -> str:
    return toks[index].text if 0 <= index < len(toks) else ""


class _Extractor:
    """Finds quantities in one token list (one sentence)."""

    def __init__(self, toks: list[_Tok], lang: str, text: str, base: int) -> None:
        self.toks = toks
        self.lang = lang
        self.text = text
        self.base = base
        self.used: set[int] = set()  # token indexes that are part of a quantity
        self.quantities: list[Quantity] = []

    def run(self) -> list[Quantity]:
        toks = self.toks
        i = 0
        while i < len(toks):
            if i in self.used:
                i += 1
                continue
            tok = toks[i]
            consumed = 0
            if tok.kind == DATE:
                consumed = self._add(i, i + 1, "date", "date", 0, 0, date=tok.date)
            elif tok.kind == CLOCK:
                consumed = self._clock(i)
            elif tok.kind == NUM:
                consumed = self._date_from_number(i) or self._number(i)
            elif tok.kind == W and tok.text in lx.MONTHS:
                consumed = self._date_from_month(i)
            if not consumed and tok.kind == W:
                consumed = self._free(i)
            i += max(consumed, 1)
        self.quantities.sort(key=lambda q: q.tok_start)
        return self.quantities

    # -- helpers
    def _add(self, a: int, b: int, dim: str, unit: str, lo: float, hi: float, *, factor: float = 1.0,
             date: tuple[int | None, int | None, frozenset[int] | None] | None = None,
             alts: tuple[float, ...] | None = None, head: frozenset[str] = frozenset(),
             bound_at: int | None = None) -> int:
        bound = self._bound(bound_at if bound_at is not None else a)
        start, end = self.toks[a].start, self.toks[b - 1].end
        self.quantities.append(
            Quantity(
                dim=dim, unit=unit, lo=lo * factor, hi=hi * factor, raw_lo=lo, raw_hi=hi,
                start=start, end=end, tok_start=a, tok_end=b, bound=bound, date=date,
                alts=tuple(v * factor for v in alts) if alts else None, head=head,
                text=self.text[start - self.base : end - self.base],
            )
        )
        self.used.update(range(a, b))
        return b - a

    def _bound(self, at: int) -> str | None:
        words = [self.toks[k].text for k in range(max(0, at - 3), at) if self.toks[k].kind in (W, NUM)]
        for phrase, kind in lx.BOUND_PHRASES[self.lang]:
            n = len(phrase)
            if n <= len(words) and tuple(words[-n:]) == phrase:
                return kind
        return None

    def _word(self, k: int) -> str:
        return self.toks[k].text if 0 <= k < len(self.toks) and self.toks[k].kind in (W, SYM) else ""

    def _clock(self, i: int) -> int:
        toks = self.toks
        lo = toks[i].value
        j = i + 1
        hi = lo
        if j + 1 < len(toks) and toks[j].text in lx.RANGE_JOINERS and toks[j + 1].kind == CLOCK:
            hi = toks[j + 1].value
            j += 2
        return self._add(i, j, "clock", "min", lo, hi)

    def _date_from_number(self, i: int) -> int:
        toks = self.toks
        tok = toks[i]
        if not tok.value.is_integer() or tok.is_word_number:
            return 0
        day = int(tok.value)
        j = i + 1
        days = {day}
        if j < len(toks) and toks[j].kind == W and toks[j].text in {"st", "nd", "rd", "th"}:
            j += 1
        # "25 and 26 December", "24-26 grudnia"
        if (
            j + 1 < len(toks)
            and toks[j].text in {"and", "i", "&", "-", "–", "to", ",", "oraz", "or", "lub"}
            and toks[j + 1].kind == NUM
            and toks[j + 1].value.is_integer()
            and j + 2 < len(toks)
            and toks[j + 2].kind == W
            and toks[j + 2].text in lx.MONTHS
        ):
            days.add(int(toks[j + 1].value))
            j += 2
        if 1 <= day <= 31 and j < len(toks) and toks[j].kind == W and toks[j].text in lx.MONTHS:
            month = lx.MONTHS[toks[j].text]
            j += 1
            year: int | None = None
            if j < len(toks) and toks[j].kind == NUM and _is_year(toks[j].value):
                year = int(toks[j].value)
                j += 1
            return self._add(i, j, "date", "date", 0, 0, date=(year, month, frozenset(days)))
        if _is_year(tok.value) and not self._has_unit_after(i + 1) and not self._currency_before(i):
            return self._add(i, i + 1, "date", "date", 0, 0, date=(int(tok.value), None, None))
        return 0

    def _date_from_month(self, i: int) -> int:
        toks = self.toks
        month = lx.MONTHS[toks[i].text]
        j = i + 1
        if j < len(toks) and toks[j].kind == NUM and toks[j].value.is_integer():
            value = int(toks[j].value)
            if _is_year(value):
                return self._add(i, j + 1, "date", "date", 0, 0, date=(value, month, None))
            if 1 <= value <= 31:
                j += 1
                if j < len(toks) and toks[j].text in {"st", "nd", "rd", "th"}:
                    j += 1
                if j < len(toks) and toks[j].text == ",":
                    j += 1
                year: int | None = None
                if j < len(toks) and toks[j].kind == NUM and _is_year(toks[j].value):
                    year = int(toks[j].value)
                    j += 1
                elif toks[j - 1].text == ",":
                    j -= 1
                return self._add(i, j, "date", "date", 0, 0, date=(year, month, frozenset({value})))
        return 0

    def _has_unit_after(self, j: int) -> bool:
        word = self._word(j)
        return bool(word) and (word in lx.UNITS or word in lx.CURRENCY_AFTER or word in lx.PERCENT_WORDS)

    def _currency_before(self, i: int) -> tuple[str, float] | None:
        word = self._word(i - 1)
        return lx.CURRENCY_BEFORE.get(word) if word else None

    def _free(self, i: int) -> int:
        toks = self.toks
        word = toks[i].text
        for phrase in _FREE_BY_FIRST.get(word, ()):
            n = len(phrase)
            if i + n <= len(toks) and all(toks[i + k].text == phrase[k] for k in range(1, n)):
                return self._add(i, i + n, "money", "*", 0, 0)
        if word in lx.FREE_WORDS:
            return self._add(i, i + 1, "money", "*", 0, 0)
        return 0

    def _number(self, i: int) -> int:
        toks = self.toks
        lo = toks[i].value
        hi = lo
        alts: tuple[float, ...] | None = None
        j = i + 1
        start = i
        currency = self._currency_before(i)
        if currency is not None:
            start = i - 1
        # Polish "do lat 3" (children up to 3 years): the unit comes before the number
        if self.lang == lx.PL and i >= 1 and toks[i - 1].text == "lat":
            return self._add(i - 1, j, "duration", "year", lo, hi, factor=lx.UNITS["lat"][2], bound_at=i - 1)
        # a range: "3 to 5", "3-5", "od 3 do 5", "between 1 and 2", "2–3"
        if j + 1 < len(toks) and toks[j + 1].kind == NUM and j not in self.used:
            joiner = toks[j].text
            opener = _prev_word(toks, start - 1)
            is_range = joiner in {"to", "-", "–", "—", "do", "until", "till"} or (
                joiner in {"and", "i", "a"} and opener in lx.RANGE_OPENERS
            )
            if is_range:
                hi = toks[j + 1].value
                j += 2
                if hi < lo:
                    lo, hi = hi, lo
            elif joiner in {"or", "lub", "albo", "and", "i", "oraz", ","}:
                values = [lo, toks[j + 1].value]
                j += 2
                while j + 1 < len(toks) and toks[j].text in {"or", "lub", "albo", "and", "i", ","} and toks[j + 1].kind == NUM:
                    values.append(toks[j + 1].value)
                    j += 2
                alts = tuple(values)
        elif j + 2 < len(toks) and currency and toks[j].text in {"-", "–", "to", "do"} and toks[j + 1].kind == SYM and toks[j + 2].kind == NUM:
            hi = toks[j + 2].value  # "£5-£10"
            j += 3
        bound_at = start - 1 if start > 0 and toks[start - 1].kind == W and toks[start - 1].text in {"from", "od", "between", "miedzy"} and hi != lo else start
        if currency is not None:
            code, factor = currency
            return self._add(start, j, "money", code, lo, hi, factor=factor, alts=alts, bound_at=bound_at)
        # unit after the number, maybe after a hyphen ("12-month") or "working" ("5 working days")
        k = j
        hyphen = k < len(toks) and toks[k].kind == SYM and toks[k].text in {"-", "–"}
        if hyphen:
            k += 1
        word = toks[k].text if k < len(toks) and toks[k].kind in (W, SYM) else ""
        working = False
        if word in lx.WORKING_BEFORE and k + 1 < len(toks) and toks[k + 1].text in lx.UNITS:
            working = True
            k += 1
            word = toks[k].text
        elif word in lx.CALENDAR_WORDS and k + 1 < len(toks) and toks[k + 1].text in lx.UNITS:
            k += 1
            word = toks[k].text
        if word in lx.CURRENCY_AFTER and not hyphen:
            code, factor = lx.CURRENCY_AFTER[word]
            return self._add(start, k + 1, "money", code, lo, hi, factor=factor, alts=alts, bound_at=bound_at)
        if word in lx.PERCENT_WORDS and not hyphen:
            return self._add(start, k + 1, "percent", "%", lo, hi, alts=alts, bound_at=bound_at)
        if word in {"am", "pm"} and not hyphen and lo <= 12:
            lo_min = _twelve_hour(lo, word)
            hi_min = _twelve_hour(hi, word)
            end = k + 1
            # "9 am to 5 pm"
            if (
                lo == hi and end + 2 < len(toks) and toks[end].text in {"to", "-", "–", "until", "till"}
                and toks[end + 1].kind == NUM and toks[end + 2].text in {"am", "pm"}
            ):
                hi_min = _twelve_hour(toks[end + 1].value, toks[end + 2].text)
                end += 3
            return self._add(start, end, "clock", "min", lo_min, hi_min, bound_at=bound_at)
        if word in lx.UNITS:
            dim, unit, factor = lx.UNITS[word]
            end = k + 1
            if unit == "day" and end < len(toks) and toks[end].text in lx.WORKING_AFTER:
                working = True
                end += 1
            if working and unit == "day":
                unit = "workday"
            head = self._head(end) if hyphen else frozenset()
            if end < len(toks) and toks[end].text == "old" and unit == "year":
                end += 1
            return self._add(start, end, dim, unit, lo, hi, factor=factor, alts=alts, head=head, bound_at=bound_at)
        if word and self.lang == lx.PL:
            compound = _pl_compound_unit(word)
            if compound and hyphen:
                dim, unit, factor = lx.UNITS[_UNIT_WORD[compound]]
                return self._add(start, k + 1, dim, unit, lo, hi, factor=factor, alts=alts, head=self._head(k + 1), bound_at=bound_at)
        if _is_year(lo) and hi == lo and not alts:
            return 0
        noun = ""
        if word and toks[k].kind == W and word not in lx.STOPWORDS[self.lang] and word not in lx.NEGATORS[self.lang]:
            noun = _stem(word, self.lang)
        elif toks[i].text in lx.TIMES_WORDS:
            noun = "times"
        end = k + 1 if (noun and hyphen) else j
        head = self._head(k + 1) if (noun and hyphen) else frozenset()
        return self._add(start, end, "count", noun, lo, hi, alts=alts, head=head, bound_at=bound_at)

    def _head(self, k: int) -> frozenset[str]:
        """Content words right after an attributive quantity ("180-day period" -> period)."""
        out: list[str] = []
        toks = self.toks
        while k < len(toks) and len(out) < 1 and toks[k].kind == W:
            word = toks[k].text
            if word in lx.STOPWORDS[self.lang]:
                break
            out.append(_stem(word, self.lang))
            k += 1
        return frozenset(out)


_FREE_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _phrase in sorted(lx.FREE_PHRASES, key=len, reverse=True):
    _FREE_BY_FIRST.setdefault(_phrase[0], []).append(_phrase)

_UNIT_WORD = {"year": "year", "month": "month", "week": "week", "day": "day", "hour": "hour"}


@lru_cache(maxsize=8192)
def _pl_compound_unit(word: str) -> str | None:
    for stem, unit in lx.PL_COMPOUND_UNIT.items():
        if word.startswith(stem):
            return unit
    return None


@lru_cache(maxsize=8192)
def _pl_compound(word: str) -> tuple[float, str] | None:
    """"dwuletniej" -> (2, year)."""
    for prefix, value in lx.PL_COMPOUND_PREFIX.items():
        if word.startswith(prefix):
            unit = _pl_compound_unit(word[len(prefix) :])
            if unit:
                return value, unit
    return None


# --- segments ------------------------------------------------------------------------------


@dataclass(slots=True)
class Polarity:
    modal: str | None  # obligatory / permitted / prohibited / optional
    parity: int  # 1 when the statement is negated (once, or an odd number of times)
    signal: bool  # any negator, modal or negative concept word at all

    def effective(self) -> int:
        if self.modal is None:
            return self.parity
        return 1 if self.modal in ("prohibited", "optional") else 0


def _polarity_compatible(a: Polarity, b: Polarity) -> bool:
    if a.modal and b.modal:
        return a.modal == b.modal or {a.modal, b.modal} == {"permitted", "optional"}
    return a.effective() == b.effective()


@dataclass(slots=True)
class Segment:
    own: set[str]
    inh: set[str]
    ctx: frozenset[str]
    polarity: Polarity
    quantities: list[Quantity]
    sentence: int
    start: int
    end: int
    words: int = 0

    @property
    def key(self) -> set[str]:
        return self.own | self.inh


_SEGMENT_CONJ = {
    lx.EN: {"and", "but", "while", "whereas", "however", "although", "though", "whilst", "plus"},
    lx.PL: {"a", "ale", "oraz", "i", "lecz", "natomiast", "zas", "jednak", "jednakze", "podczas"},
}
_PART_CONJ = {
    lx.EN: {"and", "but", "while", "whereas", "however", "although", "whilst", "plus"},
    lx.PL: {"a", "ale", "oraz", "i", "lecz", "natomiast", "zas", "jednak"},
}


_STRONG_OBLIGATION = {"must", "shall", "nalezy", "wolno"}


def _polarity(toks: Sequence[_Tok], lang: str) -> Polarity:
    negators = lx.NEGATORS[lang]
    neg = 0
    obligation = permission = prohibition = optional = prohibit_by_negation = False
    signal = False
    prev = ""
    for k, tok in enumerate(toks):
        if tok.kind != W:
            prev = tok.text
            continue
        word = tok.text
        if word in negators or word.endswith("n't"):
            if not (word == "no" and k + 1 < len(toks) and toks[k + 1].text in {"later", "more", "longer"}):
                neg += 1
                signal = True
            if word in {"cannot", "can't", "mustn't"} or word.endswith("n't") and word[:-3] in {"can", "may", "must"}:
                permission = permission or word != "mustn't"
                obligation = obligation or word == "mustn't"
        elif word in lx.PROHIBITION[lang]:
            prohibition = signal = True
        elif word in lx.OPTIONAL[lang]:
            optional = signal = True
        elif word in lx.NEGATIVE_CONCEPT[lang]:
            neg += 1
            signal = True
        elif word in lx.OBLIGATION[lang]:
            if word in {"need", "needs", "have", "has"}:
                if k + 1 < len(toks) and toks[k + 1].text == "to":
                    obligation = signal = True
            else:
                obligation = signal = True
                # "must not" / "shall not" / "nie nalezy" forbid; "need not" / "nie musi" do not oblige
                if word in _STRONG_OBLIGATION and k + 1 < len(toks) and toks[k + 1].text in negators:
                    prohibit_by_negation = True
                if lang == lx.PL and word in _STRONG_OBLIGATION and k >= 1 and toks[k - 1].text == "nie":
                    prohibit_by_negation = True
        elif word in ("have", "has") and k + 1 < len(toks) and toks[k + 1].text == "to":
            obligation = signal = True
        elif word in lx.PERMISSION[lang]:
            permission = signal = True
        elif lang == lx.PL and word.startswith("nie") and len(word) > 5 and word[3:] in lx.PERMISSION[lang]:
            neg += 1
            permission = signal = True
        prev = word
    del prev
    parity = neg % 2
    modal: str | None = None
    if prohibit_by_negation and not permission and not prohibition:
        modal = "prohibited" if parity == 1 else "obligatory"
    elif prohibition:
        modal = "prohibited" if parity == 0 else "permitted"
    elif optional:
        modal = "optional" if parity == 0 else "obligatory"
    elif obligation:
        modal = "obligatory" if parity == 0 else "optional"
    elif permission:
        modal = "permitted" if parity == 0 else "prohibited"
    return Polarity(modal=modal, parity=parity, signal=signal)


_POLARITY_WORDS = {
    lang: frozenset().union(lx.NEGATORS[lang], lx.OBLIGATION[lang], lx.PERMISSION[lang], lx.PROHIBITION[lang],
                            lx.OPTIONAL[lang], lx.NEGATIVE_CONCEPT[lang], lx.FREE_WORDS)
    for lang in (lx.EN, lx.PL)
}


def _is_polarity_word(word: str, lang: str) -> bool:
    return word in _POLARITY_WORDS[lang] or word.endswith("n't")


def _content(toks: Iterable[_Tok], used: set[int], lang: str, offset: int) -> list[str]:
    stop = lx.STOPWORDS[lang]
    polar = _POLARITY_WORDS[lang]
    out = []
    for index, tok in enumerate(toks, start=offset):
        if tok.kind != W or index in used:
            continue
        word = tok.text
        if word in stop or word in polar or len(word) == 1 or word.endswith("n't"):
            continue
        if lang == lx.PL and word.startswith("nie") and word[3:] in lx.PERMISSION[lang]:
            continue
        out.append(_stem(word, lang))
    return out


def _drop_replaced(inherited: set[str], own: set[str], lang: str) -> set[str]:
    result = set(inherited)
    for group in _GROUPS[lang]:
        if own & group:
            result -= group - own
    return result


@dataclass(slots=True)
class _Analysis:
    lang: str
    segments: list[Segment]
    sentences: list[tuple[int, int]]
    all_words: frozenset[str]
    navigation: bool
    empty: bool
    topic: frozenset[str] = frozenset()
    parts: list[list[int]] = field(default_factory=list)  # segment indexes of each part


def _split_sentences(text: str) -> list[tuple[int, int]]:
    return [(s.start, s.end) for s in sentences_with_markers(text)]


def _is_navigation_line(toks: Sequence[_Tok]) -> bool:
    words = sum(1 for t in toks if t.kind == W)
    marks = sum(1 for t in toks if t.kind == SYM and t.text in lx.NAVIGATION_MARKS)
    ends = bool(toks) and toks[-1].kind == PUNCT and toks[-1].text in ".!?"
    if marks >= 2:
        return True
    if any(t.text in {"©", "rights", "zastrzezone", "cookies"} for t in toks):
        return True
    return words < 4 or (not ends and words < 6)


def _analyse(text: str, lang: str, *, claim: bool) -> _Analysis:
    sentences = _split_sentences(text)
    segments: list[Segment] = []
    parts: list[list[int]] = []
    all_words: set[str] = set()
    prose = 0
    for s_index, (s_start, s_end) in enumerate(sentences):
        stext = text[s_start:s_end]
        toks = _tokenize(stext, lang, base=s_start)
        if not toks:
            continue
        if not _is_navigation_line(toks):
            prose += 1
        extractor = _Extractor(toks, lang, text, 0)
        for tok in toks:  # the Polish compound adjectives: "dwuletnia gwarancja"
            if lang == lx.PL and tok.kind == W:
                compound = _pl_compound(tok.text)
                if compound:
                    tok.kind, tok.value, tok.is_word_number = NUM, float(compound[0]), True
        _expand_pl_compounds(toks, lang)
        quantities = extractor.run()
        used = extractor.used
        # cut into segments
        bounds: list[tuple[int, int]] = []
        cut_at = 0
        part_breaks: set[int] = set()
        conj = _SEGMENT_CONJ[lang]
        word_counts = [0]  # word_counts[k] = words and numbers before token k
        for tok in toks:
            word_counts.append(word_counts[-1] + (tok.kind in (W, NUM)))
        for k, tok in enumerate(toks):
            if k in used:
                continue
            is_cut = (tok.kind == PUNCT and tok.text in ",;:()") or (tok.kind == W and tok.text in conj)
            if is_cut:
                if k > cut_at:
                    bounds.append((cut_at, k))
                cut_at = k + 1
                if tok.text == ";" or (tok.kind == W and tok.text in _PART_CONJ[lang]):
                    left = word_counts[k]
                    right = word_counts[-1] - word_counts[k + 1]
                    if tok.text == ";" or (left >= 3 and right >= 3):
                        part_breaks.add(len(bounds))
        if cut_at < len(toks):
            bounds.append((cut_at, len(toks)))
        ctx_words = frozenset(_content(toks, used, lang, 0))
        all_words |= ctx_words
        previous: Segment | None = None
        pending_empty: list[Segment] = []
        for b_index, (a, b) in enumerate(bounds):
            seg_toks = toks[a:b]
            own = set(_content(seg_toks, used, lang, a))
            pol = _polarity(seg_toks, lang)
            seg_quantities = [q for q in quantities if a <= q.tok_start < b]
            inh: set[str] = set()
            if previous is not None:
                inh = _drop_replaced(previous.key, own, lang)
                if not pol.signal and len(own) < 2:
                    pol = previous.polarity
            segment = Segment(
                own=own, inh=inh, ctx=ctx_words, polarity=pol, quantities=seg_quantities,
                sentence=s_index, start=toks[a].start, end=toks[b - 1].end,
                words=sum(1 for t in seg_toks if t.kind in (W, NUM)),
            )
            if not own:
                pending_empty.append(segment)
            else:
                for empty in pending_empty:  # "From 1 April 2025, the fee is ..." : the date takes the next words
                    empty.inh |= _drop_replaced(own, empty.own, lang)
                pending_empty = []
            if b_index in part_breaks or not parts or b_index == 0:
                parts.append([])
            parts[-1].append(len(segments))
            segments.append(segment)
            previous = segment
    navigation = not claim and bool(segments) and prose == 0
    # The first sentence usually names the page's topic ("Council tax bills are sent in March");
    # its words count as known context everywhere, except words that pick one alternative.
    topic = frozenset(segments[0].ctx - _GROUP_WORDS[lang]) if segments and not claim else frozenset()
    return _Analysis(
        lang=lang, segments=segments, sentences=sentences, all_words=frozenset(all_words),
        navigation=navigation, empty=not text.strip(), parts=parts, topic=topic,
    )


def _expand_pl_compounds(toks: list[_Tok], lang: str) -> None:
    """A word like "dwuletnia" became a number; give it its unit by inserting nothing: the
    extractor reads the unit from the word itself through ``_COMPOUND_UNITS``."""
    if lang != lx.PL:
        return
    for index, tok in enumerate(toks):
        if tok.kind == NUM and tok.is_word_number and _pl_compound(tok.text):
            unit = _pl_compound(tok.text)[1]  # type: ignore[index]
            # Insert a synthetic unit token right after the number (same position, zero width).
            toks.insert(index + 1, _Tok(W, _UNIT_WORD[unit], tok.end, tok.end))


@lru_cache(maxsize=512)
def _analyse_passage(passage: str, lang: str) -> _Analysis:
    return _analyse(passage, lang, claim=False)


@lru_cache(maxsize=2048)
def _analyse_claim(claim: str, lang: str) -> _Analysis:
    return _analyse(claim, lang, claim=True)


# --- comparing quantities --------------------------------------------------------------------

MATCH, MISMATCH, WITHIN, INCOMPARABLE = "match", "mismatch", "within", "incomparable"


def _comparable(claim_q: Quantity, passage_q: Quantity) -> bool:
    if claim_q.dim != passage_q.dim:
        return False
    if claim_q.dim == "count":
        return not claim_q.unit or not passage_q.unit or claim_q.unit == passage_q.unit
    if claim_q.dim == "date":
        a, b = claim_q.date, passage_q.date
        if a is None or b is None:
            return False
        return any(x is not None and y is not None for x, y in zip(a, b, strict=True))
    return True


def _close(a: float, b: float, exact: bool) -> bool:
    if exact:
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return abs(a - b) <= 0.01 * max(abs(a), abs(b), 1e-9)


def _compare(c: Quantity, p: Quantity) -> str:
    if c.dim == "date":
        assert c.date is not None and p.date is not None
        (cy, cm, cd), (py, pm, pd) = c.date, p.date
        if cy is not None and py is not None and cy != py:
            return MISMATCH
        if cm is not None and pm is not None and cm != pm:
            return MISMATCH
        if cd is not None and pd is not None and not cd <= pd:
            return MISMATCH
        if c.bound and p.bound and c.bound != p.bound:
            return MISMATCH
        return MATCH
    if c.bound and p.bound and c.bound != p.bound:
        return MISMATCH
    if c.dim == "money":
        if c.unit == "*" or p.unit == "*":
            zero_c, zero_p = c.hi == 0, p.hi == 0
            if zero_c and zero_p:
                return MATCH
            return MISMATCH
        if c.unit != p.unit:
            return MISMATCH  # another currency
    exact = c.unit == p.unit
    if c.dim == "duration" and {c.unit, p.unit} == {"day", "workday"}:
        exact = True  # "5 days" vs "5 working days": the same count of days
    elif c.dim == "duration" and "workday" in (c.unit, p.unit) and c.unit != p.unit:
        return MISMATCH
    if p.alts:
        values = [c.lo] if not c.alts else list(c.alts)
        return MATCH if all(any(_close(v, alt, exact) for alt in p.alts) for v in values) else MISMATCH
    if c.alts:
        return MISMATCH
    if _close(c.lo, p.lo, exact) and _close(c.hi, p.hi, exact):
        return MATCH
    if c.lo == c.hi and p.lo < c.lo < p.hi:
        return WITHIN
    return MISMATCH


# --- the judge -------------------------------------------------------------------------------

SUPPORTED, CONTRADICTED, UNSTATED = "supported", "contradicted", "unstated"


@dataclass(slots=True)
class _Fact:
    outcome: str
    note: str
    sentence: int | None = None


def _contrast_conflict(claim_words: set[str], passage_words: set[str], lang: str,
                       groups: Iterable[int] | None = None) -> bool:
    all_groups = _GROUPS[lang]
    indexes = range(len(all_groups)) if groups is None else groups
    for index in indexes:
        group = all_groups[index]
        mine = claim_words & group
        theirs = passage_words & group
        if mine and theirs and not (mine & theirs):
            return True
    return False


def _judge_quantity(q: Quantity, key: set[str], claim_words: set[str], part_pol: Polarity,
                    passage: _Analysis, lang: str) -> _Fact:
    label = q.text.strip() or q.dim
    candidates = [
        (segment, p)
        for segment in passage.segments
        for p in segment.quantities
        if _comparable(q, p)
    ]
    if not candidates:
        return _Fact(UNSTATED, f"the passage states no {_DIM_NAMES.get(q.dim, q.dim)} to compare with '{label}'")
    key = key - _IMPLIED[lang].get(q.dim, frozenset())
    if not key:
        return _Fact(UNSTATED, f"'{label}' is not tied to anything the passage names")
    scored: list[tuple[float, float, float, Segment, Quantity]] = []
    for segment, p in candidates:
        ownish = segment.key
        if _contrast_conflict(key, ownish, lang):
            continue
        m_own = len(key & segment.own)
        m_inh = len((key & segment.inh) - segment.own)
        if m_own + m_inh == 0:
            continue  # the value's own words say nothing the claim says
        m_ctx = len((key & segment.ctx) - ownish)
        score = m_own + 0.6 * m_inh + 0.3 * m_ctx - 0.01 * len(ownish - key)
        if p.head and not (p.head & claim_words):
            score -= 1.0
        if q.head and not (q.head & (ownish | segment.ctx)):
            score -= 1.0
        # Coverage for a contradiction counts the value's own sentence only; for support the
        # page's topic words (its first sentence) count too ("council tax" named once on top).
        coverage = (m_own + m_inh + m_ctx) / len(key)
        support_coverage = len(key & (ownish | segment.ctx | passage.topic)) / len(key)
        scored.append((score, coverage, support_coverage, segment, p))
    if not scored:
        return _Fact(UNSTATED, f"the passage gives '{label}'-like values only for other cases")
    top = max(item[0] for item in scored)
    if top <= 0:
        return _Fact(UNSTATED, f"no value in the passage belongs to what the claim says '{label}' is for")
    tied = [item for item in scored if item[0] >= top - 0.05]
    outcomes = [(_compare(q, p), coverage, support, segment, p) for _, coverage, support, segment, p in tied]
    for outcome, _coverage, support, segment, p in outcomes:
        if outcome == MATCH and support >= 0.999:
            if not _polarity_compatible(part_pol, segment.polarity) and (part_pol.signal or segment.polarity.signal):
                return _Fact(CONTRADICTED, f"the passage states '{p.text}' with the opposite negation or modal",
                             segment.sentence)
            return _Fact(SUPPORTED, f"'{label}' matches the passage's '{p.text}'", segment.sentence)
    if any(outcome == MATCH for outcome, *_ in outcomes):
        return _Fact(UNSTATED, f"'{label}' appears, but not for everything the claim ties it to")
    best = max(outcomes, key=lambda item: item[1])
    outcome, coverage, _support, segment, p = best
    if outcome == MISMATCH and coverage >= 0.75:
        return _Fact(CONTRADICTED, f"the passage gives '{p.text}' where the claim says '{label}'", segment.sentence)
    if outcome == WITHIN:
        return _Fact(UNSTATED, f"'{label}' lies inside the passage's '{p.text}' but is not stated")
    return _Fact(UNSTATED, f"the passage does not state '{label}' for this")


_DIM_NAMES = {"money": "price or amount", "duration": "duration", "mass": "weight", "length": "length",
              "volume": "volume", "percent": "percentage", "clock": "time of day", "date": "date",
              "count": "number"}


def _judge_statement(key: set[str], pol: Polarity, passage: _Analysis, lang: str) -> _Fact:
    best: tuple[tuple[float, float, int], Segment] | None = None
    for segment in passage.segments:
        ownish = segment.key
        own_cover = len(key & ownish) / len(key)
        rank = (len(key & (ownish | passage.topic)) / len(key) if own_cover >= 0.5 else own_cover,
                own_cover, -len(ownish - key))
        if best is None or rank > best[0]:
            best = (rank, segment)
    if best is None:
        return _Fact(UNSTATED, "the passage says nothing on this")
    coverage, segment = best[0][0], best[1]
    words = " ".join(sorted(key))
    role_groups = lx.EXCLUSIVE_ROLE_GROUPS
    if coverage >= 0.75 and _contrast_conflict(key, segment.key, lang, role_groups):
        rest = key - set().union(*(_GROUPS[lang][g] for g in role_groups))
        if rest and rest <= segment.key:
            return _Fact(CONTRADICTED, "the passage names a different party for this", segment.sentence)
    compatible = _polarity_compatible(pol, segment.polarity)
    if coverage >= 0.999:
        if compatible:
            return _Fact(SUPPORTED, f"the passage states this ({words})", segment.sentence)
        return _Fact(CONTRADICTED, "the passage states this with the opposite negation or modal", segment.sentence)
    if coverage >= 0.75 and not compatible and (pol.signal or segment.polarity.signal):
        return _Fact(CONTRADICTED, "the passage states this with the opposite negation or modal", segment.sentence)
    return _Fact(UNSTATED, "the passage is on the topic but does not state this")


class BuiltinJudge:
    """The default judge: rules over the passage's own words; no model, no network."""

    name = JUDGE_NAME
    model = "rules"
    prompt_version = BUILTIN_VERSION

    def __init__(self, **config: Any) -> None:
        if config:
            raise TypeError(f"the builtin judge takes no configuration (got {sorted(config)})")

    def judge(self, claim: str, passage: str) -> Verdict:
        verdict = self._judge(claim, passage)
        return validate_verdict(verdict, passage)

    def _verdict(self, status: str, rationale: str, span: str | None = None,
                 span_start: int | None = None) -> Verdict:
        return Verdict(
            status=status, span=span, rationale=HEURISTIC_PREFIX + rationale, judge=self.name,
            model=self.model, prompt_version=self.prompt_version, heuristic=True, span_start=span_start,
        )

    def _judge(self, claim: str, passage: str) -> Verdict:
        if not passage.strip():
            return self._verdict("unavailable", "the passage is empty: there is nothing to check against")
        if not claim.strip():
            return self._verdict("unsupported", "the claim is empty")
        lang = detect_language(claim + " " + passage[:600])
        page = _analyse_passage(passage, lang)
        if page.navigation:
            return self._verdict("unsupported", "the passage is navigation or menu text only, not evidence")
        stated = _analyse_claim(claim, lang)
        claim_words = set(stated.all_words)
        facts: list[_Fact] = []
        for part in stated.parts:
            segments = [stated.segments[k] for k in part]
            part_key = set().union(*(s.own for s in segments)) if segments else set()
            part_pol = _merge_polarity([s.polarity for s in segments])
            quantities = [(s, q) for s in segments for q in s.quantities]
            if quantities:
                for segment, q in quantities:
                    # A claim segment with a subject of its own is judged by its own words;
                    # a gapped one ("... and the last on 1 May") by the words it inherits.
                    key = set(segment.own) if len(segment.own) >= 2 else segment.key
                    key = key or part_key or set(claim_words)
                    # "costs" belongs to the price, not to the duration in the same segment.
                    for other in segment.quantities:
                        if other is not q:
                            key -= _IMPLIED[lang].get(other.dim, frozenset())
                    facts.append(_judge_quantity(q, key, claim_words, part_pol, page, lang))
            elif part_key:
                facts.append(_judge_statement(part_key, part_pol, page, lang))
        if not facts:
            return self._verdict("unsupported", "the claim holds nothing the passage could back")
        contradicted = [f for f in facts if f.outcome == CONTRADICTED]
        supported = [f for f in facts if f.outcome == SUPPORTED]
        if contradicted:
            status, chosen = "contradicted", contradicted
        elif len(supported) == len(facts):
            status, chosen = "supported", supported
        elif supported:
            status, chosen = "partly_supported", supported
        else:
            notes = "; ".join(dict.fromkeys(f.note for f in facts))
            return self._verdict("unsupported", notes)
        span, start = _span(passage, page, chosen)
        notes = "; ".join(dict.fromkeys(f.note for f in (contradicted or facts)))
        if span is None:
            return self._verdict("unsupported", notes)
        return self._verdict(status, notes, span, start)

    def equivalent(self, claim_a: str, claim_b: str) -> bool:
        """True when both claims have the same content words (Jaccard >= 0.7), the same
        quantities and the same polarity: used to deduplicate claims across sources."""
        lang = detect_language(claim_a + " " + claim_b)
        a, b = _analyse_claim(claim_a, lang), _analyse_claim(claim_b, lang)
        words_a, words_b = set(a.all_words), set(b.all_words)
        if not words_a or not words_b:
            return claim_a.strip().lower() == claim_b.strip().lower()
        jaccard = len(words_a & words_b) / len(words_a | words_b)
        if jaccard < 0.7:
            return False
        qa = sorted(_quantity_signature(q) for s in a.segments for q in s.quantities)
        qb = sorted(_quantity_signature(q) for s in b.segments for q in s.quantities)
        if qa != qb:
            return False
        pa = _merge_polarity([s.polarity for s in a.segments])
        pb = _merge_polarity([s.polarity for s in b.segments])
        return _polarity_compatible(pa, pb) and pa.modal == pb.modal

    def authorship(self, page_text: str) -> dict[str, Any]:
        return extract_authorship(page_text)


def _quantity_signature(q: Quantity) -> tuple[str, str, float, float, str]:
    if q.dim == "date":
        return ("date", repr(q.date), 0.0, 0.0, q.bound or "")
    unit = q.unit if q.dim in ("money", "count") else ""
    return (q.dim, unit, round(q.lo, 6), round(q.hi, 6), q.bound or "")


def _merge_polarity(polarities: Sequence[Polarity]) -> Polarity:
    signalled = [p for p in polarities if p.signal]
    if not signalled:
        return polarities[0] if polarities else Polarity(None, 0, False)
    return signalled[0]


def _span(passage: str, page: _Analysis, facts: Sequence[_Fact]) -> tuple[str | None, int | None]:
    indexes = sorted({f.sentence for f in facts if f.sentence is not None})
    if not indexes:
        return None, None
    start = page.sentences[indexes[0]][0]
    end = page.sentences[indexes[-1]][1]
    return passage[start:end], start


# --- authorship ---------------------------------------------------------------------------------

_AUTHOR_RE = re.compile(
    r"^\s*(?:by|author|authors|written by|autor|autorka|autorzy|autorem jest|tekst)\s*[:\-–]?\s*(?P<names>.+)$",
    re.IGNORECASE | re.MULTILINE,
)
_NAME_RE = re.compile(r"^(?:(?:Dr|Prof|Mgr|Inż|dr|prof|mgr|hab)\.?\s+)*[A-ZŁŚŻŹĆŃÓ][\w'’\-]+(?:\s+[A-ZŁŚŻŹĆŃÓ][\w'’\-]+){1,3}$")
_AFFILIATION_RE = re.compile(
    r"((?:[A-ZŁŚŻŹĆŃÓ][\w'’\-]*[ \t]+){0,4}(?:University|Institute|College|Hospital|Ministry|Department|Agency|"
    r"Office|Council|Uniwersytet|Instytut|Politechnika|Szpital|Ministerstwo|Urząd|Akademia)"
    r"(?:[ \t]+(?:(?:of|for|the|and|w|we|im\.)[ \t]+)?[A-ZŁŚŻŹĆŃÓ][\w'’\-]*){0,5})"
)
_PUBLICATION_RE = re.compile(
    r"(?:published in|publisher|journal|source|opublikowano w|wydawca|źródło|czasopismo)\s*[:\-–]?\s*(?P<pub>[^\n.]{2,80})",
    re.IGNORECASE,
)


def extract_authorship(page_text: str) -> dict[str, Any]:
    """Authors, affiliation and publication named on the page, each None when absent.

    Only what the page states in a by-line ("By Jane Doe", "Autor: Jan Kowalski"), an
    institution name, or a "Published in" / "Źródło:" line; nothing is guessed.
    """
    result = empty_authorship()
    head = page_text[:4000]
    authors: list[str] = []
    for match in _AUTHOR_RE.finditer(head):
        for name in re.split(r",|\band\b|\bi\b|&|;", match.group("names")):
            name = name.strip(" .\t")
            if _NAME_RE.match(name) and not _AFFILIATION_RE.search(name) and name not in authors:
                authors.append(name)
        if authors:
            break
    if authors:
        result["authors"] = authors
    affiliation = _AFFILIATION_RE.search(head)
    if affiliation:
        result["affiliation"] = affiliation.group(1).strip()
    publication = _PUBLICATION_RE.search(head)
    if publication:
        result["publication"] = publication.group("pub").strip()
    return result
