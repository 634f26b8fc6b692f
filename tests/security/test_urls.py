"""Issue 11 items 9 and 10 (pure part): credentials never stored, IPv6 literals kept bracketed."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

import pytest

from citecheck.netguard import NetPolicy, classify_url
from citecheck.urlnorm import InvalidURL, normalize_url, registrable_domain, strip_credentials


def test_ipv6_literals_keep_their_brackets():
    assert normalize_url("http://[2001:DB8::1]/a") == "http://[2001:db8::1]/a"
    assert normalize_url("https://[2001:db8::1]:443/") == "https://[2001:db8::1]/"
    mapped = normalize_url("http://[::ffff:127.77.0.2]:18080/")
    parts = urlsplit(mapped)
    assert mapped.startswith("http://[") and "]:18080/" in mapped
    assert ipaddress.ip_address(parts.hostname) == ipaddress.ip_address("::ffff:127.77.0.2")
    assert parts.port == 18080
    # The normalised form is stable and still passes the guard when its network is opened.
    assert normalize_url(mapped) == mapped
    assert classify_url(mapped, NetPolicy.build("127.77.0.0/16")).ok
    assert registrable_domain("http://[2001:db8::1]/") == "2001:db8::1"
    assert normalize_url("http://[::1]/") == "http://[::1]/"


def test_a_private_ipv6_literal_is_refused_by_the_guard_with_a_clear_reason():
    check = classify_url(normalize_url("http://[::1]/"))
    assert check.verdict == "blocked" and "loopback address ::1" in check.reason
    assert "full domain name" not in check.reason
    assert classify_url("http://[fd00::1]/").verdict == "blocked"


def test_a_malformed_ipv6_literal_is_refused():
    with pytest.raises(InvalidURL):
        normalize_url("http://[::1/")
    with pytest.raises(InvalidURL):
        normalize_url("http://[not-an-ip]/")


def test_credentials_are_stripped_from_the_url():
    assert strip_credentials("https://user:secret@Example.com:8443/x?q=1#f") == "https://Example.com:8443/x?q=1#f"
    assert strip_credentials("https://user@example.com/") == "https://example.com/"
    assert strip_credentials("https://[2001:db8::1]/") == "https://[2001:db8::1]/"
    assert strip_credentials("https://example.com/a@b") == "https://example.com/a@b"
    normalised = normalize_url("https://user:secret@example.com/x")
    assert "secret" not in normalised and normalised == "https://example.com/x"


def test_a_public_ipv6_literal_passes_the_guard_after_normalisation():
    url = normalize_url("https://[2606:4700:4700::1111]/dns")
    assert url == "https://[2606:4700:4700::1111]/dns"
    assert classify_url(url).ok
    assert registrable_domain(url) == "2606:4700:4700::1111"
