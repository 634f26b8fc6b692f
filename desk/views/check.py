from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from citecheck.errors import ServiceError
from claims.citations import citations_check


def home(request: HttpRequest) -> HttpResponse:
    return redirect("admin:index")


@login_required
def check_answer_page(request: HttpRequest) -> HttpResponse:
    """Paste sources and an answer; see each finding next to the text it concerns."""
    context: dict[str, object] = {"sources": "", "answer": ""}
    if request.method == "POST":
        sources = request.POST.get("sources", "")
        answer = request.POST.get("answer", "")
        context.update(sources=sources, answer=answer)
        try:
            context["report"] = citations_check(sources=sources, answer=answer)
        except ServiceError as exc:
            context["error"] = exc.message
    return render(request, "desk/check_answer.html", context)
