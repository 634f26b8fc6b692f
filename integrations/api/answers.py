"""POST /answers, GET /answers/{id}, GET /answers/{id}/trace."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.http import HttpRequest
from ninja import Header, Router, Status

from citecheck.errors import InvalidInput, NotFound, ServiceError
from claims.citations import citations_check, registry_report
from claims.models import Answer, Citation
from claims.selectors import answer_trace
from dispatch.selectors import status_of, work_status
from integrations.api.auth import ApiAuth
from integrations.api.schemas import AnswerCreated, AnswerIn, AnswerOut, ErrorOut
from integrations.selectors import answer_report_public, answer_trace_public, blocked_passage_version_ids, parse_as_of
from integrations.services.answers import AnswerReceived, answer_receive
from reviews.audit import permission_require
from sources.selectors import DomainRules, link_html, passage_usabilities, safe_link

router = Router(tags=["answers"])
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 429: ErrorOut}


def _created(received: AnswerReceived) -> dict[str, Any]:
    """The 202 body: the mechanical citation check, each passage's state, and the verification's
    work. A new answer's are built from what storing it read and asked for (no query); a
    replay reads them again."""
    answer = received.answer
    ids = [i for i in answer.sources_sent if isinstance(i, int)]
    submitted = received.submitted
    check: dict[str, Any] = {}
    try:
        if submitted is not None:
            check = registry_report(evidence=submitted.evidence, answer=answer.raw_response) if ids else {}
        elif ids:
            check = citations_check(sources=ids, answer=answer.raw_response, registry_access=True)
    except ServiceError as exc:
        check = {"error": {"code": exc.code, "message": exc.message, "field": exc.field}}
    states = {entry["source"]: entry["state"] for entry in check.get("registry", [])}
    passages = [{"number": n, "passage_version_id": i, "state": states.get(n, "missing")} for n, i in enumerate(ids, start=1)]
    return {
        "answer_id": answer.pk, "url": f"/api/v1/answers/{answer.pk}", "state": answer.state, "citation_check": check,
        "passages": passages, "blocked_passage_version_ids": [p["passage_version_id"] for p in passages if p["state"] == "blocked"],
        "idempotent_replay": received.replay,
        "work": status_of(submitted.verification) if submitted is not None else work_status("answer", answer.pk),
    }


def _request_hash(payload: AnswerIn) -> str:
    return hashlib.sha256(json.dumps(payload.model_dump(), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@router.post("/answers", operation_id="submitAnswer", auth=ApiAuth("submit_answers"), response={202: AnswerCreated, 422: ErrorOut, **ERRORS},
             summary="Send back a bot answer: stored, citation-checked at once, verified by the judges in the background — token scope: submit_answers")
def answers_create(request: HttpRequest, payload: AnswerIn, idempotency_key: str | None = Header(None, alias="Idempotency-Key", max_length=200)) -> Any:
    """202 with the answer's URL and the mechanical citation check. The judges' verification is
    queued: poll GET /answers/{id} or receive the `answer.verified` webhook. A blocked passage
    version is accepted and reported as blocked. The same Idempotency-Key (per integration)
    with the same body returns the first answer; with a different body it is a 422."""

    token = getattr(request, "api_token", None)
    raw = payload.answer if isinstance(payload.answer, str) else json.dumps(payload.answer)
    try:
        received = answer_receive(
            actor=request.user, integration=token.integration if token is not None else None, idempotency_key=idempotency_key,
            request_sha256=_request_hash(payload), raw_response=raw, passage_version_ids=list(payload.passage_version_ids),
            question=payload.question, model_name=payload.model, language=payload.language or "en", mode=payload.mode,
        )
    except ServiceError as exc:
        if exc.field == "sources":  # the service's name for the ids sent
            message = exc.message.replace("sources:", "passage_version_ids:", 1)
            if "unknown passage-version id" in message:
                raise NotFound(message, field="passage_version_ids") from exc
            raise InvalidInput(message, field="passage_version_ids") from exc
        raise
    return Status(202, _created(received))


def _answer(request: HttpRequest, answer_id: int, action: str) -> Any:
    """The answer, if the caller may read it: a token only its own integration's answers (any
    other id is the same 404 as an id that does not exist), a desk session every answer."""
    permission_require(actor=request.user, perm="claims.view_answer", action=action)
    answers = Answer.objects.filter(pk=answer_id)
    token = getattr(request, "api_token", None)
    if token is not None:
        answers = answers.filter(integration_link__integration_id=token.integration_id)
    answer = answers.first()
    if answer is None:
        raise NotFound(f"no answer {answer_id}", field="answer_id")
    return answer


@router.get("/answers/{answer_id}", operation_id="getAnswer", auth=ApiAuth("read_evidence", "submit_answers"), response={200: AnswerOut, **ERRORS},
            summary="An answer's verdicts: claims with backing spans, state and wording, report card, safe citations, gaps — token scope: read_evidence or submit_answers")
def answer_detail(request: HttpRequest, answer_id: int) -> Any:
    if answer_id < 1 or answer_id > 2**63 - 1:
        raise InvalidInput("answer_id: not an id", field="answer_id")
    answer = _answer(request, answer_id, "answer_read")
    report = answer.report or {}
    card = report.get("card") or {}
    rules = DomainRules.load()
    citations = []
    cited: dict[int, Any] = {}
    for citation in Citation.objects.filter(claim__answer=answer, passage_version__isnull=False).select_related("passage_version__passage__source"):
        if citation.passage_version is not None:
            cited.setdefault(citation.passage_version.pk, citation.passage_version)
    states = passage_usabilities(list(cited.values()), rules=rules)
    sent = [i for i in answer.sources_sent if isinstance(i, int) and not isinstance(i, bool)]
    blocked = {pk for pk, state in states.items() if state == "blocked"} | blocked_passage_version_ids([i for i in sent if i not in cited])
    for pv in cited.values():
        state = states[pv.pk]
        link = None if state == "blocked" else safe_link(pv, rules=rules)
        citations.append({
            "passage_version_id": pv.pk, "passage_id": pv.passage_id, "source_id": pv.passage.source_id,
            "url": link["href"] if link else None, "link_text": link["text"] if link else "", "link_html": link_html(link) or None, "state": state,
        })
    return {
        "answer_id": answer.pk, "state": answer.state, "wording": answer.state_wording,
        "verified_at": answer.verified_at.isoformat() if answer.verified_at else None,
        "needs_reverification": answer.needs_reverification,
        "claims": answer_report_public(list(report.get("claims") or []), blocked=blocked),
        "report_card": answer_report_public(card, blocked=blocked), "gaps": answer_report_public(list(card.get("gaps") or []), blocked=blocked),
        "cited_text": list(report.get("cited_text") or []), "bibliography": list(report.get("bibliography") or []),
        "citations": citations, "trace_url": f"/api/v1/answers/{answer.pk}/trace",
        "work": work_status("answer", answer.pk),
    }


@router.get("/answers/{answer_id}/trace", operation_id="traceAnswer", auth=ApiAuth("read_evidence", "submit_answers"), response={200: dict[str, Any], **ERRORS},
            summary="The full trace of an answer: claims, citations, judgements, passage and page versions (as the desk's trace page) — token scope: read_evidence or submit_answers")
def answer_trace_view(request: HttpRequest, answer_id: int, page: int = 1, as_of: str | None = None) -> Any:
    """The same dict as the desk's trace page (`claims.selectors.answer_trace`), claims paginated
    20 to a page (`?page=`). With `?as_of=` (an ISO 8601 time with offset, or `given` for the
    moment the answer was received) each evidence entry also says how it stood then
    (`at_moment`) and `point_in_time` lists the moments to pick from; 400 before the history
    is complete.
    Less what only desk users may read: a blocked passage version shows its ids and `blocked: true`
    and no text or span, and no block reason is shown."""
    if answer_id < 1 or answer_id > 2**63 - 1:
        raise InvalidInput("answer_id: not an id", field="answer_id")
    if page < 1 or page > 1_000_000:
        raise InvalidInput("page: a page number from 1", field="page")

    moment: datetime | str | None = None
    if as_of == "given":
        moment = "given"
    elif as_of:
        moment = parse_as_of(as_of)
    answer = _answer(request, answer_id, "answer_trace")
    return answer_trace_public(answer_trace(answer_id=answer.pk, page=page, as_of=moment))
