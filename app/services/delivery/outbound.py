"""Requests this server sends to URLs its users gave it (webhooks): the SSRF rules in one place.

- `https` only, unless the server runs for local development (`WODI_PUBLIC_BASE_URL` on localhost);
- a URL that cannot be parsed (a port out of 0–65535, an unclosed IPv6 bracket, an empty or over-long DNS label)
  is refused like any other bad URL, never a 500;
- at registration, a host that resolves to any loopback, private, link-local, metadata or otherwise non-global
  address is refused, unless `WODI_WEBHOOK_ALLOW_PRIVATE` allows it; an IPv6 address that embeds an IPv4 one
  (IPv4-mapped or -translated, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4) is judged by the IPv4 address it
  embeds too, and the local-use NAT64 prefix `64:ff9b:1::/48` is refused outright;
- when sending, `httpx-secure` checks the address each new connection goes to and connects to exactly that
  address (so a DNS answer that changes after the check, or a redirect, cannot reach a private host); cloud metadata
  addresses stay refused even with the setting;
- redirects are never followed; timeouts and the response size are bounded.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from urllib.parse import urlsplit

import httpx
from httpx_secure import httpx_ssrf_protection

from app.protocol.errors import ApiError
from app.settings import Settings

MAX_URL = 2048
MAX_RESPONSE_BYTES = 64 * 1024
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# Instance-metadata endpoints (AWS, GCP, Azure, OpenStack on 169.254.169.254; AWS IPv6; Alibaba): never reachable.
METADATA = frozenset(ipaddress.ip_address(a) for a in ("169.254.169.254", "fd00:ec2::254", "100.100.100.200"))
# IPv6 prefixes whose low 32 bits are an IPv4 address a translator or tunnel may carry the packet to:
# IPv4-compatible (RFC 4291, deprecated), IPv4-translated (RFC 2765), well-known NAT64 (RFC 6052).
EMBED_LOW_32 = tuple(ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96"))
# Local-use NAT64 (RFC 8215): the IPv4 address may sit at several offsets; a webhook has no business there.
REFUSED_V6 = (ipaddress.ip_network("64:ff9b:1::/48"),)
MAX_LABEL, MAX_HOST = 63, 253


def _refuse(message: str, address: str | None = None) -> ApiError:
    if address is None:
        return ApiError("invalid_webhook_url", message, field="url")
    return ApiError("invalid_webhook_url", message, field="url", address=address)


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 spelling carries (mapped, translated, compatible, NAT64, 6to4), if any."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if any(address in network for network in EMBED_LOW_32) and int(address) & 0xFFFFFFFF:
        if address in EMBED_LOW_32[0] and int(address) <= 1:  # "::" and "::1" are IPv6's own
            return None
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _forbidden_one(address: IPAddress, allow_private: bool) -> bool:
    if address in METADATA:
        return True
    return not allow_private and not address.is_global


def is_forbidden(address: IPAddress, allow_private: bool) -> bool:
    """Metadata addresses always; any other non-global address unless `allow_private`; an IPv6 address that
    embeds an IPv4 one is judged by both; local-use NAT64 always."""
    if isinstance(address, ipaddress.IPv6Address) and any(address in network for network in REFUSED_V6):
        return True
    embedded = embedded_ipv4(address)
    if embedded is not None and _forbidden_one(embedded, allow_private):
        return True
    return _forbidden_one(address, allow_private)


def _check_host(host: str) -> None:
    """A DNS name with an empty or over-long label would fail inside the resolver's IDNA codec."""
    if host.startswith("[") or ":" in host:
        return
    name = host[:-1] if host.endswith(".") else host
    labels = name.split(".")
    if len(name) > MAX_HOST or any(not 0 < len(label) <= MAX_LABEL for label in labels):
        raise _refuse(f"{host[:80]} is not a valid host name (each label 1–{MAX_LABEL} characters, "
                      f"{MAX_HOST} in all)")


async def check_url(url: str, settings: Settings) -> str:
    """The URL as it will be called, or 422 `invalid_webhook_url` saying why it is refused."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise _refuse(f"the URL is longer than {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:  # "Port out of range", "Invalid IPv6 URL", a port that is not a number
        raise _refuse(f"the URL cannot be parsed: {exc}") from None
    allowed = ("https", "http") if settings.is_local else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise _refuse("the URL must be https://host/… (plain http only for a server in local development)")
    if parts.username or parts.password:
        raise _refuse("the URL must not carry credentials; use the signature to authenticate deliveries")
    if port == 0:
        raise _refuse("the URL's port must be between 1 and 65535")
    _check_host(parts.hostname)
    for address in await _resolve(parts.hostname, port or (443 if parts.scheme == "https" else 80)):
        if is_forbidden(address, settings.webhook_allow_private):
            raise _refuse(f"{parts.hostname} resolves to {address}, a loopback, private, link-local or metadata "
                          "address; this server does not call those", address=str(address))
    return url


async def _resolve(host: str, port: int) -> list[IPAddress]:
    try:
        return [ipaddress.ip_address(host.strip("[]"))]
    except ValueError:
        pass
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise _refuse(f"cannot resolve {host[:80]}: {exc}") from None
    # A scoped IPv6 address ("fe80::1%eth0") carries its zone after "%".
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def client(settings: Settings) -> httpx.AsyncClient:
    """The client every delivery goes through: no redirects, no proxies from the environment, bounded timeouts,
    and each connection's address checked as it is made."""
    timeout = httpx.Timeout(settings.webhook_timeout, connect=min(5.0, settings.webhook_timeout))
    http = httpx.AsyncClient(follow_redirects=False, trust_env=False, timeout=timeout,
                             limits=httpx.Limits(max_connections=50, max_keepalive_connections=10))
    allow_private = settings.webhook_allow_private

    def admit(_host: str, address: IPAddress, _port: int) -> bool:
        return not is_forbidden(address, allow_private)

    return httpx_ssrf_protection(http, check_globally_reachable=False, custom_validator=admit)


async def post_bounded(http: httpx.AsyncClient, url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    """POST and read at most `MAX_RESPONSE_BYTES` of the answer; returns (status, the start of the body)."""
    async with http.stream("POST", url, content=body, headers=headers) as response:
        received = b""
        async for chunk in response.aiter_raw():
            received += chunk
            if len(received) >= MAX_RESPONSE_BYTES:
                break
        return response.status_code, received[:500].decode("utf-8", "replace")
