"""Playwright driving Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    path = shutil.which("chromium")
    assert path, "Debian's chromium is required for browser tests: apt-get install chromium"
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=FLAGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()
