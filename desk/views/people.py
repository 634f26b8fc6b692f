"""People and roles (superusers): add a person with a role, change a role, deactivate or
reactivate, reset a password. Each action is one service in reviews.services.people."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from citecheck.errors import ServiceError
from desk.forms import PersonAddForm, PersonRoleForm
from desk.views.common import int_or_none, render_desk
from reviews.selectors.people import people_list
from reviews.services.people import (
    person_add,
    person_deactivate,
    person_password_reset,
    person_reactivate,
    person_role,
    person_role_set,
)


def _superuser_only(request: HttpRequest) -> None:
    if not request.user.is_superuser:
        raise PermissionDenied("Only a superuser can manage people and roles.")


def people_page(request: HttpRequest) -> HttpResponse:
    _superuser_only(request)
    form = PersonAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, password = person_add(actor=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, f"Added {user.username} ({form.cleaned_data['role'] or 'no role'}). "
                                      f"Their password, shown once: {password}")
            return redirect("admin:desk-people")
    people = [{"user": user, "role": person_role(user), "form": PersonRoleForm(initial={"role": person_role(user)}, prefix=f"p{user.pk}")}
              for user in people_list()]
    return render_desk(request, "desk/people.html", "People and roles", form=form, people=people)


@require_POST
def person_change(request: HttpRequest) -> HttpResponse:
    _superuser_only(request)
    user_id = int_or_none(request.POST.get("user_id"))
    action = request.POST.get("action", "")
    if user_id is None:
        messages.error(request, "Pick a person; nothing was changed.")
        return redirect("admin:desk-people")
    try:
        if action == "role":
            form = PersonRoleForm(request.POST, prefix=f"p{user_id}")
            if not form.is_valid():
                raise ServiceError("Pick a role; nothing was changed.")
            user = person_role_set(actor=request.user, user_id=user_id, role=form.cleaned_data["role"])
            messages.success(request, f"{user.username} is now {form.cleaned_data['role'] or 'without a role (no desk login)'}.")
        elif action == "deactivate":
            user = person_deactivate(actor=request.user, user_id=user_id)
            messages.success(request, f"{user.username} is deactivated: they can no longer log in.")
        elif action == "reactivate":
            user = person_reactivate(actor=request.user, user_id=user_id)
            messages.success(request, f"{user.username} can log in again.")
        elif action == "password":
            user, password = person_password_reset(actor=request.user, user_id=user_id)
            messages.success(request, f"New password for {user.username}, shown once: {password}")
        else:
            messages.error(request, "Unknown action; nothing was changed.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("admin:desk-people")
