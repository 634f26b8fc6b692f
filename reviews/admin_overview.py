"""The desk's overview page: the health of the knowledge base at a glance.

Three server-rendered SVG charts (no JavaScript), each with a table of the same numbers: link
states over time, verification rate over time, and the queue by category and age. The view only
turns the selectors' numbers into rectangle geometry; the template draws them (auto-escaped).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from reviews.overview import AGE_BUCKETS, QueueRow, RateDay, queue_by_category, verification_rate_by_day
from sources.selectors import LinkHealth, link_health_summary
from sources.views import STATE_COLOURS

AGE_COLOURS = ("#8fb3de", "#d98b00", "#ba2121")
CHART_HEIGHT = 120.0
BAR_STEP = 28


def link_state_bars(summary: LinkHealth) -> list[dict[str, Any]]:
    """Stacked bars, one per day: rectangles in SVG units (numbers only)."""
    tallest = max([total for _, _, total in summary.days] + [1])
    bars = []
    for index, (day, counts, total) in enumerate(summary.days):
        y = CHART_HEIGHT
        segments = []
        for state, label, count in zip(summary.states, summary.labels, counts, strict=True):
            if count:
                height = (CHART_HEIGHT - 10) * count / tallest
                y -= height
                segments.append({"y": round(y, 1), "height": round(height, 1), "colour": STATE_COLOURS.get(state, "#999"),
                                 "title": f"{day:%Y-%m-%d}: {count} {label}"})
        bars.append({"x": 10 + index * BAR_STEP, "segments": segments, "label": f"{day:%d}", "total": total})
    return bars


def rate_bars(days: list[RateDay]) -> list[dict[str, Any]]:
    bars = []
    for index, day in enumerate(days):
        rate = day.rate
        height = round((CHART_HEIGHT - 10) * rate, 1) if rate is not None else 0.0
        bars.append({
            "x": 10 + index * BAR_STEP, "y": round(CHART_HEIGHT - height, 1), "height": height, "label": f"{day.day:%d}",
            "title": f"{day.day:%Y-%m-%d}: " + (f"{rate:.0%} of {day.total} verified answers supported" if rate is not None else "no answer verified"),
        })
    return bars


def queue_bars(rows: list[QueueRow], width: float = 300.0) -> list[dict[str, Any]]:
    """Horizontal stacked bars, one per category, split by age."""
    widest = max([row.total for row in rows] + [1])
    out = []
    for index, row in enumerate(rows):
        x = 0.0
        segments = []
        for (_, age_label), colour, count in zip(AGE_BUCKETS, AGE_COLOURS, row.ages, strict=True):
            if count:
                w = width * count / widest
                segments.append({"x": round(x, 1), "width": round(w, 1), "colour": colour, "title": f"{row.label}: {count} waiting {age_label}"})
                x += w
        out.append({"y": index * 22, "segments": segments, "total": row.total})
    return out


def overview_view(request: HttpRequest, *, site: admin.AdminSite) -> HttpResponse:
    if not request.user.has_perm("sources.view_source"):
        raise PermissionDenied
    health = link_health_summary(days=14)
    rates = verification_rate_by_day(days=14)
    queue = queue_by_category()
    context = {
        **site.each_context(request), "title": "Overview",
        "health": health, "health_bars": link_state_bars(health),
        "legend": [(label, STATE_COLOURS.get(state, "#999")) for state, label in zip(health.states, health.labels, strict=True)],
        "rates": rates, "rate_bars": rate_bars(rates),
        "queue": queue, "queue_bars": list(zip(queue, queue_bars(queue), strict=True)), "queue_height": 22 * len(queue) + 4,
        "age_buckets": [(label, colour) for (_, label), colour in zip(AGE_BUCKETS, AGE_COLOURS, strict=True)],
        "chart_width": 20 + BAR_STEP * 14,
    }
    return TemplateResponse(request, "admin/desk/overview.html", context)
