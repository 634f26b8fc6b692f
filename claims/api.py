from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from citecheck.errors import InvalidInput, NotFound
from citecheck_site.api import api_view, json_body
from claims.citations import citations_check
from claims.models import Answer
from claims.services import answer_submit


@api_view(methods=("POST",), auth=False)
def check_citations(request: HttpRequest) -> JsonResponse:
    """POST {"sources": text | [..] | [passage-version ids], "answer": text} -> the checker's report."""
    data = json_body(request)
    if "sources" not in data:
        raise InvalidInput("sources: missing", field="sources")
    if "answer" not in data:
        raise InvalidInput("answer: missing", field="answer")
    return JsonResponse(citations_check(sources=data["sources"], answer=data["answer"]))


def _answer_json(answer: Answer) -> dict[str, object]:
    return {
        "id": answer.pk, "state": answer.state, "wording": answer.state_wording,
        "verified_at": answer.verified_at.isoformat() if answer.verified_at else None,
        "needs_reverification": answer.needs_reverification, "report": answer.report,
    }


@api_view(methods=("POST",))
def answers_create(request: HttpRequest) -> JsonResponse:
    """POST {"answer": raw model response, "sources": [passage-version ids], "question", "model", "language"}:
    stores the answer and queues its verification; poll GET /api/v1/answers/<id>."""
    data = json_body(request)
    answer = answer_submit(
        actor=request.user, raw_response=str(data.get("answer") or ""), passage_version_ids=data.get("sources") or [],
        question=str(data.get("question") or ""), model_name=str(data.get("model") or ""), language=str(data.get("language") or "en"),
    )
    return JsonResponse(_answer_json(answer), status=202)


@api_view(methods=("GET",))
def answer_detail(request: HttpRequest, answer_id: int) -> JsonResponse:
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        raise NotFound(f"no answer {answer_id}")
    return JsonResponse(_answer_json(answer))
