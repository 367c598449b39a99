"""`python -m tests.web.screenshots`: PNGs of the live page, the finished page and the lobby.

Starts the real server on a temporary SQLite database, has named agents play one 6-player match to the end and
another one partway, and saves 1280×800 and 390×844 screenshots into `static/screenshots/`. Chinese text needs a
CJK font on the machine (Debian: `apt-get install fonts-noto-cjk`).
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, ViewportSize, async_playwright

from tests.e2e.server import ROOT, Server
from tests.web.harness import CastTable, clue_speech, launch, migrate

OUT = ROOT / "static" / "screenshots"
VIEWPORTS: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 800},
                                      "mobile": {"width": 390, "height": 844}}
FINISHED_CAST = [("claude-sonnet", "Claude Sonnet"), ("gpt-4o", "GPT-4o"), ("bot_xiaowo@wodi", "小卧 · 官方"),
                 ("deepseek-r1", "DeepSeek R1"), ("qwen-max", "通义千问 Max"), ("gemini-pro", "Gemini Pro")]
LIVE_CAST = [("kimi-k2", "Kimi K2"), ("glm-4", "智谱 GLM-4"), ("doubao-pro", "豆包 Pro"),
             ("llama-3", "Llama 3.1"), ("mistral-large", "Mistral Large"), ("bot_detective@wodi", "侦探 · 官方")]
WAITING_CAST = [("yi-large", "Yi Large"), ("minimax-m1", "MiniMax M1"), ("hunyuan", "混元")]
SMALL_CAST = [("ernie-4", "文心 4.0"), ("spark-x", "讯飞星火"), ("baichuan", "百川"), ("step-2", "阶跃 Step-2")]
LONELY_CAST = [("sensechat", "商量 SenseChat")]
COMMENTS = ["他的描述太模糊，像是在躲", "和大家说的方向不太一样", "感觉在跟风", "前后说法对不上"]
LAST_WORDS = "我真的是好人！大家再想想刚才谁说得最含糊。"


def _votes(snaps: list[dict[str, Any]], roles: dict[int, str], target: int) -> dict[int, int]:
    """Most living seats vote `target`; an undercover defends itself, and one seat strays, so the bars differ."""
    living = [p["seat"] for p in snaps[0]["players"] if p["alive"]]
    voters = [seat for seat in living if snaps[seat]["you"]["next_action"] == "vote"]
    votes: dict[int, int] = {}
    for i, voter in enumerate(voters):
        choices = [s for s in living if s not in (voter, target)]
        if voter == target or (roles[voter] == "undercover" and roles[target] == "undercover") or i == 1:
            civilians = [s for s in choices if roles[s] == "civilian"] or choices
            votes[voter] = civilians[(voter + i) % len(civilians)]
        else:
            votes[voter] = target
    for voter in voters:
        if _leads(votes, target):
            break
        if voter != target:
            votes[voter] = target
    return votes


def _leads(votes: dict[int, int], target: int) -> bool:
    counts = Counter(votes.values())
    return all(counts[target] > n for seat, n in counts.items() if seat != target)


async def play_story(table: CastTable, until: Callable[[dict[str, Any]], bool] = lambda _: False) -> dict[str, Any]:
    """Play with clue-based speeches: round 1 votes out a civilian, later rounds the undercovers, one by one."""
    roles = {seat: (await table.snap(seat))["you"]["role"] for seat in range(table.n)}
    plan = [s for s in range(table.n) if roles[s] == "civilian"][2:3] + [s for s in range(table.n)
                                                                        if roles[s] == "undercover"]
    for _ in range(500):
        snaps = [await table.snap(seat) for seat in range(table.n)]
        public = snaps[0]
        if public["status"] != "in_progress" or until(public):
            return public
        actions = [snap["you"]["next_action"] for snap in snaps]
        if "vote" in actions:
            alive = [s for s in plan if any(p["seat"] == s and p["alive"] for p in public["players"])]
            votes = _votes(snaps, roles, alive[0])
            for i, (voter, target) in enumerate(votes.items()):
                comment = COMMENTS[(voter + i) % len(COMMENTS)] if i % 2 == 0 else None
                await _act(table, voter, {"type": "vote", "target_seat": target, "comment": comment})
            continue
        seat = next(s for s, action in enumerate(actions) if action in ("speak", "last_words", "guess_word"))
        if actions[seat] == "speak":
            suspects = [(seat + 2) % table.n]
            analysis = {"self_role_guess": "civilian", "suspect_seats": suspects} if seat % 3 == 0 else None
            text = clue_speech(snaps[seat]["you"]["word"], public["round_index"], seat)
            await _act(table, seat, {"type": "speak", "text": text, "analysis": analysis})
        elif actions[seat] == "last_words":
            await _act(table, seat, {"type": "last_words", "text": LAST_WORDS})
        else:
            await _act(table, seat, {"type": "guess_word", "word": "不知道"})
    raise AssertionError("the story did not end")


async def _act(table: CastTable, seat: int, body: dict[str, Any]) -> None:
    body = {key: value for key, value in body.items() if value is not None}
    response = await table.act(seat, body)
    if response.status_code != 200 and body["type"] == "speak":  # a clue happened to hold the word: keep it short
        response = await table.act(seat, {"type": "speak", "text": "这个我先保留，听听大家怎么说。"})
    assert response.status_code == 200, response.text


def _speeches_in_round(snap: dict[str, Any], n: int) -> int:
    return sum(1 for e in snap["public_log"] if e["type"] == "speech_posted" and e["round"] == n)


async def _shoot(browser: Browser, base_url: str, pages: dict[str, str]) -> list[Path]:
    saved = []
    for size, viewport in VIEWPORTS.items():
        context = await browser.new_context(viewport=viewport, device_scale_factor=1, locale="zh-CN")
        page = await context.new_page()
        for name, path in pages.items():
            await page.goto(base_url + path)
            if path.startswith("/match/"):
                await page.wait_for_selector("body[data-ready='1']")
            await page.wait_for_timeout(900)  # entrance animations and the countdown settle
            target = OUT / f"{name}-{size}.png"
            await page.screenshot(path=str(target))
            saved.append(target)
        await context.close()
    return saved


async def shoot() -> list[Path]:
    """Play the matches and save the six screenshots; returns their paths."""
    database_url = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/screens.db"
    migrate(database_url)
    server = Server(database_url).start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            finished = CastTable(client, FINISHED_CAST, official=(2,), n_undercover=2, last_words=True)
            await finished.open()
            await play_story(finished)
            small = CastTable(client, SMALL_CAST, n_undercover=1, last_words=True)
            await small.open()
            await play_story(small)
            await CastTable(client, LONELY_CAST, n_players=4, n_undercover=1).open(fill=False)
            waiting = CastTable(client, WAITING_CAST, n_players=6, n_undercover=2)
            await waiting.open(fill=False)
            await waiting.join(1)
            await waiting.join(2)
            live = CastTable(client, LIVE_CAST, official=(5,), n_undercover=2, last_words=True)
            await live.open()
            await play_story(live, until=lambda s: s["round_index"] == 2 and _speeches_in_round(s, 2) >= 2)
        OUT.mkdir(parents=True, exist_ok=True)
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            saved = await _shoot(browser, server.base_url, {"live": f"/match/{live.match_id}",
                                                            "finished": f"/match/{finished.match_id}", "lobby": "/"})
            await browser.close()
    finally:
        server.kill()  # the live page may still hold a long-poll open; the database is thrown away
    return saved


def main() -> None:
    fonts = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True).stdout if shutil.which(
        "fc-list") else "?"
    if not fonts.strip():
        print("warning: no CJK font installed; Chinese text will render as boxes (apt-get install fonts-noto-cjk)")
    for path in asyncio.run(shoot()):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
