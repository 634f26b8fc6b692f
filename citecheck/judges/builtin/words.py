"""Tokens of the built-in judge: folding, tokenising, number words, stemming, language.

Numbers written as words or digits ("three", "1,000", "14,99", "twelve-month") become number
tokens; ISO and day-month-year dates and clock times get their own kinds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from citecheck.judges import lexicon as lx

# --- folding & tokenising --------------------------------------------------------------------

_FOLD = str.maketrans(
    "ąćęłńóśźżĄĆĘŁŃÓŚŹŻàáâäãåèéêëìíîïòôöõùúûüýÿçñÀÁÂÄÃÅÈÉÊËÌÍÎÏÒÔÖÕÙÚÛÜÝÇÑ’čėįšųūžČĖĮŠŲŪŽ",
    "acelnoszzacelnoszzaaaaaaeeeeiiiioooouuuuyycnaaaaaaeeeeiiiioooouuuuycn'ceisuuzceisuuz",
)


def _fold(word: str) -> str:
    lowered = word.lower()
    # Every character _FOLD maps is outside ASCII: an ASCII word (most English) needs no table walk.
    return lowered if lowered.isascii() else lowered.translate(_FOLD)


_TOKEN_RE = re.compile(
    # A run of letters that neither a digit, a hyphen, an apostrophe nor "_" follows is a plain word: tried
    # first, it is the commonest token, and none of the branches below can read it otherwise (each of them
    # needs a digit, a hyphen or an apostrophe after the letters); it spares each word their failed tries.
    r"(?P<plain>[^\W\d_]+)(?![\w'’\-])|"
    # names with digits ("COVID-19", "SARS-CoV-2", "H1N1") and decades ("1960s") are words, not numbers
    # ... and so are a film's or a screen's dimensions ("seans 3D", "2D"), names, not two or three of something
    r"(?P<ident>\b[^\W\d_]+(?:-[^\W_]+)*-\d+\b|\b[^\W\d_]+\d+[^\W\d_]+\d*\b|\b\d{4}s\b|\b[234]D\b)"
    r"|(?P<iso>\b\d{4}-\d{1,2}-\d{1,2}\b)"
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
    elif "." in text and lang in (lx.PL, lx.LT):
        head, _, tail = text.rpartition(".")
        if len(tail) == 3:
            text = text.replace(".", "")
    try:
        return float(text)
    except ValueError:
        return 0.0


# A token as a word piece gives it: (kind, folded text, start and end within the word, value, is a number word).
_Piece = tuple[str, str, int, int, float, bool]


@lru_cache(maxsize=131072)
def _word_pieces(raw: str, lang: str) -> tuple[_Piece, ...]:
    """The tokens one word match becomes (a per-word cache: words recur across every text). Most words
    are one piece; "twelve-month" is a number, a hyphen and a word; Lithuanian "negalima" is "ne" "galima"."""
    folded = _fold(raw)
    number_words = lx.NUMBER_WORDS[lang]
    if "-" in folded:
        # "twelve-month", "six-berth": a number word first is split off; other
        # hyphenated words ("e-books", "non-refundable", "check-in") stay whole.
        first, _, rest = folded.partition("-")
        if first in number_words:
            cut = len(first)
            pieces: list[_Piece] = [(NUM, first, 0, cut, float(number_words[first]), True), (SYM, "-", cut, cut + 1, 0.0, False)]
            for piece in re.finditer(r"[^-]+", rest):
                p_start = cut + 1 + piece.start()
                p_end = p_start + len(piece.group())
                value = number_words.get(piece.group())
                if value is not None:
                    pieces.append((NUM, piece.group(), p_start, p_end, float(value), True))
                else:
                    pieces.append((W, piece.group(), p_start, p_end, 0.0, False))
            return tuple(pieces)
    if lang == lx.LT and folded.startswith("ne"):
        negated = _lt_negated(folded)
        if negated is not None:  # "negalima" -> "ne" "galima"; "nebeskaiciuojami" -> "ne" "skaiciuojami"
            cut = len(raw) - len(negated)
            return ((W, "ne", 0, cut, 0.0, False), (W, negated, cut, len(raw), 0.0, False))
    value = number_words.get(folded)
    if value is not None:
        return ((NUM, folded, 0, len(raw), float(value), True),)
    return ((W, folded, 0, len(raw), 0.0, False),)


# Per-word memos: a plain dict per language, read with ``.get`` in the judge's innermost loops (a lookup
# costs less than a call to an lru_cache); filled up to WORD_MEMO_MAX words, past which words are
# computed each time. Words recur across every text, so a long-running worker keeps them, like stems.
WORD_MEMO_MAX = 200_000
_WORD_MEMOS: list[dict[str, dict[str, Any]]] = []


def word_memo() -> dict[str, dict[str, Any]]:
    memo: dict[str, dict[str, Any]] = {lang: {} for lang in lx.LANGUAGES}
    _WORD_MEMOS.append(memo)
    return memo


def forget_words() -> None:
    """Empty every per-word memo (the benchmarks time a cold vocabulary with it)."""
    for memo in _WORD_MEMOS:
        for known in memo.values():
            known.clear()


# Plain words (one word token, not a number) and their folded form.
_PLAIN = word_memo()


def _tokenize(text: str, lang: str, base: int = 0) -> list[_Tok]:
    toks: list[_Tok] = []
    numbers = False  # any number token: only then can number words merge
    plain = _PLAIN[lang]
    for match in _TOKEN_RE.finditer(text):
        kind = match.lastgroup
        raw = match.group()
        start, end = match.span()
        if base:
            start, end = start + base, end + base
        if kind == "plain" or kind == "word":  # the commonest kinds first
            folded_plain = plain.get(raw)
            if folded_plain is not None:
                toks.append(_Tok(W, folded_plain, start, end))
                continue
            pieces = _word_pieces(raw, lang)
            if len(pieces) == 1 and pieces[0][0] == W and len(plain) < WORD_MEMO_MAX:
                plain[raw] = pieces[0][1]
            if len(pieces) == 1:
                piece_kind, folded, _, _, value, is_word_number = pieces[0]
                if is_word_number:
                    numbers = True
                    toks.append(_Tok(piece_kind, folded, start, end, value, None, True))
                else:
                    toks.append(_Tok(piece_kind, folded, start, end))
            else:
                for piece_kind, folded, p_start, p_end, value, is_word_number in pieces:
                    numbers = numbers or is_word_number
                    toks.append(_Tok(piece_kind, folded, start + p_start, start + p_end, value, None, is_word_number))
        elif kind == "punct":
            toks.append(_Tok(PUNCT, raw, start, end))
        elif kind == "num":
            numbers = True
            toks.append(_Tok(NUM, raw, start, end, _parse_number(raw, lang)))
        elif kind == "ident":
            toks.append(_Tok(W, _fold(raw), start, end))
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
    if lang == lx.EN and "-" in text and _AGE_GROUP_RE.search(text):
        toks = _en_age_groups(toks)
    if lang == lx.EN and "'" in text:
        # "one month's notice", "three months' notice": the unit itself, which the quantities read
        toks = [_Tok(W, tok.text[:-2] if tok.text.endswith("'s") else tok.text[:-1], tok.start, tok.end)
                if tok.kind == W and tok.text[-2:] in _UNIT_POSSESSIVE_ENDS and tok.text.rstrip("'s") in _EN_UNIT_BASES
                else tok for tok in toks]
    toks = _merge_number_words(toks) if numbers else toks
    if _PHRASE_FIRST[lang]:
        toks = _rewrite_phrases(toks, lang)
    if lang == lx.EN:
        toks = _en_rewrites(toks)
    if lang == lx.LT:
        toks = _lt_vat(toks)
    return toks


def _en_rewrites(toks: list[_Tok]) -> list[_Tok]:
    """The English rewrites only some texts need (a stretch of days, "below that", times in words), each tried
    when the words it reads are there: one set of the text's words, not a scan of the tokens per rewrite."""
    texts = {tok.text for tok in toks}
    if not texts.isdisjoint(_EN_DAY_MONTHS) and not texts.isdisjoint(_EN_DAY_RANGE_JOINERS):
        toks = _en_day_ranges(toks)
    if not texts.isdisjoint(_EN_BELOW) and not texts.isdisjoint(_EN_BELOW_WHAT):
        toks = _en_below_that(toks)
        texts = {tok.text for tok in toks}  # (it repeats the words of "orders over £500")
    if not texts.isdisjoint(_CLOCK_TRIGGERS):
        toks = _en_clock_words(toks)
    return toks


_EN_DAY_RANGE_JOINERS = frozenset({"and", "to", "until", "till", "-", "–"})
_EN_DAY_MONTHS = frozenset(lx.MONTHS) - {"may"}  # "may" is more often the modal


def _en_day_ranges(toks: list[_Tok]) -> list[_Tok]:
    """"between 1 and 24 December", "from 1 to 24 December": the month said once belongs to both ends of the
    stretch, read as "1 December to 24 December" (not the day 1 of nothing and 24 December), and so does a year
    after it. A list ("on 25 and 26 December") is left to the dates' own reading of several days; nothing after a
    currency sign ("£5 to 24 December") is touched."""
    out: list[_Tok] = []
    for i, tok in enumerate(toks):
        out.append(tok)
        if (tok.kind == NUM and i + 3 < len(toks) and toks[i + 1].text in _EN_DAY_RANGE_JOINERS
                and (toks[i + 1].text != "and" or (i >= 1 and toks[i - 1].text == "between"))
                and toks[i + 2].kind == NUM and toks[i + 3].kind == W and toks[i + 3].text in _EN_DAY_MONTHS
                and not (i >= 1 and toks[i - 1].kind == SYM) and tok.text.isdigit() and toks[i + 2].text.isdigit()
                and 1 <= tok.value < toks[i + 2].value <= 31):
            out.append(_Tok(W, toks[i + 3].text, tok.end, tok.end))
            year = toks[i + 4] if i + 4 < len(toks) else None
            if year is not None and year.kind == NUM and len(year.text) == 4 and year.text.isdigit():
                out.append(_Tok(NUM, year.text, tok.end, tok.end, year.value))  # "25 and 26 December 2025"
    return out


_EN_BELOW = frozenset({"below", "under"})
_EN_BELOW_WHAT = frozenset({"that", "this"})
_EN_ABOVE = frozenset({"over", "above"})
_EN_BELOW_NOUNS = frozenset({"amount", "value", "level", "threshold", "figure"})


def _en_below_that(toks: list[_Tok]) -> list[_Tok]:
    """"Free on orders over £500; below that a flat fee of £39 applies": "below that" / "under this (amount)" is
    the amount the sentence named over, said the other way: read as "orders under £500", so the second price
    holds under the threshold the claim may name ("for orders under £500, you pay £39")."""
    out: list[_Tok] = []
    above: list[_Tok] | None = None  # the last "orders over £500" read: its noun, currency and number
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == W and tok.text in _EN_ABOVE and i + 1 < len(toks):
            nxt = toks[i + 1]
            amount = ([nxt, toks[i + 2]] if nxt.kind == SYM and i + 2 < len(toks) and toks[i + 2].kind == NUM
                      else [nxt, toks[i + 2]] if nxt.kind == NUM and i + 2 < len(toks) and toks[i + 2].kind == SYM
                      else [])
            if amount:
                noun = [out[-1]] if out and out[-1].kind == W and out[-1].text not in lx.STOPWORDS[lx.EN] else []
                above = [*noun, *amount]
        if (above is not None and tok.kind == W and tok.text in _EN_BELOW and i + 1 < len(toks)
                and toks[i + 1].text in _EN_BELOW_WHAT):
            n = 3 if i + 2 < len(toks) and toks[i + 2].text in _EN_BELOW_NOUNS else 2
            start, end = tok.start, toks[i + n - 1].end
            noun, amount = above[:-2], above[-2:]
            out.extend(_Tok(t.kind, t.text, start, end, t.value) for t in (*noun, _Tok(W, "under", start, end), *amount))
            i += n
            continue
        out.append(tok)
        i += 1
    return out


_AGE_GROUP_RE = re.compile(r"(?i)\b(?:under|over)-\w+s\b")


def _en_age_groups(toks: list[_Tok]) -> list[_Tok]:
    """"under-fives", "over-sixties" as "under-5s" is read: "under", "-", the number, "s"; and an age group under
    18 ("under-5s", "under-16s") names children, as the claim may ("children under five")."""
    out: list[_Tok] = []
    for tok in toks:
        if (tok.kind == W and tok.text == "s" and len(out) >= 3 and out[-1].kind == NUM and out[-1].value <= 18
                and out[-2].text == "-" and out[-3].text == "under"):
            out.append(_Tok(W, "children", tok.start, tok.end))
            continue
        head, _, rest = tok.text.partition("-")
        number = (rest[:-3] + "y" if rest.endswith("ies") else rest[:-1]) if head in ("under", "over") else ""
        value = lx.NUMBER_WORDS[lx.EN].get(number) if tok.kind == W and number else None
        if value is None:
            out.append(tok)
            continue
        cut = tok.start + len(head)
        tail = "children" if head == "under" and value <= 18 else "s"
        out.extend((_Tok(W, head, tok.start, cut), _Tok(SYM, "-", cut, cut + 1),
                    _Tok(NUM, number, cut + 1, tok.end - 1, float(value), None, True), _Tok(W, tail, tok.end - 1, tok.end)))
    return out


_UNIT_POSSESSIVE_ENDS = frozenset({"'s", "s'"})
_EN_UNIT_BASES = frozenset({"minute", "hour", "day", "week", "month", "year", "night", "fortnight"})
_CLOCK_TRIGGERS = frozenset({"morning", "afternoon", "evening", "half", "quarter", *lx.CLOCK_NOON_WORDS})


def _hour(tok: _Tok) -> int | None:
    return int(tok.value) if tok.kind == NUM and tok.value.is_integer() and 1 <= tok.value <= 12 else None


def _en_clock_words(toks: list[_Tok]) -> list[_Tok]:
    """English times of day in words as the clock tokens the quantities read: "half past six" -> 6:30,
    "quarter to nine" -> 8:45, "11 in the morning" -> 11 am, "4 in the afternoon" -> 4 pm, "(12) noon" -> 12 pm,
    "midnight" -> 12 am."""
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if i + 2 < len(toks) and (tok.text, toks[i + 1].text) in lx.CLOCK_PAST_TO and _hour(toks[i + 2]) is not None:
            minutes = lx.CLOCK_PAST_TO[(tok.text, toks[i + 1].text)]
            hour = _hour(toks[i + 2]) or 0
            value = float(hour * 60 + minutes if minutes > 0 else (hour - 1) * 60 + 60 + minutes)
            out.append(_Tok(CLOCK, f"{int(value // 60)}:{int(value % 60):02d}", tok.start, toks[i + 2].end, value))
            i += 3
            continue
        half = lx.CLOCK_NOON_WORDS.get(tok.text) if tok.kind == W else None
        if half is not None:
            if out and out[-1].kind == NUM and out[-1].value == 12:  # "12 noon"
                out.pop()
            out.extend((_Tok(NUM, "12", tok.start, tok.end, 12.0), _Tok(W, half, tok.start, tok.end)))
            i += 1
            continue
        if out and out[-1].kind in (NUM, CLOCK) and (out[-1].kind == CLOCK or _hour(out[-1]) is not None):
            for phrase, half in lx.CLOCK_DAY_PARTS.items():
                n = len(phrase)
                if tuple(t.text for t in toks[i : i + n]) == phrase:
                    out.append(_Tok(W, half, tok.start, toks[i + n - 1].end))
                    i += n
                    break
            else:
                out.append(tok)
                i += 1
            continue
        out.append(tok)
        i += 1
    return out


# lx.PHRASE_EQUIVALENTS by first word (one-word phrases) and by first two words (longer ones), longest first:
# a token tries only the phrases that its own and the next word open, not every phrase of its first word.
_Phrase = tuple[tuple[str, ...], tuple[str, ...]]
_PHRASES_ONE: dict[str, dict[str, list[_Phrase]]] = {lang: {} for lang in lx.LANGUAGES}
_PHRASES_TWO: dict[str, dict[tuple[str, str], list[_Phrase]]] = {lang: {} for lang in lx.LANGUAGES}
for _lang, _pairs in lx.PHRASE_EQUIVALENTS.items():
    for _phrase, _said in sorted(_pairs, key=lambda pair: len(pair[0]), reverse=True):
        if len(_phrase) == 1:
            _PHRASES_ONE[_lang].setdefault(_phrase[0], []).append((_phrase, _said))
        else:
            _PHRASES_TWO[_lang].setdefault((_phrase[0], _phrase[1]), []).append((_phrase, _said))
_PHRASE_FIRST = {lang: frozenset(_PHRASES_ONE[lang]) | frozenset(first for first, _ in _PHRASES_TWO[lang])
                 for lang in lx.LANGUAGES}


def _rewrite_phrases(toks: list[_Tok], lang: str) -> list[_Tok]:
    """Each phrase of lx.PHRASE_EQUIVALENTS read as its one wording ("every day" -> "daily", "half price" ->
    "50 % discount"): new tokens over the phrase's span, so quantities, polarity and words read the same
    wording on both sides."""
    first = _PHRASE_FIRST[lang]
    if not any(tok.text in first for tok in toks):
        return toks  # the cheap test first: most sentences hold no phrase
    one, two = _PHRASES_ONE[lang], _PHRASES_TWO[lang]
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.text not in first:
            out.append(tok)
            i += 1
            continue
        candidates: list[_Phrase] = []
        if i + 1 < len(toks):
            candidates.extend(two.get((tok.text, toks[i + 1].text), ()))
        candidates.extend(one.get(tok.text, ()))
        for phrase, said in candidates:
            n = len(phrase)
            if i + n <= len(toks) and all(toks[i + k].text == phrase[k] for k in range(2, n)):
                start, end = tok.start, toks[i + n - 1].end
                if phrase[0] == "roku" and len(out) >= 2 and out[-1].text == "." and out[-2].kind == NUM:
                    out.pop()  # "do 26. roku życia": the ordinal's dot ends no sentence
                for word in said:
                    if word.isdigit():
                        out.append(_Tok(NUM, word, start, end, float(word)))
                    elif ":" in word:  # a time of day said in words ("wpół do ósmej" -> 7:30)
                        hours, minutes = word.split(":")
                        out.append(_Tok(CLOCK, word, start, end, float(int(hours) * 60 + int(minutes))))
                    else:
                        out.append(_Tok(SYM if word == "%" else W, word, start, end))
                i += n
                break
        else:
            out.append(tok)
            i += 1
    return out


def _lt_vat(toks: list[_Tok]) -> list[_Tok]:
    """"be PVM" -> "neto", "su PVM" / "įskaitant PVM" -> "bruto": a price before or after VAT. (How often
    Lithuanian pages say a thing happens, "kiekvieną dieną", "septynias dienas per savaitę", "kas dvi
    savaites", the quantities read as a frequency.)"""
    if not any(tok.text == "pvm" for tok in toks):
        return toks  # the cheap test first
    out: list[_Tok] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if i + 1 < len(toks) and toks[i + 1].text == "pvm" and tok.text in _LT_VAT:
            out.append(_Tok(W, _LT_VAT[tok.text], tok.start, toks[i + 1].end))
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


_LT_VAT = {"be": "neto", "su": "bruto", "iskaitant": "bruto"}


# Lithuanian words that begin with "ne" without being a negated word.
_LT_NOT_NEGATED = ("nemokam", "neigal", "nelaim", "nekilnojam", "neseniai", "netoli", "nedaug", "neigiam",
                   "nes", "nera", "neto", "nervu", "nestandart", "nesiojam", "neribot")


# A negated active past participle ("nepatikusią prekę", "nepasinaudojusiems") names a kind of thing, like an
# adjective: its "ne" does not deny the sentence ("Nepatikusią prekę galite grąžinti" allows returns).
# The same of a negated adverbial participle ("nenurodydami priežasties", without giving a reason): it says how,
# and "Prekę galite grąžinti nenurodydami priežasties" still allows returns.
_LT_NEGATED_PARTICIPLE = re.compile(r"^ne\w{3,}(us(i|ia|ias|ios|iu|ius|iems|ioms|iai|io|iam|iuose|ioje)|dam(as|a|i|os))$")


# "-duodami" ("neišduodami", "neparduodami") is the passive participle of "-duoti" (are not issued / sold), which
# page text says far more often than the adverbial one it is spelt like: a negation, not a "how".
_LT_GIVEN = ("duodami", "duodama", "duodamas", "duodamos")


@lru_cache(maxsize=65536)
def _lt_negated(word: str) -> str | None:
    """The word a Lithuanian negative prefix ("ne", "nebe") is attached to, or None."""
    if word.startswith(_LT_NOT_NEGATED) or (_LT_NEGATED_PARTICIPLE.search(word) and not word.endswith(_LT_GIVEN)):
        return None
    rest = word[4:] if word.startswith("nebe") and len(word) >= 8 else word[2:]
    return rest if len(rest) >= 4 else None


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
    if word.endswith("'s") and len(word) > 4:  # a possessive: "a year's membership" is about the year
        word = word[:-2]
    elif word.endswith("s'") and len(word) > 4:  # "three months' notice"
        word = word[:-1]
    if word.endswith("ies") and len(word) > 5 and word not in lx.SYNONYMS[lx.EN]:
        word = word[:-3] + "y"  # "studies" / "study", "cities" / "city"
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


_VOWELS = frozenset("aeiouy")


def _trim(stem: str) -> str:
    """The first five letters of a Polish or Lithuanian stem without a vowel at their end: the vowel there
    is mostly the start of an ending or a suffix ("nuoma" / "nuomojamas": "nuom"; "dviratis" / "dviračių":
    "dvir"), so the inflected forms of one word meet."""
    stem = stem[:5]
    while len(stem) > 4 and stem[-1] in _VOWELS:
        stem = stem[:-1]
    return stem


def _stem_pl(word: str) -> str:
    word = lx.SYNONYMS[lx.PL].get(word, word)
    for _ in range(2):
        for ending in _PL_ENDINGS:
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
        else:
            break
    # the genitive plural's inserted "e": "kurtek" / "kurtka", "paczek" / "paczka", "wniosek" / "wniosku"
    if len(word) >= 5 and word.endswith("ek") and word[-3] not in _VOWELS:
        word = word[:-2] + "k"
    return _trim(word)


_LT_ENDINGS = ("iuose", "uose", "omis", "emis", "iems", "ioms", "iais", "ams", "oms", "ems", "ims", "ais",
               "ose", "ese", "yse", "ius", "ios", "iai", "iui", "iu", "as", "is", "ys", "us", "os", "es", "ai",
               "ei", "ui", "am", "om", "a", "e", "i", "o", "u", "y")


# A Lithuanian verb's reflexive "si" after its prefix: "užsisakyti" / "užsakyti", "išsinuomoti" / "išnuomoti".
_LT_REFLEXIVE = re.compile(r"^(issi|uzsi|pasi|nusi|susi|atsi|apsi|prisi|persi)(?=\w{4})")


# A Lithuanian verb's perfective prefix before a consonant: "išnuomoti" / "nuomoti" / "nuoma", "užsakyti" / "sakyti".
_LT_PREFIX = re.compile(r"^(is|uz|at|nu|su|ap)(?=[^aeiouy]\w{3})")


def _stem_lt(word: str) -> str:
    word = lx.SYNONYMS[lx.LT].get(word, word)
    word = _LT_REFLEXIVE.sub(lambda m: m.group(1)[:-2], word)
    word = _LT_PREFIX.sub("", word)
    for ending in _LT_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            word = word[: -len(ending)]
            break
    return _trim(word)


_STEMMERS = {lx.EN: _stem_en, lx.PL: _stem_pl, lx.LT: _stem_lt}


@lru_cache(maxsize=65536)
def _stem(word: str, lang: str) -> str:
    return _STEMMERS[lang](word)


def _contrast_groups(lang: str) -> list[frozenset[str]]:
    return [frozenset(_stem(_fold(word), lang) for word in group) for group in lx.CONTRAST_GROUPS]


_GROUPS = {lang: _contrast_groups(lang) for lang in lx.LANGUAGES}
_GROUP_WORDS = {lang: frozenset().union(*groups) for lang, groups in _GROUPS.items()}
_IMPLIED = {
    lang: {dim: frozenset(_stem(_fold(word), lang) for word in words) for dim, words in lx.IMPLIED_BY_DIMENSION.items()}
    for lang in lx.LANGUAGES
}


def detect_language(text: str) -> str:
    """``lt`` when the text has letters only Lithuanian uses (ė, į, ų, ū), or č/š/ž without Polish
    letters; ``pl`` when it has Polish letters; else the language whose function words are more
    frequent (English on a tie)."""
    if _LT_LETTERS.search(text):
        return lx.LT
    if _PL_LETTERS.search(text):
        return lx.PL
    if _LT_SHARED.search(text):
        return lx.LT
    if _PL_SHARED.search(text):
        # "ą" and "ę" are Lithuanian letters too ("kiekvieną dieną"): the function words decide
        words = re.findall(r"[a-ząę]+", text[:2000].lower())
        lt_hits = sum(map(_LT_MARKERS.__contains__, words))
        return lx.LT if lt_hits > sum(map(_PL_MARKERS.__contains__, words)) else lx.PL
    words = re.findall(r"[a-z]+", text[:2000].lower())
    hits = {lang: sum(map(markers.__contains__, words)) for lang, markers in _MARKERS.items()}
    best = max(hits, key=lambda lang: hits[lang])
    return best if hits[best] > hits[lx.EN] else lx.EN


_LT_LETTERS = re.compile(r"[ėįųūĖĮŲŪ]")
_PL_LETTERS = re.compile(r"[ćłńśźżĆŁŃŚŹŻó]")
_LT_SHARED = re.compile(r"[čšžČŠŽ]")
_PL_SHARED = re.compile(r"[ąęĄĘ]")


_PL_MARKERS = {"nie", "jest", "sa", "w", "na", "oraz", "sie", "dla", "przez", "od", "z", "ze", "za", "lub",
               # words of Polish shop and office pages that no English text uses (a short Polish sentence
               # written without "ćłńśźżó" or with none of the words above: "Bilet kosztuje 5 zl.")
               "zl", "kosztuje", "kosztuja", "dni", "tylko", "przy", "jesli", "jezeli", "albo", "bez", "godz",
               "zwrot", "bilet", "bilety", "dostawa", "wynosi", "trwa", "mozna", "ktore", "ktory", "ktora"}
_EN_MARKERS = {"the", "is", "are", "and", "of", "to", "in", "for", "with", "not", "on", "be", "you"}
_LT_MARKERS = {"ir", "yra", "per", "iki", "nuo", "su", "kad", "tik", "ar", "bei", "kaip", "jei", "arba", "uz",
               # words of Lithuanian shop pages that no English or Polish text uses (for text without "ėįųū")
               "pvm", "val", "nera", "visos", "visi", "kaina", "kainos", "kainuoja", "nemokamai", "nemokamas"}
_MARKERS = {lx.EN: _EN_MARKERS, lx.PL: _PL_MARKERS, lx.LT: _LT_MARKERS}
