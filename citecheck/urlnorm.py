"""URL normalisation and registrable domains (no Django, no network).

`normalize_url` gives the key under which a source is unique: scheme and host lower-cased,
IDN hosts in punycode, IPv6 literals compressed and kept in brackets, credentials
(`user:password@`), default ports and fragments dropped, tracking parameters removed, the
remaining query kept in its order. The registrable domain uses the public-suffix list
bundled with tldextract (never fetched), so news.bbc.co.uk and www.bbc.co.uk are one domain.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

import tldextract

TRACKING_PARAMS = frozenset(
    {"fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "mc_cid", "mc_eid", "yclid", "igshid", "_hsenc", "_hsmi", "ref_src"}
)
DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidURL(ValueError):
    """Text that is not an http(s) URL; the message says why."""


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    # suffix_list_urls=() means: use the snapshot shipped inside the package, never the network.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("utm_") or lowered in TRACKING_PARAMS


def _ipv6_literal(host: str) -> str | None:
    """The compressed text of an IPv6 literal (brackets off, zone index kept), else None."""
    bare = host.strip().lower()
    if bare.startswith("[") and bare.endswith("]"):
        bare = bare[1:-1]
    address, _, zone = bare.partition("%")
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        return None
    return f"{ip.compressed}%{zone}" if zone else ip.compressed


def strip_credentials(url: str) -> str:
    """`url` without a `user:password@` part (the rest unchanged, as text)."""
    text = url.strip()
    try:
        parts = urlsplit(text)
    except ValueError:
        return text
    if "@" not in parts.netloc:
        return text
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def _host_to_ascii(host: str) -> str:
    host = host.strip().rstrip(".").lower()
    if not host:
        raise InvalidURL("the URL has no host")
    ipv6 = _ipv6_literal(host)
    if ipv6 is not None:
        return f"[{ipv6}]"
    if host.startswith("[") or ":" in host:
        raise InvalidURL(f"the host {host!r} is not a valid IPv6 address")
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise InvalidURL(f"the host {host!r} is not a valid domain name") from exc


def normalize_url(url: str) -> str:
    """The canonical form of an http(s) URL; raises InvalidURL for anything else."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidURL("the URL is empty")
    text = url.strip()
    if any(ch in text for ch in " \t\r\n"):
        raise InvalidURL("a URL may not contain spaces or line breaks")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidURL(f"not a URL: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS:
        raise InvalidURL(f"only http and https URLs can be sources (got {scheme or 'no scheme'!r})")
    # Python's `hostname` drops the brackets of an IPv6 literal; `_host_to_ascii` puts them back.
    host = _host_to_ascii(parts.hostname or "")
    if "." not in host and not host.startswith("[") and host != "localhost":
        raise InvalidURL(f"the host {host!r} is not a full domain name")
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    path = quote(unquote(parts.path or "/"), safe="/:@!$&'()*+,;=-._~%")
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not _is_tracking(k)])
    return urlunsplit((scheme, netloc, path, query, ""))


def registrable_domain(url_or_host: str) -> str:
    """example.co.uk for https://news.example.co.uk/x; the bare host for IPs and unknown suffixes."""
    host = url_or_host
    if "://" in url_or_host:
        host = urlsplit(url_or_host).hostname or ""
    return _registrable_host(host)


@lru_cache(maxsize=65536)
def _registrable_host(host: str) -> str:
    """`registrable_domain` of a bare host, cached: exports and checks ask for the same hosts."""
    ipv6 = _ipv6_literal(host)
    if ipv6 is not None:
        return ipv6
    host = host.strip("[]").rstrip(".").lower()
    if host and not host[0].isdigit():
        host = _host_to_ascii(host)
    result = _extractor()(host)
    if result.domain and result.suffix:
        return f"{result.domain}.{result.suffix}"
    return host
