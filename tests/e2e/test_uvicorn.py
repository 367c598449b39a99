"""The real server in a subprocess: the complete games, tie-breaks and timeouts of `tests/api/test_match_play.py`
and the spec-only client of `tests/api/spec_client.py` over TCP, and a `kill -9` in the middle of a speak turn."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.api.spec_client import play_default_game
from tests.api.table import Table
from tests.api.test_match_play import GAMES, play_complete_game, play_revote_pk, play_through_timeouts
from tests.conftest import _wipe
from tests.e2e.server import Server


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


@pytest.fixture(scope="module")
async def live(database_url: str) -> AsyncIterator[Server]:
    server = Server(database_url).start()
    try:
        yield server
    finally:
        server.stop()
        await _wipe(database_url)


@pytest.fixture
async def http(live: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as client:
        yield client


@pytest.mark.parametrize(("n", "tie_break"), GAMES)
async def test_complete_game_over_real_http(http: httpx.AsyncClient, n: int, tie_break: str) -> None:
    await play_complete_game(http, n, tie_break)


async def test_spec_only_client_over_real_http(http: httpx.AsyncClient) -> None:
    """Issue 18 §1: a client that knows only the spec's values plays a default game over TCP."""
    await play_default_game(http)


async def test_revote_pk_over_real_http(http: httpx.AsyncClient) -> None:
    await play_revote_pk(http)


async def test_timeouts_over_real_http(http: httpx.AsyncClient) -> None:
    await play_through_timeouts(http)


async def test_restart_during_speak_turn(database_url: str, wiped: None) -> None:
    server = Server(database_url).start()
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
        table = Table(client, 4, speak_timeout=3, vote_timeout=3, last_words=False)
        await table.open()
        snap = await table.snap(0)
        speaker = snap["current_speaker_seat"]
        await table.act(speaker, {"type": "speak", "text": "先说一句吧"})
        turn = await table.snap(0)
        stuck = turn["current_speaker_seat"]
        deadline = turn["deadline_ts"]
    server.kill()
    await asyncio.sleep(max(0.0, deadline - time.time()) + 0.5)
    server = Server(database_url, port=server.port).start()
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            table.client = client
            after = await table.snap(None, wait=10, wait_for="any_change")
            log = await table.events(None)
            skipped = [e for e in log if e["type"] == "speech_skipped"]
            assert skipped and skipped[0]["seat"] == stuck and skipped[0]["reason"] == "timeout"
            assert after["current_speaker_seat"] != stuck or after["phase"] != turn["phase"]
            final = await table.play()
            assert final["status"] == "finished"
            log = await table.events(None)
            seqs = [e["seq"] for e in log]
            assert seqs == list(range(1, len(seqs) + 1)), "no gap and no duplicate"
            assert len([e for e in log if e["type"] == "speech_skipped" and e["seat"] == stuck
                        and e["round"] == skipped[0]["round"]]) == 1
    finally:
        server.stop()


def test_sigterm_answers_waiting_longpolls_before_the_server_exits(database_url: str) -> None:
    """A graceful restart does not wait out (nor cut off) open long-polls: each gets its answer, then the process
    exits cleanly."""
    import threading

    server = Server(database_url).start()
    try:
        key = httpx.post(f"{server.base_url}/api/agents", json={"name": "drain-host"}).json()["api_key"]
        created = httpx.post(f"{server.base_url}/api/matches", json={"game": "undercover"},
                             headers={"Authorization": f"Bearer {key}"}).json()
        answers: list[int] = []

        def long_poll() -> None:
            response = httpx.get(f"{server.base_url}/api/matches/{created['match_id']}",
                                 params={"wait": 30, "wait_for": "match_finished"}, timeout=60)
            answers.append(response.status_code)

        pollers = [threading.Thread(target=long_poll) for _ in range(3)]
        for poller in pollers:
            poller.start()
        time.sleep(2.0)  # let the long-polls reach the server and sleep there
        assert server.process is not None
        server.process.terminate()
        for poller in pollers:
            poller.join(60)
        assert answers == [200, 200, 200]
        assert server.process.wait(30) in (0, -15)  # uvicorn re-raises SIGTERM once it has shut down
    finally:
        server.stop()
