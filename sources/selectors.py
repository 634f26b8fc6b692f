"""Reads: what may be cited right now, and the views the dashboard and API need."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from reviews.models import SiteSwitch
from sources.models import ChangeKind, DomainPolicy, EvidenceStatus, PassageVersion, Priority, VersionPassage

# Evidence whose live page is missing or dead never leaves Citecheck.
WITHHELD_EVIDENCE = (EvidenceStatus.SUSPENDED, EvidenceStatus.DEAD)


def citable_filter() -> Q:
    """Passage versions that are in a source's active version and blocked by nothing."""
    blocked_domain = DomainPolicy.objects.filter(domain=OuterRef("passage__source__domain"), is_blocked=True)
    in_active = VersionPassage.objects.filter(
        passage_version=OuterRef("pk"), source_version__is_active=True
    ).exclude(change_kind=ChangeKind.REMOVED)
    condition = (
        Q(Exists(in_active))
        & Q(passage__is_blocked=False, passage__source__is_blocked=False)
        & ~Q(passage__source__evidence_status__in=WITHHELD_EVIDENCE)
        & ~Q(Exists(blocked_domain))
    )
    if SiteSwitch.objects.filter(pk=1, primary_only=True).exists():
        condition &= Q(passage__source__priority=Priority.PRIMARY)
    return condition


def with_domain_blocked(queryset: QuerySet[Any]) -> QuerySet[Any]:
    """Sources annotated with `domain_blocked`: a source on a blocked domain shows as blocked."""
    return queryset.annotate(domain_blocked=Exists(DomainPolicy.objects.filter(domain=OuterRef("domain"), is_blocked=True)))


def export_passages() -> QuerySet[PassageVersion]:
    """Every passage the bot may cite now (active, unblocked, live page not missing)."""
    return (
        PassageVersion.objects.filter(citable_filter())
        .select_related("passage", "passage__source")
        .order_by("passage__source_id", "passage__ordinal")
    )


def passage_usability(passage_version: PassageVersion) -> str:
    """One word for the state of a cited passage: active, blocked, changed, outdated, unverified, missing."""
    passage = passage_version.passage
    source = passage.source
    if passage.is_blocked or source.is_blocked or DomainPolicy.objects.filter(domain=source.domain, is_blocked=True).exists():
        return "blocked"
    if source.evidence_status in WITHHELD_EVIDENCE:
        return "missing"
    in_active = VersionPassage.objects.filter(passage_version=passage_version, source_version__is_active=True).exclude(change_kind=ChangeKind.REMOVED).exists()
    if not in_active:
        return "outdated"
    if source.live_page_changed and passage_version.memberships.filter(source_version__source=source).exists():
        latest = source.versions.order_by("-number").first()
        if latest is not None and not latest.members.filter(passage_version=passage_version).exclude(change_kind=ChangeKind.REMOVED).exists():
            return "changed"
    if source.evidence_status == EvidenceStatus.TEMPORARILY_UNVERIFIED:
        return "unverified"
    return "active"


LINK_REL = "noopener noreferrer nofollow"


def safe_link(passage_version: PassageVersion) -> dict[str, str] | None:
    """A link to a passage built from the registry only: http(s), a domain allowed for links,
    descriptive text "Page title — section heading". None when no safe link can be made."""
    from urllib.parse import quote, urlsplit

    from citecheck.urlnorm import registrable_domain

    source = passage_version.passage.source
    url = source.canonical_url
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    # The domain of the URL rendered, not only the stored one: blocked or not allowed for links.
    domains = {source.domain, registrable_domain(url)}
    if DomainPolicy.objects.filter(Q(is_blocked=True) | Q(allowed_for_links=False), domain__in=domains).exists():
        return None
    anchor = passage_version.passage.anchor
    href = f"{url}#{quote(anchor, safe='-_.~')}" if anchor else url
    title = source.title or source.domain
    section = passage_version.section_heading
    text = f"{title} — {section}" if section and section != title else title
    return {"href": href, "text": text, "rel": LINK_REL}


@dataclass(frozen=True)
class LinkHealth:
    states: list[str]
    labels: list[str]  # the states' names for people ("redirect (permanent)"), in the order of `states`
    now: list[tuple[str, str, int]]
    evidence: list[tuple[str, str, int]]
    days: list[tuple[date, list[int], int]]


def link_health_summary(*, days: int = 14) -> LinkHealth:
    """Counts per link state now, per day over `days` days (from the fetch history), and per
    evidence status — two aggregate queries, whatever the number of sources."""
    from datetime import timedelta

    from django.db.models import Count
    from django.db.models.functions import TruncDate
    from django.utils import timezone

    from sources.models import FetchResult, LinkState, Source

    now = timezone.now()
    # A datetime range, not `fetched_at__date__gte`: the index on fetched_at serves it.
    since = (now - timedelta(days=days - 1)).replace(hour=0, minute=0, second=0, microsecond=0)
    start = since.date()
    per_day: dict[date, dict[str, int]] = {start + timedelta(days=i): {} for i in range(days)}
    rows = (
        FetchResult.objects.filter(fetched_at__gte=since)
        .annotate(day=TruncDate("fetched_at"))
        .values("day", "link_state")
        .annotate(n=Count("*"))
    )
    for row in rows:
        per_day.setdefault(row["day"], {})[row["link_state"]] = row["n"]
    now_counts = dict(Source.objects.exclude(link_state="").values_list("link_state").annotate(n=Count("id")).values_list("link_state", "n"))
    evidence = dict(Source.objects.values_list("evidence_status").annotate(n=Count("id")).values_list("evidence_status", "n"))
    states = [s for s in LinkState.values if s in now_counts or any(s in d for d in per_day.values())]
    return LinkHealth(
        states=states,
        labels=[str(LinkState(s).label) for s in states],
        now=[(s, str(LinkState(s).label), now_counts.get(s, 0)) for s in LinkState.values if now_counts.get(s)],
        evidence=[(s, str(EvidenceStatus(s).label), n) for s, n in sorted(evidence.items())],
        days=[(day, [counts.get(s, 0) for s in states], sum(counts.values())) for day, counts in sorted(per_day.items())],
    )
