"""Fixtures for the browser tests: the real server in a subprocess, Debian's headless Chromium, an API client."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import httpx
import pytest
from playwright.async_api import Browser, Dialog, Page, async_playwright

from tests.conftest import _wipe
from tests.e2e.server import Server
from tests.web.harness import ChromiumMissing, chromium_path, launch


@pytest.fixture(scope="module")
async def server(database_url: str) -> AsyncIterator[Server]:
    running = Server(database_url).start()
    try:
        yield running
    finally:
        _stop(running)
        await _wipe(database_url)


def _stop(running: Server) -> None:
    """SIGTERM, then SIGKILL: a long-poll whose page has gone keeps uvicorn's graceful shutdown waiting."""
    assert running.process is not None
    running.process.terminate()
    try:
        running.process.wait(1.5)
    except subprocess.TimeoutExpired:
        running.kill()


@pytest.fixture
async def api(server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    try:
        chromium_path()
    except ChromiumMissing as exc:
        pytest.fail(str(exc))
    async with async_playwright() as playwright:
        launched = await launch(playwright)
        yield launched
        await launched.close()


@dataclass
class Watched:
    """A page plus what must never happen on it: dialogs (injected script) and uncaught errors."""

    page: Page
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    loads: int = 0


@pytest.fixture
async def watched(browser: Browser) -> AsyncIterator[Watched]:
    context = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    page = await context.new_page()
    seen = Watched(page)
    pending: set[asyncio.Task[None]] = set()

    def on_dialog(dialog: Dialog) -> None:
        seen.dialogs.append(dialog.message)
        task = asyncio.ensure_future(dialog.dismiss())
        pending.add(task)
        task.add_done_callback(pending.discard)

    def on_load(_: Page) -> None:
        seen.loads += 1

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: seen.errors.append(str(error)))
    page.on("load", on_load)
    yield seen
    await context.close()
    assert not seen.dialogs, f"a dialog opened: {seen.dialogs}"
    assert not seen.errors, f"uncaught errors in the page: {seen.errors}"
