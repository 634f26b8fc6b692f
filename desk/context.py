"""Context for every page: the incident banner while a global switch is on."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from reviews.selectors.degraded import site_switch_state


def desk_banner(request: HttpRequest) -> dict[str, Any]:
    """Lazy: the query runs only on pages whose template shows the banner."""

    return {"incident_switches": SimpleLazyObject(site_switch_state)}
