"""The match page's game seam in a real browser: the shell loads the page module the match's game names, a
game whose module cannot be loaded is still shown by the generic one, and both hold on a phone's width."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import httpx
import pytest
from playwright.async_api import Browser, Page, Request, Route, ViewportSize, expect

from tests.api.table import Table
from tests.e2e.server import ROOT, Server
from tests.web.conftest import Watched

pytestmark = pytest.mark.browser
FAST = 1000  # ms
PHONE: ViewportSize = {"width": 390, "height": 844}
UNDERCOVER_STRINGS = json.loads((ROOT / "static" / "js" / "games" / "undercover.json").read_text(encoding="utf-8"))


@pytest.fixture
async def phone(browser: Browser) -> AsyncIterator[Watched]:
    """A phone-sized page, watched for uncaught errors like the desktop one."""
    context = await browser.new_context(viewport=PHONE, locale="zh-CN", is_mobile=True, has_touch=True)
    seen = Watched(await context.new_page())
    seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
    yield seen
    await context.close()
    assert not seen.errors, f"uncaught errors in the page: {seen.errors}"


def _module_requests(page: Page) -> list[str]:
    """The paths of every script or stylesheet under /static/js/games/ the page asks for, in order."""
    asked: list[str] = []

    def on_request(request: Request) -> None:
        if "/static/js/games/" in request.url:
            asked.append(request.url.split("/static/js/games/", 1)[1])

    page.on("request", on_request)
    return asked


async def _fits_the_width(page: Page) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px screen"
    # In one column every card takes the column's width, not only its content's (an empty votes card was a stub).
    narrow = await page.evaluate("""[...document.querySelectorAll('.match-grid .card')]
        .filter((card) => card.offsetParent !== null)
        .map((card) => [card.className, Math.round(card.getBoundingClientRect().width),
                        Math.round(card.closest('.match-grid').getBoundingClientRect().width)])
        .filter(([, width, column]) => width < column - 1)""")
    assert not narrow, f"cards narrower than the column on a phone: {narrow}"


async def test_the_shell_loads_the_page_module_named_by_the_game(server: Server, api: httpx.AsyncClient,
                                                                 watched: Watched) -> None:
    page = watched.page
    asked = _module_requests(page)
    table = Table(api, 4, n_undercover=1)
    await table.open()
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert "undercover.js" in asked and "undercover.css" in asked
    assert "generic.js" not in asked
    # What only the undercover module draws: its config line, its five steps, its title.
    await expect(page.locator("#config-line")).to_have_text("4 人 · 1 卧底 · 最多 4 轮")
    await expect(page.locator("#phase li")).to_have_count(5)
    await expect(page.locator("#match-title")).to_have_text("谁是卧底 · 4 人局")


async def test_a_game_whose_module_fails_is_shown_by_the_generic_one(server: Server, api: httpx.AsyncClient,
                                                                     phone: Watched) -> None:
    page = phone.page
    asked = _module_requests(page)

    async def missing(route: Route) -> None:
        await route.fulfill(status=404, body="not here")

    await page.route("**/static/js/games/undercover.js", missing)
    table = Table(api, 4, n_undercover=1)
    await table.open()
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    await expect(page.locator("body")).to_have_attribute("data-ready", "1")
    assert asked[-1] == "generic.js"

    await expect(page.locator("#players .player")).to_have_count(4)
    await expect(page.locator("#phase li")).to_have_count(3)
    await expect(page.locator('#phase li[data-step="playing"]')).to_have_class("on")
    await expect(page.locator("#round")).to_contain_text("speak_round_1")
    speaker = (await table.snap(None))["current_speaker_seat"]
    response = await table.act(speaker, {"type": "speak", "text": "a clue the generic page shows"})
    assert response.status_code == 200, response.text
    item = page.locator('#stream .item[data-type="speech_posted"]')
    await expect(item).to_contain_text("speech_posted", timeout=FAST)
    await expect(item).to_contain_text("a clue the generic page shows")
    await expect(page.locator("#votes-card")).to_be_hidden()
    await _fits_the_width(page)

    final = await table.play()
    camp = final["result"]["winner_camp"]
    await expect(page.locator("#winner")).to_have_text(UNDERCOVER_STRINGS["zh"][f"camp_{camp}"], timeout=FAST * 5)
    await expect(page.locator('#phase li[data-step="finished"]')).to_have_class("on")
    await _fits_the_width(page)


async def test_live_and_replay_on_a_phone(server: Server, api: httpx.AsyncClient, phone: Watched) -> None:
    page = phone.page
    table = Table(api, 5, n_undercover=1, last_words=True)
    await table.open()
    await page.goto(f"{server.base_url}/match/{table.match_id}")
    speaker = (await table.snap(None))["current_speaker_seat"]
    card = page.locator(f'#players .player[data-seat="{speaker}"]')
    await expect(card).to_have_attribute("data-speaking", "true")
    await expect(card.locator(".countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    await _fits_the_width(page)

    final = await table.play()
    await expect(page.locator("#winner")).to_be_visible(timeout=FAST * 5)
    await expect(page.locator("#wordpair")).to_contain_text(final["result"]["wordpair"]["civilian"])
    await expect(page.locator("#replay")).to_be_visible()
    await _fits_the_width(page)
    rounds = final["round_index"]
    for n in range(1, rounds + 1):
        await page.click("#replay-next")
        await expect(page.locator("#replay-label")).to_have_attribute("data-round", str(n))
        await expect(page.locator(f'#votes .ballot[data-round="{n}"]').first).to_be_visible()
        await expect(page.locator(f'#stream .item[data-type="speech_posted"][data-round="{n}"]').first).to_be_visible()
        await _fits_the_width(page)
    await expect(page.locator("#replay-next")).to_be_disabled()
