"""Requests this server sends to URLs its users gave it (webhooks): the SSRF rules in one place.

- `https` only, unless the server runs for local development (`WODI_PUBLIC_BASE_URL` on localhost);
- at registration, a host that resolves to any loopback, private, link-local, metadata or otherwise non-global
  address is refused, unless `WODI_WEBHOOK_ALLOW_PRIVATE` allows it;
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


def _refuse(message: str, address: str | None = None) -> ApiError:
    if address is None:
        return ApiError("invalid_webhook_url", message, field="url")
    return ApiError("invalid_webhook_url", message, field="url", address=address)


def is_forbidden(address: IPAddress, allow_private: bool) -> bool:
    """Metadata addresses always; any other non-global address unless `allow_private`."""
    mapped = getattr(address, "ipv4_mapped", None)
    address = mapped or address
    if address in METADATA:
        return True
    return not allow_private and not address.is_global


async def check_url(url: str, settings: Settings) -> str:
    """The URL as it will be called, or 422 `invalid_webhook_url` saying why it is refused."""
    url = url.strip()
    if len(url) > MAX_URL:
        raise _refuse(f"the URL is longer than {MAX_URL} characters")
    parts = urlsplit(url)
    allowed = ("https", "http") if settings.is_local else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise _refuse("the URL must be https://host/… (plain http only for a server in local development)")
    if parts.username or parts.password:
        raise _refuse("the URL must not carry credentials; use the signature to authenticate deliveries")
    for address in await _resolve(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)):
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
    except OSError as exc:
        raise _refuse(f"cannot resolve {host}: {exc}") from None
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
