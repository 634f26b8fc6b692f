"""Safety at connection level: the resolver and socket factory that refuse what the SSRF guard refuses,
whatever address a name resolves to when the connection is made (no DNS rebinding)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from citecheck.linkcheck.model import BLOCK_MARK
from citecheck.netguard import NetPolicy, address_block_reason

# --- connection-level safety ----------------------------------------------------------------


class BlockedAddressError(OSError):
    """Raised inside the connector when the policy refuses an address."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{BLOCK_MARK} {reason}")
        self.reason = reason


class GuardedResolver(AbstractResolver):
    """Resolves with `base` and keeps only addresses the policy allows (for this port)."""

    def __init__(self, policy: NetPolicy, base: AbstractResolver | None = None) -> None:
        self._policy = policy
        self._base = base or aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        answers = await self._base.resolve(host, port, family)
        allowed: list[ResolveResult] = []
        first_reason = ""
        for answer in answers:
            reason = address_block_reason(answer["host"], port, self._policy)
            if reason is None:
                allowed.append(answer)
            elif not first_reason:
                first_reason = reason
        if not allowed:
            raise BlockedAddressError(f"{host} resolves to a refused address: {first_reason}")
        return allowed

    async def close(self) -> None:
        await self._base.close()


def guarded_socket_factory(policy: NetPolicy) -> Callable[[Any], socket.socket]:
    """A socket factory for aiohttp that refuses to open a socket to a refused address.

    It sees the exact address about to be connected to, IP literals included.
    """

    def factory(addr_info: Any) -> socket.socket:
        family, type_, proto, _, sockaddr = addr_info
        reason = address_block_reason(sockaddr[0], sockaddr[1], policy)
        if reason is not None:
            raise BlockedAddressError(reason)
        return socket.socket(family=family, type=type_, proto=proto)

    return factory


def blocked_reason(exc: BaseException) -> str | None:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, BlockedAddressError):
            return current.reason
        os_error = getattr(current, "os_error", None)
        if isinstance(os_error, BlockedAddressError):
            return os_error.reason
        current = current.__cause__ or current.__context__
    text = str(exc)
    if BLOCK_MARK in text:
        return text.split(BLOCK_MARK, 1)[1].strip()
    return None
