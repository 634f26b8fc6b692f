"""The evidence export for the bot's retrieval index: full pages by cursor and the change feed
(upserts and tombstones). The same objects are served by GET /api/v1/passages and written by
`manage.py export_passages`."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import BigIntegerField, F, Max, Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.lookups import Exact, LessThan, LessThanOrEqual
from django.utils.dateparse import parse_datetime

from citecheck.errors import InvalidInput
from integrations.models import ExportChange
from reviews.models import SiteSwitch
from sources.models import EvidenceStatus, PassageVersion, Priority, VersionPassage, VersionPeriod
from sources.selectors import (
    ACTIVE_PERIOD,
    ACTIVE_SOURCE,
    CITED_KINDS,
    DomainRules,
    as_of_check,
    citable_filter,
    link_for,
    link_html,
    passage_usabilities,
    safe_link,
    source_states_then,
    url_domain,
)


class TombstoneReason:
    BLOCKED = "blocked"
    REMOVED_FROM_PAGE = "removed_from_page"
    SUPERSEDED = "superseded"
    SOURCE_DEAD = "source_dead"
    SOURCE_SUSPENDED = "source_suspended"
    PRIMARY_ONLY = "primary_only"
    DELETED = "deleted"


@dataclass(frozen=True)
class ActiveInfo:
    """For a set of passages: the passage version of each in its source's active version."""

    by_passage: dict[int, tuple[int, int, int]]  # passage id -> (passage version id, source version id, number)


def _active_info(passage_ids: set[int]) -> ActiveInfo:
    rows = (
        VersionPassage.objects.filter(source_version__is_active=True, passage_version__passage_id__in=passage_ids, change_kind__in=CITED_KINDS)
        .values_list("passage_version__passage_id", "passage_version_id", "source_version_id", "source_version__number")
    )
    return ActiveInfo(by_passage={p: (pv, sv, n) for p, pv, sv, n in rows})


def passage_object(pv: PassageVersion, *, rules: DomainRules, version: tuple[int, int] | None) -> dict[str, Any]:
    """The safe source object of one exported passage version (seed 004)."""
    passage = pv.passage
    source = passage.source
    link = safe_link(pv, rules=rules)
    return {
        "type": "passage",
        "passage_version_id": pv.pk,
        "passage_id": passage.pk,
        "source_id": source.pk,
        "source_version_id": version[0] if version else None,
        "version_number": version[1] if version else None,
        "url": link["href"] if link else None,
        "page_title": source.title,
        "section_heading": pv.section_heading,
        "heading_path": passage.heading_path,
        "link_text": link["text"] if link else (source.title or source.domain),
        "link_html": link_html(link) or None,
        "text": pv.text,
        "fingerprint": pv.fingerprint,
        "fetched_at": source.checks.last_ok_at.isoformat() if source.checks.last_ok_at else None,
        "approval_state": "approved",
        "priority": source.priority,
        "language": source.language,
        "evidence_status": "temporarily_unverified" if source.evidence_status == EvidenceStatus.TEMPORARILY_UNVERIFIED else "ok",
    }


def _tombstone_reason(pv: PassageVersion, *, rules: DomainRules, active: ActiveInfo, primary_only: bool) -> tuple[str | None, int | None]:
    """(reason, replacement passage version id) when `pv` may not be cited now, else (None, None)."""
    passage = pv.passage
    source = passage.source
    if passage.is_blocked or source.is_blocked or {source.domain, url_domain(source.canonical_url)} & rules.blocked:
        return TombstoneReason.BLOCKED, None
    if source.evidence_status == EvidenceStatus.DEAD:
        return TombstoneReason.SOURCE_DEAD, None
    if source.evidence_status == EvidenceStatus.SUSPENDED:
        return TombstoneReason.SOURCE_SUSPENDED, None
    current = active.by_passage.get(passage.pk)
    if current is None:
        return TombstoneReason.REMOVED_FROM_PAGE, None
    if current[0] != pv.pk:
        return TombstoneReason.SUPERSEDED, current[0]
    if primary_only and source.priority != Priority.PRIMARY:
        return TombstoneReason.PRIMARY_ONLY, None
    return None, None


def _primary_only() -> bool:
    return SiteSwitch.objects.filter(pk=1, primary_only=True).exists()


# --- cursors: opaque to the bot, "p:<after pv id>:<feed position>", "c:<feed position>" or, for
# the export as of a time, "a:<after period start>:<after period id>:<after pv id>:<feed position>:
# <as_of>" (times in microseconds since 1970) ----


def _encode(kind: str, *values: int) -> str:
    return base64.urlsafe_b64encode(":".join([kind, *map(str, values)]).encode()).decode().rstrip("=")


def _decode(cursor: str, field: str) -> tuple[str, list[int]]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, *values = raw.split(":")
        numbers = [int(v) for v in values]
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{field}: not a cursor this API gave out", field=field) from exc
    if kind not in ("p", "c", "a") or not numbers or any(n < 0 or n > 2**63 - 1 for n in numbers):
        raise InvalidInput(f"{field}: not a cursor this API gave out", field=field)
    return kind, numbers


def feed_position() -> int:
    return ExportChange.objects.aggregate(m=Max("id"))["m"] or 0


def feed_position_at(moment: datetime) -> int:
    """The feed position just before `moment`: changes at or after it are returned."""
    first = ExportChange.objects.filter(at__gte=moment).order_by("id").values_list("id", flat=True).first()
    return (first - 1) if first is not None else feed_position()


def parse_changed_since(value: str) -> int:
    """A cursor given out by this API (`sync_cursor` / `next_cursor`), or an ISO 8601 time."""
    try:
        moment = parse_datetime(value)
    except ValueError as exc:
        raise InvalidInput(f"changed_since: not a valid time ({exc})", field="changed_since") from exc
    if moment is not None:
        if moment.tzinfo is None:
            raise InvalidInput("changed_since: give the time with its UTC offset, e.g. 2026-01-01T00:00:00Z", field="changed_since")
        return feed_position_at(moment)
    kind, numbers = _decode(value, "changed_since")
    return numbers[-1]


def parse_as_of(value: str) -> datetime:
    """An ISO 8601 time with offset that can be replayed (see `as_of_check`)."""
    try:
        moment = parse_datetime(value)
    except ValueError as exc:
        raise InvalidInput(f"as_of: not a valid time ({exc})", field="as_of") from exc
    if moment is None:
        raise InvalidInput("as_of: give an ISO 8601 time with its UTC offset, e.g. 2026-03-03T09:00:00Z", field="as_of")
    return as_of_check(moment)


def _micros(moment: datetime) -> int:
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def _from_micros(value: int) -> datetime:
    return datetime.fromtimestamp(value // 1_000_000, tz=UTC).replace(microsecond=value % 1_000_000)


@dataclass
class ExportPage:
    items: list[dict[str, Any]]
    next_cursor: str | None
    sync_cursor: str
    as_of: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"items": self.items, "next_cursor": self.next_cursor, "sync_cursor": self.sync_cursor}
        if self.as_of is not None:
            body["as_of"] = self.as_of.isoformat()
        return body


ROW_FIELDS = (
    "pk", "passage_id", "text", "fingerprint", "section_heading", "passage__anchor", "passage__heading_path", "passage__source_id",
    "passage__source__canonical_url", "passage__source__domain", "passage__source__title", "passage__source__language",
    "memberships__source_version_id", "memberships__source_version__number",
    # The source's state, last: as of a time it is the state then, from `source_states_then`.
    "passage__source__evidence_status", "passage__source__priority", "passage__source__check_times__last_ok_at",
)
STATE_FIELDS = 3
# As of a time the row query reads no state, and the source's other fields come through the
# activation period's source (`ACTIVE_SOURCE`), read once a period instead of once a row.
AS_OF_ROW_FIELDS = tuple(field.replace("passage__source", ACTIVE_SOURCE, 1) for field in ROW_FIELDS[:-STATE_FIELDS])
SOURCE_ID = ROW_FIELDS.index("passage__source_id")


def _row_object(row: tuple[Any, ...], rules: DomainRules) -> dict[str, Any] | None:
    """The passage object of one export row (None when the rendered URL's domain is blocked)."""
    (pk, passage_id, text, fingerprint, section, anchor, heading_path, source_id, url, domain, title, language,
     version_id, number, evidence, priority, last_ok) = row
    if url_domain(url) in rules.blocked:
        return None
    link = link_for(url=url, source_domain=domain, anchor=anchor, text=text, title=title or domain, section=section, rules=rules)
    return {
        "type": "passage", "passage_version_id": pk, "passage_id": passage_id, "source_id": source_id,
        "source_version_id": version_id, "version_number": number,
        "url": link["href"] if link else None, "page_title": title, "section_heading": section, "heading_path": heading_path,
        "link_text": link["text"] if link else (title or domain), "link_html": link_html(link) or None,
        "text": text, "fingerprint": fingerprint, "fetched_at": last_ok.isoformat() if last_ok else None,
        "approval_state": "approved", "priority": priority, "language": language,
        "evidence_status": "temporarily_unverified" if evidence == EvidenceStatus.TEMPORARILY_UNVERIFIED else "ok",
    }


def _bound(value: int) -> RawSQL:
    """`value` as a one-row subquery, `(SELECT value)`: PostgreSQL plans the query without knowing
    it (a default estimate) and uses it as an index bound when the query runs."""
    return RawSQL("SELECT %s", (value,), output_field=BigIntegerField())


def export_rows(*, after: int) -> QuerySet[PassageVersion]:
    """The passage versions of the full export citable now after the id `after`, not yet ordered
    or limited.

    The bound is given on both sides of the membership join, since PostgreSQL does not carry
    `pk > after` across it and would otherwise merge-join the memberships index from its start
    on every page; and it is given as a subquery (`_bound`), since as two literals the planner
    multiplies their selectivities as if independent: near the end of the keys (the last ~5% at
    600,000 passage versions) it then expects fewer rows than a page, and plans to read and sort
    everything after the cursor (80-90 ms a page instead of 7-11 ms). Planned without the value,
    the estimate is the same on every page and the plan stays an ordered walk of both indexes
    from the cursor, stopped by the LIMIT."""
    return PassageVersion.objects.filter(citable_filter(), pk__gt=_bound(after), memberships__passage_version_id__gt=_bound(after))


def export_page(*, cursor: str | None, limit: int, after: int | None = None, as_of: datetime | None = None) -> ExportPage:
    """One page of the full export: the passages citable now, ordered by passage version id, or
    `as_of` a past moment (exactly what the export gave then, the same rows and fields; the cursor
    carries the moment), ordered by the activation period that made each citable then.
    `sync_cursor` is the feed position when the full sync started (as of a time: at that time):
    pass it as `changed_since` afterwards.

    One query for the rows (plain tuples: no model instances on the hot path), one for the
    domain rules (as of a time, one more for the sources' states then); the membership join of
    `citable_filter` also gives each row its version."""
    period_after: tuple[int, int] | None = None  # as of a time: (start, id) of the last row's period
    if cursor:
        kind, numbers = _decode(cursor, "cursor")
        if kind == "p" and len(numbers) == 2 and as_of is None:
            after, position = numbers
        elif kind == "a" and len(numbers) == 5:
            period_after, after, position = (numbers[0], numbers[1]), numbers[2], numbers[3]
            as_of = as_of_check(_from_micros(numbers[4]), field="cursor")
        else:
            raise InvalidInput("cursor: not a full-export cursor (use changed_since for the change feed)", field="cursor")
    else:
        if after and as_of is not None:
            raise InvalidInput("after: not with as_of (follow next_cursor)", field="after")
        after = after or 0
        position = feed_position() if as_of is None else feed_position_at(as_of)
    if as_of is None:
        rows = list(export_rows(after=after).order_by("pk").values_list(*ROW_FIELDS)[:limit])
        next_cursor = _encode("p", rows[-1][0], position) if len(rows) == limit else None
    else:
        rows = _as_of_rows(as_of, period_after, after, limit)
        next_cursor = None
        if len(rows) == limit:
            # Only the last row's period start goes into the cursor: read it alone, not with every row.
            last_period = rows[-1][-1]
            began = VersionPeriod.objects.filter(pk=last_period).values_list("active_from", flat=True).get()
            next_cursor = _encode("a", _micros(began), last_period, rows[-1][0], position, _micros(as_of))
        # The sources' states then: one query for the page's sources, not three subqueries a row.
        states = source_states_then(as_of, {row[SOURCE_ID] for row in rows})
        rows = [row[:-1] + states[row[SOURCE_ID]] for row in rows]
    rules = DomainRules.load(at=as_of)
    items = [item for item in (_row_object(row, rules) for row in rows) if item is not None]
    return ExportPage(items=items, next_cursor=next_cursor, sync_cursor=_encode("c", position), as_of=as_of)


def _as_of_rows(as_of: datetime, period_after: tuple[int, int] | None, after: int, limit: int) -> list[tuple[Any, ...]]:
    """The next `limit` export rows as of a time (`AS_OF_ROW_FIELDS`), each followed by its
    activation period's id, in the order (period start, period id, passage version id).

    The pages follow the activation periods in force at `as_of`, not the passage version ids:
    read by passage version id, a page had to step over every passage version not citable then
    (halfway through a history, most of the newest ids), so the last pages read tens of
    thousands of rows to fill themselves. By period start, the index on (active_from, id) stops at
    `as_of` (periods that began later are never read) and each period brings its passage versions
    through the memberships index: a page reads its own rows and the periods that had already
    ended by then, and never more. Only periods in force at `as_of` survive citable_filter, and a
    passage version is in one source version of one period at a time, so the key is unique."""
    start, period_id = f"{ACTIVE_PERIOD}__active_from", f"{ACTIVE_PERIOD}__id"
    keyset = Q()
    if period_after is not None:
        # After (start, id, passage version id): from the start on, less what came before it
        # in the same start. Not as (start > s) OR (start = s AND ...): PostgreSQL multiplies
        # that OR's selectivity with the range's as if independent, expects the export's last
        # tenth to hold less than a page, and plans to read and sort all of it on each of those
        # pages (as of now at 10,000 sources: up to 235,000 buffers and 300 ms a page instead
        # of 9,000 and 15 ms). Lookup expressions, not `__lt=`: negated, a lookup across the
        # multi-valued path would become a subquery of its own.
        began, last_period = _from_micros(period_after[0]), period_after[1]
        same_start = Q(Exact(F(start), began))
        keyset = (Q(**{f"{start}__gte": began}) & ~(same_start & Q(LessThan(F(period_id), last_period)))
                  & ~(same_start & Q(Exact(F(period_id), last_period)) & Q(LessThanOrEqual(F("pk"), after))))
    # One filter() call: the keyset and the ordering reuse citable_filter's join to the period.
    query = PassageVersion.objects.filter(citable_filter(at=as_of) & keyset)
    return list(query.order_by(start, period_id, "pk").values_list(*AS_OF_ROW_FIELDS, period_id)[:limit])


def export_changes(*, since: int, limit: int) -> ExportPage:
    """Changes after feed position `since`: the current object of every passage version that
    entered or changed, and a tombstone (reason, replacement) for every one that left."""
    feed = list(ExportChange.objects.filter(id__gt=since).order_by("id").values_list("id", "passage_version_id")[:limit])
    latest: dict[int, int] = {}
    for position, pv_id in feed:
        latest[pv_id] = position  # a version touched twice is reported once, at its last change
    found = PassageVersion.objects.select_related("passage__source__check_times").in_bulk(list(latest))
    rules = DomainRules.load()
    active = _active_info({pv.passage_id for pv in found.values()})
    primary_only = _primary_only()
    items: list[dict[str, Any]] = []
    for pv_id, _position in sorted(latest.items(), key=lambda kv: kv[1]):
        pv = found.get(pv_id)
        if pv is None:
            items.append({"type": "tombstone", "passage_version_id": pv_id, "passage_id": None, "reason": TombstoneReason.DELETED,
                          "replacement_passage_version_id": None})
            continue
        reason, replacement = _tombstone_reason(pv, rules=rules, active=active, primary_only=primary_only)
        if reason is None:
            current = active.by_passage[pv.passage_id]
            items.append(passage_object(pv, rules=rules, version=(current[1], current[2])))
        else:
            items.append({"type": "tombstone", "passage_version_id": pv.pk, "passage_id": pv.passage_id, "reason": reason,
                          "replacement_passage_version_id": replacement})
    end = feed[-1][0] if feed else since
    more = len(feed) == limit
    return ExportPage(items=items, next_cursor=_encode("c", end) if more else None, sync_cursor=_encode("c", end))



# --- what the API may show of an answer -------------------------------------------------------

_BLOCKED_CHANGE = {"blocked": "This evidence is blocked.", "block_lifted": "A block on this evidence was lifted."}


def blocked_passage_version_ids(ids: list[int]) -> set[int]:
    """Of these passage versions, the ones that are blocked now (passage, version, source or domain)."""
    pvs = list(PassageVersion.objects.filter(pk__in=set(ids)).select_related("passage__source"))
    return {pk for pk, state in passage_usabilities(pvs).items() if state == "blocked"}


def _scrub(value: Any, blocked: set[int]) -> Any:
    """A copy of a stored report part where every evidence entry of a blocked passage version
    (the verifier's records name it `passage_id`) keeps its ids and `blocked: true` and loses its
    span and the judge's rationale (which may quote it)."""
    if isinstance(value, list):
        return [_scrub(item, blocked) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: _scrub(item, blocked) for key, item in value.items()}
    pv_id = out.get("passage_id")
    if isinstance(pv_id, int) and pv_id in blocked:
        out.update({"span": None, "rationale": "", "blocked": True, "passage_version_id": pv_id})
    return out


def answer_report_public(report: Any, *, blocked: set[int]) -> Any:
    """The stored verification report as the API shows it: no blocked text."""
    return _scrub(report, blocked) if blocked else report


def answer_trace_public(trace: dict[str, Any]) -> dict[str, Any]:
    """The trace (`claims.selectors.answer_trace`) as the API shows it: a blocked passage version
    keeps its ids and `blocked: true` but no text, span, live-page fragment, judge span or
    rationale; no block's internal reason is shown at all (desk users read it in the desk)."""
    entries = [entry for claim in trace["claims"] for entry in claim["evidence"]]
    ids = [entry["passage_version"]["id"] for entry in entries if entry["passage_version"]]
    blocked = blocked_passage_version_ids(ids) if ids else set()
    for entry in entries:
        pv = entry["passage_version"]
        if pv is None:
            continue
        pv.pop("blocked_reason", None)
        if pv["blocked"] or pv["id"] in blocked:
            pv.update({"blocked": True, "text": "", "span": None, "span_start": None, "span_end": None})
            entry["quote"] = ""
            if entry["source"]:
                entry["source"]["live_url"] = None
            for judgement in entry["judgements"]:
                judgement.update({"span": None, "rationale": ""})
        entry["changes"] = [
            {"kind": change["kind"], "message": _BLOCKED_CHANGE[change["kind"]]} if change["kind"] in _BLOCKED_CHANGE else change
            for change in entry["changes"]
        ]
        if entry.get("at_moment"):
            entry["at_moment"]["blocks"] = [{k: v for k, v in block.items() if k != "reason"} for block in entry["at_moment"]["blocks"]]
    return trace


def export_items_public(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items of the export as of a time as the API gives them: a passage version that was
    citable then but is blocked now keeps its ids and fields, with `blocked_now: true` and no
    text, URL or link (blocked text never leaves through the API; the desk's download and
    `manage.py export_passages --as-of` give the exact replay)."""
    blocked = blocked_passage_version_ids([item["passage_version_id"] for item in items]) if items else set()
    if not blocked:
        return items
    return [
        {**item, "text": "", "url": None, "link_html": None, "blocked_now": True} if item["passage_version_id"] in blocked else item
        for item in items
    ]
