"""Answers in: store what the bot said, split it into (atomic) claims and citations, check the
quotes of text answers, and ask for verification; "verify again"."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from citecheck import citation_check as checker
from citecheck.claim_extraction import extract_claims, split_compound, strip_citation_markers
from citecheck.errors import InvalidInput, NotFound
from citecheck.judges import claim_hash
from citecheck.text import fold_for_match
from claims.limits import answer_limits_check
from claims.models import Answer, Citation, Claim, VerificationChange, VerificationMode
from claims.services.judging import configured_judge
from dispatch.models import WorkRequest, WorkStatus
from dispatch.services import work_request, work_send
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from sources.models import PassageVersion
from sources.selectors import CitedEvidence, cited_evidence

logger = logging.getLogger(__name__)


def _best_claim(claims: list[Claim], quote: str) -> Claim | None:
    """The claim a JSON-shaped citation belongs to: the one sharing most words with its quote."""

    words = set(fold_for_match(quote).split())
    candidates = [c for c in claims if c.needs_citation] or claims
    if not candidates:
        return None
    return max(candidates, key=lambda c: len(words & set(fold_for_match(c.text).split())))


def verification_mode_resolve(mode: str | None) -> str:
    """The mode an answer is verified in: the one asked for, else the deployment's setting."""
    chosen = (mode or settings.CITECHECK_VERIFICATION_MODE or VerificationMode.KNOWLEDGE_BASE).strip().lower()
    if chosen not in VerificationMode.values:
        raise InvalidInput(f"mode: use one of {', '.join(VerificationMode.values)} (got {chosen!r})", field="mode")
    return chosen


def claims_split(sentence: str) -> list[str]:
    """Atomic claims of one sentence by the configured splitter (CITECHECK_CLAIM_SPLITTER)."""

    splitter = settings.CITECHECK_CLAIM_SPLITTER
    if splitter == "rules":
        return split_compound(sentence)
    if splitter == "llm":
        split = getattr(configured_judge(), "split_claims", None)
        looks_compound = len(split_compound(sentence)) > 1 or " and " in sentence or ";" in sentence
        if split is None or not looks_compound:
            return split_compound(sentence)
        return [part for part in split(sentence) if part.strip()] or [sentence]
    return [sentence]


def _atomic_claims(claim: Any) -> list[tuple[str, tuple[int, ...]]]:
    """(text, citation numbers) of each atomic claim of one extracted sentence. With the rules,
    the sentence is split with its markers in place, so "£149 [3], returns within 30 days [1]"
    gives each part its own source; a part without a marker keeps the sentence's sources."""

    if not claim.needs_evidence:
        return [(claim.text, claim.citations)]
    if settings.CITECHECK_CLAIM_SPLITTER != "rules":
        return [(text, claim.citations) for text in claims_split(claim.text)]
    pieces = split_compound(claim.original)
    if len(pieces) < 2:
        return [(claim.text, claim.citations)]
    atomic = []
    for piece in pieces:
        text, numbers = strip_citation_markers(piece)
        atomic.append((re.sub(r"([.!?])\.$", r"\1", text), numbers or claim.citations))
    return atomic


@dataclass(frozen=True)
class SubmittedAnswer:
    """An answer as `answer_record` stored it, with what it read and asked for on the way."""

    answer: Answer
    evidence: CitedEvidence  # the passage versions sent, with their states when it arrived
    verification: WorkRequest  # the outbox row asking for its verification (marked queued once sent)


def answer_submit(
    *,
    actor: Actor,
    raw_response: str,
    passage_version_ids: list[int],
    question: str = "",
    model_name: str = "",
    language: str = "en",
    mode: str | None = None,
) -> Answer:
    """Store a bot answer exactly as received, with the registered passages that were sent to
    the model, split it into (atomic) claims and citations, check the quotes of a text answer,
    and ask for its verification in `mode` (default: CITECHECK_VERIFICATION_MODE)."""
    return answer_record(
        actor=actor, raw_response=raw_response, passage_version_ids=passage_version_ids, question=question,
        model_name=model_name, language=language, mode=mode,
    ).answer


def answer_record(
    *,
    actor: Actor,
    raw_response: str,
    passage_version_ids: list[int],
    question: str = "",
    model_name: str = "",
    language: str = "en",
    mode: str | None = None,
) -> SubmittedAnswer:
    """`answer_submit`, returning also the cited passage versions as read (with their states)
    and the verification's outbox row, so that a caller answering at once (POST /answers) reads
    nothing again. In a fixed number of queries whatever the number of claims and citations:
    the domain rules and the cited passage versions (with their states) before the transaction;
    then the answer, its claims, its citations, its audit row and its outbox row, one INSERT
    each. Inside a caller's transaction it opens no savepoint."""

    permission_require(actor=actor, perm="claims.add_answer", action="answer_submit")
    answer_limits_check(raw_response=raw_response, passage_version_ids=passage_version_ids)
    if not isinstance(passage_version_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in passage_version_ids):
        raise InvalidInput("sources: give the list of passage-version ids that were sent to the model", field="sources")
    chosen_mode = verification_mode_resolve(mode)
    evidence = cited_evidence(passage_version_ids)
    if evidence.missing:
        raise InvalidInput(f"sources: unknown passage-version id(s) {', '.join(map(str, evidence.missing))}", field="sources")
    found = {pv.pk: pv for pv in evidence.ordered}
    try:
        parsed = checker.parse_answer(raw_response)
    except checker.InputError as exc:
        raise InvalidInput(f"{exc.field}: {exc.reason}", field="answer") from exc
    extracted = extract_claims(parsed.answer_text)
    # Sentence -> its atomic parts with their citation numbers (before the transaction: an LLM splitter may be slow).
    parts = {c.index: _atomic_claims(c) for c in extracted}
    quotes = _text_quotes(parsed, evidence.ordered) if not parsed.citations else {}
    with transaction.atomic(savepoint=False):
        answer = Answer.objects.create(
            question=question, raw_response=raw_response, answer_text=parsed.answer_text,
            answer_format=str(parsed.answer_format), model_name=model_name[:200], language=(language or "en")[:16],
            verification_mode=chosen_mode, sources_sent=passage_version_ids, submitted_by=user_or_none(actor),
        )
        rows: list[Claim] = []
        of_sentence: dict[int, list[int]] = {}
        numbers_of: dict[int, tuple[int, ...]] = {}
        for c in extracted:
            for text, numbers in parts[c.index]:
                of_sentence.setdefault(c.index, []).append(len(rows))
                numbers_of[len(rows)] = numbers
                rows.append(Claim(answer=answer, text=text, text_hash=claim_hash(text), position=len(rows),
                                  needs_citation=c.needs_evidence, sentence=c.text if len(parts[c.index]) > 1 else ""))
        claims = Claim.objects.bulk_create(rows)
        if any(claim.pk is None for claim in claims):  # a database that does not return the new ids
            claims = list(answer.claims.order_by("position"))
        citations: list[Citation] = []
        if parsed.citations:  # JSON shape: {"source": n, "quote": ...}
            for item in parsed.citations:
                number = item.source if isinstance(item.source, int) else None
                claim = _best_claim(claims, item.quote)
                if claim is not None:
                    citations.append(_citation(claim, number, passage_version_ids, found, item.quote))
        else:
            for c in extracted:
                for position in of_sentence[c.index]:
                    for number in numbers_of[position]:
                        quote, result = quotes.get((c.start, number), ("", ""))
                        citation = _citation(claims[position], number, passage_version_ids, found, quote)
                        citation.quote_result = result
                        citations.append(citation)
        Citation.objects.bulk_create(citations)
        audit_record(actor=actor, action="answer_submit", obj=answer, to_state=answer.state, data={"mode": chosen_mode})
        verification = answer_verify_request(answer=answer, new=True)
    return SubmittedAnswer(answer=answer, evidence=evidence, verification=verification)


def _text_quotes(parsed: object, ordered: list[PassageVersion]) -> dict[tuple[int, int], tuple[str, str]]:
    """(sentence start, source number) -> (quote, result) for quoted spans of a text answer."""

    sources = [checker.Source(number=n, text=pv.text) for n, pv in enumerate(ordered, start=1)]
    report = checker.check_parsed_answer(sources, parsed)  # type: ignore[arg-type]
    found: dict[tuple[int, int], tuple[str, str]] = {}
    for check in report.text_quotes:
        key = (check.sentence.start, check.source)
        quote, result = found.get(key, ("", ""))
        found[key] = (f"{quote} … {check.quote}" if quote else check.quote,
                      "not_found" if "not_found" in (result, check.result.value) else check.result.value)
    return found


def _citation(claim: Claim, number: int | None, ids: list[int], found: dict[int, PassageVersion], quote: str) -> Citation:
    pv = found[ids[number - 1]] if number is not None and 1 <= number <= len(ids) else None
    return Citation(claim=claim, passage_version=pv, source_number=number, quote=quote)


def answer_verify_request(*, answer: Answer, now: bool = False, new: bool = False) -> WorkRequest:
    """Queue the verification of an answer (once: a request already waiting is reused). With
    `now`, a request waiting for its backoff is brought forward. `new`: the answer was created
    in this transaction, so no request can hold its key yet (no savepoint to catch one)."""
    row = work_request(job="claims.verify_answer", kwargs={"answer_id": answer.pk}, queue="judge", dedupe_key=f"verify:{answer.pk}", key_free=new)
    if now and row.status == WorkStatus.PENDING and row.not_before is not None:
        WorkRequest.objects.filter(pk=row.pk, status=WorkStatus.PENDING).update(not_before=None)
        transaction.on_commit(lambda: work_send(work_request_id=row.pk), robust=True)
    return row


def answer_verify_again(*, actor: Actor, answer_id: int) -> Answer:
    """"Verify again": re-run the verification now. Verdicts already stored are reused, so only
    the claims whose judgement is missing or failed are asked again."""
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        raise NotFound(f"no answer {answer_id}")
    permission_require(actor=actor, perm="claims.change_answer", action="answer_verify_again", obj=answer)
    with transaction.atomic():
        VerificationChange.objects.create(answer=answer, reason="verify again (asked by a person)", from_state=answer.state)
        audit_record(actor=actor, action="answer_verify_again", obj=answer)
        answer_verify_request(answer=answer, now=True)
    return answer


def answer_mode_set(*, actor: Actor, answer_id: int, mode: str) -> Answer:
    """Verify an answer in another mode from now on (the desk's override), and queue it."""

    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        raise NotFound(f"no answer {answer_id}")
    permission_require(actor=actor, perm="claims.change_answer", action="answer_mode_set", obj=answer)
    chosen = verification_mode_resolve(mode)
    with transaction.atomic():
        before = answer.verification_mode
        Answer.objects.filter(pk=answer.pk).update(verification_mode=chosen)
        answer.verification_mode = chosen
        VerificationChange.objects.create(answer=answer, reason=f"verification mode {before} → {chosen}", from_state=answer.state)
        audit_record(actor=actor, action="answer_mode_set", obj=answer, from_state=before, to_state=chosen)
        answer_verify_request(answer=answer, now=True)
    return answer
