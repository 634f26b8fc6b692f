"""The built-in judge: decides from the passage's own words, with no model.

Deterministic, offline, no network; English and Polish (about 2,600 pairs per CPU-second on
abstract-sized passages, a few hundred on 1,500-character web chunks).
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
6. When the rules find nothing stated in the passage's own words, a logistic combiner
   weighs paraphrase features (informativeness-weighted stem overlap with synonyms and number
   words, BM25 alignment to the best sentence window, negation, hedging, antonyms) and gives a
   status only above its threshold; otherwise ``unsupported`` with ``confidence="low"`` and "the
   built-in judge could not decide". On a long page the rules read only the best-aligned excerpt.

Modules: ``tokens`` (folding, tokens, number words, stems, language), ``quantities`` (quantities
and their comparison), ``polarity`` (negation, modality), ``analysis`` (sentences into segments),
``rules`` (facts aligned to segments and judged), ``paraphrase`` (features, alignment),
``combiner`` (the fitted logistic regression and the decision policy; coefficients in
``combiner.json``, fitted by ``bench/fit_judge.py``), ``judge`` (the judges), ``authorship``.
"""

from __future__ import annotations

from citecheck.judges.builtin.authorship import extract_authorship
from citecheck.judges.builtin.judge import BUILTIN_VERSION, HEURISTIC_PREFIX, JUDGE_NAME, UNDECIDED, BuiltinJudge, RulesJudge
from citecheck.judges.builtin.words import detect_language

__all__ = ["BUILTIN_VERSION", "HEURISTIC_PREFIX", "JUDGE_NAME", "UNDECIDED", "BuiltinJudge", "RulesJudge", "detect_language", "extract_authorship"]
