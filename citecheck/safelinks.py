"""Links to outside pages: the one rule every page of Citecheck renders them by.

Only http and https URLs with a host become links, never with credentials in them, and always
with `rel="noopener noreferrer nofollow"`; anything else is shown as text. Pure module (standard
library only): the Django side wraps `outside_link_html` in a template filter and uses it in the
admin for every URL field.
"""

from __future__ import annotations

import html
import re
from urllib.parse import urlsplit

from citecheck.urlnorm import strip_credentials

LINK_REL = "noopener noreferrer nofollow"
SAFE_SCHEMES = frozenset({"http", "https"})
_UNSAFE_CHARS = re.compile(r'[\s\x00-\x1f\x7f<>"`\\]')


def safe_href(url: object) -> str | None:
    """The URL to put in an href (credentials stripped), or None when it may not be a link."""
    if not isinstance(url, str):
        return None
    text = strip_credentials(url.strip())
    if not text or _UNSAFE_CHARS.search(text):
        return None
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError:
        return None
    if parts.scheme.lower() not in SAFE_SCHEMES or not parts.hostname:
        return None
    return text


def outside_link_html(url: object, text: object = None) -> str:
    """`<a href=… rel="noopener noreferrer nofollow">text</a>` for a safe URL, else the escaped
    text (or the URL without its credentials) alone. Everything shown is escaped here."""
    href = safe_href(url)
    shown = text if text not in (None, "") else (strip_credentials(url) if isinstance(url, str) else url)
    label = html.escape("" if shown is None else str(shown))
    if href is None:
        return label
    return f'<a href="{html.escape(href)}" rel="{LINK_REL}">{label}</a>'
