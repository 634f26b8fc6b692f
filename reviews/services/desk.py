"""The review queue's own writes: assigning an item with a due date and commenting on it."""

from __future__ import annotations

import re
from datetime import date

from django.contrib.auth.models import User
from django.db import transaction

from citecheck.errors import InvalidInput, NotFound
from reviews.audit import Actor, audit_record, permission_require, user_or_none
from reviews.models import ReviewAssignment, ReviewComment

ITEM_KEY = re.compile(r"^[a-z_]+:[a-z_]+\.[a-z_]+:\d+$")


def _check_key(item_key: str) -> str:
    item_key = item_key.strip()
    if not ITEM_KEY.match(item_key):
        raise InvalidInput(f"{item_key!r} is not an item of the review queue.", field="item")
    return item_key


def review_assign(*, actor: Actor, item_key: str, assignee_id: int | None, due_date: date | None = None) -> ReviewAssignment | None:
    """Assign a queue item to a reviewer with an optional due date; no assignee un-assigns it."""
    permission_require(actor=actor, perm="sources.block_source", action="review_assign")
    item_key = _check_key(item_key)
    with transaction.atomic():
        current = ReviewAssignment.objects.select_for_update().filter(item_key=item_key).select_related("assignee").first()
        before = current.assignee.get_username() if current else ""
        if assignee_id is None:
            if current is not None:
                current.delete()
            audit_record(actor=actor, action="review_assign", object_type="reviews.queueitem", object_id=item_key, from_state=before, to_state="")
            return None
        assignee = User.objects.filter(pk=assignee_id, is_active=True, is_staff=True).first()
        if assignee is None:
            raise NotFound("There is no such reviewer.")
        assignment, _ = ReviewAssignment.objects.update_or_create(
            item_key=item_key, defaults={"assignee": assignee, "due_date": due_date, "assigned_by": user_or_none(actor)}
        )
        audit_record(
            actor=actor, action="review_assign", object_type="reviews.queueitem", object_id=item_key,
            from_state=before, to_state=assignee.get_username(), data={"due_date": due_date.isoformat() if due_date else None},
        )
    return assignment


def review_comment_add(*, actor: Actor, item_key: str, text: str) -> ReviewComment:
    """Add a comment to a queue item's thread (kept and audited)."""
    permission_require(actor=actor, perm="sources.block_source", action="review_comment")
    item_key = _check_key(item_key)
    if not text.strip():
        raise InvalidInput("Write the comment first.", field="text")
    with transaction.atomic():
        comment = ReviewComment.objects.create(item_key=item_key, author=user_or_none(actor), text=text.strip())
        audit_record(actor=actor, action="review_comment", object_type="reviews.queueitem", object_id=item_key, reason=text.strip()[:2000], data={"comment": comment.pk})
    return comment
