"""People and their roles, for the desk's People and roles page."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet


def people_list() -> QuerySet[User]:
    """Everyone who can have a role, with their groups in one extra query (not one per person)."""
    return User.objects.prefetch_related("groups").order_by("-is_active", "username")
