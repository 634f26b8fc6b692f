"""POST /answers, GET /answers/{id}, GET /answers/{id}/trace."""

from __future__ import annotations

import json
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest
from ninja import Header, Router, Status

from citecheck.errors import InvalidInput, NotFound, ServiceError
from claims.citations import citations_check
from claims.models import Answer, Citation
from claims.selectors import answer_trace
from claims.services import answer_submit
from dispatch.selectors import work_status
from integrations.api.auth import ApiAuth
from integrations.api.schemas import AnswerCreated, AnswerIn, AnswerOut, ErrorOut
from integrations.models import Idempotency
from reviews.audit import permission_require
from sources.selectors import DomainRules, link_html, passage_usabilities, safe_link

router = Router(tags=["answers"])
ERRORS = {400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 429: ErrorOut}


def _created(answer: Any, *, replay: bool) -> dict[str, Any]:
    ids = [i for i in answer.sources_sent if isinstance(i, int)]
    try:
        check = citations_check(sources=ids, answer=answer.raw_response, registry_access=True) if ids else {}
    except ServiceError as exc:
        check = {"error": {"code": exc.code, "message": exc.message, "field": exc.field}}
    states = {entry["source"]: entry["state"] for entry in check.get("registry", [])}
    passages = [{"number": n, "passage_version_id": i, "state": states.get(n, "missing")} for n, i in enumerate(ids, start=1)]
    return {
        "answer_id": answer.pk, "url": f"/api/v1/answers/{answer.pk}", "state": answer.state, "citation_check": check,
        "passages": passages, "blocked_passage_version_ids": [p["passage_version_id"] for p in passages if p["state"] == "blocked"],
        "idempotent_replay": replay, "work": work_status("answer", answer.pk),
    }


@router.post("/answers", auth=ApiAuth("submit_answers"), response={202: AnswerCreated, **ERRORS},
             summary="Send back a bot answer: stored, citation-checked at once, verified by the judges in the background — token scope: submit_answers")
def answers_create(request: HttpRequest, payload: AnswerIn, idempotency_key: str | None = Header(None, alias="Idempotency-Key", max_length=200)) -> Any:
    """202 with the answer's URL and the mechanical citation check. The judges' verification is
    queued: poll GET /answers/{id} or receive the `answer.verified` webhook. A blocked passage
    version is accepted and reported as blocked. The same Idempotency-Key returns the first answer."""

    user: Any = request.user
    # Refusals are audited in their own transaction: check before the request's transaction opens.
    permission_require(actor=user, perm="claims.add_answer", action="answer_submit")
    if idempotency_key:
        earlier = Idempotency.objects.filter(user=user, key=idempotency_key).select_related("answer").first()
        if earlier is not None:
            return Status(202, _created(earlier.answer, replay=True))
    raw = payload.answer if isinstance(payload.answer, str) else json.dumps(payload.answer)
    ids = payload.passage_version_ids
    try:
        with transaction.atomic():
            answer = answer_submit(actor=user, raw_response=raw, passage_version_ids=list(ids), question=payload.question,
                                   model_name=payload.model, language=payload.language or "en", mode=payload.mode)
            if idempotency_key:
                Idempotency.objects.create(user=user, key=idempotency_key, answer=answer)
    except IntegrityError:
        # The same key arrived twice at once: the other request's answer is the one.
        earlier = Idempotency.objects.filter(user=user, key=idempotency_key).select_related("answer").first()
        if earlier is None:
            raise
        return Status(202, _created(earlier.answer, replay=True))
    except ServiceError as exc:
        if exc.field == "sources":  # the service's name for the ids sent
            message = exc.message.replace("sources:", "passage_version_ids:", 1)
            if "unknown passage-version id" in message:
                raise NotFound(message, field="passage_version_ids") from exc
            raise InvalidInput(message, field="passage_version_ids") from exc
        raise
    return Status(202, _created(answer, replay=False))


def _answer(request: HttpRequest, answer_id: int, action: str) -> Any:
    permission_require(actor=request.user, perm="claims.view_answer", action=action)
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        raise NotFound(f"no answer {answer_id}", field="answer_id")
    return answer


@router.get("/answers/{answer_id}", auth=ApiAuth("read_evidence", "submit_answers"), response={200: AnswerOut, **ERRORS},
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
        "claims": list(report.get("claims") or []), "report_card": card, "gaps": list(card.get("gaps") or []),
        "cited_text": list(report.get("cited_text") or []), "bibliography": list(report.get("bibliography") or []),
        "citations": citations, "trace_url": f"/api/v1/answers/{answer.pk}/trace",
        "work": work_status("answer", answer.pk),
    }


@router.get("/answers/{answer_id}/trace", auth=ApiAuth("read_evidence", "submit_answers"), response={200: dict[str, Any], **ERRORS},
            summary="The full trace of an answer: claims, citations, judgements, passage and page versions (as the desk's trace page) — token scope: read_evidence or submit_answers")
def answer_trace_view(request: HttpRequest, answer_id: int, page: int = 1) -> Any:
    """The same dict as the desk's trace page (`claims.selectors.answer_trace`), claims paginated
    20 to a page (`?page=`)."""
    if answer_id < 1 or answer_id > 2**63 - 1:
        raise InvalidInput("answer_id: not an id", field="answer_id")
    if page < 1 or page > 1_000_000:
        raise InvalidInput("page: a page number from 1", field="page")

    answer = _answer(request, answer_id, "answer_trace")
    return answer_trace(answer_id=answer.pk, page=page)
