"""People and their roles, managed by superusers from the desk or `manage.py add_person`.

A person has at most one role (Viewer, Editor or Approver; they build on each other) and the
staff flag follows it: with a role they can log in to the desk, without one they cannot. Each
change is audited in its own transaction; a password is generated here and shown once.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import Group, User
from django.db import transaction

from citecheck.errors import InvalidInput, NotFound, PermissionRefused
from reviews.audit import Actor, audit_record, refusal_record
from reviews.roles import ROLES, roles_sync

NO_ROLE = ""


def _require_superuser(*, actor: Actor, action: str) -> None:
    if actor is None:
        return  # the command line: whoever runs manage.py runs the deployment
    if actor.is_authenticated and actor.is_active and actor.is_superuser:
        return
    refusal_record(actor=actor, action=action, obj=None, reason="only a superuser manages people")
    raise PermissionRefused("Only a superuser can manage people and roles.")


def _role_groups() -> dict[str, Group]:
    groups = {group.name: group for group in Group.objects.filter(name__in=ROLES)}
    if len(groups) < len(ROLES):
        roles_sync()
        groups = {group.name: group for group in Group.objects.filter(name__in=ROLES)}
    return groups


def person_role(user: User) -> str:
    """The highest role a person holds ("" for none)."""
    names = {group.name for group in user.groups.all()}
    held = [role for role in ROLES if role in names]
    return held[-1] if held else NO_ROLE


def _role_check(role: str) -> None:
    if role not in (*ROLES, NO_ROLE):
        raise InvalidInput(f"role: one of {', '.join(ROLES)} (or none)", field="role")


def _role_apply(user: User, role: str) -> None:
    groups = _role_groups()
    user.groups.remove(*groups.values())
    if role:
        user.groups.add(groups[role])
    # The staff flag follows the role: a person with a role can log in to the desk; a superuser stays staff.
    user.is_staff = bool(role) or user.is_superuser
    user.save(update_fields=["is_staff"])


def new_password() -> str:
    return secrets.token_urlsafe(12)


def person_add(*, actor: Actor, username: str, role: str, email: str = "", password: str = "") -> tuple[User, str]:
    """Add a person with a role; returns the person and their password (generated unless given)."""
    _require_superuser(actor=actor, action="person_add")
    username = username.strip()
    _role_check(role)
    if not username:
        raise InvalidInput("username: give a name to log in with", field="username")
    if User.objects.filter(username__iexact=username).exists():
        raise InvalidInput(f"username: {username!r} is taken", field="username")
    password = password or new_password()
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email.strip(), password=password)
        _role_apply(user, role)
        audit_record(actor=actor, action="person_add", obj=user, to_state=role or "no role")
    return user, password


def _person(user_id: int) -> User:
    user = User.objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise NotFound(f"no person with id {user_id}")
    return user


def person_role_set(*, actor: Actor, user_id: int, role: str) -> User:
    _require_superuser(actor=actor, action="person_role_set")
    _role_check(role)
    with transaction.atomic():
        user = _person(user_id)
        before = person_role(user)
        _role_apply(user, role)
        audit_record(actor=actor, action="person_role_set", obj=user, from_state=before or "no role", to_state=role or "no role")
    return user


def person_staff_follow_role(*, actor: Actor, user_id: int) -> bool:
    """After a person's groups were changed outside the People page (the Django admin's own user
    form): a person who holds a role becomes staff, so they can log in to the desk, as the People
    page does. Nothing else is changed (a person without a role keeps the flag they were given).
    Returns whether the flag was set."""
    with transaction.atomic():
        user = _person(user_id)
        role = person_role(user)
        if user.is_staff or not role:
            return False
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        audit_record(actor=actor, action="person_staff_follow_role", obj=user, from_state="not staff", to_state="staff",
                     reason=f"holds the {role} role")
    return True


def person_deactivate(*, actor: Actor, user_id: int, reason: str = "") -> User:
    """A deactivated person cannot log in or use tokens; their history stays."""
    _require_superuser(actor=actor, action="person_deactivate")
    with transaction.atomic():
        user = _person(user_id)
        if actor is not None and user.pk == actor.pk:
            raise InvalidInput("You cannot deactivate yourself; ask another superuser.")
        if user.is_active:
            user.is_active = False
            user.save(update_fields=["is_active"])
            audit_record(actor=actor, action="person_deactivate", obj=user, from_state="active", to_state="inactive", reason=reason)
    return user


def person_reactivate(*, actor: Actor, user_id: int) -> User:
    _require_superuser(actor=actor, action="person_reactivate")
    with transaction.atomic():
        user = _person(user_id)
        if not user.is_active:
            user.is_active = True
            user.save(update_fields=["is_active"])
            audit_record(actor=actor, action="person_reactivate", obj=user, from_state="inactive", to_state="active")
    return user


def person_password_reset(*, actor: Actor, user_id: int) -> tuple[User, str]:
    """A new generated password (shown once to the superuser, never stored in clear)."""
    _require_superuser(actor=actor, action="person_password_reset")
    password = new_password()
    with transaction.atomic():
        user = _person(user_id)
        user.set_password(password)
        user.save(update_fields=["password"])
        audit_record(actor=actor, action="person_password_reset", obj=user)
    return user, password
