"""Polarity of the built-in judge: negation and modality of a segment ("may" / "may not",
"must" / "need not", "includes" / "excludes")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecheck.judges import lexicon as lx
from citecheck.judges.builtin.words import W, _Tok


@dataclass(slots=True)
class Polarity:
    modal: str | None  # obligatory / permitted / prohibited / optional
    parity: int  # 1 when the statement is negated (once, or an odd number of times)
    signal: bool  # any negator, modal or negative concept word at all
    exclusive: bool = False  # "only" ("can only be applied for in person": the one way, as good as "must")

    def effective(self) -> int:
        if self.modal is None:
            return self.parity
        return 1 if self.modal in ("prohibited", "optional") else 0


def _polarity_compatible(a: Polarity, b: Polarity) -> bool:
    if a.modal and b.modal:
        if {a.modal, b.modal} == {"permitted", "obligatory"}:
            # "can only be made in person" = "has to be made in person"; a bare "can" is not "must"
            return (a if a.modal == "permitted" else b).exclusive
        return a.modal == b.modal or {a.modal, b.modal} == {"permitted", "optional"}
    return a.effective() == b.effective()


_STRONG_OBLIGATION = {"must", "shall", "nalezy", "wolno"}


def _lt_bound(toks: Sequence[_Tok], k: int) -> bool:
    """The Lithuanian negator at ``k`` belongs to a bound, not to the statement: "ne ilgiau kaip 21 dieną",
    "ne daugiau nei 10" (no more than), "daugiau nei 50 €" (more than: "nei" is "than")."""
    word = toks[k].text
    if word == "nei":
        return k >= 1 and _lt_comparative(toks[k - 1].text)
    return (word == "ne" and k + 2 < len(toks) and _lt_comparative(toks[k + 1].text)
            and toks[k + 2].text in {"kaip", "nei"})


def _lt_comparative(word: str) -> bool:
    """A Lithuanian comparative: adverbs in "-iau" ("daugiau", "vėliau"), adjectives with "-esn-" ("pigesnė",
    "jaunesniems")."""
    return word.endswith("iau") or "esn" in word[-7:]


def _polarity(toks: Sequence[_Tok], lang: str) -> Polarity:
    negators = lx.NEGATORS[lang]
    triggers = _TRIGGERS[lang]
    only = lx.ONLY_WORDS[lang]
    neg = 0
    concord = False  # Polish negative concord: "nie obejmuje uszkodzeń ani zalania", "nigdy nie" deny once
    obligation = permission = prohibition = optional = prohibit_by_negation = exclusive = False
    signal = False
    for k, tok in enumerate(toks):
        if tok.kind != W:
            continue
        word = tok.text
        if word in only:
            exclusive = True
        if word not in triggers and not word.endswith("n't") and not (lang == lx.PL and word.startswith("nie")):
            continue  # most words say nothing of negation or modality
        if word in negators or word.endswith("n't"):
            # "no later/more/longer than" is a bound; "no longer offered" is a negation
            # nor are Lithuanian "ne ilgiau kaip" (no longer than) and "nei" after a comparative ("daugiau nei 50 €")
            if not (word == "no" and k + 2 < len(toks) and toks[k + 1].text in {"later", "more", "longer"}
                    and toks[k + 2].text == "than") and not (lang == lx.LT and _lt_bound(toks, k)):
                if not concord and not (word == "nor" and neg):
                    neg += 1  # (English "not A nor B", "neither A nor B": one denial)
                concord = lang == lx.PL
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
                # "have to" as written, not "have [14 days] to" with the quantity's tokens left out
                if k + 1 < len(toks) and toks[k + 1].text == "to" and toks[k + 1].start - tok.end <= 2:
                    obligation = signal = True
            else:
                obligation = signal = True
                # "must not" / "shall not" / "nie nalezy" forbid; "need not" / "nie musi" do not oblige
                if word in _STRONG_OBLIGATION and k + 1 < len(toks) and toks[k + 1].text in negators:
                    prohibit_by_negation = True
                if lang == lx.PL and word in _STRONG_OBLIGATION and k >= 1 and toks[k - 1].text == "nie":
                    prohibit_by_negation = True
        elif word in ("have", "has") and k + 1 < len(toks) and toks[k + 1].text == "to" and toks[k + 1].start - tok.end <= 2:
            obligation = signal = True
        elif word in lx.PERMISSION[lang]:
            permission = signal = True
        elif lang == lx.PL and word.startswith("nie") and len(word) > 5 and word[3:] in lx.PERMISSION[lang]:
            neg += 1
            permission = signal = True
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
    return Polarity(modal=modal, parity=parity, signal=signal, exclusive=exclusive)


_POLARITY_WORDS = {
    lang: frozenset().union(lx.NEGATORS[lang], lx.OBLIGATION[lang], lx.PERMISSION[lang], lx.PROHIBITION[lang],
                            lx.OPTIONAL[lang], lx.NEGATIVE_CONCEPT[lang], lx.FREE_WORDS)
    for lang in lx.LANGUAGES
}


# Every word the polarity reads (besides "...n't" and Polish "nie..."): any other word is skipped at once.
_TRIGGERS = {
    lang: frozenset().union(lx.NEGATORS[lang], lx.PROHIBITION[lang], lx.OPTIONAL[lang], lx.NEGATIVE_CONCEPT[lang],
                            lx.OBLIGATION[lang], lx.PERMISSION[lang], {"have", "has"})
    for lang in lx.LANGUAGES
}


def _merge_polarity(polarities: Sequence[Polarity]) -> Polarity:
    signalled = [p for p in polarities if p.signal]
    if not signalled:
        return polarities[0] if polarities else Polarity(None, 0, False)
    return signalled[0]
