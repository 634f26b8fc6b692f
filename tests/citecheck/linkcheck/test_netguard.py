"""URL and address safety rules (no network)."""

from __future__ import annotations

import socket

import pytest

from citecheck.linkcheck import BlockedAddressError, guarded_socket_factory
from citecheck.netguard import NetPolicy, address_block_reason, classify_url, parse_networks

DEFAULT = NetPolicy()
LOOPBACK_OPEN = NetPolicy.build("127.0.0.0/8")


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("http://127.0.0.1/", "loopback"),
        ("http://127.8.9.10:8080/", "loopback"),
        ("http://10.1.2.3/", "private"),
        ("http://172.16.0.1/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://169.254.169.254/latest/meta-data/", "metadata"),
        ("http://169.254.10.1/", "link-local"),
        ("http://100.64.0.1/", "CGNAT"),
        ("http://100.127.255.254/", "CGNAT"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://224.0.0.251/", "multicast"),
        ("http://[::1]/", "loopback"),
        ("http://[::]/", "unspecified"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[fc00::1]/", "unique-local"),
        ("http://[fd12:3456::1]/", "unique-local"),
        ("http://[ff02::1]/", "multicast"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://[::ffff:10.0.0.1]/", "private"),
        ("http://[::ffff:169.254.169.254]/", "metadata"),
        ("http://[64:ff9b::a00:1]/", "private"),  # NAT64 of 10.0.0.1
        ("http://[2002:a9fe:a9fe::]/", "metadata"),  # 6to4 of 169.254.169.254
        ("http://2130706433/", "non-canonical"),  # 127.0.0.1 as one number
        ("http://0x7f.1/", "non-canonical"),
        ("http://localhost/", "loopback"),
        ("http://api.localhost/", "loopback"),
    ],
)
def test_unsafe_addresses_are_blocked_by_default(url: str, needle: str) -> None:
    verdict, reason = classify_url(url, DEFAULT)
    assert verdict == "blocked"
    assert needle in reason


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "gopher://example.com/", "mailto:a@example.com"])
def test_schemes_other_than_http_and_https_are_blocked(url: str) -> None:
    verdict, reason = classify_url(url, LOOPBACK_OPEN)
    assert verdict == "blocked"
    assert "scheme" in reason


@pytest.mark.parametrize("text", ["", "   ", "hello world", "example.com/page", "http://", "https:///path", "http://exa mple.com/", "http://[::1/", "http://example.com:99999/", "http://bad..host/"])
def test_text_that_is_not_a_url_is_invalid(text: str) -> None:
    assert classify_url(text).verdict == "invalid_url"


@pytest.mark.parametrize("url", ["https://example.com/a?b=c#d", "http://8.8.8.8/", "https://[2606:4700:4700::1111]/", "http://EXAMPLE.org:443/", "https://bücher.example/"])
def test_public_urls_pass(url: str) -> None:
    assert classify_url(url) == ("ok", "")


def test_only_ports_80_and_443_unless_configured() -> None:
    assert classify_url("http://example.com:8080/").verdict == "blocked"
    assert classify_url("http://8.8.8.8:22/") == ("blocked", "port 22 is not allowed")
    assert classify_url("http://example.com:8080/", NetPolicy.build(allowed_ports="80,443,8080")).ok


def test_allowed_network_opens_any_port_but_nothing_else() -> None:
    policy = NetPolicy.build("127.0.0.0/8")
    assert classify_url("http://127.0.0.1:5000/", policy).ok
    assert classify_url("http://127.0.0.9:1/", policy).ok
    assert classify_url("http://localhost:8000/", policy).ok
    assert classify_url("http://[::ffff:127.0.0.1]:5000/", policy).ok  # the same address, IPv4-mapped
    for still_blocked in ("http://[::1]:5000/", "http://10.0.0.1/", "http://169.254.169.254/", "http://192.168.0.1/", "http://[2002:7f00:1::]/"):
        assert classify_url(still_blocked, policy).verdict == "blocked", still_blocked
    # A public address outside the opened network keeps the port rule.
    assert address_block_reason("8.8.8.8", 5000, policy) == "port 5000 is not allowed"


def test_address_checks_see_through_ipv4_mapped_ipv6() -> None:
    assert "loopback" in (address_block_reason("::ffff:127.0.0.1", 80, DEFAULT) or "")
    assert "loopback" in (address_block_reason("::ffff:7f00:1", 80, DEFAULT) or "")
    assert address_block_reason("::ffff:8.8.8.8", 80, DEFAULT) is None
    assert address_block_reason("fe80::1%eth0", 80, DEFAULT) is not None


def test_allow_networks_setting_is_parsed_from_comma_separated_text() -> None:
    networks = parse_networks(" 127.0.0.0/8, 192.0.2.0/24 ,, ")
    assert [str(n) for n in networks] == ["127.0.0.0/8", "192.0.2.0/24"]
    assert parse_networks("") == ()
    assert parse_networks(None) == ()
    with pytest.raises(ValueError):
        parse_networks("not-a-network")


def test_credentials_in_url_are_refused() -> None:
    assert classify_url("http://user:secret@example.com/").verdict == "blocked"


def test_socket_factory_refuses_a_blocked_address_at_connect_time() -> None:
    factory = guarded_socket_factory(LOOPBACK_OPEN)
    with pytest.raises(BlockedAddressError, match="private"):
        factory((socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.1", 80)))
    with pytest.raises(BlockedAddressError, match="loopback"):
        factory((socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", 80, 0, 0)))
    sock = factory((socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 80)))
    sock.close()
