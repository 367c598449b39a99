"""The recap rewritten in persona by the LLM (issue 17), against a real local OpenAI-compatible endpoint
(`tests.bots.test_llm`'s fake, served by uvicorn in a thread) and the real app: six official bots play a room that
asked for the recap to the end; the server asks the LLM after the end and records the checked rewrite as a public
`recap_rewritten` event and `result.recap.rewritten`. A malformed, slow or failing LLM, or an answer that changes a
score or invents a seat, leaves the rule recap; a default room, or no LLM at all, never shows the event."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from app.bots.personas import PERSONAS
from app.bots.player import BotStats, MatchPlayer
from app.bots.pool import register_bot
from app.main import create_app
from app.runtime import Runtime
from tests.conftest import OFFICIAL_KEY, RecordingClient, _wipe, make_settings
from tests.e2e.server import free_port

ROOM = {"recap": True, "speak_timeout": 30, "vote_timeout": 30}


class FakeLLM:
    """Answers each recap request with `mode`: `good` (a rewrite of that very recap), `score` / `seat` (one that
    changes a score / names a seat not at the table), `garbage` (not JSON), `slow` (after `delay`), `fail` (500)."""

    def __init__(self) -> None:
        self.mode = "good"
        self.delay = 0.0
        self.recap_requests: list[dict[str, Any]] = []


def fake_app(fake: FakeLLM) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(body: dict[str, Any]) -> JSONResponse:
        prompt = body["messages"][-1]["content"]
        if "演技评分" not in prompt:  # only the recap is asked here (the bots play with the rule brain)
            return JSONResponse({"error": {"message": "unexpected"}}, status_code=400)
        fake.recap_requests.append(body)
        if fake.mode == "slow":
            await asyncio.sleep(fake.delay)
        if fake.mode == "fail":
            return JSONResponse({"error": {"message": "boom"}}, status_code=500)
        content = "我觉得大家都演得很好" if fake.mode == "garbage" else answer_for(prompt, fake.mode)
        return JSONResponse({"id": "chatcmpl-1", "object": "chat.completion", "model": body.get("model"),
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": content}}]})

    return app


def answer_for(prompt: str, spoil: str) -> str:
    """A well-formed rewrite of the recap the prompt lists (scores read back from it), optionally spoilt."""
    rows = []
    for line in prompt.splitlines():
        if "号 " in line and "/10，点评：" in line:
            seat = int(line.split("号", 1)[0])
            score = int(line.split("）", 1)[1].split("/10", 1)[0])
            rows.append({"seat": seat, "score": score, "comment": f"（改写）{seat}号这局拿了{score}/10"})
    if spoil == "score":
        rows[0]["score"] = rows[0]["score"] % 10 + 1
    if spoil == "seat":
        rows[0]["comment"] = "多亏了9号的配合"
    return json.dumps({"players": rows, "best": "（改写）本场最佳，实至名归", "blunder": "（改写）翻车现场，笑到最后"},
                      ensure_ascii=False)


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[str, FakeLLM]]:
    fake = FakeLLM()
    port = free_port()
    config = uvicorn.Config(fake_app(fake), host="127.0.0.1", port=port, log_level="warning", ws="none",
                            lifespan="off", http="h11", loop="asyncio", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):  # a bound against a server that never starts, not a timing claim
        if server.started:
            break
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{port}/v1", fake
    server.should_exit = True
    thread.join(10)


@pytest.fixture
def fake(endpoint: tuple[str, FakeLLM]) -> FakeLLM:
    _, fake = endpoint
    fake.mode, fake.delay = "good", 0.0
    fake.recap_requests.clear()
    return fake


async def served(database_url: str, llm_url: str, **overrides: Any) -> AsyncIterator[tuple[httpx.AsyncClient, Runtime]]:
    application: FastAPI = create_app(make_settings(database_url, llm_base_url=llm_url, **overrides))
    transport = httpx.ASGITransport(app=application)
    async with (application.router.lifespan_context(application),
                RecordingClient(transport=transport, base_url="http://testserver", timeout=40) as http):
        yield http, application.state.runtime
    await _wipe(database_url)


@pytest.fixture
async def with_llm(database_url: str,
                   endpoint: tuple[str, FakeLLM]) -> AsyncIterator[tuple[httpx.AsyncClient, Runtime]]:
    async for pair in served(database_url, endpoint[0], llm_timeout=1.0):
        yield pair


@pytest.fixture
async def without_llm(database_url: str) -> AsyncIterator[tuple[httpx.AsyncClient, Runtime]]:
    async for pair in served(database_url, ""):
        yield pair


async def play(client: httpx.AsyncClient, runtime: Runtime, config: dict[str, Any]) -> dict[str, Any]:
    """Six official bots (one per persona, their real handles, the rule brain) play one room to the end; once every
    after-the-end task of the server has finished, the anonymous (god, after the end) snapshot."""
    stats = BotStats()
    keys = [await register_bot(client, OFFICIAL_KEY, p.handle(), p.display_name, p) for p in PERSONAS]
    created = await client.post("/api/matches", json={"game": "undercover", "config": config},
                                headers={"Authorization": f"Bearer {keys[0]}"})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    for key in keys[1:]:
        joined = await client.post(f"/api/matches/{match_id}/join", json={}, headers={"Authorization": f"Bearer {key}"})
        assert joined.status_code == 200, joined.text
    players = [MatchPlayer(client, key, match_id, PERSONAS[n], stats=stats, rng=random.Random(f"rv:{n}"), wait=5)
               for n, key in enumerate(keys)]
    finals = await asyncio.gather(*(p.run() for p in players))
    assert all(f is not None and f["status"] == "finished" for f in finals)
    await runtime.afterwords.idle()
    final = await client.get(f"/api/matches/{match_id}")
    assert final.status_code == 200
    return dict(final.json())


async def test_the_rewrite_lands_in_the_record(with_llm: tuple[httpx.AsyncClient, Runtime], fake: FakeLLM) -> None:
    client, runtime = with_llm
    snap = await play(client, runtime, ROOM)
    assert len(fake.recap_requests) == 1
    recap = snap["result"]["recap"]
    rewritten = recap["rewritten"]
    assert [r["seat"] for r in rewritten["players"]] == [r["seat"] for r in recap["players"]] == list(range(6))
    assert all(r["comment"] == f"（改写）{r['seat']}号这局拿了{recap['players'][r['seat']]['score']}/10"
               for r in rewritten["players"])
    assert rewritten["best"] == "（改写）本场最佳，实至名归" and rewritten["blunder"] == "（改写）翻车现场，笑到最后"
    assert all(r["comment"] and not r["comment"].startswith("（改写）") for r in recap["players"])  # rule text stays
    events = [e for e in snap["public_log"] if e["type"] == "recap_rewritten"]
    assert len(events) == 1 and events[0] == snap["public_log"][-1] and events[0]["visibility"] == "public"
    assert {k: events[0][k] for k in ("players", "best", "blunder")} == rewritten
    prompt = fake.recap_requests[0]["messages"][-1]["content"]
    assert all(f"{p.display_name}：{p.style}" in prompt for p in PERSONAS)  # each seat in its persona's voice
    assert fake.recap_requests[0]["response_format"] == {"type": "json_object"}


@pytest.mark.parametrize("mode", ["garbage", "slow", "fail", "score", "seat"])
async def test_a_bad_llm_leaves_the_rule_recap(with_llm: tuple[httpx.AsyncClient, Runtime], fake: FakeLLM,
                                               mode: str) -> None:
    client, runtime = with_llm
    fake.mode, fake.delay = mode, 3.0  # slow: three times the server's 1 s budget
    snap = await play(client, runtime, ROOM)
    assert len(fake.recap_requests) == 1
    assert "rewritten" not in snap["result"]["recap"] and snap["result"]["recap"]["players"]
    assert "recap_rewritten" not in {e["type"] for e in snap["public_log"]}
    assert snap["public_log"][-1]["type"] == "match_finished"


async def test_a_default_room_never_asks(with_llm: tuple[httpx.AsyncClient, Runtime], fake: FakeLLM) -> None:
    client, runtime = with_llm
    snap = await play(client, runtime, {"speak_timeout": 30, "vote_timeout": 30})
    assert fake.recap_requests == []
    assert "recap" not in snap["result"]
    assert "recap_rewritten" not in {e["type"] for e in snap["public_log"] + snap.get("spectator_log", [])}


async def test_no_llm_configured_changes_nothing(without_llm: tuple[httpx.AsyncClient, Runtime],
                                                 fake: FakeLLM) -> None:
    client, runtime = without_llm
    assert runtime.afterwords.writer is None
    snap = await play(client, runtime, ROOM)
    assert fake.recap_requests == []
    assert "rewritten" not in snap["result"]["recap"] and snap["public_log"][-1]["type"] == "match_finished"


def test_the_prompt_gives_bots_their_persona_and_people_the_host() -> None:
    from app.bots.recap_voice import HOST_VOICE, messages, voice_of

    adai = PERSONAS[0]
    assert voice_of(adai.handle(2)) == f"{adai.display_name}：{adai.style}"
    assert voice_of("guest-1a2b3c") == HOST_VOICE and voice_of("alice") == HOST_VOICE
    source = {"players": [{"seat": 0, "name": adai.handle(), "display_name": adai.display_name, "role": "civilian",
                           "score": 7, "comment": "中规中矩，完成了任务。", "highlight": "坚持到了最后"},
                          {"seat": 1, "name": "guest-1a2b3c", "display_name": "小王", "role": "undercover",
                           "score": 3, "comment": "开局就被识破，演技还需修炼。", "highlight": "撑过了0轮"}],
              "best": {"seat": 0, "text": "0号 老实人·阿呆：7/10，中规中矩，完成了任务。"},
              "blunder": {"seat": 1, "text": "1号 小王：第一轮就翻车出局"}, "words": ["包子", "饺子"]}
    chat = messages("undercover", source)
    assert chat is not None and messages("werewolf", source) is None
    prompt = chat[-1]["content"]
    assert f"0号 {adai.display_name}（平民）7/10，点评：中规中矩" in prompt
    assert f"口吻改写：{adai.display_name}" in prompt
    assert "1号 小王（卧底）3/10" in prompt and f"口吻改写：{HOST_VOICE}" in prompt
    assert "一句幽默评语" in prompt and "奥斯卡颁奖词" in prompt and "爆笑失误" in prompt  # seed 000's settlement
    assert "平民词：包子，卧底词：饺子" in prompt and '"score": 原分数' in prompt
