from __future__ import annotations

from django.http import HttpRequest, JsonResponse

from citecheck.errors import InvalidInput
from citecheck_site.api import api_view, json_body
from claims.citations import citations_check


@api_view(methods=("POST",), auth=False)
def check_citations(request: HttpRequest) -> JsonResponse:
    """POST {"sources": text | [..] | [passage-version ids], "answer": text} -> the checker's report."""
    data = json_body(request)
    if "sources" not in data:
        raise InvalidInput("sources: missing", field="sources")
    if "answer" not in data:
        raise InvalidInput("answer: missing", field="answer")
    return JsonResponse(citations_check(sources=data["sources"], answer=data["answer"]))
