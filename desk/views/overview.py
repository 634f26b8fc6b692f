"""The desk's overview page: the health of the knowledge base at a glance.

Three server-rendered SVG charts (no JavaScript), each with a table of the same numbers: link
states over time, verification rate over time, and the queue by category and age. The view only
turns the selectors' numbers into rectangle geometry; the template draws them (auto-escaped).
"""

from __future__ import annotations

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from desk.charts import AGE_COLOURS, BAR_STEP, STATE_COLOURS, link_state_bars, queue_bars, rate_bars
from reviews.selectors.overview import AGE_BUCKETS, queue_by_category, verification_rate_by_day
from sources.selectors import link_health_summary


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
    return TemplateResponse(request, "desk/overview.html", context)
