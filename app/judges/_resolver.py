"""The address check on every connection to a tenant's model: DNS answers the model policy
refuses are never connected to.

A tenant's base URL is checked at registration and before each job, but a name can answer
differently a moment later (DNS rebinding). The judge client's connector resolves through
`PolicyResolver`, which checks every answer of every lookup against the operator's model
policy (`LOUPE_MODEL_ALLOW`), so the connection goes to an address that was just checked.
aiohttp keeps the URL's host for the Host header, TLS SNI and certificate checks.
"""

import socket

from aiohttp.abc import AbstractResolver, ResolveResult

from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    InvalidHost,
    ResolveTimeout,
    parse_ip_host,
    resolve,
)

_NUMERIC = socket.AI_NUMERICHOST | socket.AI_NUMERICSERV


class AddressRefused(BlockedAddress):
    """A tenant's model host is, or now resolves to, an address its policy does not allow."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"not allowed by the model policy: {reason}")
        self.host = host


def check_literal(policy: AddressPolicy, host: str) -> None:
    """Raise AddressRefused when `host` spells an address `policy` refuses (aiohttp connects
    to IP literals without asking its resolver); names are checked by `PolicyResolver`."""
    try:
        address = parse_ip_host(host)
    except InvalidHost as exc:
        raise AddressRefused(host, str(exc)) from exc
    if address is None:
        return
    try:
        policy.check(host, [address])
    except BlockedAddress as exc:
        raise AddressRefused(host, str(exc)) from exc


class PolicyResolver(AbstractResolver):
    """Resolves a name and refuses it unless every address it answers is allowed."""

    def __init__(self, policy: AddressPolicy, timeout: float) -> None:
        self.policy = policy
        self.timeout = timeout

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        try:
            addresses = await resolve(host, port, self.policy, self.timeout)
        except ResolveTimeout as exc:
            # Retried and reported as the endpoint's timeout, as a slow connection would be.
            raise TimeoutError(str(exc)) from exc
        except BlockedAddress as exc:
            if isinstance(exc.__cause__, OSError):
                # No answer at all: aiohttp reports it as a DNS failure (`<role>_dns`).
                raise exc.__cause__ from exc
            raise AddressRefused(host, str(exc)) from exc
        wanted = {socket.AF_INET: 4, socket.AF_INET6: 6}.get(family)
        return [
            ResolveResult(
                hostname=host,
                host=str(address),
                port=port,
                family=socket.AF_INET if address.version == 4 else socket.AF_INET6,
                proto=socket.IPPROTO_TCP,
                flags=_NUMERIC,
            )
            for address in addresses
            if wanted is None or address.version == wanted
        ]

    async def close(self) -> None:
        pass


def refusal_in(error: BaseException) -> AddressRefused | None:
    """The AddressRefused behind a failed request (the SDK wraps it), if that was the cause."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, AddressRefused):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None
