"""The rules of the built-in judge: each fact of the claim (a quantity, or a statement without
one) aligned to the passage segment that fits it best, and judged supported, contradicted or
unstated there."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.analysis import (
    Segment,
    _analyse_claim,
    _analyse_passage,
    _Analysis,
    _content_stem,
    _content_words,
)
from citecheck.judges.builtin.polarity import Polarity, _merge_polarity, _polarity_compatible
from citecheck.judges.builtin.quantities import MATCH, MISMATCH, OTHER, WITHIN, Quantity, _comparable, _compare, rate_named
from citecheck.judges.builtin.words import _GROUP_WORDS, _GROUPS, _IMPLIED, W, _fold, _stem, _tokenize

SUPPORTED, CONTRADICTED, UNSTATED = "supported", "contradicted", "unstated"
_EXCEPTION_STEMS = {lang: frozenset(_stem(word, lang) for word in words) for lang, words in lx.EXCEPTION_WORDS.items()}


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


def _threshold_dropped(q: Quantity, p: Quantity, segment: Segment, stated: _Analysis | None, lang: str) -> _Fact | None:
    """"Delivery is free for all orders" against "... free for orders over £60": the passage's value holds
    only above an amount (a lower bound on a price in the same segment: "over £60", "powyżej 200 zł", "nuo
    50 €") that the claim does not state. A claim that says it holds for all ("all", "always", "zawsze",
    "visada") is contradicted; any other is not backed by that segment."""
    thresholds = [o for o in segment.quantities if o is not p and o.dim == "money" and o.bound == "min"]
    if not thresholds or q.dim != "money" or q.bound == "min" or stated is None:
        return None
    said = [c for s in stated.segments for c in s.quantities if c is not q]
    if any(_comparable(c, o) and _compare(c, o) == MATCH for c in said for o in thresholds):
        return None  # the claim states the threshold too
    if lx.UNIVERSAL_WORDS[lang].isdisjoint(stated.all_words_said()):
        return _Fact(UNSTATED, f"the passage gives '{p.text}' only over '{thresholds[0].text}', which the claim "
                     "does not state")
    return _Fact(CONTRADICTED, f"the passage gives '{p.text}' only over '{thresholds[0].text}', not for all",
                 segment.sentence)


def _listed_alongside(q: Quantity, segment: Segment, candidates: list[tuple[Segment, Quantity]], key: set[str],
                      lang: str) -> bool:
    """"Closed on 25 December and 26 December" against "closed on 26 December": the sentence lists the claim's
    value too, in a segment that names nothing of its own ("and 26 December"); the first value listed does not
    deny it. A segment with a word of its own is a case of its own: "Adults pay £8 and children £5" denies "Adults
    pay £5", and "Registracija mūsų klinikose nemokama, kitų miestų klinikose – 3 €" denies a free registration in
    other cities' clinics."""
    for other, p2 in candidates:
        if other is segment or other.sentence != segment.sentence or _compare_in(q, p2, other, lang) != MATCH:
            continue
        if not other.own and len(other.quantities) == 1 and not p2.bound:
            return True  # (a value of its own only: "but free for orders over £60" is a case of its own)
    return False


def _other_side_of_threshold(q: Quantity, p: Quantity, segment: Segment, stated: _Analysis | None) -> bool:
    """"For orders under £500, delivery costs £39" against "Delivery is free on orders over £500": the passage's
    price holds only over an amount (a lower bound on a price in its segment) and the claim speaks of what lies
    under that very amount, so a price of the claim's differs from it without denying it."""
    thresholds = [o for o in segment.quantities if o is not p and o.dim == "money" and o.bound == "min"]
    if not thresholds or p.bound == "min" or stated is None:
        return False
    said = [c for s in stated.segments for c in s.quantities if c is not q]
    return any(c.dim == "money" and c.bound == "max" and c.hi == o.lo for c in said for o in thresholds)


def _compare_in(q: Quantity, p: Quantity, segment: Segment, lang: str) -> str:
    """:func:`_compare`, where a rate the passage's value lacks may be said by its subject ("the annual
    subscription is £45" states "£45 a year")."""
    outcome = _compare(q, p)
    if outcome == OTHER and q.per - p.per and not p.bound and rate_named(q.per - p.per, segment.key, lang):
        return MATCH
    return outcome


# The words of a rate of time ("per hour", "rocznie"): compared as the price's rate, not as what it is for.
# A rate of things ("za paczkę") keeps its words: "paczk" also names the parcel locker.
_TIME_RATES = frozenset({"hour", "day", "night", "week", "month", "year"})
_RATE_STEMS = {lang: frozenset(_stem(word, lang) for word, rate in (*lx.RATE_UNITS.items(), *lx.RATE_ADVERBS.items())
                               if rate in _TIME_RATES) for lang in lx.LANGUAGES}
# Each rate's own words ("za każdy produkt", "už kiekvieną prekę"): the claim's rate, compared with the price's.
_RATE_WORD_STEMS = {lang: {rate: frozenset(_stem(word, lang) for word, r in lx.RATE_UNITS.items() if r == rate)
                           for rate in set(lx.RATE_UNITS.values())} for lang in lx.LANGUAGES}
_FIRST_STEMS = {lang: frozenset(_stem(word, lang) for word in words) for lang, words in lx.FIRST_WORDS.items()}
# A price or a discount is limited by these in its own segment; a duration or a threshold of other kinds
# is read by the rules about thresholds and durations.
_LIMITED_DIMS = frozenset({"money", "percent"})


def _limit_dropped(q: Quantity, p: Quantity, segment: Segment, claim_words: set[str], stated: _Analysis | None,
                   lang: str) -> _Fact | None:
    """"Members get 10% off" against "10% off on Tuesdays"; "Parking is free" against "free for the first two
    hours"; "Children travel free" against "Children under 5 travel free": the passage's price or discount
    holds only on a day, at a time, for a first stretch, or under or over a bound that the claim does not
    state. Not backed by that segment (unstated, never contradicted: the claim may mean the same case)."""
    # the segment's own days (an inherited one belongs to the sentence's other part); Lithuanian "pirm"
    # is both Monday's stem and "first"
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP] - _FIRST_STEMS[lang]
    limit: str | None = None
    if segment.own & weekdays and not claim_words & weekdays:
        limit = "on some days"
    elif segment.own & _FIRST_STEMS[lang] and not claim_words & _FIRST_STEMS[lang]:
        limit = "for a first stretch"
    else:
        said = [c for s in stated.segments for c in s.quantities if c is not q] if stated is not None else []
        for other in segment.quantities:
            if other is p or not (other.bound or other.dim == "clock"):
                continue
            if other.dim == "money" and other.bound == "min":
                continue  # a threshold ("free for orders over £60"): _threshold_dropped reads it
            if not any(_comparable(c, other) and _compare(c, other) == MATCH for c in said):
                limit = f"with '{other.text}'"
                break
    if limit is None:
        return None
    return _Fact(UNSTATED, f"the passage gives '{p.text}' only {limit}, which the claim does not state")


def _opens_condition(words: Sequence[str], lang: str) -> bool:
    return any(tuple(words[: len(phrase)]) == phrase for phrase in lx.CONDITION_PHRASES.get(lang, ()))


def _condition_unstated(p: Quantity, segment: Segment, passage: _Analysis, stated: _Analysis | None,
                        lang: str) -> _Fact | None:
    """"Diagnoza jest bezpłatna" against "Diagnoza jest bezpłatna, jeśli zdecydujesz się na naprawę; w
    przeciwnym razie 40 zł": the passage's price holds only under a condition said in the segment right before
    or after it, which the claim does not state (no condition word of its own, under three quarters of the
    condition's words). Not backed there (unstated: the claim may mean the same case)."""
    if stated is None or lang not in lx.CONDITION_PHRASES:
        return None
    index = passage.segments.index(segment)
    for other in passage.segments[max(0, index - 1) : index + 2]:
        if other is segment or other.sentence != segment.sentence:
            continue
        if not _opens_condition(passage.words_between(other.start, other.end + 1, other.sentence), lang):
            continue
        said = stated.all_words_said()
        if any(_opens_condition(said[k:], lang) for k in range(len(said))):
            return None  # the claim states a condition of its own; the words decide whether it is this one
        if other.own and len(other.own & stated.all_words) / len(other.own) >= 0.75:
            return None
        return _Fact(UNSTATED, f"the passage gives '{p.text}' only under a condition the claim does not state")
    return None


def _other_value_named(q: Quantity, p: Quantity, segment: Segment, claim_words: set[str], passage: _Analysis,
                       lang: str) -> _Fact | None:
    """"Returns are free" against "Returns are free for members; others pay £3.95": the passage's sentence gives
    another value of the same kind in another segment, so its value holds only for what its own segment adds
    to the claim's words after the value ("for members"). Not backed by that segment (unstated)."""
    extra = segment.own - claim_words - _IMPLIED[lang].get(q.dim, frozenset()) - _RATE_STEMS[lang]
    if not extra:
        return None  # the cheap test first: the segment says nothing the claim does not
    # what the value is for is said after it ("free for members"); words before it name the thing priced
    extra &= _content_words(passage.words_between(p.end, segment.end + 1, segment.sentence), lang)
    if not extra:
        return None
    for other in passage.segments:
        if other is segment or other.sentence != segment.sentence:
            continue
        if any(o.dim == p.dim and _compare(o, p) == MISMATCH for o in other.quantities):
            return _Fact(UNSTATED, f"the passage gives '{p.text}' only for '{sorted(extra)[0]}', and another value "
                         "for other cases")
    return None


def _only_for_unstated(p: Quantity, segment: Segment, passage: _Analysis, stated: _Analysis | None,
                       lang: str) -> _Fact | None:
    """"Zwrot jest bezpłatny" against "Zwrot jest bezpłatny tylko dla członków klubu" ("free only for members"):
    the passage's price or discount holds only for what follows its "only", none of whose words the claim
    says. Not backed there (unstated); a claim with an "only" of its own is left to the other rules."""
    if stated is None:
        return None
    only = lx.ONLY_WORDS[lang]
    words = passage.words_between(segment.start, segment.end + 1, segment.sentence)
    at = next((k for k, word in enumerate(words) if word in only), None)
    if at is None or not only.isdisjoint(stated.all_words_said()):
        return None
    named = {stem for word in words[at + 1 :] if (stem := _content_stem(word, lang)) is not None}
    if named and not named & stated.all_words:
        return _Fact(UNSTATED, f"the passage gives '{p.text}' only for a case the claim does not state")
    return None


_LT_ADDRESSEE = frozenset(_stem(word, lx.LT) for word in lx.LT_ADDRESSEE_WORDS)
_EN_ADDRESSEE = frozenset(_stem(word, lx.EN) for word in lx.EN_ADDRESSEE_WORDS)
_ADDRESSEE = {lx.LT: _LT_ADDRESSEE, lx.EN: _EN_ADDRESSEE}


def _reader_named(unsaid: set[str], segment: Segment, passage: _Analysis, lang: str) -> bool:
    """The claim's words the passage does not say are only its names for the reader ("pirkėjas", "customers")
    and the segment's sentence speaks to "you": "Pirkėjas gali grąžinti" against "galite grąžinti"."""
    addressee = _ADDRESSEE.get(lang)
    return addressee is not None and unsaid <= addressee and _speaks_to_you(segment, passage, lang)


def _speaks_to_you(segment: Segment, passage: _Analysis, lang: str) -> bool:
    """The segment's sentence speaks to the reader: a Lithuanian second-person verb ("galite") or "jūs"; English
    "you" with no other party (staff, a courier, "we") in the sentence."""
    words = [word for _, word in passage.words[segment.sentence]]
    if lang == lx.EN:
        return not lx.EN_YOU_WORDS.isdisjoint(words) and lx.EN_OTHER_PARTY_WORDS.isdisjoint(words)
    return any(word in lx.LT_YOU_WORDS or (len(word) >= 6 and word.endswith(lx.LT_YOU_ENDINGS)) for word in words)


def _judge_quantity(q: Quantity, key: set[str], claim_words: set[str], part_pol: Polarity,
                    passage: _Analysis, lang: str, stated: _Analysis | None = None) -> _Fact:
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
    # A word of the sentence that another value's segment says itself belongs to that value, not to this one:
    # "free at our ATMs, other banks' ATMs – €1.99" gives "other" to €1.99 ("kitų bankų bankomatuose – 1,99 €").
    owned_elsewhere: dict[int, set[str]] = {}
    for segment, _p in candidates:
        owned_elsewhere.setdefault(id(segment), set()).update(
            word for other, _o in candidates if other is not segment and other.sentence == segment.sentence
            for word in other.own)
    scored: list[tuple[float, float, float, Segment, Quantity]] = []
    for segment, p in candidates:
        ownish = segment.key
        if _contrast_conflict(key, ownish, lang):
            continue
        m_own = len(key & segment.own)
        m_inh = len((key & segment.inh) - segment.own)
        if m_own + m_inh == 0:
            continue  # the value's own words say nothing the claim says
        context = segment.ctx - (owned_elsewhere[id(segment)] - ownish)
        m_ctx = len((key & context) - ownish)
        score = m_own + 0.6 * m_inh + 0.3 * m_ctx - 0.01 * len(ownish - key)
        # a word naming one alternative ("kurierem", "child", "express") identifies the value more than others;
        # one the value's part inherits names it too ("Płatność przy odbiorze jest dostępna do 2000 zł i kosztuje
        # 5 zł": the 5 zł is the cash-on-delivery price as much as the 2000 zł is its limit)
        score += 0.5 * len(key & (segment.own | segment.inh) & _GROUP_WORDS[lang])
        if q.per and q.per == p.per:
            score += 0.5  # the same rate ("30 € per metus" / "30 € per metus") identifies the value too
        if p.head and not (p.head & claim_words):
            score -= 1.0
        if q.head and not (q.head & (ownish | segment.ctx)):
            score -= 1.0
        # Coverage for a contradiction counts the value's own sentence only; for support the
        # page's topic words (its first sentence) count too ("council tax" named once on top).
        said = ownish | context | passage.topic
        reader = 0
        if not key <= said and _reader_named(key - said, segment, passage, lang):
            said = said | _ADDRESSEE[lang]
            reader = len((key & _ADDRESSEE[lang]) - ownish - context)
        coverage = (m_own + m_inh + m_ctx + reader) / len(key)
        support_coverage = len(key & said) / len(key)
        scored.append((score, coverage, support_coverage, segment, p))
    if not scored:
        return _Fact(UNSTATED, f"the passage gives '{label}'-like values only for other cases")
    top = max(item[0] for item in scored)
    if top <= 0:
        return _Fact(UNSTATED, f"no value in the passage belongs to what the claim says '{label}' is for")
    tied = [item for item in scored if item[0] >= top - 0.05]
    outcomes = [(_compare_in(q, p, segment, lang), coverage, support, segment, p)
                 for _, coverage, support, segment, p in tied]
    for outcome, _coverage, support, segment, p in outcomes:
        if outcome == MATCH and support >= 0.999:
            stated_pol = _list_polarity(segment, key, passage)
            if stated is not None and _reads_unless(stated, lang) and _unless_said(segment.sentence, key, passage, lang, p.start):
                stated_pol = _opposite(stated_pol)
            if (not _polarity_compatible(part_pol, stated_pol) and (part_pol.signal or stated_pol.signal)
                    and not _bound_as_requirement(q, p, part_pol, stated_pol)):
                return _Fact(CONTRADICTED, f"the passage states '{p.text}' with the opposite negation or modal",
                             segment.sentence)
            if len(segment.quantities) > 1:  # the cheap test first: a threshold is a second value
                dropped = _threshold_dropped(q, p, segment, stated, lang)
                if dropped is not None:
                    return dropped
            if q.dim in _LIMITED_DIMS:
                limited = (_limit_dropped(q, p, segment, claim_words, stated, lang)
                           or _condition_unstated(p, segment, passage, stated, lang)
                           or _other_value_named(q, p, segment, claim_words, passage, lang)
                           or _only_for_unstated(p, segment, passage, stated, lang))
                if limited is not None:
                    return limited
            return _Fact(SUPPORTED, f"'{label}' matches the passage's '{p.text}'", segment.sentence)
    if any(outcome == MATCH for outcome, *_ in outcomes):
        return _Fact(UNSTATED, f"'{label}' appears, but not for everything the claim ties it to")
    best = max(outcomes, key=lambda item: item[1])
    outcome, coverage, _support, segment, p = best
    if outcome == MISMATCH and coverage >= 0.75:
        if _listed_alongside(q, segment, candidates, key, lang):
            return _Fact(UNSTATED, f"the passage gives '{label}' too, alongside '{p.text}'")
        if q.dim == "money" and len(segment.quantities) > 1 and _other_side_of_threshold(q, p, segment, stated):
            return _Fact(UNSTATED, f"the passage gives '{p.text}' only over an amount the claim speaks of under")
        if q.per != p.per:
            return _Fact(CONTRADICTED, f"the passage gives '{p.text}' per {'/'.join(sorted(p.per)) or 'unit'} "
                         f"where the claim says per {'/'.join(sorted(q.per)) or 'unit'}", segment.sentence)
        return _Fact(CONTRADICTED, f"the passage gives '{p.text}' where the claim says '{label}'", segment.sentence)
    if outcome == WITHIN:
        return _Fact(UNSTATED, f"'{label}' lies inside the passage's '{p.text}' but is not stated")
    return _Fact(UNSTATED, f"the passage does not state '{label}' for this")


_DIM_NAMES = {"money": "price or amount", "duration": "duration", "mass": "weight", "length": "length",
              "volume": "volume", "percent": "percentage", "clock": "time of day", "date": "date",
              "count": "number", "frequency": "frequency"}


_FIRST_WORD = re.compile(r"\w+")


def _claim_condition(claim: str, segments: Sequence[Segment], lang: str) -> Segment | None:
    """The claim part's condition: a segment with no value, in a part with one, opened by a condition of its
    language (lx.CLAIM_CONDITION_OPENERS: "if", "when", "jeśli", "o ile", "jei", "kai") or, opening the part, by
    a Lithuanian gerund ("Neatšaukus prenumeratos, kas mėnesį nuskaitoma 8,99 €", "pateikus"). Its negation is
    its own, not the value's ("Dzieci do lat 4 jadą bezpłatnie, jeśli nie zajmują osobnego miejsca"; "If you
    can't make it, cancel 24 hours before"), and the passage must state it with the same polarity: "Atšaukus
    rezervaciją, imamas 20 € mokestis" is not backed by "Jei rezervacijos neatšaukiate, imamas 20 € mokestis"."""
    if len(segments) < 2 or not any(s.quantities for s in segments):
        return None
    openers = lx.CLAIM_CONDITION_OPENERS[lang]
    for index, segment in enumerate(segments):
        if segment.quantities:
            continue
        words = _opening_words(claim, segment, 2)
        if any(words[: len(opener)] == opener for opener in openers):
            return segment
        if index == 0 and words and _gerund(words[0], lang):
            return segment
    return None


def _opening_words(claim: str, segment: Segment, n: int) -> tuple[str, ...]:
    """The first ``n`` words of a claim's segment, folded ("o ile", "jei", "neužimantys")."""
    return tuple(_fold(m.group()) for m in itertools.islice(_FIRST_WORD.finditer(claim, segment.start), n))


def _gerund(word: str, lang: str) -> bool:
    """A Lithuanian gerund ("neatšaukus", "pateikus", "užsisakius"): it opens a condition as "jei" does."""
    return lang == lx.LT and len(word) >= 6 and word.endswith("us") and not word.endswith("ius")


_LT_OTHERWISE = frozenset({"kitaip", "priesingu"})


def _lt_otherwise(page: _Analysis, sentence: int | None) -> bool:
    """The sentence goes on "priešingu atveju" / "kitaip" (otherwise): what follows holds when the rule does not."""
    if sentence is None:
        return False
    words = [word for _, word in page.words[sentence]]
    return any(word == "kitaip" or (word == "priesingu" and words[k + 1 : k + 2] == ["atveju"])
               for k, word in enumerate(words) if word in _LT_OTHERWISE)


def _lt_participle_clauses(claim: str, segments: Sequence[Segment]) -> list[Segment]:
    """The Lithuanian claim's middle segments with no value opened by an active participle ("Vaikai,
    neužimantys atskiros vietos, už kelionę nemoka"): they describe the subject, so their polarity is their own."""
    out = []
    for segment in segments[1:-1]:
        if segment.quantities or not segment.own:
            continue
        opener = next(iter(_opening_words(claim, segment, 1)), "")
        if len(opener) >= 7 and opener.endswith(lx.LT_PARTICIPLE_ENDINGS):
            out.append(segment)
    return out


def _list_polarity(segment: Segment, key: set[str], passage: _Analysis) -> Polarity:
    """The polarity a segment states the claim's words with: its own, or, when it goes on a list after a negated
    segment of its sentence ("We cannot take building rubble, garden waste or asbestos"; "closed on Christmas
    Day and Boxing Day") and borrows from it a word that negation governs ("take", "open"), that segment's.
    A segment that says the claim's words itself ("... and refunds take 10 days") keeps its own."""
    if segment.polarity.signal or not segment.inh or segment.excepted:
        return segment.polarity  # an exception ("..., unless ...", "chyba że ...") is no item of the list
    borrowed = key - segment.own
    if not borrowed:
        return segment.polarity  # the cheap test first: the segment says every word itself
    index = next(k for k, s in enumerate(passage.segments) if s is segment)
    for before in reversed(passage.segments[:index]):
        if before.sentence != segment.sentence:
            break
        if before.polarity.signal:
            if _segment_opens_condition(before, passage):
                return segment.polarity  # "If you do not cancel, a fee is charged": the fee is not denied
            return before.polarity if borrowed & before.negated else segment.polarity
    return segment.polarity


def _segment_opens_condition(segment: Segment, passage: _Analysis) -> bool:
    first = next((word for offset, word in passage.words[segment.sentence] if offset >= segment.start), "")
    return first in lx.CONDITION_FIRST_WORDS[passage.lang]


_UNLESS = {lang: frozenset(words) for lang, words in lx.UNLESS_WORDS.items()}
_EXCEPT_CUT = {lang: frozenset(words) for lang, words in lx.EXCEPT_CUT_WORDS.items()}
_OPPOSITE_MODAL = {"obligatory": "optional", "optional": "obligatory", "permitted": "prohibited", "prohibited": "permitted"}


def _unless_said(sentence: int, key: set[str], passage: _Analysis, lang: str, value_at: int | None = None) -> bool:
    """"Return postage is paid by the customer unless the item arrived damaged" against a claim about the
    damaged item: the claim's words are on both sides of the sentence's "unless" (or its value, at character
    offset ``value_at``, before it: "The fee is £25 unless the dog is microchipped"), so the sentence states
    the claim's case with the opposite polarity."""
    unless = _UNLESS[lang]
    if not unless:
        return False
    said = passage.words[sentence]
    cut = next((k for k, (_, word) in enumerate(said) if word in unless), None)
    if cut is None:
        return False  # the cheap test first: most sentences say no "unless"
    words = [word for _, word in said]
    main = _content_words(words[:cut], lang)
    if not key & (_content_words(words[cut + 1 :], lang) - main):
        return False
    return bool(key & main) or (value_at is not None and value_at < said[cut][0])


def _except_said(sentence: int, key: set[str], passage: _Analysis, lang: str) -> bool:
    """"Visits to specialists need a referral, except gynaecologists": a claim whose words are the rule's and
    the exception's ("a gynaecologist visit needs no referral") is stated by the sentence with the opposite
    polarity, as on both sides of "unless"."""
    cut_words = _EXCEPT_CUT[lang]
    said = passage.words[sentence]
    cut = next((k for k, (_, word) in enumerate(said) if word in cut_words), None)
    if cut is None:
        return False  # the cheap test first: most sentences name no exception
    words = [word for _, word in said]
    main = _content_words(words[:cut], lang)
    named = _content_words(words[cut + 1 :], lang) - main
    # every word of the claim is the sentence's, some of the rule and some of what is excepted; and the claim
    # names one excepted item whole ("except sale items bought online" is not said of all sale items)
    if not (key <= main | named and key & named and key & main):
        return False
    items = [s.own - _EXCEPTION_STEMS[lang] - main for s in passage.segments if s.sentence == sentence and s.excepted]
    return any(item and item <= key for item in items)


def _reads_unless(stated: _Analysis, lang: str) -> bool:
    """A claim that says "unless" itself states the passage's sentence as it is: no case of it is flipped."""
    return _UNLESS[lang].isdisjoint(stated.all_words_said())


def _opposite(pol: Polarity) -> Polarity:
    modal = _OPPOSITE_MODAL.get(pol.modal) if pol.modal else None
    return Polarity(modal, 1 - pol.parity, True, pol.exclusive)


def _judge_statement(key: set[str], pol: Polarity, passage: _Analysis, lang: str, *, read_unless: bool = True) -> _Fact:
    best: tuple[tuple[float, float, int, int], Segment] | None = None
    for segment in passage.segments:
        ownish = segment.key
        own_cover = len(key & ownish) / len(key)
        # on a tie, the segment that says the claim's words itself, not one that inherits them
        rank = (len(key & (ownish | passage.topic)) / len(key) if own_cover >= 0.5 else own_cover,
                own_cover, len(key & segment.own), -len(ownish - key))
        if best is None or rank > best[0]:
            best = (rank, segment)
    if best is None:
        return _Fact(UNSTATED, "the passage says nothing on this")
    coverage, segment = best[0][0], best[1]
    if 0.5 <= coverage < 0.999 and _reader_named(key - segment.key - passage.topic, segment, passage, lang):
        coverage = 1.0
    words = " ".join(sorted(key))
    role_groups = lx.EXCLUSIVE_ROLE_GROUPS
    # (Lithuanian: a three-word claim whose only other word is the role, "Kainos nurodytos be PVM" against
    # "kainos nurodytos su PVM", has two thirds covered; every word but the role stated is enough)
    if (coverage >= 0.75 or lang == lx.LT) and _contrast_conflict(key, segment.key, lang, role_groups):
        rest = key - set().union(*(_GROUPS[lang][g] for g in role_groups))
        if rest and rest <= segment.key:
            return _Fact(CONTRADICTED, "the passage names a different party (or net against gross) for this",
                         segment.sentence)
    stated_pol = _list_polarity(segment, key, passage)
    if stated_pol is segment.polarity:
        stated_pol = _statement_polarity(key, segment, passage, lang)
    unless_said = read_unless and _unless_said(segment.sentence, key, passage, lang)
    if not unless_said and read_unless and _except_said(segment.sentence, key, passage, lang):
        unless_said = True
        if segment.excepted:  # the exception's own segment: the opposite of its rule's polarity
            index = next(k for k, s in enumerate(passage.segments) if s is segment)
            rule = next((s for s in reversed(passage.segments[:index])
                         if s.sentence == segment.sentence and not s.excepted), None)
            stated_pol = rule.polarity if rule is not None else stated_pol
    if unless_said:
        stated_pol = _opposite(stated_pol)
    compatible = _polarity_compatible(pol, stated_pol)
    if coverage >= 0.999:
        if compatible and _denied_alongside(key, pol, segment, passage):
            return _Fact(CONTRADICTED, "the passage denies this in the same sentence", segment.sentence)
        if compatible and _other_day_named(key, segment, lang):
            return _Fact(UNSTATED, "the passage names another day in the same statement")
        if compatible:
            return _Fact(SUPPORTED, f"the passage states this ({words})", segment.sentence)
        return _Fact(CONTRADICTED, "the passage states this with the opposite negation or modal", segment.sentence)
    if coverage >= 0.75 and not compatible and (pol.signal or stated_pol.signal):
        return _Fact(CONTRADICTED, "the passage states this with the opposite negation or modal", segment.sentence)
    whole = None if unless_said else _stated_across_segments(key, pol, passage)
    if whole is not None and not (read_unless and _unless_said(whole, key, passage, lang)):
        return _Fact(SUPPORTED, f"the passage states this in one sentence ({words})", whole)
    return _Fact(UNSTATED, "the passage is on the topic but does not state this")


_NEGATED_MODAL = {"permitted": "prohibited", "prohibited": "permitted", "obligatory": "optional",
                  "optional": "obligatory"}


def _as_if_not(segment: Segment, analysis: _Analysis, lang: str) -> Polarity:
    """The polarity of a segment that "chyba że" opens, read as "o ile nie": negated."""
    unless = lx.UNLESS_OPENERS.get(lang)
    if not unless:
        return segment.polarity
    first = analysis.words_between(segment.start, segment.end + 1, segment.sentence)[:1]
    if not first or first[0] not in unless:
        return segment.polarity
    pol = segment.polarity
    modal = _NEGATED_MODAL[pol.modal] if pol.modal else None
    return Polarity(modal=modal, parity=1 - pol.parity, signal=True, exclusive=pol.exclusive)


def _statement_polarity(key: set[str], segment: Segment, passage: _Analysis, lang: str) -> Polarity:
    """The polarity the segment states the claim's words with. A relative clause ("Zwrot nie dotyczy sprzętu,
    który został zainstalowany i podłączony do wody"), or a segment that continues it, inherits its head's
    words but not its negation: when the claim's words include the head's own, the head's polarity is the
    statement's. A segment that "chyba że" opens is read as "o ile nie"."""
    relative = lx.RELATIVE_WORDS.get(lang)
    if relative and segment.inh & key:
        same = [s for s in passage.segments if s.sentence == segment.sentence]
        index = next((k for k, s in enumerate(same) if s is segment), 0)
        for k in range(index, 0, -1):  # back to the clause's opening word, through the segments that continue it
            opening = passage.words_between(same[k].start, same[k].end + 1, same[k].sentence)[:1]
            if opening and opening[0] in relative:
                head = same[k - 1]
                # the noun the clause describes (the head's last word) is the clause's own subject too
                said = passage.words_between(head.start, head.end + 1, head.sentence)
                described = {_stem(said[-1], lang)} if said else set()
                return head.polarity if (head.own - described) & key else segment.polarity
    return _as_if_not(segment, passage, lang)


def _other_day_named(key: set[str], segment: Segment, lang: str) -> bool:
    """"Posiłki na niedzielę są dowożone w niedzielę" against "posiłki na niedzielę przywozimy w sobotę": the
    segment holds the claim's day and names another one the claim does not, so the claim's day may have
    another role there; the words alone do not state the claim."""
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP] - _FIRST_STEMS[lang]
    return bool(key & weekdays) and bool((segment.own & weekdays) - key)


def _judge_statements(segments: list[Segment], part_key: set[str], stated: _Analysis, page: _Analysis,
                      lang: str, *, read_unless: bool = True) -> list[_Fact]:
    """A part of the claim with no value, judged as one statement; or, when a segment opens a condition with
    another polarity than the first ("Karnet można zawiesić, jeśli nie zalegasz z opłatami": permitted, then a
    negated condition), each segment by its own words and polarity, so the negated condition is not taken for
    a negation of the whole."""
    polarities = [_as_if_not(s, stated, lang) for s in segments]
    said = [(s, pol) for s, pol in zip(segments, polarities, strict=True) if s.own]
    if len(said) > 1 and any(not _polarity_compatible(said[0][1], pol) and _opens_a_condition(s, stated, lang)
                             for s, pol in said[1:]):
        return [_judge_statement(s.own, pol, page, lang, read_unless=read_unless) for s, pol in said]
    return [_judge_statement(part_key, _merge_polarity(polarities), page, lang, read_unless=read_unless)]


def _opens_a_condition(segment: Segment, analysis: _Analysis, lang: str) -> bool:
    """The segment opens a condition or an "unless" ("jeśli nie ...", "o ile ...", "chyba że ...")."""
    words = analysis.words_between(segment.start, segment.end + 1, segment.sentence)
    return _opens_condition(words, lang) or bool(words[:1] and words[0] in lx.UNLESS_OPENERS.get(lang, ()))


def _denied_alongside(key: set[str], pol: Polarity, segment: Segment, passage: _Analysis) -> bool:
    """"The jacket is water-resistant but not waterproof": the sentence that states the claim's words goes on
    to deny one of them with the opposite polarity (a segment whose own words are all the claim's)."""
    for other in passage.segments:
        if other.sentence != segment.sentence or other is segment or not other.own or not other.own <= key:
            continue
        if other.quantities:
            continue  # "open daily, 10 am to 4:30 pm; shut on Mondays": a segment with a value says more than the words
        if (other.polarity.signal or pol.signal) and not _polarity_compatible(pol, other.polarity):
            return True
    return False


def _stated_across_segments(key: set[str], pol: Polarity, passage: _Analysis) -> int | None:
    """The sentence whose segments together hold every word of ``key`` with a compatible polarity in each
    segment that holds any of them ("delivers in the city on Tuesdays and Fridays" is one statement cut in
    two at "and"), or None."""
    by_sentence: dict[int, list[Segment]] = {}
    for segment in passage.segments:
        by_sentence.setdefault(segment.sentence, []).append(segment)
    for sentence, segments in by_sentence.items():
        holding = [s for s in segments if key & s.key]
        if key <= set().union(*(s.key for s in holding)) if holding else False:
            if all(_polarity_compatible(pol, s.polarity) for s in holding):
                return sentence
    return None


def _binding_segment(claim_segment: Segment, page: _Analysis) -> _Analysis | None:
    """The passage read as one segment when that segment holds a value of every kind the claim segment
    ties together ("a 24-hour ticket costs 4.40": a duration and a price) and shares its words: the values
    are judged there together, not each in whichever segment fits it alone."""
    best: tuple[int, Segment] | None = None
    for segment in page.segments:
        if not all(any(_comparable(q, p) for p in segment.quantities) for q in claim_segment.quantities):
            continue
        shared = len(claim_segment.key & segment.key)
        if shared and (best is None or shared > best[0]):
            best = (shared, segment)
    return dataclasses.replace(page, segments=[best[1]]) if best is not None else None


def _has_phrase(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    present = set(words)
    for phrase in phrases:
        if phrase[0] not in present:
            continue
        if len(phrase) == 1:
            return True
        n = len(phrase)
        if any(word == phrase[0] and tuple(words[i : i + n]) == phrase for i, word in enumerate(words)):
            return True
    return False


# The first word of each "always" phrase: a claim without one of them says no "always".
_UNIVERSAL_FIRST = {lang: frozenset(phrase[0] for phrase in phrases) for lang, phrases in lx.UNIVERSAL_PHRASES.items()}
_UNIVERSAL_STEMS = {lang: frozenset(_stem(word, lang) for phrase in phrases for word in phrase)
                    for lang, phrases in lx.UNIVERSAL_PHRASES.items()}


def _condition_dropped(stated: _Analysis, claim_words: set[str], passage: str, page: _Analysis,
                       lang: str) -> _Fact | None:
    """A claim that says "always" / "at any time" where the sentence stating it in the passage sets a
    condition ("only if", "unless", "except"): contradicted by that sentence."""
    said = stated.all_words_said()
    if not claim_words or not _UNIVERSAL_FIRST[lang] & set(said):
        return None  # the cheap test first: most claims have no "always"
    if not _has_phrase(said, lx.UNIVERSAL_PHRASES[lang]):
        return None
    restriction = lx.RESTRICTION_WORDS[lang]
    # The words of the claim's segments that say "always" / "any" (not of another part of the claim: "... and
    # returns are free worldwide"); the universal itself is not a word the passage's sentence has to share.
    saying = [s.key for s in stated.segments
              if _has_phrase(stated.words_between(s.start, s.end, s.sentence), lx.UNIVERSAL_PHRASES[lang])]
    claim_words = (set().union(*saying) if saying else claim_words) - _UNIVERSAL_STEMS[lang]
    if not claim_words:
        return None
    restricting: int | None = None
    for sentence, words in _words_by_sentence(page).items():
        if len(claim_words & words) / len(claim_words) < 0.6:
            continue
        sentence_words = page.sentence_words(sentence)
        if claim_words <= words and _has_phrase(sentence_words, lx.UNIVERSAL_PHRASES[lang]):
            return None  # the passage states it, universal and all ("You may return any item ..."), whatever follows
        if restricting is None and restriction & set(sentence_words) and _restricts_claim(
                sentence, restriction, claim_words, page):
            restricting = sentence
    if restricting is not None:
        return _Fact(CONTRADICTED, "the claim says this holds always, but the passage sets a condition", restricting)
    return None


def _restricts_claim(sentence: int, restriction: set[str], claim_words: set[str], page: _Analysis) -> bool:
    """A restriction word of the sentence sets a condition on the claim's statement, not on another statement
    of the sentence ("can be used on any train and are fully refundable if you apply within 28 days": the
    "if" is the refund's): the part of the sentence the word is in says at least half of the claim's words
    (with the words it inherits when it says fewer than three of its own)."""
    if len(page.parts) < 2:
        return True  # the cheap test first: one statement only
    for part in page.parts:
        segments = [page.segments[k] for k in part if page.segments[k].sentence == sentence]
        if not segments:
            continue
        start, end = segments[0].start, segments[-1].end
        if restriction.isdisjoint(page.words_between(start, end + 1, sentence)):
            continue
        own = set().union(*(segment.own for segment in segments))
        if len(own) < 3:  # "..., but only within 60 days of purchase": a restriction of the statement before it
            own |= set().union(*(segment.inh for segment in segments))
        if len(claim_words & own) / len(claim_words) >= 0.5:
            return True
    return False


def _exception_named(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """A claim about what the passage names as an exception, said as if the rule applied to it ("Premium
    members pay £2.99" against "£2.99, except for Premium members"; "Swimwear can be returned within 14
    days" against "... within 14 days, except swimwear"): contradicted by that sentence. A claim that is
    itself an exception, or negated against the sentence's rule, is left to the other rules."""
    if not claim_words or any(s.excepted for s in stated.segments):
        return None
    claim_pol = _merge_polarity([s.polarity for s in stated.segments])
    for index, segment in enumerate(page.segments):
        if not segment.excepted:
            continue
        named = segment.own - _EXCEPTION_STEMS[lang]
        if not named:
            continue
        rule = next((s for s in reversed(page.segments[:index]) if s.sentence == segment.sentence and not s.excepted),
                    None)
        if rule is None or not _polarity_compatible(claim_pol, rule.polarity):
            continue
        if named <= claim_words:
            rest = claim_words - named
            if rest and len(rest & segment.ctx) / len(rest) >= 0.5:
                return _Fact(CONTRADICTED, "the passage names this as an exception to what the claim says",
                             segment.sentence)
            continue
        # "Ex-display televisions come with a three-year guarantee" against "Every new television comes with a
        # three-year guarantee, unless it was bought as an ex-display model": what the claim adds to the rule's
        # words is what the exception names
        extra = claim_words - rule.key
        if extra and extra <= named and len(claim_words & rule.key) / len(claim_words) >= 0.5:
            return _Fact(CONTRADICTED, "the passage names this as an exception to what the claim says", segment.sentence)
    return None


# "every day" is read "daily" (lx.PHRASE_EQUIVALENTS): a claim that something is done daily says it of all days
_UNIVERSAL_SAID = {lang: frozenset(words | {"daily", "codziennie", "kasdien"}) for lang, words in lx.UNIVERSAL_WORDS.items()}
_UNIVERSAL_SAID_STEMS = {lang: frozenset(_stem(word, lang) for word in words) for lang, words in lx.UNIVERSAL_WORDS.items()}
_EXCEPTION_SAID = {lang: frozenset(words) for lang, words in lx.EXCEPTION_WORDS.items()}


def _exception_dropped(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """"Breakfast is included in every room rate" against "... included in all room rates except the Saver
    rate": a claim that says its statement holds for all ("all", "every", "any", "always", "daily") where the
    clause stating it names an exception the claim leaves out: contradicted by that sentence. A claim that
    names the exception itself, or says "except" of its own, is left to the other rules, and so is an
    exception to another clause of the sentence ("served daily ... and included in all rates except ...")."""
    said = set(stated.all_words_said())
    if _UNIVERSAL_SAID[lang].isdisjoint(said) or not _EXCEPTION_SAID[lang].isdisjoint(said):
        return None  # the cheap test first: most claims say no "all"
    words = claim_words - _UNIVERSAL_SAID_STEMS[lang]
    if not words:
        return None
    claim_pol = _merge_polarity([s.polarity for s in stated.segments])
    for index, segment in enumerate(page.segments):
        segment_words = page.words_between(segment.start, segment.end, segment.sentence)
        cut = next((k for k, word in enumerate(segment_words) if word in _EXCEPTION_SAID[lang]), None)
        if cut is None:
            continue
        named = _content_words(segment_words[cut + 1 :], lang) - words
        if segment.excepted:  # "..., except leather ones": the rule is the clause before
            before = page.segments[index - 1] if index else None
            if before is None or before.sentence != segment.sentence:
                continue
            rule, rule_own = before, before.own
        else:
            rule, rule_own = segment, _content_words(segment_words[:cut], lang)
        if not named or named & claim_words or not words <= rule_own | rule.inh:
            continue
        if len(words & rule_own) / len(words) >= 0.5 and _polarity_compatible(claim_pol, rule.polarity):
            return _Fact(CONTRADICTED, "the claim says this holds for all, but the passage names an exception",
                         segment.sentence)
    return None


def _words_by_sentence(page: _Analysis) -> dict[int, set[str]]:
    """Each passage sentence's content words, its segments' own and inherited."""
    by_sentence: dict[int, set[str]] = {}
    for segment in page.segments:
        by_sentence.setdefault(segment.sentence, set()).update(segment.own, segment.inh)
    return by_sentence


def _order_words_said(text: str, lang: str) -> set[str]:
    """The ordering words ("before", "after", ...) a text says as words (not "after-sales")."""
    order = lx.ORDER_WORDS[lang]
    toks = _tokenize(text, lang)
    return {t.text for k, t in enumerate(toks) if t.kind == W and t.text in order and not (k + 1 < len(toks) and toks[k + 1].kind != W)}


def _alternative_excluded(claim_words: set[str], passage: str, page: _Analysis, lang: str, group: int,
                          note: str) -> _Fact | None:
    """A claim that something is done one way ("apply online") or on one day ("also on Fridays") where the
    passage makes another the only one for it ("can only be applied for in person", "must be booked online",
    "wyłącznie w sklepie stacjonarnym", "on Tuesdays only"): contradicted by that sentence. One the passage
    merely names is not exclusive; "must" makes a way exclusive, not a day."""
    channels = _GROUPS[lang][group]
    mine = claim_words & channels
    rest = claim_words - channels
    if not mine or not rest:
        return None
    only = lx.ONLY_WORDS[lang]
    def about(segment: Segment) -> bool:
        return len(rest & (segment.key | page.topic)) / len(rest) >= 0.6
    if any(segment.key & mine and len(rest & segment.key) / len(rest) >= 0.75 for segment in page.segments):
        return None  # the passage names the claim's way for it too
    for segment in page.segments:
        theirs = segment.key & channels
        if not theirs or not about(segment):
            continue
        obliged = group == lx.CHANNEL_GROUP and segment.polarity.modal == "obligatory"
        if obliged or only & set(page.sentence_words(segment.sentence)):
            return _Fact(CONTRADICTED, note, segment.sentence)
    return None


def _without_against_upon(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """"Zniżka przysługuje bez okazywania legitymacji" against "płacą 99 zł po okazaniu legitymacji": the claim
    waives an act (with its object) that the passage makes the condition ("po" / "przy" + the same act and
    object): contradicted. Another word of the claim must be in that sentence or the passage's topic."""
    if lang != lx.PL:
        return None
    said = stated.all_words_said()
    if lx.PL_WITHOUT_ACT not in said:
        return None  # the cheap test first: most claims say no "bez"
    waived = {(_stem(said[k + 1], lang), _stem(said[k + 2], lang)) for k, word in enumerate(said[:-2])
              if word == lx.PL_WITHOUT_ACT}
    acts = {act for act, _ in waived}
    for index, words in enumerate(page.words):
        tokens = [word for _, word in words]
        for k, word in enumerate(tokens[:-1]):
            if word not in lx.PL_UPON_ACT or _stem(tokens[k + 1], lang) not in acts:
                continue
            act = _stem(tokens[k + 1], lang)
            after = {_stem(t, lang) for t in tokens[k + 2 : k + 5]}
            if not any(a == act and obj in after for a, obj in waived):
                continue
            stems = {_stem(t, lang) for t in tokens} | page.topic
            rest = claim_words - {act} - {obj for _, obj in waived}
            if rest & stems:
                return _Fact(CONTRADICTED, "the passage makes the act the claim waives a condition", index)
    return None


def _value_on_other_day(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """A claim that ties a value to one day ("We czwartki wszystkie bilety kosztują 22 zł") where the passage
    ties the same words and value to another single day ("We wtorki wszystkie bilety kosztują 22 zł"): a day's
    own price or hour is not every day's, so the claim is contradicted. Only a sentence that names one day, with
    a value, and every other word of the claim; a range ("od poniedziałku do piątku") is read elsewhere."""
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP] - _FIRST_STEMS[lang]
    mine = claim_words & weekdays
    if len(mine) != 1 or not any(segment.quantities for segment in stated.segments):
        return None  # the claim must tie a value of its own to its day
    rest = claim_words - weekdays - _ONLY_STEMS[lang]
    if len(rest) < 2 or any(segment.key & mine for segment in page.segments):
        return None  # the passage names the claim's day somewhere: read by the other rules
    for segment in page.segments:
        if not segment.quantities or not rest <= segment.key:
            continue
        days = set().union(*(s.key & weekdays for s in page.segments if s.sentence == segment.sentence))
        if len(days) == 1 and segment.key & days:
            return _Fact(CONTRADICTED, "the passage ties this to another day", segment.sentence)
    return None


_ONLY_STEMS = {lang: frozenset(_stem(word, lang) for word in words) for lang, words in lx.ONLY_WORDS.items()}


def _only_one_claimed(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str, group: int,
                      note: str) -> _Fact | None:
    """A claim that something is done only one way ("only in person", "wyłącznie osobiście") or on one day
    ("only on Tuesdays") where the sentence stating it names another one for it too ("osobiście lub przez
    ePUAP", "on Tuesdays and Fridays"): contradicted by that sentence."""
    channels = _GROUPS[lang][group]
    mine = claim_words & channels
    if not mine:
        return None
    if lx.ONLY_WORDS[lang].isdisjoint(stated.all_words_said()):
        return None  # the cheap test first: most claims say no "only"
    rest = claim_words - channels - _ONLY_STEMS[lang]  # "wyłącznie" is a content word; the passage need not say it
    if not rest:
        return None
    named: dict[int, set[str]] = {}
    for segment in page.segments:
        theirs = segment.key & channels
        if theirs and len(rest & (segment.key | page.topic)) / len(rest) >= 0.75:
            named.setdefault(segment.sentence, set()).update(segment.own & channels or theirs)
    for sentence, ways in named.items():
        if mine <= ways and ways - mine:
            return _Fact(CONTRADICTED, note, sentence)
    return None


_DAY_PART_STEMS = {lang: frozenset(_stem(word, lang) for word in words) for lang, words in lx.DAY_PART_WORDS.items()}


def _only_claimed_other_stated(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """A claim that something is done only one way, on one day or at one part of the day ("only offered in the
    evenings", "only at weekends", "only online") where the passage says it is done another ("available every
    morning", "on weekdays", "by phone") and names the claim's one nowhere for it: contradicted by that
    sentence, since the claim's "only" excludes what the passage states."""
    if lx.ONLY_WORDS[lang].isdisjoint(stated.all_words_said()):
        return None  # the cheap test first: most claims say no "only"
    if _merge_polarity([s.polarity for s in stated.segments]).effective() != 0:
        return None  # "only closed on Sundays" says nothing against "open on weekdays"
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP] - _FIRST_STEMS[lang]
    for group in (_GROUPS[lang][lx.CHANNEL_GROUP], weekdays, _DAY_PART_STEMS[lang]):
        mine = claim_words & group
        rest = claim_words - group - _ONLY_STEMS[lang]
        if not mine or not rest:
            continue
        about = [s for s in page.segments if len(rest & (s.key | page.topic)) / len(rest) >= 0.75]
        if any(s.key & mine for s in about):
            continue  # the passage names the claim's one too
        for segment in about:
            if segment.own & group and segment.polarity.effective() == 0 and rest & segment.key:
                return _Fact(CONTRADICTED, "the claim says this is done only one way or at one time, but the passage "
                             "says it is done another", segment.sentence)
    return None


def _order_reversed(claim: str, claim_words: set[str], passage: str, page: _Analysis, lang: str) -> _Fact | None:
    """"Refunds are issued before we receive the parcel" against "... after we receive the parcel": the
    sentence that states the claim's words orders the events the other way."""
    order = lx.ORDER_WORDS[lang]
    lowered = claim.lower()
    if not any(word in lowered for word in order):
        return None  # the cheap test first: most claims order nothing
    said = _order_words_said(claim, lang)
    if len(said) != 1 or not claim_words:
        return None
    word = next(iter(said))
    for sentence, words in _words_by_sentence(page).items():
        if len(claim_words & words) / len(claim_words) < 0.75:
            continue
        start, end = page.sentences[sentence]
        stated = _order_words_said(passage[start:end], lang)
        if order[word] in stated and word not in stated:
            return _Fact(CONTRADICTED, f"the passage orders this the other way ('{order[word]}', not '{word}')",
                         sentence)
    return None


_EVERY = {lang: frozenset(words) for lang, words in lx.EVERY_WORDS.items()}
_ALTERNATE_FIRST = {lang: frozenset(phrase[0] for phrase in phrases) for lang, phrases in lx.ALTERNATE_PHRASES.items()}
_FREQUENCY_STEMS = {lang: frozenset(_stem(word, lang) for word in _EVERY[lang] | {w for phrase in phrases for w in phrase})
                    for lang, phrases in lx.ALTERNATE_PHRASES.items()}


def _frequency_changed(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """"Collected every Wednesday" against "collected every other Wednesday" (and "weekly" against
    "fortnightly", "co drugi wtorek" against "w każdy wtorek"): the sentence that states the claim's words
    repeats it half as often, or twice as often."""
    said = stated.all_words_said()
    present = set(said)
    if _EVERY[lang].isdisjoint(present) and _ALTERNATE_FIRST[lang].isdisjoint(present):
        return None  # the cheap test first: most claims say no "every"
    if any(q.dim == "frequency" for segment in stated.segments for q in segment.quantities):
        return None  # "every two weeks", "co drugi tydzień": a frequency the quantities compare as a value
    words = claim_words - _FREQUENCY_STEMS[lang]
    if not words:
        return None
    claim_alternate = _has_phrase(said, lx.ALTERNATE_PHRASES[lang])
    for sentence, stems in _words_by_sentence(page).items():
        if len(words & stems) / len(words) < 0.75:
            continue
        sentence_words = page.sentence_words(sentence)
        if _EVERY[lang].isdisjoint(sentence_words) and _ALTERNATE_FIRST[lang].isdisjoint(sentence_words):
            continue
        if _has_phrase(sentence_words, lx.ALTERNATE_PHRASES[lang]) != claim_alternate:
            return _Fact(CONTRADICTED, "the passage says this happens at another interval", sentence)
    return None


_EVERY_DAY = {lang: re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b")
              for lang, phrases in lx.EVERY_DAY_PHRASES.items()}
# The claim's words that can start or carry an "every day" phrase: the cheap test before the pattern.
_EVERY_DAY_WORDS = {lang: frozenset(w for p in phrases for w in p.split() if not w.isdigit())
                    for lang, phrases in lx.EVERY_DAY_PHRASES.items()}
_EVERY_DAY_STEMS = {lang: frozenset(_stem(w, lang) for w in words) for lang, words in _EVERY_DAY_WORDS.items()}
_DAY_OF_STEM = {lang: {_stem(word, lang): days for word, days in table.items()}
                for lang, table in lx.WEEKDAY_NUMBERS.items()}


def _days_named(words: Sequence[str], lang: str) -> set[int]:
    """The days of the week a run of words names: single days, and ranges ("od wtorku do niedzieli",
    "poniedziałek–piątek": two day words with no word between)."""
    table = _DAY_OF_STEM[lang]
    found = [(k, table.get(_stem(word, lang))) for k, word in enumerate(words)]
    days: set[int] = set()
    previous: tuple[int, tuple[int, ...]] | None = None
    for k, named in found:
        if named is None:
            continue
        days.update(named)
        if previous is not None and len(named) == 1 and len(previous[1]) == 1:
            between = words[previous[0] + 1 : k]
            if not between or between == ["do"]:
                first, last = previous[1][0], named[0]
                span = range(first, last + 1) if first <= last else [*range(first, 8), *range(1, last + 1)]
                days.update(span)
        previous = (k, named)
    return days


def _day_outside_range(stated: _Analysis, claim_words: set[str], page: _Analysis, lang: str) -> _Fact | None:
    """"Sklep jest czynny w niedzielę" against "Sklep jest czynny od poniedziałku do soboty": the passage gives
    the days of the claim's thing as a range ("od ... do ...") and, in every segment that states that thing,
    never names the claim's day. Single days named without a range are not read as the whole list."""
    table = _DAY_OF_STEM.get(lang)
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP]
    if table is None or not claim_words & weekdays:
        return None  # the cheap test first: most claims name no day
    claim_days = _days_named(stated.all_words_said(), lang)
    words = claim_words - weekdays
    if not claim_days or not words or any(s.polarity.effective() == 1 for s in stated.segments):
        return None
    open_days: set[int] = set()
    ranged: int | None = None
    for segment in page.segments:
        if not words <= segment.key or segment.polarity.effective() == 1:
            continue
        if not (segment.own & words or segment.own - _IMPLIED[lang]["clock"] <= weekdays):
            continue
        said = page.words_between(segment.start, segment.end + 1, segment.sentence)
        days = _days_named(said, lang)
        if len(days) > sum(1 for word in said if _stem(word, lang) in table) and ranged is None:
            ranged = segment.sentence  # more days than day words: a range
        open_days |= days
    if ranged is not None and not claim_days & open_days:
        return _Fact(CONTRADICTED, "the passage names other days for this", ranged)
    return None


def _rarer_than_daily(segment: Segment, page: _Analysis, lang: str) -> bool:
    """The segment says its thing happens less often than every day: "dwa razy w tygodniu" (a count of
    "razy" under 7, or none: "raz"), "co tydzień", "co drugi dzień", "raz w miesiącu"."""
    words = page.words_between(segment.start, segment.end + 1, segment.sentence)
    if _has_phrase(words, lx.RARER_THAN_DAILY_PHRASES.get(lang, ())):
        return True
    if not _has_phrase(words, lx.WEEKLY_TIMES_PHRASES.get(lang, ())):
        return False
    times = [q.lo for q in segment.quantities if q.dim == "count" and q.unit == _stem("raz", lang)]
    times += [q.raw_lo for q in segment.quantities if q.dim == "frequency" and q.unit == "times"]  # "7 razy w tygodniu"
    return not times or max(times) < 7


def _every_day_denied(claim: str, stated: _Analysis, claim_words: set[str], page: _Analysis,
                      lang: str) -> _Fact | None:
    """"Muzeum jest otwarte 7 dni w tygodniu" against "W poniedziałki muzeum jest zamknięte" or "otwarte od
    wtorku do niedzieli": the claim says every day, the passage closes the same thing on a day, or opens it
    on named days that are not the whole week."""
    pattern = _EVERY_DAY.get(lang)
    if pattern is None or _EVERY_DAY_WORDS[lang].isdisjoint(stated.all_words_said()):
        return None  # the cheap test first: most claims say no "every day"
    if not pattern.search(" ".join(_fold(claim).split())):
        return None
    weekdays = _GROUPS[lang][lx.WEEKDAY_GROUP]
    words = claim_words - _EVERY_DAY_STEMS[lang] - weekdays
    if not words:
        return None
    open_days: set[int] = set()
    naming: int | None = None  # the first sentence that names the open days
    for segment in page.segments:
        if not words <= segment.key:
            continue
        said = page.sentence_words(segment.sentence)
        if segment.polarity.effective() == 1 and words <= segment.own:
            closed = _days_named(said, lang)
            if closed:
                return _Fact(CONTRADICTED, "the claim says every day, but the passage closes it on some",
                             segment.sentence)
        elif segment.own & words or segment.own - _IMPLIED[lang]["clock"] <= weekdays:  # "a w soboty w godz. 9–14"
            if pattern.search(" ".join(said)):
                return None  # the passage says every day too
            if segment.own & words and _rarer_than_daily(segment, page, lang):
                return _Fact(CONTRADICTED, "the claim says every day, but the passage says less often",
                             segment.sentence)
            days = _days_named(page.words_between(segment.start, segment.end + 1, segment.sentence), lang)
            if days and naming is None:
                naming = segment.sentence
            open_days |= days
    if open_days and len(open_days) < 7:
        return _Fact(CONTRADICTED, "the claim says every day, but the passage names only some days", naming)
    return None


def _quantity_signature(q: Quantity) -> tuple[str, str, float, float, str]:
    if q.dim == "date":
        return ("date", repr(q.date), 0.0, 0.0, q.bound or "")
    unit = q.unit if q.dim in ("money", "count") else ""
    return (q.dim, unit, round(q.lo, 6), round(q.hi, 6), q.bound or "")


def _span(passage: str, page: _Analysis, facts: Sequence[_Fact]) -> tuple[str | None, int | None]:
    said = {f.sentence for f in facts if f.sentence is not None}
    indexes = sorted(said | {page.antecedents[i] for i in said if i in page.antecedents})
    if not indexes:
        return None, None
    start = page.sentences[indexes[0]][0]
    end = page.sentences[indexes[-1]][1]
    return passage[start:end], start


@dataclass(frozen=True, slots=True)
class RuleOutcome:
    """What the rules alone say: a status, the notes behind it, and the span for a backed status."""

    status: str
    note: str
    span: str | None = None
    start: int | None = None
    navigation: bool = False


def judge_by_rules(claim: str, passage: str, lang: str, *, window: tuple[int, int] | None = None) -> RuleOutcome:
    """The rules: every content word of a claim's segment must be in one passage segment;
    quantities, dates, negation and modal flips and contrast groups decide; any contradicted part
    makes the whole claim contradicted (never supported). ``window`` (start, end): read only that
    part of the passage; the span's offset is still in the whole passage."""
    if window is not None and (window[0] > 0 or window[1] < len(passage)):
        inner = judge_by_rules(claim, passage[window[0] : window[1]], lang)
        if inner.start is None:
            return inner
        return RuleOutcome(inner.status, inner.note, inner.span, inner.start + window[0], inner.navigation)
    page = _analyse_passage(passage, lang)
    if page.navigation:
        return RuleOutcome("unsupported", "the passage is navigation or menu text only, not evidence", navigation=True)
    stated = _analyse_claim(claim, lang)
    claim_words = set(stated.all_words)
    facts: list[_Fact] = []
    for part in stated.parts:
        segments = [stated.segments[k] for k in part]
        part_key = set().union(*(s.own for s in segments)) if segments else set()
        condition = _claim_condition(claim, segments, lang)
        if condition is not None and condition.own:
            # "Neatšaukus prenumeratos, kas mėnesį nuskaitoma 8,99 €": the condition's "ne" is its own, not the
            # price's; the condition is a statement the passage must make with the same polarity
            said = _judge_statement(condition.own | condition.inh, condition.polarity, page, lang)
            if lang == lx.LT and said.outcome in (SUPPORTED, CONTRADICTED) and _lt_otherwise(page, said.sentence):
                # "turi būti grąžintas pilnu baku, priešingu atveju taikomas 20 € mokestis": what follows
                # "otherwise" holds when the rule before it does not, so the claim's "jei grąžinamas ne pilnu
                # baku" is the sentence's own case, and "jei grąžinamas pilnu baku" its opposite
                said = _Fact(CONTRADICTED if said.outcome == SUPPORTED else SUPPORTED,
                             "the passage states the opposite case before 'otherwise' ('priešingu atveju')",
                             said.sentence)
            if said.outcome != UNSTATED:
                # a condition the passage states or denies is a fact of its own; one it says in other words
                # ("jeśli zlecisz naprawę" for "jeśli zdecydujesz się na naprawę") stays with the value's words
                facts.append(said)
        described = _lt_participle_clauses(claim, segments) if lang == lx.LT and len(segments) > 2 else []
        for clause in described:
            # "Vaikai, neužimantys atskiros vietos, nemoka": the participle's "ne" describes the children, not
            # the price; the clause is a statement the passage must make with the same polarity
            facts.append(_judge_statement(clause.own | clause.inh, clause.polarity, page, lang))
        part_pol = _merge_polarity([s.polarity for s in segments if s is not condition and s not in described])
        quantities = [(s, q) for s in segments for q in s.quantities]
        # "Studentai, parodę pažymėjimą, moka 29 €": a one-word opening segment cut off by a participle clause is
        # the subject of what follows, so it names what the value is for
        subject = (segments[0].own if len(segments) > 2 and segments[0].words == 1 and not segments[0].quantities
                   else set())
        if quantities:
            for segment, q in quantities:
                bound_page = _binding_segment(segment, page) if len(segment.quantities) > 1 else None
                # A claim segment with a subject of its own is judged by its own words;
                # a gapped one ("... and the last on 1 May") by the words it inherits.
                # (Lithuanian: counted without the words the value implies, so "imamas 20 € mokestis" after a
                # condition keeps the condition's words)
                own = segment.own - _IMPLIED[lang].get(q.dim, frozenset()) if lang == lx.LT else segment.own
                # (Polish: a free value opening a part after another part, "..., a śniadanie jest wliczone w
                # cenę", is said of its own subject: it borrows no words from the part before)
                own_subject = (lang == lx.PL and q.dim == "money" and q.hi == 0 and bool(own)
                               and segment is segments[0] and part is not stated.parts[0])
                key = set(segment.own) if len(own) >= 2 or own_subject else segment.key
                key = key or part_key or set(claim_words)
                if subject and segment is not segments[0]:
                    key = key | subject
                # "costs" belongs to the price, not to the duration in the same segment.
                for other in segment.quantities:
                    if other is not q:
                        key -= _IMPLIED[lang].get(other.dim, frozenset())
                if q.per:
                    key -= _RATE_STEMS[lang]  # "per hour" is the price's rate, compared with the price
                    key -= set().union(*(_RATE_WORD_STEMS[lang].get(rate, frozenset()) for rate in q.per))
                facts.append(_judge_quantity(q, key, claim_words, part_pol, bound_page or page, lang, stated))
            # "The deposit is 200 zł and is refundable": a segment right after a clause with a value, with no
            # value of its own, says something of its own, judged as a statement (not carried by the value's
            # match); one that follows a bare date ("In 2014, ...") or comes first ("The same year, ...") only
            # frames the value or is framed by it
            for before, segment in zip(segments, segments[1:], strict=False):
                if segment.own and not segment.quantities and before.quantities and before.own:
                    if segment is condition and len(segment.own & page.all_words) * 2 >= len(segment.own):
                        continue  # a condition the page says in its words: judged above for its polarity
                    facts.append(_judge_statement(segment.own | segment.inh, segment.polarity, page, lang,
                                                  read_unless=_reads_unless(stated, lang)))
        elif part_key:
            facts.extend(_judge_statements(segments, part_key, stated, page, lang, read_unless=_reads_unless(stated, lang)))
    if not facts:
        return RuleOutcome("unsupported", "the claim holds nothing the passage could back")
    dropped = _condition_dropped(stated, claim_words, passage, page, lang)
    if dropped is not None:
        facts.append(dropped)
    excepted = _exception_named(stated, claim_words, page, lang) or _exception_dropped(stated, claim_words, page, lang)
    if excepted is not None:
        facts.append(excepted)
    for fact in (_alternative_excluded(claim_words, passage, page, lang, lx.CHANNEL_GROUP,
                                       "the passage allows only another way for this"),
                 _alternative_excluded(claim_words, passage, page, lang, lx.WEEKDAY_GROUP,
                                       "the passage names only other days for this"),
                 _only_one_claimed(stated, claim_words, page, lang, lx.CHANNEL_GROUP,
                                   "the claim names the only way for this, but the passage names another too"),
                 _only_one_claimed(stated, claim_words, page, lang, lx.WEEKDAY_GROUP,
                                   "the claim names the only day for this, but the passage names another too"),
                 _only_claimed_other_stated(stated, claim_words, page, lang),
                 _value_on_other_day(stated, claim_words, page, lang),
                 _without_against_upon(stated, claim_words, page, lang),
                 _order_reversed(claim, claim_words, passage, page, lang),
                 _frequency_changed(stated, claim_words, page, lang),
                 _every_day_denied(claim, stated, claim_words, page, lang),
                 _day_outside_range(stated, claim_words, page, lang)):
        if fact is not None:
            facts.append(fact)
    contradicted = [f for f in facts if f.outcome == CONTRADICTED]
    supported = [f for f in facts if f.outcome == SUPPORTED]
    if contradicted:
        status, chosen = "contradicted", contradicted
    elif len(supported) == len(facts):
        status, chosen = "supported", supported
    elif supported:
        status, chosen = "partly_supported", supported
    else:
        return RuleOutcome("unsupported", "; ".join(dict.fromkeys(f.note for f in facts)))
    span, start = _span(passage, page, chosen)
    notes = "; ".join(dict.fromkeys(f.note for f in (contradicted or facts)))
    if span is None:
        return RuleOutcome("unsupported", notes)
    return RuleOutcome(status, notes, span, start)


def _bound_as_requirement(q: Quantity, p: Quantity, a: Polarity, b: Polarity) -> bool:
    """A lower bound both sides give is one requirement said as a permission or as an obligation: "vairuotojai
    gali išsinuomoti nuo 21 metų" (may rent from 21) = "vairuotojas turi būti bent 21 metų" (must be at least 21).
    Only an age, in years: "can return within 14 days" is no duty to return, "bags over 10 kg may be left" no
    duty to leave them."""
    return (q.bound == "min" and p.bound == "min" and q.unit == p.unit == "year" and a.parity == b.parity == 0
            and {a.modal, b.modal} == {"permitted", "obligatory"})
