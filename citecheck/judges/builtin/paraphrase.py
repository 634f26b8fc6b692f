"""Paraphrase features of the built-in judge: how much of a claim a passage says, in other words.

The rules (:mod:`rules`) need every content word of a claim's segment in the passage; real prose
says the same thing in other words, so on real text they rarely decide. This module measures
instead, for one claim against one passage:

- *informativeness-weighted overlap* of the claim's stems (suffix stemming plus a synonym map,
  so "reduces" / "reduction" / "lower" meet), each stem weighted by how rare its word is in
  general language (the word's Zipf frequency from ``wordfreq``: "the" weighs nothing,
  "hydroxychloroquine" a lot);
- *alignment*: the passage is cut into sentences and windows of two, each scored against the
  claim with BM25 (the same informativeness as IDF), and the features of the best window are
  kept next to those of the whole passage;
- word order (the longest common subsequence of stems), adjacent pairs of stems (bigrams);
- numbers, written in digits or words ("three", "twenty-one", "1,000"): matched or missing;
- one-sided negation, hedging ("may", "suggest", "further studies"), findings of no effect
  ("no significant", "not associated"), and antonyms (increase/decrease, higher/lower).

:func:`features` returns a fixed-order list of floats (:data:`FEATURE_NAMES`) for the combiner.
Pure and deterministic: no network, no model.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from wordfreq import zipf_frequency

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.analysis import _analyse_claim, _passage_sentences
from citecheck.judges.builtin.words import NUM, WORD_MEMO_MAX, _fold, _stem, _tokenize, word_memo

__all__ = ["FEATURE_NAMES", "Alignment", "align", "excerpt", "features", "informativeness"]


_WORD_RE = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_DIGIT_RE = re.compile(r"\d")
_LETTERS_RE = re.compile(r"[^\W\d_]+")  # runs of letters: "twelve-month" -> "twelve", "month"

# Extra English function words: the lexicon's list is tuned for shop and service texts.
_EXTRA_STOP = frozenset(
    "also among amongst any been being both can could did do does doing done each either etc even ever "
    "every from further had has have having here how i into its itself just like many might more most much "
    "must neither nor now often once only onto other others our ours over own per perhaps quite rather really "
    "same should since so some such than that thats their theirs them then there these they this those though "
    "through thus too toward towards under until upon us very via was we were what when where whether which "
    "while who whom whose why will with within would yes yet you your it is are be an a the of to in on at "
    "by for as or and if about after against before between during out up down off above below again".split()
)
_NEGATION = frozenset({"not", "no", "never", "none", "nor", "without", "cannot", "neither", "nothing", "nobody",
                       "lack", "lacks", "absence", "absent", "unable", "fail", "fails", "failed",
                       "nie", "brak", "bez", "nigdy", "zaden", "zadna", "zadne"})
# English ways of saying free whose "no" / "nothing" is a price of zero, not a negation ("costs nothing",
# "at no extra cost"): the free phrases of lx.FREE_PHRASES that hold a negator.
_FREE_NEGATED = re.compile(r"\b(?:" + "|".join(
    r"\s+".join(re.escape(word) for word in phrase) for phrase in sorted(lx.FREE_PHRASES, key=len, reverse=True)
    # English "no" / "nothing" / "without", Polish "nie" / "nic" / "bez" ("nic nie kosztuje", "bez opłat")
    if set(phrase) & {"no", "nothing", "without", "nie", "nic", "bez"}) + r")\b")
_HEDGES = frozenset({"may", "might", "could", "possibly", "possible", "potential", "potentially", "suggest",
                     "suggests", "suggested", "suggesting", "hypothesis", "hypothesize", "hypothesized", "unclear",
                     "unknown", "uncertain", "further", "needed", "warrant", "warranted", "remains", "whether",
                     "likely", "unlikely", "speculate", "propose", "proposed", "investigate", "investigated",
                     "explore", "aim", "aimed", "review", "moze", "moga", "prawdopodobnie", "mozliwe"})
_NULL_FINDING = re.compile(
    r"\b(?:no (?:significant|evidence|difference|association|effect|benefit|clear|proven|clinical)"
    r"|not (?:significant|significantly|associated|effective|proven|supported|recommended|found)"
    r"|did not|does not|do not|was not|were not|is not|are not|failed to|no longer|ineffective|unproven)\b"
)
_ANTONYMS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("increase increases increased increasing rise rises rising higher more greater elevated raise raises",
         "decrease decreases decreased decreasing reduce reduces reduced reducing reduction lower less fewer "
         "decline declines fall falls drop drops"),
        ("effective efficacy beneficial benefit benefits helps protect protects protective prevent prevents",
         "ineffective harmful harm harms useless worsen worsens"),
        ("safe safer safety", "unsafe dangerous danger toxic risky"),
        ("positive", "negative"),
        ("before earlier", "after later"),
        ("first", "last"),
        ("more", "less"),
        ("high", "low"),
        ("strong stronger", "weak weaker"),
        ("survive survives persist persists", "die dies inactivated inactivate"),
        ("won win wins", "lost lose loses"),
        ("born", "died"),
    )
)
# Paraphrase groups beyond the lexicon's shop words: each word is read as the first of its group.
_PARAPHRASES = {
    word: group.split()[0]
    for group in (
        "covid covid-19 coronavirus sars-cov-2 sars-cov2 2019-ncov ncov",
        "decrease reduce reduction lower lessen diminish decline cut",
        "increase rise raise elevate boost grow",
        "kill inactivate destroy eliminate",
        "infect infection contagion",
        "die death mortality fatal fatality",
        "doctor physician clinician",
        "medicine drug medication treatment therapy",
        "child children kid kids paediatric pediatric",
        "elderly older",
        "illness disease sickness",
        "study trial research",
        "cure heal",
        "protect protection prevent prevention",
        "spread transmit transmission",
        "symptom sign",
        "vaccine vaccination immunization inoculation",
        "buy purchase",
        "begin start commence",
        "end finish conclude",
        "big large",
        "small little",
        "help aid assist",
        "show demonstrate indicate reveal",
        "film movie",
        "elected won",
        "married wed",
        "founded established",
        "award prize",
    )
    for word in group.split()
}

FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    "wcov_best",  # informativeness-weighted share of the claim's stems in the best window
    "wcov_passage",  # the same over the whole passage
    "cov_best",  # unweighted share in the best window
    "bigram_passage",  # share of the claim's adjacent stem pairs found in the passage
    "lcs_best",  # longest common subsequence of stems / claim stems, best window
    "precision_best",  # weighted share of the best window's stems that are the claim's
    "bm25_best",  # BM25 of the best window, divided by the claim's total weight
    "missing_max",  # weight of the most informative claim stem the passage lacks (/ 6)
    "missing_many",  # informative stems missing (weight >= 3), capped at 5, / 5
    "num_claim",  # the claim has numbers
    "num_matched",  # share of the claim's numbers found in the passage
    "num_missing",  # the claim has numbers and one is absent from the passage
    "neg_claim",
    "neg_best",
    "neg_xor",  # negation on one side only (claim vs best window)
    "hedge_best",  # hedging words in the best window (capped, / 3)
    "null_best",  # a finding of no effect in the best window
    "null_claim",
    "antonym",  # the claim and the best window use opposite words of a pair
    "names_cov",  # share of the claim's capitalised words (names) in the passage
    "claim_len",  # log of claim stems
    "passage_len",  # log of passage characters / 1000
    "rule_supported",  # what the rules said (one-hot; unsupported is the reference)
    "rule_partly",
    "rule_contradicted",
    "wcov_best_x_long",  # interactions with the long-passage regime (web pages vs abstracts)
    "wcov_passage_x_long",
    "missing_max_x_long",
)


@lru_cache(maxsize=65536)
def informativeness(word: str, lang: str) -> float:
    """How much a word says: 7 minus its Zipf frequency, between 0.5 and 6 (unknown words 6).

    wordfreq (its frequency lists ship in the wheel; code Apache-2.0, data CC BY-SA 4.0) is imported
    here, on first use: importing it and loading a list takes about a second, which a verdict the
    rules decide alone (``judge_claim`` on a price) need not pay."""

    zipf = zipf_frequency(word, lang)
    return min(6.0, max(0.5, 7.0 - zipf)) if zipf > 0 else 6.0


@lru_cache(maxsize=65536)
def _norm(word: str, lang: str) -> str:
    """The stem a word is compared by: its paraphrase group, then the shared stemmer."""
    word = _PARAPHRASES.get(word, word)
    if word.endswith("s") and word[:-1] in _PARAPHRASES:
        word = _PARAPHRASES[word[:-1]]
    return _stem(word, lang)


@dataclass(slots=True)
class _Text:
    stems: list[str]  # content stems in order
    weights: dict[str, float]  # stem -> informativeness (max over its words)
    words: frozenset[str]  # folded words, all of them
    names: frozenset[str]  # folded capitalised words not at a sentence start
    numbers: frozenset[float]


@lru_cache(maxsize=131072)
def _word(raw: str, lang: str) -> tuple[str, str | None, float]:
    """(folded word, its stem or None for a function word, its informativeness)."""
    word = _fold(raw)
    if word in lx.STOPWORDS[lang] or word in _EXTRA_STOP or len(word) < 2 or word.isdigit():
        return word, None, 0.0
    return word, _norm(word, lang), informativeness(word, lang)


_STOPS = (".", "!", "?")
_WORDS_READ = word_memo()  # _word's answers


def _scan(text: str, lang: str) -> tuple[_Text, list[tuple[int, str, str | None, float]]]:
    """Read ``text`` once: the _Text (without numbers) and its run of (offset, word, stem, weight)."""
    stems: list[str] = []
    weights: dict[str, float] = {}
    words: list[str] = []
    names: list[str] = []
    run: list[tuple[int, str, str | None, float]] = []
    previous_end = -1  # end of the word before; a sentence stop right after it starts a sentence
    known = _WORDS_READ[lang]
    for match in _WORD_RE.finditer(text):
        raw = match.group()
        read = known.get(raw)
        if read is None:
            read = _word(raw, lang)
            if len(known) < WORD_MEMO_MAX:
                known[raw] = read
        word, stem, weight = read
        words.append(word)
        run.append((match.start(), word, stem, weight))
        if stem is not None:
            # Only a capitalised word asks whether a sentence ended just before it.
            if raw[0].isupper() and previous_end >= 0 and not text.startswith(_STOPS, previous_end, previous_end + 2):
                names.append(word)
            stems.append(stem)
            if weight > weights.get(stem, 0.0):
                weights[stem] = weight
        previous_end = match.end()
    return _Text(stems, weights, frozenset(words), frozenset(names), frozenset()), run


@lru_cache(maxsize=1024)
def _passage_numbers(passage: str, lang: str) -> frozenset[float]:
    if not _may_hold_numbers(passage, lang):
        return frozenset()
    # Only the sentences that can hold a number are tokenised (a number never spans two sentences).
    number_words = lx.NUMBER_WORDS[lang]
    found: set[float] = set()
    for start, end in _passage_sentences(passage):
        sentence = passage[start:end]
        if any(ch.isdigit() for ch in sentence) or any(w in number_words for w in _LETTERS_RE.findall(sentence.lower())):
            found.update(round(t.value, 6) for t in _tokenize(sentence, lang) if t.kind == NUM)
    return frozenset(found)


def _may_hold_numbers(text: str, lang: str) -> bool:
    return _DIGIT_RE.search(text) is not None or not lx.NUMBER_WORDS[lang].keys().isdisjoint(text.lower().split())


def _numbers(text: str, lang: str) -> frozenset[float]:
    if not _may_hold_numbers(text, lang):
        return frozenset()
    return frozenset(round(t.value, 6) for t in _tokenize(text, lang) if t.kind == NUM)


@lru_cache(maxsize=4096)
def _read(text: str, lang: str) -> _Text:
    """A claim, read for the features; its numbers are those its analysis for the rules read."""
    read, _ = _scan(text, lang)
    read.numbers = _analyse_claim(text, lang).numbers if _may_hold_numbers(text, lang) else frozenset()
    return read


@dataclass(slots=True)
class Alignment:
    """The passage window that best matches a claim: ``start``/``end`` are character offsets."""

    start: int
    end: int
    score: float
    text: _Text


@lru_cache(maxsize=1024)
def _passage(passage: str, lang: str) -> tuple[_Text, list[tuple[int, int, _Text]]]:
    """The whole passage read once, and its windows (each sentence, each pair of adjacent ones)."""
    whole, run = _scan(passage, lang)  # its numbers are read only when a claim has some (_passage_numbers)
    sentences = [(a, b) for a, b in _passage_sentences(passage) if passage[a:b].strip()]
    if not sentences:
        return whole, [(0, len(passage), whole)]
    singles: list[tuple[int, int, _Text]] = []
    k = 0
    for start, end in sentences:
        stems: list[str] = []
        weights: dict[str, float] = {}
        words: list[str] = []
        while k < len(run) and run[k][0] < start:
            k += 1
        j = k
        while j < len(run) and run[j][0] < end:
            _, word, stem, weight = run[j]
            words.append(word)
            if stem is not None:
                stems.append(stem)
                if weight > weights.get(stem, 0.0):
                    weights[stem] = weight
            j += 1
        k = j
        singles.append((start, end, _Text(stems, weights, frozenset(words), frozenset(), frozenset())))
    windows = list(singles)
    for (a_start, _, a), (_, b_end, b) in zip(singles, singles[1:], strict=False):
        weights = dict(a.weights)
        for stem, weight in b.weights.items():
            if weight > weights.get(stem, 0.0):
                weights[stem] = weight
        windows.append((a_start, b_end, _Text(a.stems + b.stems, weights, a.words | b.words, frozenset(), frozenset())))
    return whole, windows


def excerpt(claim: str, passage: str, lang: str) -> tuple[int, int]:
    """The part of a long passage worth reading closely for ``claim``: its best-aligned window and
    one sentence either side (character offsets). The rules read only this part of a long page, so
    a number or negation elsewhere on the page is not bound to the claim."""
    best = align(claim, passage, lang)
    _, windows = _passage(passage, lang)
    sentences = [(a, b) for a, b, _ in windows[: _sentence_count(windows)]]
    starts = [a for a, _ in sentences]
    first = max(0, max((i for i, a in enumerate(starts) if a <= best.start), default=0) - 1)
    last = min(len(sentences) - 1, max((i for i, (_, b) in enumerate(sentences) if b <= best.end), default=0) + 1)
    return sentences[first][0], sentences[last][1]


def _sentence_count(windows: list[tuple[int, int, _Text]]) -> int:
    """Windows are the n sentences followed by the n - 1 pairs: n = (len + 1) / 2."""
    return (len(windows) + 1) // 2


def align(claim: str, passage: str, lang: str) -> Alignment:
    """The sentence or pair of adjacent sentences of ``passage`` with the highest BM25 for ``claim``."""
    c = _read(claim, lang)
    _, windows = _passage(passage, lang)
    avg = sum(len(t.stems) for _, _, t in windows) / len(windows) or 1.0
    best: Alignment | None = None
    k1, b = 1.2, 0.75
    claim_stems = set(c.stems)
    for start, end, text in windows:
        counts: dict[str, int] = {}
        for stem in text.stems:
            if stem in claim_stems:
                counts[stem] = counts.get(stem, 0) + 1
        norm = k1 * (1 - b + b * len(text.stems) / avg)
        score = sum(c.weights[s] * n * (k1 + 1) / (n + norm) for s, n in counts.items())
        if best is None or score > best.score + 1e-9:
            best = Alignment(start, end, score, text)
    assert best is not None
    return best


def _coverage(claim: _Text, other: set[str]) -> tuple[float, float]:
    total = sum(claim.weights.values())
    if not claim.weights:
        return 0.0, 0.0
    hit = [s for s in claim.weights if s in other]
    return sum(claim.weights[s] for s in hit) / total if total else 0.0, len(hit) / len(claim.weights)


def _lcs(a: list[str], b: list[str]) -> int:
    """Length of the longest common subsequence. A stem found on one side only can never be part
    of it, so both sides are first cut to their shared stems (same length, far fewer steps: a
    window holds many words the claim lacks)."""
    shared = set(a) & set(b)
    if not shared:
        return 0
    a = [x for x in a if x in shared]
    b = [y for y in b if y in shared]
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        left = 0
        for j, y in enumerate(b):
            if x == y:
                left = previous[j] + 1
            else:
                up = previous[j + 1]
                if up > left:
                    left = up
            current.append(left)
        previous = current
    return previous[-1]


def _has(words: frozenset[str], vocabulary: frozenset[str]) -> bool:
    return bool(words & vocabulary) or any(w.endswith("n't") for w in words)


_FREE_WORDS = frozenset(lx.FREE_WORDS)


def _says_free(words: frozenset[str], text: str) -> bool:
    return bool(words & _FREE_WORDS) or _FREE_NEGATED.search(text) is not None


def _negation_said(words: frozenset[str], text: str) -> bool:
    """A negator among the words, other than the "no" / "nothing" of a way of saying free ("costs nothing")."""
    if not _has(words, _NEGATION):
        return False
    if not _FREE_NEGATED.search(text):
        return True  # the cheap test first: most negations are no price
    return _has(frozenset(_WORD_RE.findall(_FREE_NEGATED.sub(" ", text))), _NEGATION)


def _antonym(claim: frozenset[str], window: frozenset[str]) -> bool:
    for left, right in _ANTONYMS:
        if (claim & left and window & right and not claim & right) or (claim & right and window & left and not claim & left):
            return True
    return False


def passage_numbers(passage: str, lang: str, analysed: frozenset[float] | None = None) -> frozenset[float]:
    """The numbers of a passage; ``analysed``: those its analysis for the rules already read
    (every sentence tokenised), so the passage is not tokenised a second time."""
    if analysed is None:
        return _passage_numbers(passage, lang)
    return analysed if _may_hold_numbers(passage, lang) else frozenset()


def features(claim: str, passage: str, lang: str, rule_status: str,
             numbers_read: frozenset[float] | None = None) -> tuple[list[float], Alignment]:
    """The combiner's inputs for one pair, in :data:`FEATURE_NAMES` order, and the best window.
    ``numbers_read``: the passage's numbers when its analysis already holds them."""
    c = _read(claim, lang)
    p, _ = _passage(passage, lang)
    best = align(claim, passage, lang)
    w = best.text
    best_set, passage_set = set(w.stems), set(p.stems)
    wcov_best, cov_best = _coverage(c, best_set)
    wcov_passage, _ = _coverage(c, passage_set)
    pairs = list(zip(c.stems, c.stems[1:], strict=False))
    passage_pairs = set(zip(p.stems, p.stems[1:], strict=False))
    bigram = sum(1 for pair in pairs if pair in passage_pairs) / len(pairs) if pairs else 0.0
    lcs = _lcs(c.stems, w.stems) / len(c.stems) if c.stems else 0.0
    window_total = sum(w.weights.values())
    precision = sum(v for s, v in w.weights.items() if s in c.weights) / window_total if window_total else 0.0
    claim_total = sum(c.weights.values()) or 1.0
    missing = [v for s, v in c.weights.items() if s not in passage_set]
    numbers = c.numbers
    matched = len(numbers & passage_numbers(passage, lang, numbers_read)) / len(numbers) if numbers else 0.0
    # folded as the phrases are ("nic nie płacisz" reads as "nic nie placisz")
    window_text = _fold(passage[best.start : best.end])
    claim_text = _fold(claim)
    # both sides say free ("costs nothing" against "free"): their "no" / "nothing" is the price, not a negation
    free_both = _says_free(c.words, claim_text) and _says_free(w.words, window_text)
    neg_claim = _negation_said(c.words, claim_text) if free_both else _has(c.words, _NEGATION)
    neg_best = _negation_said(w.words, window_text) if free_both else _has(w.words, _NEGATION)
    hedges = len(w.words & _HEDGES)
    names_cov = len(c.names & p.words) / len(c.names) if c.names else 1.0
    long = 1.0 if len(passage) > 600 else 0.0
    missing_max = max(missing, default=0.0) / 6.0
    values = [
        1.0,
        wcov_best,
        wcov_passage,
        cov_best,
        bigram,
        lcs,
        precision,
        min(best.score / claim_total, 3.0),
        missing_max,
        min(sum(1 for v in missing if v >= 3.0), 5) / 5.0,
        1.0 if numbers else 0.0,
        matched,
        1.0 if numbers and matched < 1.0 else 0.0,
        float(neg_claim),
        float(neg_best),
        float(neg_claim != neg_best),
        min(hedges, 3) / 3.0,
        1.0 if _NULL_FINDING.search(window_text) else 0.0,
        1.0 if _NULL_FINDING.search(claim.lower()) else 0.0,
        1.0 if _antonym(c.words, w.words) else 0.0,
        names_cov,
        math.log1p(len(c.stems)),
        math.log1p(len(passage) / 1000.0),
        1.0 if rule_status == "supported" else 0.0,
        1.0 if rule_status == "partly_supported" else 0.0,
        1.0 if rule_status == "contradicted" else 0.0,
        wcov_best * long,
        wcov_passage * long,
        missing_max * long,
    ]
    return values, best
