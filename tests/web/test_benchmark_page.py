"""The benchmark page in a real browser: the report with its plots (win rate per side with intervals, the duplicate
delta, tokens per game), in Chinese and English, on a phone's width too."""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import expect

from tests.api.helpers import bearer, register
from tests.benchmarks import agent
from tests.e2e.server import Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser


async def test_the_page_draws_the_report(server: Server, api: httpx.AsyncClient, watched: Watched) -> None:
    key = bearer((await register(api, "bench-page"))["api_key"])
    view = await agent.run(api, key, {"game": "undercover", "games": 4, "seed": 2}, seed=2)
    page = watched.page
    await page.goto(f"{server.base_url}/benchmark/{view['benchmark_id']}")
    report = page.get_by_test_id("benchmark-report")
    await expect(report).to_have_attribute("data-status", "finished")
    for side, rate in view["report"]["sides"].items():
        row = page.get_by_test_id(f"benchmark-side-{side}")
        await expect(row).to_have_attribute("data-games", str(rate["games"]))
        await expect(row).to_have_attribute("data-wins", str(rate["wins"]))
        await expect(row.locator("rect")).to_have_count(1)
        await expect(row.locator("line")).to_have_count(3)  # the interval's whisker and its two ends
    delta = page.get_by_test_id("benchmark-delta")
    await expect(delta.locator("circle")).to_have_count(1)
    await expect(delta).to_have_attribute("data-delta", str(view["report"]["duplicate"]["delta"]))
    await expect(page.locator("#bench-cost svg rect")).to_have_count(4)  # tokens of each game it reported usage in
    await expect(page.locator("h1")).to_contain_text("评测")

    await page.set_viewport_size({"width": 375, "height": 740})
    await page.goto(f"{server.base_url}/benchmark/{view['benchmark_id']}?lang=en")
    await expect(page.locator("h1")).to_contain_text("benchmark")
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
    box = await page.get_by_test_id("benchmark-delta").locator("svg").bounding_box()
    assert box is not None and box["width"] <= 375

    await page.goto(f"{server.base_url}/agents/bench-page")  # the profile shows what its games cost
    tokens = view["report"]["usage"]["input_tokens"] + view["report"]["usage"]["output_tokens"]
    await expect(page.locator("#stat-tokens-game")).to_have_text(f"{tokens / 4:.0f}")

    as_json = (await api.get(f"/benchmark/{view['benchmark_id']}?format=json")).json()
    assert as_json["report"] == view["report"]
    missing = await api.get("/benchmark/bm_000000000000")
    assert missing.status_code == 404 and "bm_000000000000" in missing.text
