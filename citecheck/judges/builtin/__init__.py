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

from citecheck.judges.builtin.authorship import extract_authorship
from citecheck.judges.builtin.judge import BUILTIN_VERSION, HEURISTIC_PREFIX, JUDGE_NAME, UNDECIDED, BuiltinJudge, RulesJudge
from citecheck.judges.builtin.tokens import detect_language

__all__ = ["BUILTIN_VERSION", "HEURISTIC_PREFIX", "JUDGE_NAME", "UNDECIDED", "BuiltinJudge", "RulesJudge", "detect_language", "extract_authorship"]
