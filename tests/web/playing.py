"""What the browser tests and the play screenshots share: a person at the table, driven through the page as a person
drives it (the lobby's 开一局, the form, the speak box, the cards' vote buttons, debate, last words, the guess)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.async_api import Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.e2e.server import Server

SOON = 10_000  # ms: how long the page may take to show what the server already holds
GAME = 180_000  # ms: the longest a whole bot-paced game may take before the caller gives up
ACTING = ("speak", "vote", "last_words", "guess_word", "debate")


async def start_from_the_lobby(page: Page, server: Server, name: str, **choices: str) -> str:
    """`/` → 开一局 → the form (quick pace unless told) → the match page; returns the match id."""
    await page.goto(f"{server.base_url}/")
    await page.get_by_test_id("play-start").click()
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await page.get_by_test_id(f"play-choice-pace-{choices.get('pace', 'quick')}").check()
    await page.get_by_test_id(f"play-choice-virtual_players-{choices.get('bots', '5')}").check()
    if choices.get("chaos"):
        await page.get_by_test_id("play-choice-chaos").check()
    await page.get_by_test_id("play-name").fill(name)
    await page.get_by_test_id("play-form-submit").click()
    await page.wait_for_url("**/match/*", timeout=SOON)
    await expect(page.locator("body")).to_have_attribute("data-ready", "1", timeout=SOON)
    await expect(page.locator("#players .player:not(.empty)")).to_have_count(
        int(choices.get("bots", "5")) + 1, timeout=SOON)  # the bots sit down at once
    return page.url.rsplit("/match/", 1)[1].split("?")[0]


async def read_snap(api: httpx.AsyncClient, match_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Play-Token": token} if token else {}
    response = await api.get(f"/api/matches/{match_id}", headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def kept_token(page: Page, match_id: str) -> str:
    kept = await page.evaluate(f"localStorage.getItem('wodi.seat.{match_id}')")
    assert kept, "the page keeps the seat's token"
    return str(json.loads(kept)["play_token"])


async def next_turn(page: Page) -> str | None:
    """Wait until the person may act or the match is over; the action, or None at the end."""
    await page.wait_for_function(
        """(acting) => {
          const you = document.getElementById("you");
          return document.querySelector("#result:not([hidden])")
            || (you && acting.includes(you.dataset.action) && you.querySelector(".uc-controls").childElementCount);
        }""", arg=list(ACTING), timeout=GAME)
    if await page.locator("#result:not([hidden])").count():
        return None
    return await page.locator("#you").get_attribute("data-action")


async def act(page: Page, action: str, word: str, said: list[str]) -> None:
    """One move as a person makes it; waits until the page has taken it."""
    if action == "speak":
        box = page.get_by_test_id("speak-input")
        await box.fill(f"嗯，{word}")
        await expect(page.get_by_test_id("speak-warning")).to_be_visible()  # the word is in the text
        text = f"我这个东西很常见，第{len(said) + 1}次说"
        await box.fill(text)
        await expect(page.get_by_test_id("speak-warning")).to_be_hidden()
        await page.get_by_test_id("speak-send").click()
        said.append(text)
        await expect(page.locator("#stream")).to_contain_text(text, timeout=SOON)
    elif action == "vote":
        # Cards are redrawn as the bots' votes come in: press whichever vote button is there now.
        buttons = page.locator('#players [data-testid^="vote-target-"]:not([disabled])')
        while await page.locator("#you").get_attribute("data-action") == "vote" and await buttons.count():
            try:
                await buttons.first.click(timeout=1000)
                break
            except PlaywrightTimeout:
                continue
    elif action == "debate":
        if not await page.locator("#stream .item.debate").filter(has_text="先听听").count():
            await page.get_by_test_id("debate-input").fill("大家别急，先听听3号怎么说")
            await page.get_by_test_id("debate-send").click()
            await expect(page.locator("#stream .item.debate").filter(has_text="先听听").first).to_be_visible(
                timeout=SOON)
        await page.get_by_test_id("debate-pass").click()
    elif action == "last_words":
        await page.get_by_test_id("last-words-input").fill("我是好人，记住我的话")
        await page.get_by_test_id("last-words-send").click()
    elif action == "guess_word":
        await page.get_by_test_id("guess-input").fill("不知道")
        await page.get_by_test_id("guess-send").click()
    await page.wait_for_function(
        "(action) => document.getElementById('you').dataset.action !== action"
        " || document.querySelector('#result:not([hidden])')"
        " || document.querySelector('[data-testid=\"play-message\"][data-kind=\"error\"]:not([hidden])')",
        arg=action, timeout=GAME)
