"""Load the demo knowledge base (idempotent: running it twice creates nothing new)."""

from __future__ import annotations

import logging
import secrets

from django.contrib.auth.models import Group, User
from django.db import transaction

from citecheck.errors import ServiceError
from citecheck.urlnorm import normalize_url
from claims.models import Answer
from claims.services import answer_submit
from reviews.models import TestPair
from sources.models import DomainPolicy, Passage, PassageVersion, QualityTier, Source
from sources.services import source_register

logger = logging.getLogger(__name__)

DEMO_HOST = "127.77.0.1"

# path, title, document type, priority, risk
DEMO_SOURCES = [
    ("/delivery", "Delivery terms", "terms", "primary", "high"),
    ("/returns", "Returns policy", "terms", "primary", "normal"),
    ("/warranty", "Warranty", "terms", "primary", "normal"),
    ("/requirements", "Technical requirements", "webpage", "supplementary", "low"),
    ("/prices", "Price list (changes on request)", "webpage", "primary", "normal"),
    ("/old-delivery", "Old delivery page (moved permanently)", "webpage", "supplementary", "low"),
    ("/discontinued", "Discontinued product page (404)", "webpage", "supplementary", "low"),
]

# path, claim, expected passage heading, expected status
DEMO_TEST_PAIRS = [
    ("/delivery", "Express delivery takes 1 to 2 working days.", "Delivery terms > Express delivery", "supported"),
    # Not £4.95: that is the standard price, and a pair registered before its page is extracted
    # is judged against the passage sharing most of its words, which would then be that one.
    ("/delivery", "Express delivery costs £14.95.", "Delivery terms > Express delivery", "contradicted"),
    ("/returns", "You may return any item within 30 days of delivery for a full refund.", "Returns policy > Return window", "supported"),
    ("/warranty", "Tents carry a 24-month warranty against manufacturing defects.", "Warranty > What the warranty covers", "supported"),
]

# A chatbot's answer about the shop, citing two demo passages: [1] the delivery terms, [2] the
# returns policy. Its second claim gets the express price wrong, so the desk has something to catch.
DEMO_QUESTION = "How quick is express delivery, what does it cost, and can I send things back?"
DEMO_ANSWER = (
    "Express delivery takes 1 to 2 working days [1]. Express delivery costs £4.95 [1]. "
    "You may return any item within 30 days of delivery for a full refund [2]."
)
DEMO_CITED = [("/delivery", "Delivery terms > Express delivery"), ("/returns", "Returns policy > Return window")]


def demo_base_url(port: int) -> str:
    return f"http://{DEMO_HOST}:{port}"


def demo_user(username: str, group: str) -> User:
    user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
    if created:
        user.set_password(secrets.token_urlsafe(16))  # not meant for logging in
        user.save()
        user.groups.add(Group.objects.get(name=group))
    return user


def demo_load(*, port: int) -> dict[str, int]:
    """Register the demo shop's pages (by a demo editor) and their golden test pairs."""
    base = demo_base_url(port)
    editor = demo_user("demo-editor", "Editor")
    demo_user("demo-approver", "Approver")
    DomainPolicy.objects.get_or_create(domain=DEMO_HOST, defaults={"quality_tier": QualityTier.HIGH, "notes": "The offline demo shop."})
    created = 0
    for path, title, doc_type, priority, risk in DEMO_SOURCES:
        url = base + path
        if Source.objects.filter(normalized_url=normalize_url(url)).exists():
            continue
        try:
            source_register(actor=editor, url=url, title=title, document_type=doc_type, priority=priority, risk_level=risk, owner="Northwind customer service")
            created += 1
        except ServiceError as exc:
            logger.warning("demo.register_failed", extra={"url": url, "error": exc.message})
    return {"sources_created": created}


def demo_test_pairs(*, port: int) -> int:
    """Golden pairs for the demo sources whose passages exist (idempotent)."""
    base = demo_base_url(port)
    made = 0
    with transaction.atomic():
        for path, claim, heading, status in DEMO_TEST_PAIRS:
            source = Source.objects.filter(normalized_url=normalize_url(base + path)).first()
            if source is None or TestPair.objects.filter(source=source, claim=claim).exists():
                continue
            passage = Passage.objects.filter(source=source, heading_path=heading).first()
            TestPair.objects.create(source=source, claim=claim, expected_passage=passage, expected_status=status, created_by=User.objects.filter(username="demo-editor").first())
            made += 1
    return made


def demo_answer(*, port: int) -> bool:
    """Submit the demo chatbot answer once its cited passages exist (idempotent); True when it
    was submitted now. It is verified against what is approved: until an approver activates
    the delivery and returns pages it waits, and it is verified again when they are activated."""

    if Answer.objects.filter(question=DEMO_QUESTION).exists():
        return False
    base = demo_base_url(port)
    ids = []
    for path, heading in DEMO_CITED:
        pv = (
            PassageVersion.objects.filter(passage__source__normalized_url=normalize_url(base + path), passage__heading_path=heading)
            .order_by("-id").first()
        )
        if pv is None:
            return False
        ids.append(pv.pk)
    answer_submit(actor=demo_user("demo-editor", "Editor"), raw_response=DEMO_ANSWER, passage_version_ids=ids,
                  question=DEMO_QUESTION, model_name="demo chatbot")
    return True
