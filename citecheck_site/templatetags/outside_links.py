"""`{{ url|outside_link }}` / `{{ url|outside_link:text }}`: the one way pages link outside."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from citecheck.safelinks import outside_link_html

register = template.Library()


@register.filter(name="outside_link")
def outside_link(url: object, text: object = None) -> SafeString:
    """A safe outside link (http/https only, rel="noopener noreferrer nofollow") or plain text."""
    # outside_link_html escapes the URL and the text itself.
    return mark_safe(outside_link_html(url, text))  # noqa: S308
