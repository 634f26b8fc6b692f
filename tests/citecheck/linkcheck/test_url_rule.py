"""The registry's URL rule (blocked domains) is applied like the SSRF guard: to the first URL and
to every redirect target, before any request to it."""

from __future__ import annotations

import dataclasses
from urllib.parse import quote

from citecheck.linkcheck import LinkState, blocked_domains_rule, check_url


def test_a_redirect_onto_a_blocked_domain_is_refused_before_it_is_requested(server, config):
    rule = blocked_domains_rule({"blocked.example": "hostile", "127.0.0.9": ""})
    ruled = dataclasses.replace(config, url_rule=rule)
    target = "http://www.blocked.example/page"  # never resolved: refused before DNS
    result = check_url(server.url("/redirect-to?target=" + quote(target, safe="")), ruled)
    assert result.state is LinkState.BLOCKED
    assert result.error == f"redirect to {target}: domain blocked.example is blocked (hostile)"
    assert [hop.status for hop in result.redirects] == [302]

    first = check_url("http://127.0.0.9:1/x", ruled)
    assert (first.state, first.error, first.status_code) == (LinkState.BLOCKED, "domain 127.0.0.9 is blocked", None)
    # Other hops pass as before.
    assert check_url(server.url("/perm1"), ruled).state is LinkState.REDIRECT_PERMANENT
    assert check_url(server.url("/perm1"), config).state is LinkState.REDIRECT_PERMANENT
