"""Chart geometry for the desk's reading pages: the selectors' numbers turned into SVG
rectangles (numbers only; the templates draw them, auto-escaped), and one colour per link state."""

from __future__ import annotations

from typing import Any

from reviews.selectors.overview import AGE_BUCKETS, QueueRow, RateDay
from sources.selectors import LinkHealth

# One colour per state for the chart; the table next to it carries the same numbers in words.
STATE_COLOURS = {
    "ok": "#2a7a2a", "redirect_permanent": "#4a7bb7", "redirect_temporary": "#8fb3de", "not_found": "#ba2121",
    "gone": "#7a1010", "rate_limited": "#d98b00", "server_error": "#e0a030", "client_error": "#b05ca0",
    "timeout": "#8a8a8a", "connection_error": "#5a5a5a", "redirect_loop": "#6a3d9a", "too_large": "#b15928",
    "blocked": "#000000", "invalid_url": "#cab2d6",
}

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
