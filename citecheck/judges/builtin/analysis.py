"""Analysis of a text for the built-in judge: sentences cut into segments, each with its own
words, the words it inherits, its polarity and its quantities."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.polarity import _POLARITY_WORDS, Polarity, _polarity
from citecheck.judges.builtin.quantities import _UNIT_WORD, Quantity, _Extractor, _pl_compound
from citecheck.judges.builtin.words import (
    _GROUP_WORDS,
    _GROUPS,
    NUM,
    PUNCT,
    SYM,
    WORD_MEMO_MAX,
    W,
    _stem,
    _Tok,
    _tokenize,
    word_memo,
)
from citecheck.text import sentences_with_markers


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
    excepted: bool = False  # the segment names an exception to its sentence ("except ...", "išskyrus ...")
    # The words a negation of this segment governs, from its first negator on ("cannot take building rubble":
    # take, building, rubble; "closed on Christmas Day": open, Christmas, day): a list that goes on after it
    # ("..., garden waste or asbestos") is denied with them (rules._list_polarity).
    negated: frozenset[str] = frozenset()

    @property
    def key(self) -> set[str]:
        return self.own | self.inh


_SEGMENT_CONJ = {
    lx.EN: {"and", "but", "while", "whereas", "however", "although", "though", "whilst", "plus"},
    lx.PL: {"a", "ale", "oraz", "i", "lecz", "natomiast", "zas", "jednak", "jednakze", "podczas"},
    lx.LT: {"ir", "o", "bet", "taciau", "bei", "nors"},
}
_PART_CONJ = {
    lx.EN: {"and", "but", "while", "whereas", "however", "although", "whilst", "plus"},
    lx.PL: {"a", "ale", "oraz", "i", "lecz", "natomiast", "zas", "jednak"},
    lx.LT: {"ir", "o", "bet", "taciau", "bei"},
}


# Pronouns that open a sentence about the previous sentence's subject.
# Oblique forms too ("Jai suteikiama 3 metų garantija", "Its battery lasts a day"): the sentence is still about it.
_PRONOUNS = {lx.EN: frozenset({"it", "they", "its", "their", "them"}),
             lx.PL: frozenset({"on", "ona", "ono", "one", "oni", "jej", "jego", "jemu", "niej", "nim", "ich", "im"}),
             lx.LT: frozenset({"ji", "jis", "jie", "jos", "jai", "jam", "jiems", "joms", "jo", "jų", "ju"})}


_CONTENT_STEMS = word_memo()  # _content_stem's answers
_UNKNOWN = "\0"  # never a stem


_CONDITION_FIRST = lx.CONDITION_FIRST_WORDS


def _content(toks: Iterable[_Tok], used: set[int], lang: str, offset: int) -> list[str]:
    known = _CONTENT_STEMS[lang]
    out = []
    for index, tok in enumerate(toks, start=offset):
        if tok.kind != W or index in used:
            continue
        stem = known.get(tok.text, _UNKNOWN)
        if stem is _UNKNOWN:
            stem = _content_stem(tok.text, lang)
            if len(known) < WORD_MEMO_MAX:
                known[tok.text] = stem
        if stem is not None:
            out.append(stem)
    return out


def _content_words(words: Iterable[str], lang: str) -> set[str]:
    return {stem for word in words if (stem := _content_stem(word, lang)) is not None}


@lru_cache(maxsize=65536)
def _content_stem(word: str, lang: str) -> str | None:
    """The stem of a content word; None for a stop word, a polarity word or a single letter
    (a per-word cache: words recur across every text)."""
    denied = lx.DENIED_CONTENT[lang].get(word)
    if denied is not None:
        return _stem(denied, lang)
    if word in lx.STOPWORDS[lang] or word in _POLARITY_WORDS[lang] or len(word) == 1 or word.endswith("n't"):
        return None
    if lang == lx.PL and word.startswith("nie") and word[3:] in lx.PERMISSION[lang]:
        return None
    return _stem(word, lang)


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
    # The values of every number token as tokenised (before Polish compound adjectives become
    # numbers): the paraphrase features' "numbers of the passage", read here once.
    numbers: frozenset[float] = frozenset()
    # Each sentence's words as tokenised, with their offsets (aligned with ``sentences``): the rules
    # that read a sentence's own words ("only", "always", "at any time") look them up here.
    words: list[tuple[tuple[int, str], ...]] = field(default_factory=list)
    # A sentence that opens with a pronoun -> the sentence it refers to ("Jai suteikiama 3 metų garantija"
    # is about the reader named before): a span quoting it quotes that sentence too.
    antecedents: dict[int, int] = field(default_factory=dict)

    def sentence_words(self, sentence: int) -> list[str]:
        return [word for _, word in self.words[sentence]]

    def all_words_said(self) -> list[str]:
        """Every word of the text as tokenised, in order."""
        return [word for sentence in self.words for _, word in sentence]

    def words_between(self, start: int, end: int, sentence: int) -> list[str]:
        return [word for offset, word in self.words[sentence] if start <= offset < end]


def _split_sentences(text: str) -> list[tuple[int, int]]:
    return list(_passage_sentences(text))


# Street and address abbreviations that a capitalised name follows: "ul. Długiej 5", "g. Gedimino", "St. Mary's".
_ADDRESS_ABBREVIATIONS = frozenset({"ul", "al", "pl", "os", "nr", "tel", "g", "pr", "st", "str", "dr", "sw", "św"})


# Abbreviations a number follows: "w godz. 9:00–17:00", "ok. 3 dni", "tel. 22 123 45 67".
_NUMBER_ABBREVIATIONS = frozenset({"godz", "ok", "tel", "pkt", "poz", "maks"})


def _ends_with_abbreviation(text: str, end: int, abbreviations: frozenset[str] = _ADDRESS_ABBREVIATIONS) -> bool:
    if end < 2 or text[end - 1] != ".":
        return False
    start = end - 1
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return text[start : end - 1].lower() in abbreviations


@lru_cache(maxsize=1024)
def _passage_sentences(text: str) -> tuple[tuple[int, int], ...]:
    """The sentences of a text as offsets, split once per text: the rules and the paraphrase
    features both read a passage sentence by sentence."""
    out: list[tuple[int, int]] = []
    for sentence in sentences_with_markers(text):
        # A full stop before a lower-case word ends an abbreviation, not a sentence: Lithuanian
        # "2025 m. sausio 1 d. pristatymas", "14 val. darbo", Polish "2025 r. w".
        if out and (text[sentence.start].islower() or _ends_with_abbreviation(text, out[-1][1])
                    or (text[sentence.start].isdigit()
                        and _ends_with_abbreviation(text, out[-1][1], _NUMBER_ABBREVIATIONS))):
            out[-1] = (out[-1][0], sentence.end)
        else:
            out.append((sentence.start, sentence.end))
    return tuple(out)


def _is_navigation_line(toks: Sequence[_Tok], line: str) -> bool:
    words = sum(1 for t in toks if t.kind == W)
    marks = sum(1 for t in toks if t.kind == SYM and t.text in lx.NAVIGATION_MARKS)
    ends = bool(toks) and toks[-1].kind == PUNCT and toks[-1].text in ".!?"
    if marks >= 2:
        return True
    if "©" in line or any(t.text in {"rights", "zastrzezone", "cookies"} for t in toks):  # "©" is no token
        return True
    # A short line that ends a sentence is prose ("Registration is not required.", "Registruotis nebūtina.");
    # a short line without an end is a menu item or a heading.
    return words < 2 if ends else words < 6


def _analyse(text: str, lang: str, *, claim: bool) -> _Analysis:
    sentences = _split_sentences(text)
    segments: list[Segment] = []
    parts: list[list[int]] = []
    antecedents: dict[int, int] = {}
    all_words: set[str] = set()
    numbers: set[float] = set()
    prose = 0
    words: list[tuple[tuple[int, str], ...]] = []
    for s_index, (s_start, s_end) in enumerate(sentences):
        stext = text[s_start:s_end]
        toks = _tokenize(stext, lang, base=s_start)
        words.append(tuple([(t.start, t.text) for t in toks if t.kind == W]))
        if not toks:
            continue
        numbers.update([round(t.value, 6) for t in toks if t.kind == NUM])
        if not claim and not prose and not _is_navigation_line(toks, stext):
            prose += 1  # one line of prose is enough: a passage with any is not navigation
        extractor = _Extractor(toks, lang, text, 0)
        if lang == lx.PL:
            for tok in toks:  # the Polish compound adjectives: "dwuletnia gwarancja"
                if tok.kind == W:
                    compound = _pl_compound(tok.text)
                    if compound:
                        tok.kind, tok.value, tok.is_word_number = NUM, float(compound[0]), True
            _expand_pl_compounds(toks, lang)
        quantities = extractor.run()
        used = extractor.used
        if lang == lx.LT:
            # "jaunesniems nei 25 metų klientams": a generic person word after an age names no one the age does
            # not ("Jaunimui iki 25 metų"); it is not a word the page must say
            for q in quantities:
                if (q.dim == "duration" and q.tok_end < len(toks) and toks[q.tok_end - 1].text == "metu"
                        and toks[q.tok_end].text in lx.LT_AGED_PERSON_WORDS):
                    used.add(q.tok_end)
        # cut into segments
        bounds: list[tuple[int, int]] = []
        cut_at = 0
        part_breaks: set[int] = set()
        conj = _SEGMENT_CONJ[lang]
        cut_words: list[str] = []  # the conjunctions cut at: words of the sentence no segment holds
        word_counts = [0]  # word_counts[k] = words and numbers before token k
        for tok in toks:
            word_counts.append(word_counts[-1] + (tok.kind in (W, NUM)))
        for k, tok in enumerate(toks):
            if k in used:
                continue
            is_cut = (tok.kind == PUNCT and tok.text in ",;:()") or (tok.kind == W and tok.text in conj)
            if is_cut:
                if tok.kind == W:
                    cut_words.append(tok.text)
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
        owns = [set(_content(toks[a:b], used, lang, a)) for a, b in bounds]
        ctx_words = frozenset(set().union(*owns).union(_content_words(cut_words, lang)))
        all_words |= ctx_words
        previous: Segment | None = None
        if not claim and segments and toks[0].kind == W and toks[0].text in _PRONOUNS[lang]:
            # "The shop is open on weekdays. It is closed on Sundays.": "it" is the previous sentence's subject
            opening = next(s for s in segments if s.sentence == segments[-1].sentence)
            antecedents[s_index] = opening.sentence
            previous = Segment(own=set(), inh=set(opening.own), ctx=opening.ctx, polarity=Polarity(None, 0, False),
                               quantities=[], sentence=opening.sentence, start=opening.start, end=opening.end)
        pending_empty: list[Segment] = []
        fronted: Segment | None = None  # a Lithuanian sentence's first segment, before a condition segment
        described = False  # the previous segment is a Lithuanian participle clause
        described_of: Segment | None = None  # the segment before it
        for b_index, (a, b) in enumerate(bounds):
            seg_toks = toks[a:b]
            own = owns[b_index]
            # a quantity's own words ("nic nie kosztuje", "no charge") are not a negation of the segment
            pol = _polarity([t for k, t in enumerate(seg_toks, start=a) if k not in used] if used else seg_toks, lang)
            seg_quantities = [q for q in quantities if a <= q.tok_start < b]
            inh: set[str] = set()
            if previous is not None:
                # after a participle clause, the words of what it describes go on ("Vaikai, neužimantys vietos,
                # nemoka": the children do not pay)
                inh = _drop_replaced((described_of or previous).key if described else previous.key, own, lang)
                if (not pol.signal and len(own) < 2 and not described
                        and not _en_condition_opened(toks, bounds[b_index - 1], lang)):
                    pol = previous.polarity  # a list item's negation ("not A, B"), not a condition's
            described_of = previous if not described else described_of
            # a Lithuanian participle clause ("neužimantys atskiros vietos") describes the subject: its "ne" is
            # not lent to the short segment after it
            opener = next((t.text for t in seg_toks if t.kind == W and t.text != "ne"), "")
            described = lang == lx.LT and len(opener) >= 7 and opener.endswith(lx.LT_PARTICIPLE_ENDINGS)
            segment = Segment(
                own=own, inh=inh, ctx=ctx_words, polarity=pol, quantities=seg_quantities,
                sentence=s_index, start=toks[a].start, end=toks[b - 1].end,
                words=word_counts[b] - word_counts[a],  # words and numbers of the segment
                excepted=any(t.kind == W and t.text in lx.EXCEPTION_WORDS[lang] for t in seg_toks[:2]) or (
                    # the list goes on: "except gynaecologists and psychiatrists", "z wyjątkiem ginekologa i
                    # psychiatry" (a short segment with no value and no negation of its own)
                    previous is not None and previous.excepted and previous.sentence == s_index
                    and not seg_quantities and not pol.signal and word_counts[b] - word_counts[a] <= 3),
                negated=_negated_words(seg_toks, used, lang, a) if pol.effective() == 1 and not claim else frozenset(),
            )
            if (segment.negated and inh and seg_toks[0].kind == W
                    and seg_toks[0].text in lx.NEGATED_ITEM_OPENERS[lang]):
                segment.negated = segment.negated | _drop_replaced(inh, own, lang)
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
            if (fronted is not None and b_index == 2 and pol.signal and not fronted.polarity.signal
                    and not fronted.negated):
                # "Vaikus iki 18 metų, jei jie karščiuoja, gydytojas priima be eilės": the fronted words before
                # the condition belong to the clause after it, and are said with its polarity
                fronted.polarity = pol
            if b_index == 1:
                fronted = segments[-2] if lang == lx.LT and not claim and opener in _CONDITION_FIRST[lang] else None
    navigation = not claim and bool(segments) and prose == 0
    # The first sentence usually names the page's topic ("Council tax bills are sent in March");
    # its words count as known context everywhere, except words that pick one alternative.
    topic = _topic(segments[0].ctx, all_words, lang) if segments and not claim else frozenset()
    return _Analysis(
        lang=lang, segments=segments, sentences=sentences, all_words=frozenset(all_words),
        navigation=navigation, empty=not text.strip(), parts=parts, topic=topic, numbers=frozenset(numbers),
        words=words, antecedents=antecedents,
    )


def _en_condition_opened(toks: Sequence[_Tok], bound: tuple[int, int], lang: str) -> bool:
    """An English segment opened by "if" / "when" ("If you can't make it, cancel ..."): its negation is the
    condition's own, not lent to the short segment after it. English only: Polish and Lithuanian conditions, often
    a gerund, are read by the rules (``_claim_condition``), which compare a claim's "Neatšaukus ..., imamas
    mokestis" with a passage's "Jei ... neatšaukiate, imamas mokestis" as this reading leaves it."""
    if lang != lx.EN:
        return False
    first = next((tok.text for tok in toks[bound[0] : bound[1]] if tok.kind == W), "")
    return first in _EN_CONDITION_FIRST


_EN_CONDITION_FIRST = frozenset(opener[0] for opener in lx.CLAIM_CONDITION_OPENERS[lx.EN])


def _negated_words(seg_toks: Sequence[_Tok], used: set[int], lang: str, offset: int) -> frozenset[str]:
    """The content words of a negated segment from its first negator or negative concept word on."""
    cues = lx.NEGATORS[lang] | lx.NEGATIVE_CONCEPT[lang]
    for k, tok in enumerate(seg_toks):
        if tok.kind == W and (tok.text in cues or tok.text.endswith("n't")):
            # "not covered unless you bought the Care Plan": the condition is not what is denied
            end = next((j for j in range(k + 1, len(seg_toks)) if seg_toks[j].kind == W
                        and seg_toks[j].text in _CONDITION_WORDS[lang]), len(seg_toks))
            return frozenset(_content(seg_toks[k:end], used, lang, offset + k))
    return frozenset()


_CONDITION_WORDS = {lang: frozenset(lx.RESTRICTION_WORDS[lang] | lx.EXCEPTION_WORDS[lang]) - lx.ONLY_WORDS[lang]
                    for lang in lx.LANGUAGES}


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


def _topic(first: frozenset[str] | set[str], all_words: set[str] | frozenset[str], lang: str) -> frozenset[str]:
    """The page's topic words: its first sentence's, except words that pick one alternative ("deliver" of
    delivery or collection), unless the page never names another alternative of that group ("We deliver sofas
    ..." on a page that says nothing of collecting them: every sentence is about delivery)."""
    topic = set(first) - _GROUP_WORDS[lang]
    picked = set(first) & _GROUP_WORDS[lang]
    if not picked:
        return frozenset(topic)  # the cheap test first: most first sentences pick no alternative
    for group in _GROUPS[lang]:
        mine = picked & group
        if mine and (all_words & group) <= mine:
            topic |= mine
    return frozenset(topic)
