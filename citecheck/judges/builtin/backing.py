"""The one rule every ``supported`` verdict of the built-in judge passes: its span must itself state
the claim (issue 24).

A span states a claim when it holds every quantity and number of the claim (the same amount, date,
duration or clock time, in any of the forms the judge reads: "2-year" = "two years", "3 499,00 zł" =
"3499 zł") and at least :data:`MIN_WORDS_STATED` of the claim's content words (stems, synonyms
folded). A sentence that only shares the topic ("Returns are free") does not back "Returns are
accepted within 30 days": the combiner may find the page about the claim, but the span has to say it.
"""

from __future__ import annotations

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.analysis import _analyse_claim, _analyse_passage, _Analysis, _content_stem
from citecheck.judges.builtin.quantities import EXACT_ONLY_WHEN_UNBOUNDED, PAID, Quantity, rate_named
from citecheck.judges.builtin.rules import _contrast_conflict
from citecheck.judges.builtin.words import _IMPLIED

_NOT_SCOPE = {"more", "longer"}  # "any more", "any longer" say nothing of scope
_HEDGE_FIRST = {lang: {phrase[0] for phrase in phrases} for lang, phrases in lx.HEDGE_PHRASES.items()}

MIN_WORDS_STATED = 0.6


def _same(q: Quantity, p: Quantity, words: frozenset[str], lang: str) -> bool:
    if q.dim != p.dim:
        return False
    if q.dim == "date":
        return q.date == p.date or (q.date is not None and p.date is not None and _date_within(q.date, p.date))
    if q.dim in ("money", "count") and q.unit != p.unit and "*" not in (q.unit, p.unit):
        return False
    if q.dim == "money" and q.per - p.per and not rate_named(q.per - p.per, words, lang):
        return False  # "£12 per hour" is not stated by "£12 per day" nor by a bare "£12"
    if p.bound and not q.bound and (q.dim in EXACT_ONLY_WHEN_UNBOUNDED or p.up_to):
        return False  # "from £40" does not state "£40"
    if q.dim == "money" and q.unit == "*" and q.hi == PAID:
        return p.hi != 0  # "paid" is stated by any price
    claimed = {round(q.lo, 6), round(q.hi, 6)}
    stated = {round(p.lo, 6), round(p.hi, 6)} | {round(alt, 6) for alt in p.alts or ()}  # "10 or 12 instalments"
    return bool(claimed & stated)


def _range_end(q: Quantity, span_quantities: list[Quantity], words: frozenset[str], lang: str) -> Quantity | None:
    """The end of the span's range that starts at the claim's "from" date ("from 1 December to 24 December"):
    the unbounded date right after it."""
    for i, p in enumerate(span_quantities[:-1]):
        following = span_quantities[i + 1]
        if p.bound == "min" and _same(q, p, words, lang) and following.dim == "date" and following.bound is None:
            return following
    return None


def _date_within(claimed: tuple[int | None, int | None, frozenset[int] | None],
                 stated: tuple[int | None, int | None, frozenset[int] | None]) -> bool:
    """"1 April" is stated by "1 April 2025": every part the claim names is the span's."""
    year, month, days = claimed
    return ((year is None or year == stated[0]) and (month is None or month == stated[1])
            and (days is None or (stated[2] is not None and days <= stated[2])))


def _clock_numbers(q: Quantity) -> set[float]:
    """The numbers a time of day was written with: "7 pm" and "7 val. vakaro" (19:00) hold 7, "15.45 val." holds
    15.45; the time itself was checked as a quantity."""
    numbers: set[float] = set()
    for minutes in (q.lo, q.hi):
        hour, minute = divmod(int(minutes), 60)
        numbers |= {float(hour), float(hour % 12 or 12), round(hour + minute / 100, 6)}
    return numbers


def span_states_claim(claim: str, span: str, lang: str) -> str | None:
    """None when ``span`` states ``claim``; else what it lacks, in words an editor reads."""
    said = _analyse_claim(claim, lang)
    stated = _analyse_passage(span, lang)
    span_quantities = [p for segment in stated.segments for p in segment.quantities]
    claim_quantities = [q for segment in said.segments for q in segment.quantities]
    for q in claim_quantities:
        if not any(_same(q, p, stated.all_words, lang) for p in span_quantities):
            return f"the span does not state the claim's {q.text or q.dim}"
        if q.dim == "date" and q.bound == "min":
            end = _range_end(q, span_quantities, stated.all_words, lang)
            if end is not None and not any(_same(c, end, stated.all_words, lang) for c in claim_quantities):
                return f"the span gives the claim's '{q.text}' only up to '{end.text}'"
    span_values = set(stated.numbers)
    for p in span_quantities:
        span_values.update((round(p.lo, 6), round(p.hi, 6), round(p.raw_lo, 6), round(p.raw_hi, 6)))
    # A number inside a quantity was checked as that quantity ("one week" is stated by "7 days").
    claim_values = set(said.numbers)
    for segment in said.segments:
        for q in segment.quantities:
            claim_values -= {round(q.raw_lo, 6), round(q.raw_hi, 6), round(q.lo, 6), round(q.hi, 6)}
            if q.dim == "clock":
                claim_values -= _clock_numbers(q)
    missing = sorted(claim_values - span_values)
    if missing:
        return f"the span does not state the claim's number {missing[0]:g}"
    # "costs" adds nothing to "€5", "lasts" nothing to "24 months": the share is taken with and without
    # the words a quantity's dimension implies, and the better one counts.
    implied: set[str] = set()
    for segment in said.segments:
        for q in segment.quantities:
            implied |= _IMPLIED[lang].get(q.dim, frozenset())
    shares = [len(words & stated.all_words) / len(words) for words in (said.all_words, said.all_words - implied) if words]
    if shares and max(shares) < MIN_WORDS_STATED:
        return f"the span states only {max(shares):.0%} of the claim's content words"
    if _contrast_conflict(set(said.all_words), set(stated.all_words), lang):
        return "the span is about another case of the same kind (another ticket, party or way of delivery)"
    return _hedged_or_narrower(said, stated, lang)


def _hedged_or_narrower(said: _Analysis, stated: _Analysis, lang: str) -> str | None:
    """What keeps the span from backing the claim: it does not say "any" where the claim does; it says only that the claim's own act may
    happen ("may be charged" for "is charged"; not "lent for three weeks and may be renewed" for "lent for
    3 weeks"), or only of a narrower variant ("temporary passport" for "passport")."""
    span_words = stated.all_words_said()
    span_set = set(span_words)
    claim_words = said.all_words_said()
    claim_set = set(claim_words)
    claim_stems = said.all_words
    scope = lx.ANY_SCOPE_WORDS.get(lang, set())
    if (not claim_set.isdisjoint(scope) and span_set.isdisjoint(scope) and span_set.isdisjoint(lx.UNIVERSAL_WORDS[lang])
            and any(w in scope and nxt not in _NOT_SCOPE for w, nxt in zip(claim_words, claim_words[1:] + [""], strict=True))):
        return "the claim says it holds anywhere or for any case, the span does not"
    if not claim_set.isdisjoint(lx.ONLY_WORDS[lang]) and _only_unstated(said, span_set, lang):
        return "the claim says this is the only way, day or case, the span does not"
    if claim_set.isdisjoint(lx.ONLY_WORDS[lang]) and not span_set.isdisjoint(lx.ONLY_WORDS[lang]):
        restriction = _only_restriction(stated, lang) - claim_stems
        if restriction:
            return f"the span says this holds only with '{sorted(restriction)[0]}', which the claim does not state"
    openers = lx.CONDITION_OPENERS[lang]
    if not span_set.isdisjoint(openers) and claim_set.isdisjoint(openers):
        condition = _condition_words(said, stated, openers, lang) - claim_stems
        if condition:
            return f"the span says this holds only if ... '{sorted(condition)[0]}', which the claim does not state"
    hedged = not span_set.isdisjoint(_HEDGE_FIRST.get(lang, ()))
    narrowing = lx.NARROWING_WORDS.get(lang, set()) & span_set
    if narrowing and lx.NARROWING_VERB_AFTER[lang]:
        verbs = lx.NARROWING_VERB_AFTER[lang]
        narrowing = {w for w in narrowing
                     if any(word == w and before not in verbs for before, word in zip(["", *span_words], span_words, strict=False))}
    if not hedged and not narrowing:
        return None  # the common case: set tests only
    if hedged and claim_set.isdisjoint(lx.HEDGE_CLAIM_WORDS.get(lang, ())):
        for phrase in lx.HEDGE_PHRASES[lang]:
            for i, word in enumerate(span_words[: len(span_words) - len(phrase) + 1]):
                if word != phrase[0] or tuple(span_words[i : i + len(phrase)]) != phrase:
                    continue
                act = span_words[i + len(phrase) - 1 : i + len(phrase) + 2]  # "charge" itself, or what follows
                if any(_content_stem(w, lang) in claim_stems for w in act):
                    return f"the span says only that it may happen ('{' '.join(phrase)}')"
    if narrowing - claim_set:
        return f"the span speaks only of a narrower kind ('{sorted(narrowing - claim_set)[0]}')"
    return None


def _only_unstated(said: _Analysis, span_set: set[str], lang: str) -> bool:
    """The claim's "only" ("tickets are only sold online") is not in the span ("tickets are sold online"), nor
    an obligation that makes the way the only one ("must be bought online"). An "only" right before a value
    ("costs only £3") means "just" and asks nothing of the span."""
    if not span_set.isdisjoint(lx.ONLY_WORDS[lang]) or not span_set.isdisjoint(lx.OBLIGATION[lang]):
        return False
    starts = [q.start for segment in said.segments for q in segment.quantities if q.unit != "*"]  # not "only free"
    for sentence in said.words:
        for k, (offset, word) in enumerate(sentence):
            if word not in lx.ONLY_WORDS[lang] or any(0 < start - offset <= len(word) + 3 for start in starts):
                continue
            before = sentence[k - 1][1] if k else ""
            after = sentence[k + 1][1] if k + 1 < len(sentence) else ""
            if before not in _ONLY_NOT_EXCLUSIVE_BEFORE and after not in _ONLY_NOT_EXCLUSIVE_AFTER:
                return True
    return False


# "the only member who ...", "not only ... but", "only to lose", "trzeba tylko pokazać" (one just has to show):
# an "only" that does not make a way exclusive
_ONLY_NOT_EXCLUSIVE_BEFORE = frozenset({"the", "not", "an", "one", "his", "her", "their", "its", "our", "your",
                                        "trzeba", "wystarczy", "reikia", "pakanka"})
_ONLY_NOT_EXCLUSIVE_AFTER = frozenset({"to"})


def _only_restriction(stated: _Analysis, lang: str) -> set[str]:
    """The content words after an exclusive "only" of the span ("only covered by the Plus plan": cover, plus,
    plan): the case the span restricts its statement to."""
    words: set[str] = set()
    negators = lx.NEGATORS[lang]
    starts = [q.start for segment in stated.segments for q in segment.quantities if q.unit != "*"]
    for sentence in stated.words:
        said = [word for _, word in sentence]
        for k, (offset, word) in enumerate(sentence):
            if word not in lx.ONLY_WORDS[lang] or (k and said[k - 1] in _ONLY_NOT_EXCLUSIVE_BEFORE):
                continue
            if any(0 < start - offset <= len(word) + 3 for start in starts):
                continue  # "only 50% or less": "just", before a value
            if k + 1 < len(said) and said[k + 1] in _ONLY_TIME_AFTER:
                continue  # "only within 60 days": a time limit, which the quantities compare
            for w in said[k + 1 :]:
                if w in negators:
                    break  # "can only be exchanged, not refunded": what follows is denied, not a restriction
                stem = _content_stem(w, lang)
                if stem is not None:
                    words.add(stem)
    return words


_ONLY_TIME_AFTER = frozenset({"within", "until", "before", "after", "during", "between", "from", "by", "on", "at"})


def _condition_words(said: _Analysis, stated: _Analysis, openers: set[str], lang: str) -> set[str]:
    """The content words of the span's conditions: after "if" / "provided" to the end of its segment ("free if
    the fault is covered by the warranty": fault, cover, warranty; "If you order before 1 pm, ...": order).
    A condition on another value than the claim's ("£45, or £40 if you pay by direct debit") is not read."""
    words: set[str] = set()
    claim_quantities = [q for segment in said.segments for q in segment.quantities]
    for segment in stated.segments:
        if segment.quantities and not any(_same(q, p, stated.all_words, lang) for q in claim_quantities
                                          for p in segment.quantities):
            continue
        spoken = stated.words_between(segment.start, segment.end + 1, segment.sentence)
        for k, word in enumerate(spoken):
            if word in openers:
                words |= {stem for w in spoken[k + 1 :] if (stem := _content_stem(w, lang)) is not None}
                break
    return words
