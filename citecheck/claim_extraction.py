"""Claim extraction: which sentences of a bot's answer need evidence.

Pure module, no Django. An answer is split into sentences by the citation checker's rules
(:func:`citecheck.text.sentences_with_markers`); citation markers such as ``[1]`` are taken
off the claim text (their numbers are kept). Each sentence is then classed:

- needs evidence: it states a fact, a number, a date, a condition or an instruction;
- needs none: a greeting or sign-off, a transition ("Here is what I found:"), a question
  back to the user, or an empty remark.

The rule is deliberately generous towards "needs evidence": a sentence that is not clearly
small talk is checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck.text import MARKER_RE, sentences_with_markers

__all__ = ["Claim", "extract_claims", "needs_evidence", "split_compound", "strip_citation_markers"]

# Reasons a sentence needs evidence / needs none (stable strings, stored with the claim).
NUMBER, DATE, CONDITION, INSTRUCTION, FACT = "number", "date", "condition", "instruction", "fact"
GREETING, TRANSITION, QUESTION, EMPTY = "greeting", "transition", "question", "empty"


@dataclass(frozen=True, slots=True)
class Claim:
    """One sentence of an answer.

    ``text`` is the sentence without citation markers; ``original`` is the sentence as it stands
    in the answer (``answer[start:end] == original``); ``citations`` the marker numbers it
    carried, in order.
    """

    index: int
    text: str
    original: str
    start: int
    end: int
    citations: tuple[int, ...]
    needs_evidence: bool
    reason: str


_GREETING_RE = re.compile(
    r"^(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks?(?: you)?(?: (?:so|very) much)?|thank you"
    r"|thanks? (?:you )?for (?:asking|your (?:question|message|patience)|reaching out|contacting us|waiting)|you'?re welcome|no problem|happy to help|glad (?:i could|to) help|i hope (?:this|that) helps"
    r"|hope (?:this|that) helps|have a (?:nice|great|good) (?:day|one|weekend)|kind regards|best regards"
    r"|regards|cheers|sure|of course|certainly|great question|let me know if.*|feel free to .*"
    r"|dzie[nń] dobry|cze[sś][cć]|witam|witaj|dzi[eę]kuj[eę].*|dzi[eę]ki.*|pozdrawiam.*|mi[lł]ego dnia"
    r"|ch[eę]tnie pomog[eę].*|oczywi[sś]cie|jasne|mam nadziej[eę], [zż]e (?:to )?pomo.*|daj(?:cie)? zna[cć].*"
    r"|w razie pyta[nń].*)[\s!.,:;)]*$",
    re.IGNORECASE,
)
_TRANSITION_RE = re.compile(
    r"^(?:here(?:'s| is| are) (?:what|the|some|a)\b.*|(?:below|above) (?:is|are|you'?ll find)\b.*"
    r"|let me (?:explain|summari[sz]e|check|look).*|in (?:short|summary|brief)|to (?:sum up|summari[sz]e)"
    r"|as follows|the (?:short|quick) answer(?: is)?|oto .*|poni[zż]ej .*|podsumowuj[aą]c|w skr[oó]cie"
    r"|sprawd[zź]my.*|odpowied[zź] brzmi)[\s:.,!]*$",
    re.IGNORECASE,
)
_DATE_RE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(?:19|20)\d{2}\b"
    r"|\b(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday"
    r"|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|wrze[sś]nia|pa[zź]dziernika|listopada|grudnia"
    r"|poniedzia[lł]ek|wtorek|[sś]roda|czwartek|pi[aą]tek|sobota|niedziela)\b",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(
    r"\d|[€$£¥%]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty"
    r"|hundred|thousand|once|twice|free|jeden|jedna|dwa|dwie|trzy|cztery|pi[eę][cć]|sze[sś][cć]|siedem|osiem"
    r"|dziewi[eę][cć]|dziesi[eę][cć]|sto|tysi[aą]c|bezp[lł]atn\w*|darmow\w*)\b",
    re.IGNORECASE,
)
_CONDITION_RE = re.compile(
    r"\b(?:if|unless|only|provided|except|when|as long as|must|required|may not|cannot|can't|not allowed"
    r"|je[sś]li|je[zż]eli|o ile|tylko|wy[lł][aą]cznie|pod warunkiem|z wyj[aą]tkiem|musi|wymaga\w*|nie mo[zż]na"
    r"|nale[zż]y|trzeba)\b",
    re.IGNORECASE,
)
_INSTRUCTION_RE = re.compile(
    r"^(?:please\s+)?(?:go|click|open|select|choose|enter|fill|send|call|email|visit|log|sign|book|pay|bring"
    r"|print|attach|upload|contact|return|order|apply|submit|check|use|make sure|remember"
    r"|przejd[zź]|kliknij|otw[oó]rz|wybierz|wpisz|wype[lł]nij|wy[sś]lij|zadzwo[nń]|odwied[zź]|zaloguj|zap[lł]a[cć]"
    r"|przynie[sś]|wydrukuj|za[lł][aą]cz|skontaktuj|zwr[oó][cć]|zam[oó]w|z[lł][oó][zż]|sprawd[zź]|u[zż]yj"
    r"|pami[eę]taj)\b",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)


def strip_citation_markers(text: str) -> tuple[str, tuple[int, ...]]:
    """The text without bracketed citation markers (``[1]``, ``[1, 3]``) and the marker numbers.

    Spaces left before punctuation by a removed marker are tidied ("up to 30 days [2]." ->
    "up to 30 days.").
    """
    numbers: list[int] = []
    for match in MARKER_RE.finditer(text):
        numbers.extend(int(part) for part in re.split(r"[ \t]*,[ \t]*", match.group(1).strip()))
    stripped = MARKER_RE.sub("", text)
    stripped = re.sub(r"[ \t]+([.,;:!?])", r"\1", stripped)
    stripped = re.sub(r"[ \t]{2,}", " ", stripped).strip()
    return stripped, tuple(numbers)


def needs_evidence(sentence: str) -> tuple[bool, str]:
    """(needs evidence?, reason) for one sentence without markers."""
    text = sentence.strip()
    if not _WORD_RE.search(text):
        return False, EMPTY
    if text.endswith(("?", "？")):
        return False, QUESTION
    if _GREETING_RE.match(text):
        return False, GREETING
    lead, colon, rest = text.partition(":")
    if colon and rest.strip() and _TRANSITION_RE.match(lead + ":"):
        return needs_evidence(rest)  # "Here is what I found: delivery takes 3 days."
    if _TRANSITION_RE.match(text):
        return False, TRANSITION
    if _DATE_RE.search(text):
        return True, DATE
    if _NUMBER_RE.search(text):
        return True, NUMBER
    if _INSTRUCTION_RE.match(text):
        return True, INSTRUCTION
    if _CONDITION_RE.search(text):
        return True, CONDITION
    if len(_WORD_RE.findall(text)) <= 2:
        return False, TRANSITION
    return True, FACT


def extract_claims(answer: str) -> list[Claim]:
    """Every sentence of ``answer`` as a :class:`Claim`, in order, with its evidence need."""
    claims: list[Claim] = []
    for index, sentence in enumerate(sentences_with_markers(answer)):
        text, numbers = strip_citation_markers(sentence.text)
        needed, reason = needs_evidence(text)
        claims.append(
            Claim(
                index=index,
                text=text,
                original=sentence.text,
                start=sentence.start,
                end=sentence.end,
                citations=numbers or sentence.numbers,
                needs_evidence=needed,
                reason=reason,
            )
        )
    return claims


# --- compound claims --------------------------------------------------------------------------------

_VERB = (r"is|are|was|were|costs?|takes?|has|have|carr(?:y|ies)|can|cannot|may|must|will|does|do|needs?"
         r"|requires?|includes?|offers?|ships?|arrives?|opens?|closes?|runs?|gets?|pays?|weighs?|lasts?|covers?"
         r"|applies|apply|accepts?|delivers?|charges?|comes?|provides?")
_VERB_RE = re.compile(rf"\b(?:{_VERB})\b", re.IGNORECASE)
_COPULAS = {"is", "are", "was", "were"}
_AND_RE = re.compile(
    r",?\s+(?:and|oraz)\s+"
    rf"|,\s+(?=(?:you|we|it|they|the|all|our|your|its|this|these|every|each|{_VERB})\b)",  # ", you may return ..."
    re.IGNORECASE,
)
_SUBORDINATE_RE = re.compile(r"^(?:if|when|unless|although|because|once|after|before|while|provided|as long as|where)\b", re.IGNORECASE)
_PREDICATE_WORDS = {"free", "available", "open", "closed", "required", "included", "possible", "valid",
                    "non-refundable", "refundable", "optional", "mandatory", "unavailable", "allowed"}
_RANGE_WORDS = {"between", "from", "both"}


def _is_predicate(words: list[str]) -> bool:
    first = words[0].lower().strip(",")
    return first in _PREDICATE_WORDS or first.endswith(("able", "ible", "ed", "ful"))


def _split_on_and(part: str) -> list[str]:
    verb = _VERB_RE.search(part)
    if verb is None:
        return [part]
    subject = part[: verb.start()].strip()
    copula = verb.group(0) if verb.group(0).lower() in _COPULAS else ""
    pieces: list[str] = []
    rest_start = 0
    for match in _AND_RE.finditer(part):
        if match.start() <= verb.end():
            continue  # "tents and backpacks carry ...": the subject, not two claims
        left = part[rest_start : match.start()].strip()
        right = part[match.end() :].strip()
        words = right.split()
        before = part[: match.start()].split()
        if not words or words[0][:1].isdigit() or (before and before[-2:-1] and before[-2].lower() in _RANGE_WORDS):
            continue
        if match.group(0).strip() == "," and _SUBORDINATE_RE.match(part):
            continue  # "If it is faulty, it is repaired": the condition belongs to the claim
        if _VERB_RE.match(right):  # "... and costs £9.95": same subject
            candidate = f"{subject} {right}"
        elif _VERB_RE.search(" ".join(words[:4])) and words[0].lower() not in _COPULAS:  # "... and returns are free"
            candidate = right[:1].upper() + right[1:]
        elif copula and len(words) >= 2 and _is_predicate(words):  # "... are accepted within 30 days and free worldwide"
            candidate = f"{subject} {copula} {right}"
        else:
            continue
        if len(left.split()) < 3 or not subject:
            continue
        pieces.append(left)
        rest_start = match.end()
        pieces.append(candidate)
        break  # one split per pass; the new right part is split again below
    if not pieces:
        return [part]
    return [pieces[0]] + _split_on_and(pieces[1])


def split_compound(sentence: str) -> list[str]:
    """Atomic claims of a compound sentence by rule: parts joined by ";" or by "and" between two
    predicates of one subject ("Express delivery takes 1 to 2 days and costs £9.95" -> two
    claims, the second with the subject repeated). A sentence that is not compound is returned
    as it is, alone. Lists of nouns ("tents and backpacks") and ranges ("between 9 and 5") stay whole.
    """
    text = sentence.strip()
    end = text[-1] if text and text[-1] in ".!。" else "."
    body = text.rstrip(".!。").strip()
    parts: list[str] = []
    for piece in re.split(r"\s*;\s+", body):
        parts.extend(_split_on_and(piece.strip()))
    parts = [p.strip(" ,") for p in parts if p.strip(" ,")]
    if len(parts) < 2 or any(len(p.split()) < 2 for p in parts):
        return [sentence]
    return [p[:1].upper() + p[1:] + end for p in parts]
