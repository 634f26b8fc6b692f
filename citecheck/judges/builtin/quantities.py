"""Quantities of the built-in judge: money, durations, mass, length, volume, percentages, clock
times, dates and counts, with ranges, alternatives and bounds; and how two of them compare."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.words import CLOCK, DATE, NUM, PUNCT, SYM, W, _stem, _Tok

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
    per: frozenset[str] = frozenset()  # what a price is for: "£12 per person per day" -> {"person", "day"}
    up_to: bool = False  # said with "up to": a ceiling, not the usual value ("takes up to 10 days")


def _twelve_hour(hour: float, half: str) -> float:
    if half == "pm" and hour < 12:
        hour += 12
    elif half == "am" and hour == 12:
        hour = 0
    return hour * 60


def _twelve_hour_minutes(minutes: float, half: str) -> float:
    """"5:30 pm" read as a clock token (330 minutes) -> 17:30."""
    return _twelve_hour(minutes // 60, half) + minutes % 60


def _is_year(value: float) -> bool:
    return float(value).is_integer() and 1900 <= value <= 2100


_LT_DOTTED_CLOCK = re.compile(r"^(\d{1,2})[.,](\d{2})$")


def _lt_clock_minutes(tok: _Tok) -> float:
    """Minutes after midnight of an hour before Lithuanian "val.": "15.45 val." is 15:45 (the dotted form
    Lithuanian pages use), not 15.45 hours; "8 val." is 8:00."""
    dotted = _LT_DOTTED_CLOCK.match(tok.text)
    if dotted is not None and int(dotted.group(2)) < 60:
        return float(int(dotted.group(1)) * 60 + int(dotted.group(2)))
    return tok.value * 60


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
            if tok.kind == W and tok.text not in _WORD_STARTS:
                i += 1  # most words start no quantity
                continue
            consumed = 0
            if tok.kind == DATE:
                consumed = self._add(i, i + 1, "date", "date", 0, 0, date=tok.date)
            elif tok.kind == CLOCK:
                consumed = self._clock(i)
            elif tok.kind == NUM:
                consumed = self._frequency(i) or self._date_from_number(i) or self._number(i)
            elif tok.kind == W and tok.text in lx.MONTHS:
                consumed = self._date_from_month(i)
            if not consumed and tok.kind == W and tok.text in _FREQUENCY_STARTS[self.lang]:
                consumed = self._frequency(i)
            if not consumed and tok.kind == W and (tok.text in _FREE_BY_FIRST or tok.text in lx.FREE_WORDS):
                consumed = self._free(i)  # asked only of a word that can start "free" ("free of charge", "gratis")
            if not consumed and tok.kind == W and tok.text in lx.LT_INCLUDED_WORDS and self.lang == lx.LT:
                consumed = self._included(i)
            if not consumed and tok.kind == W and tok.text in lx.PL_CLOCK_WORDS and self.lang == lx.PL:
                consumed = self._pl_noon_or_midnight(i)
            if not consumed and tok.kind == W and self.lang == lx.PL and (
                    tok.text in lx.PL_ONE_UNIT or (tok.text in lx.PL_ONE_UNIT_WITHIN and self._word(i - 1) == "ciagu")):
                consumed = self._pl_one_unit(i)
            if not consumed and tok.kind == W and self.lang == lx.LT and (
                    tok.text in lx.LT_ONE_UNIT_DATIVE
                    or (tok.text in lx.LT_ONE_UNIT and self._word(i - 1) in lx.LT_ONE_UNIT_AFTER)):
                consumed = self._lt_one_unit(i)
            if not consumed and tok.kind == W and tok.text in lx.LT_UNLIMITED_WORDS and self.lang == lx.LT:
                consumed = self._unlimited(i)
            if not consumed and tok.kind == W and tok.text in lx.PAID_WORDS:
                consumed = self._add(i, i + 1, "money", "*", PAID, PAID)
            if not consumed and tok.kind == W and tok.text in _PAID_BY_FIRST:
                consumed = self._paid(i)
            i += max(consumed, 1)
        self.quantities.sort(key=lambda q: q.tok_start)
        return self.quantities

    # -- helpers
    def _add(self, a: int, b: int, dim: str, unit: str, lo: float, hi: float, *, factor: float = 1.0,
             date: tuple[int | None, int | None, frozenset[int] | None] | None = None,
             alts: tuple[float, ...] | None = None, head: frozenset[str] = frozenset(),
             bound_at: int | None = None) -> int:
        at = bound_at if bound_at is not None else a
        bound = self._bound(at)
        post = lx.POST_BOUND_PHRASES[self.lang]
        if post and bound is None:
            # "£75 or more"; a count's noun comes first: "two nights or more"
            for k in (b, b + 1) if dim == "count" else (b,):
                if (self._word(k), self._word(k + 1)) in post:
                    bound = post[(self._word(k), self._word(k + 1))]
                    self.used.update((k, k + 1))
                    break
        if (bound == "max" and dim == "duration" and self._word(b) in lx.EN_LEAD_TIME_AFTER
                and self._word(at - 2) in lx.EN_LATEST_WORDS and self.lang == lx.EN):
            bound = "min"  # "no later than 24 hours before" = "at least 24 hours before"
        if bound == "min" and dim == "money" and self._word(a - 1) == "po":
            bound = None  # Polish and Lithuanian "po 5 zł": five each, not five or more
        if bound == "max" and dim == "duration" and self._word(b) in _LEAD_AFTER[self.lang] and (
                self._word(at - 1) in _DEADLINE_LAST[self.lang]
                or self._word(at - 2) in _DEADLINE_LAST[self.lang] and self._word(at - 1) in {"than", "nei", "niz"}):
            # a notice period: "najpóźniej 24 godziny wcześniej", "no later than 2 days before" give at least
            # that long ahead ("co najmniej dobę przed")
            bound = "min"
        start, end = self.toks[a].start, self.toks[b - 1].end
        self.quantities.append(
            Quantity(
                dim=dim, unit=unit, lo=lo * factor, hi=hi * factor, raw_lo=lo, raw_hi=hi,
                start=start, end=end, tok_start=a, tok_end=b, bound=bound, date=date,
                alts=tuple(v * factor for v in alts) if alts else None, head=head,
                text=self.text[start - self.base : end - self.base],
                per=(self._rates(b) or self._lt_rate_before(a)) if dim == "money" else frozenset(),
                up_to=bound == "max" and self._word(at - 1) == "to" and self._word(at - 2) == "up",
            )
        )
        self.used.update(range(a, b))
        return b - a

    def _bound(self, at: int) -> str | None:
        words = [self.toks[k].text for k in range(max(0, at - 3), at) if self.toks[k].kind in (W, NUM)]
        if not words:
            return None
        for phrase, kind in _BOUNDS_BY_LAST[self.lang].get(words[-1], ()):
            n = len(phrase)
            if n <= len(words) and tuple(words[-n:]) == phrase:
                if self.lang == lx.EN and not _EN_BOUND_CONTENT.isdisjoint(phrase):
                    # "no later than", "a maximum of": the bound, not a word of the claim
                    self.used.update(range(max(0, at - n), at))
                return kind
        return None

    def _lt_rate_before(self, a: int) -> frozenset[str]:
        """Lithuanian "kas / kiekvieną mėnesį (mokama) 1,50 €": a rate said before the price, one word at most
        between."""
        if self.lang != lx.LT:
            return frozenset()
        for k in (a - 2, a - 3):
            if (k >= 0 and self._word(k) in lx.FREQUENCY_EVERY[lx.LT] and self._word(k + 1) in lx.RATE_UNITS
                    and k + 1 not in self.used):
                self.used.update((k, k + 1))
                return frozenset({lx.RATE_UNITS[self._word(k + 1)]})
        return frozenset()

    def _rates(self, k: int) -> frozenset[str]:
        """What the price ending before token ``k`` is for: "per day", "a month", "za każdy produkt",
        "už siuntą", "asmeniui", "monthly", "per person each way" (two); empty when nothing says."""
        rates: set[str] = set()
        if self._word(k) in lx.PRICE_NOUNS_AFTER.get(self.lang, ()):
            k += 1  # "15 € mokestis už naktį": the fee's own name between the price and its rate
        while len(rates) < 2:
            word = self._word(k)
            if word in lx.RATE_ADVERBS:
                rates.add(lx.RATE_ADVERBS[word])
                k += 1
                continue
            if word not in lx.RATE_OPENERS[self.lang]:
                break
            k += 1
            if self._word(k) in lx.RATE_SKIPPED and self._word(k + 1) in lx.RATE_UNITS:
                k += 1
            rate = lx.RATE_UNITS.get(self._word(k))
            if rate is None:
                break
            rates.add(rate)
            k += 1
        return frozenset(rates)

    def _frequency(self, i: int) -> int:
        """How often, as times per day: "twice a week", "3 times per month", "seven days a week", "every other
        week", "co dwa tygodnie", "raz dziennie", "du kartus per savaitę", "daily", "kasdien"."""
        lang, toks, word = self.lang, self.toks, self._word
        periods = lx.FREQUENCY_PERIODS[lang]
        tok = toks[i]
        if tok.kind == W and tok.text in lx.FREQUENCY_WORDS[lang]:
            after = toks[i + 1] if i + 1 < len(toks) else None
            after_price = any(q.tok_end == i and q.dim == "money" for q in self.quantities)
            attributive = (after is not None and after.kind == W and after.text not in lx.STOPWORDS[lang]
                           and after.text.removesuffix("s") not in lx.FREQUENCY_WEEKDAYS[lang])  # "fortnightly Thursday"
            if after_price or attributive:
                return 0  # "£5 daily" is a price's rate, "a weekly pass" a kind of pass
            return self._often(i, i + 1, 1.0, lx.FREQUENCY_WORDS[lang][tok.text])
        if tok.kind == W and tok.text in lx.FREQUENCY_EVERY[lang]:
            if lang == lx.LT and word(i + 1) in lx.RATE_UNITS and any(
                    t.text in _LT_PRICE_SAID for t in toks[i + 2:]):
                return 0  # "kas / kiekvieną mėnesį mokama 1,50 €": the price's rate, read by the price
            j, every = i + 1, 1.0
            if word(j) in lx.FREQUENCY_OTHER[lang]:
                j, every = j + 1, 2.0
            elif j < len(toks) and toks[j].kind == NUM and toks[j].value >= 1:
                j, every = j + 1, toks[j].value
            if word(j) in lx.FREQUENCY_WEEKDAYS[lang]:  # the day stays a word of its own
                return self._often(i, j, every, 1 / (every * 7))
            period = periods.get(word(j))
            if period is None:
                return 0
            return self._often(i, j + 1, every, 1 / (every * period))
        n = tok.value if tok.kind == NUM else 1.0
        if n <= 0:
            return 0
        j = i + 1
        if tok.kind == NUM and word(j) in lx.FREQUENCY_DAY_WORDS[lang]:
            # "seven days a week": as often as n days of every week
            if n <= 7 and word(j + 1) in lx.FREQUENCY_PER[lang] and word(j + 2) in lx.FREQUENCY_WEEK_WORDS[lang]:
                return self._often(i, j + 3, n, n / 7)
            return 0
        if word(j) in lx.FREQUENCY_TIMES[lang]:
            j += 1
        elif tok.text not in lx.FREQUENCY_ONCE[lang]:
            return 0
        if word(j) in lx.FREQUENCY_PER[lang]:
            j += 1
        period = periods.get(word(j))
        if period is None:
            return 0
        return self._often(i, j + 1, n, n / period, unit="times")

    def _often(self, a: int, b: int, written: float, per_day: float, unit: str = "day") -> int:
        """A frequency of ``per_day`` times a day, whose phrase holds the number ``written`` (1 when none);
        ``unit`` "day" for a pattern ("every day", "seven days a week"), "times" for a count ("7 times a week")."""
        return self._add(a, b, "frequency", unit, written, written, factor=per_day / written)

    def _word(self, k: int) -> str:
        return self.toks[k].text if 0 <= k < len(self.toks) and self.toks[k].kind in (W, SYM) else ""

    def _clock(self, i: int) -> int:
        toks = self.toks
        lo = toks[i].value
        j = i + 1
        if j < len(toks) and toks[j].text in _HALVES:  # "5:30 pm"
            lo = _twelve_hour_minutes(lo, toks[j].text)
            j += 1
        hi = lo
        alts: tuple[float, ...] | None = None
        joiner = toks[j].text if j < len(toks) else ""
        if j + 1 < len(toks) and (joiner in lx.RANGE_JOINERS or joiner in _CLOCK_LIST_JOINERS) and toks[j + 1].kind == CLOCK:
            second = toks[j + 1].value
            j += 2
            if j < len(toks) and toks[j].text in _HALVES:
                second = _twelve_hour_minutes(second, toks[j].text)
                j += 1
            if joiner in _CLOCK_LIST_JOINERS and _prev_word(toks, i - 1) not in lx.RANGE_OPENERS:
                alts = (lo, second)  # "tours at 11:00 and 14:00": two times, not the hours between
            else:
                hi = second
        return self._add(i, j, "clock", "min", lo, hi, alts=alts)

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
        if self.lang == lx.LT and _is_year(tok.value) and self._word(j) == "m":
            return self._lt_date(i)
        if _is_year(tok.value) and not self._has_unit_after(i + 1) and not self._currency_before(i):
            return self._add(i, i + 1, "date", "date", 0, 0, date=(int(tok.value), None, None))
        return 0

    def _lt_date(self, i: int) -> int:
        """Lithuanian "2025 m. sausio 1 d." (year, month in the genitive, day): one date; "2025 m." alone
        is the year."""
        toks = self.toks
        year = int(toks[i].value)
        j = i + 2
        if j < len(toks) and toks[j].text == ".":
            j += 1
        if (j + 1 < len(toks) and toks[j].kind == W and toks[j].text in lx.MONTHS and toks[j + 1].kind == NUM
                and toks[j + 1].value.is_integer() and 1 <= toks[j + 1].value <= 31):
            day = int(toks[j + 1].value)
            end = j + 2
            if end < len(toks) and toks[end].text == "d":
                end += 1
            return self._add(i, end, "date", "date", 0, 0, date=(year, lx.MONTHS[toks[j].text], frozenset({day})))
        return self._add(i, i + 2, "date", "date", 0, 0, date=(year, None, None))

    def _date_from_month(self, i: int) -> int:
        toks = self.toks
        month = lx.MONTHS[toks[i].text]
        j = i + 1
        if j < len(toks) and toks[j].kind == NUM and toks[j].value.is_integer():
            value = int(toks[j].value)
            if _is_year(value):
                return self._add(i, j + 1, "date", "date", 0, 0, date=(value, month, None))
            # Polish writes the day before the month ("2 maja"): after a month only a year, so "mają dwuletnią
            # gwarancję" / "mają 2 lata" (folded "maja", they have) is no 2 May
            if 1 <= value <= 31 and self.lang != lx.PL:
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

    def _included(self, i: int) -> int:
        """Lithuanian "įskaičiuota į (bilieto) kainą" / "į kainą įeina": no extra charge, a price of zero. The words
        around stay content words ("bilieto" says which price)."""
        toks = self.toks
        after = [t.text for t in toks[i + 1 : i + 5]]
        before = [t.text for t in toks[max(0, i - 4) : i]]
        forward = bool(after) and after[0] == "i" and any(w in lx.LT_PRICE_WORDS for w in after[1:])
        backward = bool(before) and before[-1] in lx.LT_PRICE_WORDS and "i" in before[:-1]
        return self._add(i, i + 1, "money", "*", 0, 0) if forward or backward else 0

    def _lt_days(self, start: int, k: int, lo: float, hi: float, alts: tuple[float, ...] | None,
                 bound_at: int) -> int:
        """Lithuanian "d." for days where it cannot be a day of the month: "per 30 d." (within 30 days) and
        "2–3 d. d." (darbo dienos, working days); "iki 15 d." (by the 15th) stays a date's day."""
        toks = self.toks
        after = k + 2 if k + 1 < len(toks) and toks[k + 1].text == "." else k + 1
        working = after + 1 < len(toks) and toks[after].text == "d" and toks[after + 1].text == "."
        if not working and _prev_word(toks, start - 1) != "per":
            return 0
        dim, unit, factor = lx.UNITS["diena"]
        end = after + 2 if working else k + 1
        return self._add(start, end, dim, "workday" if working else unit, lo, hi, factor=factor, alts=alts,
                         bound_at=bound_at)

    def _unlimited(self, i: int) -> int:
        """Lithuanian "neribotas" (unlimited): a count with no end, of the noun after it ("neribotą kartų
        skaičių") or of nothing named ("lankytis neribotai")."""
        nxt = self.toks[i + 1] if i + 1 < len(self.toks) else None
        noun = ""
        if nxt is not None and nxt.kind == W and nxt.text not in lx.STOPWORDS[self.lang]:
            noun = _stem(nxt.text, self.lang)
        return self._add(i, i + 1, "count", noun, UNLIMITED, UNLIMITED)

    def _paid(self, i: int) -> int:
        toks = self.toks
        for phrase in _PAID_BY_FIRST[toks[i].text]:
            n = len(phrase)
            if i + n <= len(toks) and all(toks[i + k].text == phrase[k] for k in range(1, n)):
                after = toks[i + n] if i + n < len(toks) else None
                # "must pay." / "must pay for it": paying at all; "must pay £5" (the amount is the quantity)
                # or "must pay in 12 instalments" (how) are not
                if after is None or after.kind == PUNCT or after.text in _PAID_AFTER or (
                        phrase in _OWN_COST and after.kind != NUM):
                    return self._add(i, i + n, "money", "*", PAID, PAID)
                return 0
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
            is_range = joiner in {"to", "-", "–", "—", "do", "until", "till", "iki"} or (
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
        bound_at = start - 1 if start > 0 and toks[start - 1].kind == W and toks[start - 1].text in {"from", "od", "between", "miedzy", "nuo", "tarp"} and hi != lo else start
        if self.lang == lx.PL and currency is None:
            clock = self._pl_hour(i, j, lo, hi)
            if clock:
                return clock
        if currency is not None:
            code, factor = currency
            return self._add(start, j, "money", code, lo, hi, factor=factor, alts=alts, bound_at=bound_at)
        # unit after the number, maybe after a hyphen ("12-month") or "working" ("5 working days")
        k = j
        hyphen = k < len(toks) and toks[k].kind == SYM and toks[k].text in {"-", "–"}
        if hyphen:
            k += 1
        word = toks[k].text if k < len(toks) and toks[k].kind in (W, SYM) else ""
        working = calendar = False
        if word in lx.WORKING_BEFORE and k + 1 < len(toks) and toks[k + 1].text in lx.UNITS:
            working = True
            k += 1
            word = toks[k].text
        elif word in lx.CALENDAR_WORDS and k + 1 < len(toks) and toks[k + 1].text in lx.UNITS:
            calendar = True
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
            # "9 am to 5 pm", "10 am to 5:30 pm", "between 8 am and 10 pm"
            joiners = _AM_PM_JOINERS_AFTER_BETWEEN if _prev_word(toks, start - 1) == "between" else _AM_PM_JOINERS
            if (
                lo == hi and end + 2 < len(toks) and toks[end].text in joiners
                and toks[end + 1].kind in (NUM, CLOCK) and toks[end + 2].text in _HALVES
            ):
                after = toks[end + 1]
                hi_min = (_twelve_hour(after.value, toks[end + 2].text) if after.kind == NUM
                          else _twelve_hour_minutes(after.value, toks[end + 2].text))
                end += 3
            return self._add(start, end, "clock", "min", lo_min, hi_min, bound_at=bound_at)
        # "iki 14 valandos" (genitive singular) is a time of day as "iki 14 val." is; "14 valandų" is a duration
        if word in ("val", "valandos") and self.lang == lx.LT and _prev_word(toks, start - 1) in lx.LT_CLOCK_BEFORE:
            lo_min = _lt_clock_minutes(toks[i])
            hi_min = _lt_clock_minutes(toks[j - 1]) if hi != lo else lo_min
            end = k + 1
            # "8 val. ryto" (8 am), "7 val. vakaro" (7 pm): the part of the day belongs to the time
            part = end + 1 if end < len(toks) and toks[end].text == "." else end
            half = lx.LT_CLOCK_HALVES.get(toks[part].text) if part < len(toks) else None
            if half is not None:
                lo_min, hi_min = _twelve_hour_minutes(lo_min, half), _twelve_hour_minutes(hi_min, half)
                end = part + 1
            return self._add(start, end, "clock", "min", lo_min, hi_min, bound_at=bound_at)
        if word == "d" and self.lang == lx.LT and not hyphen:
            days = self._lt_days(start, k, lo, hi, alts, bound_at)
            if days:
                return days
        if word in _POUNDS and not hyphen and (self._says_money() or self._pence_written(i)):
            return self._add(start, k + 1, "money", "GBP", lo, hi, alts=alts, bound_at=bound_at)  # "3.50 pounds"
        if word in lx.UNITS:
            dim, unit, factor = lx.UNITS[word]
            end = k + 1
            if unit == "day" and end < len(toks) and toks[end].text in lx.WORKING_AFTER:
                working = True
                end += 1
            elif unit == "day" and end < len(toks) and toks[end].text in lx.CALENDAR_WORDS:
                calendar = True  # "14 dni kalendarzowych"
                end += 1
            if working and unit == "day":
                unit = "workday"
            elif calendar and unit == "day":
                unit = "calday"  # "calendar days": plain days, but never working days
            head = self._head(end) if hyphen else frozenset()
            if end < len(toks) and toks[end].text == "old" and unit == "year":
                end += 1
            return self._add(start, end, dim, unit, lo, hi, factor=factor, alts=alts, head=head, bound_at=bound_at)
        if word and self.lang == lx.PL:
            compound = _pl_compound_unit(word)
            if compound and hyphen:
                dim, unit, factor = lx.UNITS[_UNIT_WORD[compound]]
                return self._add(start, k + 1, dim, unit, lo, hi, factor=factor, alts=alts, head=self._head(k + 1), bound_at=bound_at)
        if self.lang == lx.EN and not hyphen and self._en_age(start, word):
            end = k + 1 if word == "s" else j  # "under-5s", "over 65s"
            dim, unit, factor = lx.UNITS["years"]
            return self._add(start, end, dim, unit, lo, hi, factor=factor, alts=alts, bound_at=bound_at)
        if _is_year(lo) and hi == lo and not alts:
            return 0
        noun = ""
        if word and toks[k].kind == W and word not in lx.STOPWORDS[self.lang] and word not in lx.NEGATORS[self.lang]:
            noun = _stem(self._en_count_noun(k, lo) if self.lang == lx.EN and not hyphen else word, self.lang)
        elif toks[i].text in lx.TIMES_WORDS:
            noun = "times"
        end = k + 1 if (noun and hyphen) else j
        head = self._head(k + 1) if (noun and hyphen) else frozenset()
        return self._add(start, end, "count", noun, lo, hi, alts=alts, head=head, bound_at=bound_at)

    def _en_age(self, start: int, word: str) -> bool:
        """The number at ``start`` is a person's age: "aged 5", "children under 16", "kids from 5 to 15",
        "younger than five", "under-5s"."""
        p = start - 1
        if p >= 0 and self.toks[p].kind == SYM and self.toks[p].text in {"-", "–"}:
            p -= 1  # "under-5s"
        before = _prev_word(self.toks, p)
        if before in lx.EN_AGE_BEFORE:
            return True
        if before in lx.EN_AGE_BOUNDS:
            hyphened = p < start - 1  # "under-5s", "under-fives" (read as "under - 5 children")
            return (hyphened and word in ("s", "children")) or _prev_word(self.toks, p - 1) in lx.EN_PERSON_WORDS
        return before == "than" and _prev_word(self.toks, p - 1) in lx.EN_AGE_COMPARED

    def _pl_hour(self, i: int, j: int, lo: float, hi: float) -> int:
        """Polish "do godziny 20", "od godz. 8 do 16", "w godz. 9.30–17": whole hours (or "9.30") after
        "godz." / "godziny" are a time of day, not a count."""
        toks = self.toks
        at = i - 1
        if at >= 1 and toks[at].text == "." and toks[at - 1].text == "godz":
            at -= 1
        if at < 0 or toks[at].kind != W or toks[at].text not in _PL_HOUR_WORDS:
            return 0
        if self._has_unit_after(j) or not 0 <= lo <= hi <= 24:
            return 0
        first = _pl_minutes(toks[i])
        last = _pl_minutes(toks[j - 1]) if hi != lo else first
        consumed = self._add(at, j, "clock", "min", min(first, last), max(first, last), bound_at=at)
        # as written: the span that says "20:00" states the claim's "godziny 20"
        self.quantities[-1].raw_lo, self.quantities[-1].raw_hi = lo, hi
        return consumed

    def _pl_one_unit(self, i: int) -> int:
        """Polish "rok gwarancji", "najpóźniej tydzień": a unit with no number is one of it."""
        toks = self.toks
        if i >= 1 and (toks[i - 1].kind == NUM or toks[i - 1].text in lx.PL_ONE_UNIT_NOT_AFTER):
            return 0
        if (i + 1 < len(toks) and toks[i + 1].kind in (NUM, DATE)) or self._word(i + 1) == "temu":
            return 0
        dim, unit, factor = lx.UNITS[toks[i].text]
        return self._add(i, i + 1, dim, unit, 1, 1, factor=factor)

    def _lt_one_unit(self, i: int) -> int:
        """Lithuanian "prieš parą", "per savaitę", "apribojama metams": a unit with no number is one of it."""
        toks = self.toks
        if (toks[i].text in lx.LT_ONE_UNIT_DATIVE or self._word(i - 1) == "per") and any(
                t.text in _LT_PRICE_SAID for t in toks):
            return 0  # "abonementas metams kainuoja 300 €", "per mėnesį mokama 30 €": the price's rate, not a span
        before = i - 1 if toks[i].text in lx.LT_ONE_UNIT_DATIVE else i - 2
        if before >= 0 and (toks[before].kind == NUM or toks[before].text in lx.LT_ONE_UNIT_NOT_AFTER):
            return 0
        if i + 1 < len(toks) and toks[i + 1].kind in (NUM, DATE):
            return 0
        dim, unit, factor = lx.UNITS[toks[i].text]
        return self._add(i, i + 1, dim, unit, 1, 1, factor=factor)

    def _pl_noon_or_midnight(self, i: int) -> int:
        before = self._word(i - 1)
        if before not in lx.PL_CLOCK_BEFORE:
            return 0
        minutes = lx.PL_CLOCK_WORDS[self.toks[i].text]
        if minutes == 1440 and before not in {"do", "przed"}:
            minutes = 0
        return self._add(i, i + 1, "clock", "min", minutes, minutes)

    def _says_money(self) -> bool:
        """The sentence speaks of a price and not of a weight: its "pounds" are money ("costs 3.50 pounds")."""
        words = {tok.text for tok in self.toks if tok.kind in (W, SYM)}
        return bool(words & lx.POUND_MONEY_WORDS) and not words & lx.POUND_MASS_WORDS

    def _en_count_noun(self, k: int, value: float) -> str:
        """The noun an English count counts, past an adjective before it: of more than one, the first plural of the
        next three content words ("five bulky items", "five large items" and "three items cost" all count
        items; "two adults pay", adults); of one, the second word unless it ends in "s" like a verb ("one
        discount code", code; "one child travels", child)."""
        toks = self.toks
        run: list[str] = []
        for j in range(k, min(k + 3, len(toks))):
            tok = toks[j]
            if tok.kind != W or j in self.used or tok.text in lx.STOPWORDS[lx.EN] or tok.text in _EN_NOT_NOUNS:
                break
            run.append(tok.text)
        if not run:
            return toks[k].text
        if value != 1:
            return next((w for w in run if w.endswith("s") and not w.endswith("ss")), run[0])
        return run[1] if len(run) > 1 and not run[1].endswith("s") else run[0]

    def _pence_written(self, i: int) -> bool:
        """"4.50 pounds": an amount with two decimals is pounds and pence, unless the sentence speaks of weight."""
        raw = self.toks[i].text
        return len(raw) > 3 and raw[-3] == "." and raw[-2:].isdigit() and not (
            {tok.text for tok in self.toks if tok.kind == W} & lx.POUND_MASS_WORDS)

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


_HALVES = frozenset({"am", "pm"})
_PL_HOUR_WORDS = frozenset({"godz", "godziny", "godzinie", "godzina", "godzinach"})
_HOUR_AND_MINUTES = re.compile(r"(\d{1,2})[.,](\d{2})")


def _pl_minutes(tok: _Tok) -> float:
    """A Polish hour as minutes of the day: "20" -> 20:00, "9.30" -> 9:30 (not 9.3 hours)."""
    written = _HOUR_AND_MINUTES.fullmatch(tok.text)
    if written:
        return int(written.group(1)) * 60.0 + int(written.group(2))
    return tok.value * 60.0
_CLOCK_LIST_JOINERS = frozenset({"and", "or", "i", "lub", "albo", "ir", "arba"})
_AM_PM_JOINERS = frozenset({"to", "-", "–", "until", "till"})
_AM_PM_JOINERS_AFTER_BETWEEN = _AM_PM_JOINERS | {"and"}
_POUNDS = frozenset({"pound", "pounds"})
# Words a count's noun does not run into: polarity and modal words ("one code can be used").
_EN_NOT_NOUNS = frozenset().union(lx.NEGATORS[lx.EN], lx.PERMISSION[lx.EN], lx.OBLIGATION[lx.EN], lx.PROHIBITION[lx.EN])
# English bound words that are no stop words: a bound said with them is compared as a bound, not as a word.
_EN_BOUND_CONTENT = frozenset({"later", "maximum", "minimum", "reaches", "reach", "younger", "older"})
# Words that say a Lithuanian sentence gives a price (a currency or "kainuoja", "mokestis"): its "metams" is a rate.
_LT_PRICE_SAID = frozenset({*lx.CURRENCY_AFTER, *lx.CURRENCY_BEFORE, "kainuoja", "kaina", "kainos", "mokestis",
                            "mokescio", "moka", "mokama", "moketi", "sumoketi"})
_FREE_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
for _phrase in sorted(lx.FREE_PHRASES, key=len, reverse=True):
    _FREE_BY_FIRST.setdefault(_phrase[0], []).append(_phrase)
_PAID_BY_FIRST: dict[str, list[tuple[str, ...]]] = {}
_PAID_AFTER = frozenset({"for", "extra", "za", "uz", "dodatkowo", "papildomai", "atskirai"})
_OWN_COST = frozenset(lx.PL_OWN_COST_PHRASES)
for _phrase in lx.PAID_PHRASES:
    _PAID_BY_FIRST.setdefault(_phrase[0], []).append(_phrase)

# The bound phrases by their last word, in their order (the first that fits wins).
_BOUNDS_BY_LAST: dict[str, dict[str, list[tuple[tuple[str, ...], str]]]] = {}
for _lang, _phrases in lx.BOUND_PHRASES.items():
    for _phrase, _kind in _phrases:
        _BOUNDS_BY_LAST.setdefault(_lang, {}).setdefault(_phrase[-1], []).append((_phrase, _kind))

# The words that can start a frequency ("every", "co", "kas", "daily", "raz").
_FREQUENCY_STARTS = {lang: frozenset(lx.FREQUENCY_EVERY[lang] | set(lx.FREQUENCY_WORDS[lang]) | lx.FREQUENCY_ONCE[lang])
                     for lang in lx.LANGUAGES}

# Every word a quantity can start with (a month, "free", "paid", the first word of their phrases).
_WORD_STARTS = frozenset().union(lx.MONTHS, _FREE_BY_FIRST, lx.FREE_WORDS, lx.PAID_WORDS, _PAID_BY_FIRST,
                                 lx.LT_INCLUDED_WORDS, *_FREQUENCY_STARTS.values(), lx.PL_CLOCK_WORDS, lx.PL_ONE_UNIT,
                                 lx.PL_ONE_UNIT_WITHIN, lx.LT_UNLIMITED_WORDS, lx.LT_ONE_UNIT, lx.LT_ONE_UNIT_DATIVE)

# A deadline's bound ("najpóźniej", "no later than", "until") before a duration said before something
# ("24 godziny wcześniej", "2 days before"): the time ahead is at least that long.
_LEAD_AFTER = {lang: frozenset(words) for lang, words in lx.LEAD_TIME_AFTER.items()}
_DEADLINE_LAST = {lang: frozenset(words) for lang, words in lx.DEADLINE_BOUND_WORDS.items()}

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


# --- comparing quantities --------------------------------------------------------------------

MATCH, MISMATCH, WITHIN = "match", "mismatch", "within"
OTHER = "other"  # the claim's value says more than the passage's (a rate or an exact amount it does not give)
# A price or a discount the passage bounds ("from £40", "nuo 4 €", "up to 50%", "do 40%") is not the
# exact one a claim states; a bounded duration ("within 14 days") is how a period is said, and stays.
EXACT_ONLY_WHEN_UNBOUNDED = frozenset({"money", "percent"})
PAID = -1.0  # the value of "paid" with no amount (free is 0)
UNLIMITED = 1e12  # the value of "unlimited": more than any count a page gives, and equal to itself


def _comparable(claim_q: Quantity, passage_q: Quantity) -> bool:
    if claim_q.dim != passage_q.dim:
        # "unlimited" visits against "no more than 12 times a month": no end against a count per month
        return {claim_q.dim, passage_q.dim} == {"count", "frequency"} and UNLIMITED in (claim_q.hi, passage_q.hi)
    if claim_q.dim == "count":
        return not claim_q.unit or not passage_q.unit or claim_q.unit == passage_q.unit
    if claim_q.dim == "date":
        a, b = claim_q.date, passage_q.date
        if a is None or b is None:
            return False
        return any(x is not None and y is not None for x, y in zip(a, b, strict=True))
    return True


_RATE_ADJECTIVE_STEMS = {lang: {rate: frozenset(_stem(word, lang) for word in words) for rate, words in table.items()}
                         for lang, table in lx.RATE_ADJECTIVES.items()}


def rate_named(rates: frozenset[str], words: frozenset[str] | set[str], lang: str) -> bool:
    """Every rate of ``rates`` is said by an adjective among ``words`` (content stems): "the annual
    subscription is £45" gives £45 a year."""
    table = _RATE_ADJECTIVE_STEMS[lang]
    return all(table.get(rate, frozenset()) & words for rate in rates)


def _close(a: float, b: float, exact: bool) -> bool:
    if exact:
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return abs(a - b) <= 0.01 * max(abs(a), abs(b), 1e-9)


def _compare(c: Quantity, p: Quantity) -> str:
    outcome = _compare_values(c, p)
    if outcome != MATCH:
        return outcome
    # the same number, but the passage says less: "from £40" or "up to 50% off" does not state a price of
    # £40 or a discount of 50%, nor a bare "£12" a price of "£12 per hour"
    if p.bound and not c.bound and (c.dim in EXACT_ONLY_WHEN_UNBOUNDED or p.up_to):
        return OTHER
    if c.dim == "frequency" and c.unit != p.unit and (c.raw_lo if c.unit == "times" else p.raw_lo) > 1:
        return OTHER  # "7 times a week" is a count, not "every day": the same rate, not the same statement
    if c.dim == "money" and c.per - p.per:
        # "9,99 zł za każdy produkt" against "9,99 zł za paczkę": the same price for another unit is another price
        return MISMATCH if p.per and not c.per & p.per else OTHER
    return MATCH


def _compare_values(c: Quantity, p: Quantity) -> str:
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
    if c.dim == "clock" and c.lo == c.hi and p.lo != p.hi and c.bound:
        # "opens at 9:00" / "until 16:00" against opening hours "9:00–19:00": the end it names
        return MATCH if _close(c.lo, p.lo if c.bound == "min" else p.hi, True) else MISMATCH
    if c.bound and p.bound and c.bound != p.bound:
        return MISMATCH
    if c.dim == "money":
        if c.unit == "*" or p.unit == "*":
            zero_c, zero_p = c.hi == 0, p.hi == 0
            if zero_c != zero_p:
                return MISMATCH  # free against a price or "paid"
            if zero_c:
                return MATCH
            # "paid" is stated by a price (or "paid"); a price is not stated by "paid" alone
            return MATCH if c.unit == "*" else WITHIN
        if c.unit != p.unit:
            return MISMATCH  # another currency
        if c.per - p.per and p.per:
            return MISMATCH  # "£12 per hour" against "£12 per day" is another price
    exact = c.unit == p.unit
    if c.dim == "duration" and {c.unit, p.unit} in ({"day", "workday"}, {"day", "calday"}):
        exact = True  # "5 days" vs "5 working days" or "5 calendar days": the same count of days
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
