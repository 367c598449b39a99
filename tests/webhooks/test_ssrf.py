"""The outbound rules: https only outside local development, no private or metadata destinations without the
operator's setting (checked at registration and again on each connection), no redirects followed."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from httpx_secure import SSRFProtectionError

from app.main import create_app
from app.services.delivery import outbound
from tests.api.helpers import assert_error, bearer, register
from tests.conftest import RecordingClient, _wipe, make_settings
from tests.webhooks.receiver import Receiver


async def _app_client(database_url: str, **settings: object) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(database_url, **settings))
    async with app.router.lifespan_context(app), RecordingClient(
            transport=httpx.ASGITransport(app=app), base_url="http://localhost") as client:
        yield client
    await _wipe(database_url)


@pytest.fixture
async def local(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """A server in local development without `WODI_WEBHOOK_ALLOW_PRIVATE`."""
    async for client in _app_client(database_url, public_base_url="http://localhost"):
        yield client


@pytest.fixture
async def public(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async for client in _app_client(database_url, public_base_url="https://wodi.example"):
        yield client


async def _refused(client: httpx.AsyncClient, url: str) -> dict[str, object]:
    agent = await register(client, f"ssrf-{abs(hash(url)) % 10**8}")
    response = await client.post("/api/agents/me/webhooks", json={"url": url}, headers=bearer(agent["api_key"]))
    return assert_error(response, 422, "invalid_webhook_url")


@pytest.mark.parametrize("url", [
    "http://localhost:9/hook",  # a name that resolves to loopback
    "http://127.0.0.1:9/hook", "http://[::1]:9/hook", "http://10.1.2.3/hook", "http://192.168.0.10/hook",
    "http://172.16.5.4/hook", "http://169.254.169.254/latest/meta-data", "http://[fd00:ec2::254]/",
    "http://[::ffff:127.0.0.1]/hook", "http://0.0.0.0/hook", "http://100.64.0.1/hook",
])
async def test_private_destinations_are_refused_without_the_setting(local: httpx.AsyncClient, url: str) -> None:
    body = await _refused(local, url)
    assert body["detail"]["field"] == "url" and "address" in body["detail"]


async def test_https_only_outside_local_development(public: httpx.AsyncClient) -> None:
    body = await _refused(public, "http://93.184.215.14/hook")
    assert "https" in str(body["message"])


async def test_credentials_and_unresolvable_hosts_are_refused(local: httpx.AsyncClient) -> None:
    await _refused(local, "https://user:pw@93.184.215.14/hook")
    await _refused(local, "https://no-such-host.invalid/hook")
    await _refused(local, "ftp://93.184.215.14/hook")


async def test_metadata_addresses_stay_refused_with_the_setting(database_url: str) -> None:
    async for client in _app_client(database_url, public_base_url="http://localhost", webhook_allow_private=True):
        await _refused(client, "http://169.254.169.254/latest/meta-data")
        agent = await register(client, "ssrf-allowed")
        ok = await client.post("/api/agents/me/webhooks", json={"url": "http://127.0.0.1:9/hook"},
                               headers=bearer(agent["api_key"]))
        assert ok.status_code == 201, ok.text


async def test_each_connection_is_checked_when_sending(database_url: str) -> None:
    """Registration-time checks alone would not stop a name that resolves elsewhere later: the sending client
    refuses the connection itself."""
    receiver = await Receiver().start()
    try:
        strict = outbound.client(make_settings(database_url, public_base_url="http://localhost"))
        async with strict:
            with pytest.raises(SSRFProtectionError):
                await outbound.post_bounded(strict, receiver.url("x"), b"{}", {})
        lenient = outbound.client(make_settings(database_url, public_base_url="http://localhost",
                                                webhook_allow_private=True))
        async with lenient:
            status, _ = await outbound.post_bounded(lenient, receiver.url("x"), b"{}", {})
        assert status == 204 and len(receiver.log) == 1
    finally:
        await receiver.stop()


def test_forbidden_addresses() -> None:
    import ipaddress

    assert outbound.is_forbidden(ipaddress.ip_address("127.0.0.1"), allow_private=False)
    assert not outbound.is_forbidden(ipaddress.ip_address("127.0.0.1"), allow_private=True)
    assert outbound.is_forbidden(ipaddress.ip_address("169.254.169.254"), allow_private=True)
    assert outbound.is_forbidden(ipaddress.ip_address("::ffff:10.0.0.1"), allow_private=False)
    assert not outbound.is_forbidden(ipaddress.ip_address("93.184.215.14"), allow_private=False)


@pytest.mark.parametrize("url", [
    "https://1.1.1.1:99999/", "https://1.1.1.1:-1/", "https://[::1", "https://a..b/", f"https://{'a' * 70}.com/",
    "https://1.1.1.1:0/", "https://1.1.1.1:x/", f"https://{'a.' * 130}com/", "https://./",
])
async def test_malformed_urls_are_refused_not_a_500(public: httpx.AsyncClient, url: str) -> None:
    """Issue 26 item 4: these answered 500 on both databases."""
    body = await _refused(public, url)
    assert body["detail"]["field"] == "url"


EMBEDDING_IPV4 = [
    "64:ff9b::a9fe:a9fe",  # NAT64 well-known prefix to the metadata address
    "64:ff9b::7f00:1", "64:ff9b::a00:1",  # NAT64 to loopback, to 10.0.0.1
    "64:ff9b:1::5db8:d70e",  # local-use NAT64: refused whatever it carries
    "::7f00:1", "::127.0.0.1", "::a9fe:a9fe",  # IPv4-compatible
    "2002:7f00:1::", "2002:a9fe:a9fe::1", "2002:c0a8:1::",  # 6to4
    "::ffff:0:7f00:1", "::ffff:0:a9fe:a9fe",  # IPv4-translated
    "::ffff:127.0.0.1", "::ffff:169.254.169.254",  # IPv4-mapped
]


@pytest.mark.parametrize("address", EMBEDDING_IPV4)
async def test_ipv6_spellings_of_private_ipv4_are_refused_at_registration(local: httpx.AsyncClient,
                                                                          address: str) -> None:
    """Issue 26 item 5: an IPv6 address that embeds a private IPv4 one is judged by the IPv4 address."""
    body = await _refused(local, f"https://[{address}]/hook")
    assert body["detail"]["field"] == "url"


@pytest.mark.parametrize("address", EMBEDDING_IPV4)
async def test_ipv6_spellings_of_private_ipv4_are_refused_when_sending(database_url: str, address: str) -> None:
    """The same rule on each connection the sending client makes (a name may resolve to these later)."""
    strict = outbound.client(make_settings(database_url, public_base_url="http://localhost"))
    async with strict:
        with pytest.raises(SSRFProtectionError):
            await outbound.post_bounded(strict, f"http://[{address}]:9/x", b"{}", {})


def test_embedded_ipv4_is_judged() -> None:
    import ipaddress

    def forbidden(text: str, allow_private: bool = False) -> bool:
        return outbound.is_forbidden(ipaddress.ip_address(text), allow_private=allow_private)

    for address in EMBEDDING_IPV4:
        assert forbidden(address), address
    # The metadata address and local-use NAT64 stay refused even when the operator allows private hosts.
    assert forbidden("64:ff9b::a9fe:a9fe", allow_private=True)
    assert forbidden("2002:a9fe:a9fe::1", allow_private=True)
    assert forbidden("64:ff9b:1::5db8:d70e", allow_private=True)
    assert not forbidden("::7f00:1", allow_private=True)
    # Public IPv4 behind NAT64 or 6to4, and ordinary global IPv6, are admitted.
    assert not forbidden("64:ff9b::5db8:d70e")
    assert not forbidden("2002:5db8:d70e::1")
    assert not forbidden("2606:4700:4700::1111")
    assert outbound.embedded_ipv4(ipaddress.ip_address("::1")) is None
