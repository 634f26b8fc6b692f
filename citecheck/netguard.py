"""URL and address safety for every outgoing request (SSRF rules).

Only http and https, only ports 80 and 443 unless configured, and never an address that is
private, loopback, link-local (cloud metadata included), multicast, reserved, unspecified,
CGNAT, or an IPv6 form of any of these (IPv4-mapped, 6to4, NAT64 included). Networks listed in
`NetPolicy.allow_networks` are opened on any port; everything else stays refused.

`classify_url` judges the text of a URL. It cannot see where a host name resolves to, so the
HTTP client must also check every address it actually connects to (`address_block_reason`);
`citecheck.linkcheck` does that in its resolver and socket factory.

Pure module: standard library only, no Django.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal, NamedTuple
from urllib.parse import SplitResult, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
UrlVerdict = Literal["ok", "blocked", "invalid_url"]

ALLOWED_SCHEMES = frozenset({"http", "https"})
DEFAULT_PORTS = {"http": 80, "https": 443}
DEFAULT_ALLOWED_PORTS = frozenset({80, 443})

# Special-purpose blocks that `ipaddress` does not flag the way we need (or flags only through
# the catch-all `is_global`); named so that the refusal reason says what was hit.
_CGNAT = ipaddress.ip_network("100.64.0.0/10")
_METADATA = frozenset(
    {ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254")}
)
_UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")

_SPACE_OR_CONTROL_RE = re.compile(r"[\s\x00-\x1f\x7f]")
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*$")
# Host names as DNS allows them (IDNA text is accepted and checked by the encoder below).
_LABEL_RE = re.compile(r"^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)$")
# Forms like 2130706433, 0x7f.1 or 127.1 that inet_aton would turn into an address.
_LEGACY_IPV4_RE = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+)){0,3}\.?$", re.I)
_LOCALHOST_NAMES = ("localhost", "localhost.localdomain")


@dataclass(frozen=True)
class NetPolicy:
    """Where outgoing requests may go. Build from settings with `NetPolicy.build`."""

    allow_networks: tuple[IPNetwork, ...] = ()
    allowed_ports: frozenset[int] = field(default=DEFAULT_ALLOWED_PORTS)

    @classmethod
    def build(
        cls,
        allow_networks: str | Iterable[str | IPNetwork] | None = None,
        allowed_ports: str | Iterable[int | str] | None = None,
    ) -> NetPolicy:
        """Parse settings values: comma-separated text or lists. Raises ValueError on bad input."""
        ports = DEFAULT_ALLOWED_PORTS if allowed_ports is None else parse_ports(allowed_ports)
        return cls(allow_networks=parse_networks(allow_networks), allowed_ports=ports)


class UrlCheck(NamedTuple):
    verdict: UrlVerdict
    reason: str

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


_OK = UrlCheck("ok", "")


def parse_networks(value: str | Iterable[str | IPNetwork] | None) -> tuple[IPNetwork, ...]:
    """`"127.0.0.0/8, 192.0.2.0/24"` or a list of CIDRs -> networks. Raises ValueError."""
    if value is None:
        return ()
    items: Iterable[str | IPNetwork] = value.split(",") if isinstance(value, str) else value
    networks: list[IPNetwork] = []
    for item in items:
        if isinstance(item, ipaddress.IPv4Network | ipaddress.IPv6Network):
            networks.append(item)
            continue
        text = item.strip()
        if text:
            networks.append(ipaddress.ip_network(text, strict=False))
    return tuple(networks)


def parse_ports(value: str | Iterable[int | str]) -> frozenset[int]:
    items: Iterable[int | str] = value.split(",") if isinstance(value, str) else value
    ports: set[int] = set()
    for item in items:
        if isinstance(item, str):
            item = item.strip()
            if not item:
                continue
        port = int(item)
        if not 0 < port < 65536:
            raise ValueError(f"port out of range: {port}")
        ports.add(port)
    return frozenset(ports)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address stands for (mapped, 6to4, NAT64, compatible)."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64 or ip in _NAT64_LOCAL:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _unsafe_kind(ip: IPAddress) -> str | None:
    """Why an address is never fetched by default, or None for a public address."""
    if ip in _METADATA:
        return "cloud metadata address"
    if ip.is_unspecified:
        return "unspecified address"
    if ip.is_loopback:
        return "loopback address"
    if ip.is_link_local:
        return "link-local address"
    if ip.is_multicast:
        return "multicast address"
    if isinstance(ip, ipaddress.IPv4Address) and ip in _CGNAT:
        return "CGNAT (shared) address"
    if isinstance(ip, ipaddress.IPv6Address) and ip in _UNIQUE_LOCAL:
        return "unique-local address"
    if ip.is_private:
        return "private address"
    if ip.is_reserved:
        return "reserved address"
    if not ip.is_global:
        return "not a globally routable address"
    return None


def address_block_reason(
    address: str | IPAddress, port: int | None, policy: NetPolicy
) -> str | None:
    """None if `address:port` may be connected to, else why not.

    IPv6 forms that carry an IPv4 address (mapped, 6to4, NAT64) are judged by that IPv4
    address as well, so ::ffff:127.0.0.1 is loopback. A zone index (fe80::1%eth0) is ignored.
    """
    if isinstance(address, str):
        try:
            ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return f"not an IP address: {address!r}"
    else:
        ip = address
    candidates: list[IPAddress] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if ip.ipv4_mapped is not None:
            candidates = [ip.ipv4_mapped]  # ::ffff:a.b.c.d is a.b.c.d on a dual-stack socket
        elif embedded is not None:
            candidates.insert(0, embedded)
    # Only an IPv4-mapped address really reaches its IPv4 address from this host (6to4 and
    # NAT64 go through a gateway), so only it may be opened through an IPv4 network.
    openable: list[IPAddress] = [ip]
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        openable.append(ip.ipv4_mapped)
    for candidate in openable:
        if any(candidate in net for net in policy.allow_networks):
            # An explicitly opened network is open on any port (tests, the offline demo).
            return None
    for candidate in candidates:
        kind = _unsafe_kind(candidate)
        if kind is not None:
            shown = f"{ip} ({candidate})" if candidate != ip else str(ip)
            return f"{kind} {shown} is not allowed"
    if port is not None and port not in policy.allowed_ports:
        return f"port {port} is not allowed"
    return None


def _split(url: str) -> SplitResult | UrlCheck:
    text = url.strip()
    if not text or _SPACE_OR_CONTROL_RE.search(text):
        return UrlCheck("invalid_url", "not a URL: empty or contains spaces or control characters")
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        return UrlCheck("invalid_url", f"not a URL: {exc}")
    if not parts.scheme or not _SCHEME_RE.match(parts.scheme) or ":" not in text:
        return UrlCheck("invalid_url", "not a URL: no scheme (expected http:// or https://)")
    return parts


def _check_host(host: str) -> UrlCheck | IPAddress | None:
    """An IP literal, None for a valid host name, or a refusal."""
    if host.startswith("["):
        return UrlCheck("invalid_url", "not a URL: malformed IPv6 literal")
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    if _LEGACY_IPV4_RE.match(host):
        return UrlCheck("blocked", f"non-canonical numeric host {host!r} is not allowed")
    name = host[:-1] if host.endswith(".") else host
    try:
        ascii_name = name.encode("idna").decode("ascii")
    except UnicodeError:
        return UrlCheck("invalid_url", f"not a URL: bad host name {host!r}")
    labels = ascii_name.split(".")
    if not ascii_name or len(ascii_name) > 253 or not all(_LABEL_RE.match(lb) for lb in labels):
        return UrlCheck("invalid_url", f"not a URL: bad host name {host!r}")
    return None


def classify_url(url: str, policy: NetPolicy | None = None) -> UrlCheck:
    """Judge a URL's text: `("ok", "")`, `("blocked", reason)` or `("invalid_url", reason)`.

    `blocked` covers any scheme other than http/https (file:, ftp:, javascript:), credentials in
    the URL, IP literals outside the policy, `localhost` names and disallowed ports. A host name
    passes here; the addresses it resolves to are checked at connection time.
    """
    policy = policy or NetPolicy()
    parts = _split(url)
    if isinstance(parts, UrlCheck):
        return parts
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        return UrlCheck("blocked", f"scheme {scheme!r} is not allowed (only http and https)")
    try:
        host = parts.hostname
        port = parts.port
    except ValueError as exc:
        return UrlCheck("invalid_url", f"not a URL: {exc}")
    if not host:
        return UrlCheck("invalid_url", "not a URL: no host")
    if parts.username is not None or parts.password is not None:
        return UrlCheck("blocked", "credentials in URLs are not allowed")
    if port == 0:
        return UrlCheck("invalid_url", "not a URL: port 0")
    return _host_verdict(host, port if port is not None else DEFAULT_PORTS[scheme], policy)


@functools.lru_cache(maxsize=4096)
def _host_verdict(host: str, port: int, policy: NetPolicy) -> UrlCheck:
    """The host part of `classify_url`, cached: a batch names the same hosts again and again."""
    literal = _check_host(host)
    if isinstance(literal, UrlCheck):
        return literal
    if literal is None and (host.rstrip(".") in _LOCALHOST_NAMES or host.rstrip(".").endswith(".localhost")):
        # RFC 6761: these names always mean the machine itself; judge them as 127.0.0.1.
        literal = ipaddress.IPv4Address("127.0.0.1")
    if literal is not None:
        reason = address_block_reason(literal, port, policy)
        return UrlCheck("blocked", reason) if reason else _OK
    if port not in policy.allowed_ports and not policy.allow_networks:
        # With opened networks the port may still be fine: decided at connection time.
        return UrlCheck("blocked", f"port {port} is not allowed")
    return _OK


def url_host(url: str) -> str:
    """Lower-case host of a URL ('' if none): the key for per-host limits."""
    try:
        return (urlsplit(url.strip()).hostname or "").rstrip(".")
    except ValueError:
        return ""
