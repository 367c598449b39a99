"""The claim flow end to end in a real headless Chromium: sign up, claim, land on return_to or /my."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import quote, urlsplit

import httpx
import pytest

from tests.conftest import _wipe
from tests.e2e.browser import chromium
from tests.e2e.server import Server

pytestmark = pytest.mark.browser


@pytest.fixture
async def server(database_url: str) -> AsyncIterator[Server]:
    running = Server(database_url).start()
    yield running
    running.stop()
    await _wipe(database_url)


async def _claim_url(server: Server, name: str) -> str:
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        response = await client.post("/api/agents", json={"name": name})
        return str(response.json()["claim_url"])


@pytest.mark.parametrize(("return_to", "lands_on"), [
    ("http://localhost:{port}/healthz", "http://localhost:{port}/healthz"),
    ("https://evil.example/", "{base}/my"),
    (None, "{base}/my"),
])
async def test_sign_up_then_claim(server: Server, return_to: str | None, lands_on: str) -> None:
    name = f"claim-{abs(hash(return_to)) % 100000}"
    url = await _claim_url(server, name)
    if return_to:
        url += "?return_to=" + quote(return_to.format(port=server.port), safe="")
    expected = lands_on.format(port=server.port, base=server.base_url)
    async with chromium() as browser:
        page = await browser.new_page()
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        await page.goto(url)
        assert name in await page.inner_text("#claim-agent")
        await page.click("#claim-login")
        await page.fill("#signup-username", f"owner{abs(hash(return_to)) % 100000}")
        await page.fill("#signup-password", "a long password")
        await page.click("#signup-submit")
        await page.wait_for_url(f"{server.base_url}/claim/**")
        assert (await page.inner_text("#claim-owner")).startswith("owner")
        await page.click("#claim-submit")
        await page.wait_for_url(expected)
        assert page.url == expected
        assert all(urlsplit(r).hostname != "evil.example" for r in requested), "never an open redirect"
        cookies = await page.context.cookies()
        session = next(c for c in cookies if c["name"] == "wodi_session")
        assert session["httpOnly"] is True and session["sameSite"] == "Lax"
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        public = (await client.get(f"/api/agents/{name}")).json()
        assert "owner_id" not in public
        reclaim = await client.get(url.split("?")[0].replace("/claim/", "/api/agents/claim/"))
        assert reclaim.status_code == 404, "the claim token is destroyed"


async def test_an_owner_gives_an_agent_a_new_key_from_my_page(server: Server) -> None:
    """A leaked key: on /my its owner ticks the box and presses the button; the page shows the new key once, the
    old one is refused at once, the new one works. Without the box ticked the browser sends nothing."""
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        created = (await client.post("/api/agents", json={"name": "leaky-agent"})).json()
    old, claim_url = created["api_key"], created["claim_url"]
    async with chromium() as browser:
        page = await browser.new_page()
        await page.goto(claim_url)
        await page.click("#claim-login")
        await page.fill("#signup-username", "leaky-owner")
        await page.fill("#signup-password", "a long password")
        await page.click("#signup-submit")
        await page.wait_for_url(f"{server.base_url}/claim/**")
        await page.click("#claim-submit")
        await page.wait_for_url(f"{server.base_url}/my")
        await page.click('[data-testid="rotate-leaky-agent"]')  # the box is not ticked: nothing is sent
        assert await page.locator('[data-testid="rotated-key"]').count() == 0
        await page.check('[data-testid="rotate-sure-leaky-agent"]')
        await page.click('[data-testid="rotate-leaky-agent"]')
        await page.wait_for_selector('[data-testid="rotated-key"]')
        new = (await page.inner_text("#rotated-key")).strip()
        assert new.startswith("ck_live_") and new != old and new not in page.url
    async with httpx.AsyncClient(base_url=server.base_url) as client:
        refused = await client.get("/api/agents/me", headers={"Authorization": f"Bearer {old}"})
        assert refused.status_code == 401 and refused.json()["error"] == "invalid_api_key"
        me = await client.get("/api/agents/me", headers={"Authorization": f"Bearer {new}"})
        assert me.status_code == 200 and me.json()["name"] == "leaky-agent"
