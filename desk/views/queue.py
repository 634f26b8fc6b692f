"""The review queue (the desk's home), assignments and comment threads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.views.decorators.http import require_POST

from citecheck.errors import ServiceError
from desk.forms import AssignForm, CommentForm
from desk.views.common import int_or_none, render_desk, safe_next
from reviews.selectors.queue import LANDING_ITEMS, QueueCategory, QueueFilters, review_queue
from reviews.selectors.queue import item_thread as thread_of
from reviews.services import review_assign, review_comment_add
from sources.models import RiskLevel


def _reviewers() -> list[User]:
    perms = Q(groups__permissions__codename__in=["change_source", "approve_source"]) | Q(is_superuser=True)
    return list(User.objects.filter(is_active=True, is_staff=True).filter(perms).distinct().order_by("username")[:200])


def _filters(request: HttpRequest) -> QueueFilters:
    get = request.GET
    assignee = get.get("assignee", "")
    assignee_id = request.user.pk if assignee == "me" else int_or_none(assignee)
    category = get.get("category", "")
    return QueueFilters(
        owner=get.get("owner", "").strip()[:200], domain=get.get("domain", "").strip()[:253],
        risk=get.get("risk", "") if get.get("risk", "") in RiskLevel.values else "",
        language=get.get("language", "").strip()[:16], assignee_id=assignee_id,
        category=category if category in QueueCategory.values else "",
    )


def queue_page(request: HttpRequest) -> TemplateResponse:
    filters = _filters(request)
    # A page, not the backlog: the most urgent items across categories, or one category's items.
    queue = review_queue(filters=filters, limit=None if filters.category else LANDING_ITEMS)
    mine = request.GET.get("assignee") == "me"
    return render_desk(
        request, "desk/queue.html", "Assigned to me" if mine else "Review queue",
        queue=queue, reviewers=_reviewers(), risks=RiskLevel.choices, categories=QueueCategory.choices,
        args=request.GET, mine=mine, here=request.get_full_path(),
    )


@require_POST
def item_assign(request: HttpRequest) -> HttpResponse:
    form = AssignForm(request.POST)
    fallback = reverse("admin:desk-queue")
    if not form.is_valid():
        messages.error(request, "The assignment was not saved: choose a reviewer and a valid due date.")
        return redirect(safe_next(request, fallback))
    try:
        assignment = review_assign(actor=request.user, item_key=form.cleaned_data["item"], assignee_id=form.cleaned_data["assignee"], due_date=form.cleaned_data["due_date"])
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if assignment is None:
            messages.success(request, "The item is no longer assigned to anyone.")
        else:
            due = f", due {assignment.due_date:%Y-%m-%d}" if assignment.due_date else ""
            messages.success(request, f"Assigned to {assignment.assignee.get_username()}{due}.")
    return redirect(safe_next(request, fallback))


@require_POST
def item_comment(request: HttpRequest) -> HttpResponse:
    form = CommentForm(request.POST)
    item = request.POST.get("item", "")
    fallback = f"{reverse('admin:desk-item-thread')}?item={item}"
    if not form.is_valid():
        messages.error(request, "Write the comment first; nothing was saved.")
        return redirect(safe_next(request, fallback))
    try:
        review_comment_add(actor=request.user, item_key=form.cleaned_data["item"], text=form.cleaned_data["text"])
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your comment is added to the thread.")
    return redirect(safe_next(request, fallback))


def item_thread_page(request: HttpRequest) -> HttpResponse:
    key = request.GET.get("item", "")
    thread = thread_of(item_key=key)
    title = request.GET.get("title", "")[:300]
    back = request.GET.get("back", "")
    item_url = back if back.startswith("/admin/") else reverse("admin:desk-queue")
    return render_desk(
        request, "desk/thread.html", f"Comments on “{title}”" if title else "Comments on a review item", item=key, thread=thread,
        comment_form=CommentForm(initial={"item": key}), reviewers=_reviewers(), item_title=title, item_url=item_url,
        here=request.get_full_path(),
    )

