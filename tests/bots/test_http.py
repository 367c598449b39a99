"""Bots against the real server (uvicorn in a subprocess): the lobby filler and bot-only self-play."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest

from app.bots.llm import LLMBrain
from app.bots.personas import persona_of_handle
from app.bots.runner import LobbyFiller
from app.games.installed import brains
from tests.api.table import Table, lowest_other
from tests.conftest import _wipe
from tests.e2e.server import Server, free_port
from tools import selfplay

KEY = "test-bots-official-key"
WATCHED = ("speech_contains_secret_word", "text_too_long", "wrong_phase")


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_OFFICIAL_BOT_KEY=KEY).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


async def _until(condition: Callable[[], Awaitable[bool]], polls: int) -> None:
    """Check `condition` every 0.1 s until it holds; `polls` bounds a hang, it claims nothing about speed."""
    for _ in range(polls):
        if await condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"still not true after {polls} polls")


def _joined_after(snap: dict[str, Any], seats: set[int]) -> list[float]:
    """Seconds from the room's creation to each of `seats`' joins, by the server's own event stamps."""
    log = snap["public_log"]
    stamps = [(e, datetime.fromisoformat(e["ts"]).timestamp()) for e in log]
    created = next(ts for e, ts in stamps if e["type"] == "match_created")
    return [ts - created for e, ts in stamps if e["type"] == "player_joined" and e["seat"] in seats]


async def test_bots_fill_a_waiting_room_and_play_it_to_the_end(server: Server, wiped: None) -> None:
    dead_llm = LLMBrain(f"http://127.0.0.1:{free_port()}/v1", timeout=1)  # every answer falls back
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.5, llm=dead_llm, poll_interval=0.2, think=0.0)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            table = Table(client, 1, n_players=6, n_undercover=1, speak_timeout=5, vote_timeout=5)
            await table.open(fill=False)
            await filler.start()
            snap = await table.snap(0)
            for _ in range(20):  # each long-poll returns on the next join
                if snap["status"] != "waiting":
                    break
                snap = await table.snap(0, wait=5, wait_for="any_change")
            assert snap["status"] == "in_progress", "bots did not fill the room"
            bots = [p for p in snap["players"] if p["seat"] != 0]
            waited = _joined_after(snap, {p["seat"] for p in bots})
            assert len(waited) == 5 and min(waited) >= filler.fill_after, "bots must let the room wait fill_after"
            assert len(bots) == 5 and all(p["is_official"] for p in bots)
            personas = [persona_of_handle(p["name"]) for p in bots]
            assert None not in personas and len({p.slug for p in personas if p}) == 5, "one bot per persona"
            assert {p["display_name"] for p in bots} <= {p.name_for(i) for p in personas if p for i in (1, 2)}
            while snap["status"] == "in_progress":
                snap = await table.snap(0, wait=10, wait_for="your_turn")
                if snap["status"] == "in_progress" and snap["you"]["your_turn"]:
                    body = lowest_other(table, 0, snap)
                    assert body is not None
                    response = await table.act(0, body)
                    if response.status_code != 200 and body["type"] == "speak":
                        await table.act(0, {"type": "skip"})
            assert snap["status"] == "finished"
            log = snap["public_log"]
            bot_seats = {p["seat"] for p in bots}
            assert any(e["type"] == "speech_posted" and e["seat"] in bot_seats for e in log)
            assert not [e for e in log if e["type"] == "speech_skipped" and e["seat"] in bot_seats]

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 150)
        assert filler.joins == 5 and filler.stats.games == 5
        assert not {code: n for code, n in filler.stats.errors.items() if code in WATCHED}
        assert sum(filler.stats.errors.values()) == 0, filler.stats.errors
        assert dead_llm.stats["error"] > 0 and dead_llm.stats["used"] == 0
    finally:
        await filler.stop()
    assert not filler.running


async def test_bots_fill_a_werewolf_room_and_play_it_to_the_end(server: Server, wiped: None) -> None:
    decide = brains()["werewolf"]
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            me = (await client.post("/api/agents", json={"name": "wolf-host"})).json()
            headers = {"Authorization": f"Bearer {me['api_key']}"}
            config = {"n_players": 6, "night_timeout": 5, "speak_timeout": 5, "vote_timeout": 5}
            created = await client.post("/api/matches", json={"game": "werewolf", "config": config}, headers=headers)
            url = f"/api/matches/{created.json()['match_id']}"
            await filler.start()
            snap = (await client.get(url, headers=headers)).json()
            for _ in range(20):
                if snap["status"] != "waiting":
                    break
                snap = (await client.get(url, params={"wait": 5, "wait_for": "any_change"}, headers=headers)).json()
            assert snap["status"] == "in_progress", "bots did not fill the werewolf room"
            assert all(p["is_official"] for p in snap["players"] if p["seat"] != 0)
            rng = random.Random(7)
            while snap["status"] == "in_progress":
                snap = (await client.get(url, params={"wait": 10, "wait_for": "your_turn"}, headers=headers)).json()
                if snap["status"] == "in_progress" and snap["you"]["your_turn"]:
                    body = decide(snap, "adai", rng)
                    assert body is not None
                    answer = await client.post(f"{url}/action", json=body, headers=headers)
                    assert answer.status_code == 200, answer.text
            assert snap["status"] == "finished" and snap["result"]["winner_camp"] in ("village", "werewolf")
            bot_seats = {p["seat"] for p in snap["players"] if p["seat"] != 0}
            assert any(e["type"] == "speech_posted" and e["seat"] in bot_seats for e in snap["public_log"])

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 150)
        assert filler.joins == 5 and filler.stats.games == 5
        assert sum(filler.stats.errors.values()) == 0, filler.stats.errors
    finally:
        await filler.stop()


async def test_a_wrong_official_key_turns_the_filler_off(server: Server, wiped: None) -> None:
    filler = LobbyFiller(server.base_url, "not-the-key", fill_after=0.0, poll_interval=0.2)
    await filler.start()

    async def stopped() -> bool:
        return not filler.running

    await _until(stopped, 50)
    await filler.stop()
    empty = LobbyFiller(server.base_url, "", fill_after=0.0)
    await empty.start()
    assert not empty.running
    await empty.stop()


async def test_partial_fill_spreads_a_short_pool_over_rooms_and_resumes_after_a_restart(server: Server,
                                                                                     wiped: None) -> None:
    short = {"agents_per_persona": 1, "pool_max": 1}  # a pool of six that cannot grow
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0, partial=True, **short)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            big = Table(client, 1, n_players=12, n_undercover=3)
            small = Table(client, 1, n_players=8, n_undercover=2)
            await big.open(fill=False)
            await small.open(fill=False)
            await filler.start()

            async def pool_seated() -> bool:  # 18 open seats, a pool of 6: all six sit, no room completes
                return len(filler.busy()) == 6

            await _until(pool_seated, 150)
            bots = 0
            for table in (big, small):
                snap = await table.snap(0)
                assert snap["status"] == "waiting"  # no room is full: both wait (partly filled)
                slugs = Counter(p.slug for p in (persona_of_handle(x["name"]) for x in snap["players"][1:]) if p)
                bots += sum(slugs.values())
            assert bots == 6
            seated = filler.busy()
            await filler.stop()  # a restart: the new filler gets fresh keys and goes back to the same rooms
            filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0, partial=True,
                                 **short)
            await filler.start()

            async def resumed() -> bool:
                return filler.busy() == seated

            await _until(resumed, 100)
            for table in (big, small):  # the hosts give up: the bots leave and are free again
                cancelled = await client.post(f"/api/matches/{table.match_id}/abort", headers=table.h(0))
                assert cancelled.status_code == 200, cancelled.text

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 100)
    finally:
        await filler.stop()


async def test_a_restart_takes_back_the_agents_the_pool_grew_to(server: Server, wiped: None) -> None:
    """A pool of one agent a persona that may grow to three: a 12-seat room grows it (`bot_adai2@wodi`, …). After
    a restart the new filler starts with one a persona again, finds the grown agents on the server and goes back to
    their table — they used to sit there, never playing again."""
    grows = {"agents_per_persona": 1, "pool_max": 3}
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0, **grows)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            table = Table(client, 1, n_players=12, n_undercover=3, speak_timeout=600, vote_timeout=600)
            await table.open(fill=False)
            await filler.start()

            async def full() -> bool:
                return len(filler.busy()) == 11

            await _until(full, 150)
            seated = filler.busy()
            assert any(handle[:-5].endswith("2") for handle in seated), seated  # grown agents at the table
            await filler.stop()
            filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0, **grows)
            await filler.start()

            async def resumed() -> bool:
                return filler.busy() == seated

            await _until(resumed, 100)
            cancelled = await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(0))
            assert cancelled.status_code == 200, cancelled.text

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 150)
    finally:
        await filler.stop()


async def test_by_default_bots_take_a_room_only_when_they_can_complete_it(server: Server, wiped: None) -> None:
    """A pool of twelve (two agents a persona): a 12-seat room takes eleven; a 4-seat room then waits with no bot
    (one idle agent cannot complete it, and a seated bot cannot leave a waiting room) until the big game ends."""
    filler = LobbyFiller(server.base_url, KEY, fill_after=0.0, poll_interval=0.2, think=0.0)
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            big = Table(client, 1, n_players=12, n_undercover=3, speak_timeout=2, vote_timeout=2)
            await big.open(fill=False)
            await filler.start()
            snap = await big.snap(0)
            while snap["status"] == "waiting":
                snap = await big.snap(0, wait=5, wait_for="any_change")
            slugs = Counter(p.slug for p in (persona_of_handle(x["name"]) for x in snap["players"][1:]) if p)
            assert sum(slugs.values()) == 11 and max(slugs.values()) == 2  # more seats than personas: two each
            small = Table(client, 1, n_players=4, n_undercover=1, speak_timeout=2, vote_timeout=2)
            await small.open(fill=False)
            await asyncio.sleep(1.0)  # several passes of the filler
            assert [p["seat"] for p in (await small.snap(0))["players"]] == [0]
            conceded = await client.post(f"/api/matches/{big.match_id}/concede", headers=big.h(0))
            assert conceded.status_code == 200, conceded.text
            assert (await big.snap(None, wait=25, wait_for="match_finished"))["status"] == "finished"
            snap = await small.snap(0)
            while snap["status"] == "waiting":
                snap = await small.snap(0, wait=5, wait_for="any_change")
            assert snap["status"] == "in_progress" and len(snap["players"]) == 4
            await client.post(f"/api/matches/{small.match_id}/concede", headers=small.h(0))
            assert (await small.snap(None, wait=20, wait_for="match_finished"))["status"] == "finished"

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 150)
        assert sum(filler.stats.errors.values()) == 0, filler.stats.errors
    finally:
        await filler.stop()


async def _host_plays(client: httpx.AsyncClient, url: str, headers: dict[str, str], game: str) -> dict[str, Any]:
    """Wait for the room to fill, then play the host's seat with the game's own brain to the end."""
    decide, rng = brains()[game], random.Random(5)
    snap = (await client.get(url, headers=headers)).json()
    while snap["status"] == "waiting":
        snap = (await client.get(url, params={"wait": 5, "wait_for": "any_change"}, headers=headers)).json()
    assert snap["status"] == "in_progress"
    assert all(p["is_official"] for p in snap["players"] if p["seat"] != 0), "every other seat is a bot"
    while snap["status"] == "in_progress":
        snap = (await client.get(url, params={"wait": 10, "wait_for": "your_turn"}, headers=headers)).json()
        if snap["status"] == "in_progress" and snap["you"]["your_turn"]:
            body = decide(snap, "yingyan", rng)
            assert body is not None
            answer = await client.post(f"{url}/action", json=body, headers=headers)
            assert answer.status_code in (200, 409), answer.text  # 409: a clock moved the match meanwhile
    return dict(snap)


async def test_rooms_of_any_size_fill_and_play_to_the_end(server: Server, wiped: None) -> None:
    """Issue 33: a 9-seat werewolf room (the classic preset) and a 12-seat undercover room, each opened by one
    agent, fill with bots after `fill_after` and play to the end (the pool grows as it must)."""
    filler = LobbyFiller(server.base_url, KEY, fill_after=1.0, poll_interval=0.2, think=0.0, pool_max=4)
    clocks = {"speak_timeout": 20, "vote_timeout": 20}  # nobody waits for them: every seat acts at once
    rooms = (("werewolf", {"n_players": 9, "night_timeout": 20, **clocks}),
             ("undercover", {"n_players": 12, "n_undercover": 3, **clocks}))
    try:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=40) as client:
            hosts = []
            for game, config in rooms:
                me = (await client.post("/api/agents", json={"name": f"host-of-{game}"})).json()
                headers = {"Authorization": f"Bearer {me['api_key']}"}
                created = await client.post("/api/matches", json={"game": game, "config": config}, headers=headers)
                assert created.status_code == 201, created.text
                hosts.append((f"/api/matches/{created.json()['match_id']}", headers, game))
            await filler.start()
            finals = await asyncio.gather(*(_host_plays(client, url, headers, game) for url, headers, game in hosts))
            for final, (_, config) in zip(finals, rooms, strict=True):
                assert final["status"] == "finished" and len(final["players"]) == config["n_players"]
                joined = _joined_after(final, set(range(1, config["n_players"])))
                assert len(joined) == config["n_players"] - 1 and min(joined) >= filler.fill_after

            async def idle() -> bool:
                return not filler.busy()

            await _until(idle, 150)
        # Eleven and eight bots act at once: a bot that read a step just before another seat (or the clock) closed
        # it — the night, the pack's choice, or the match's last vote — is refused for acting late (its night turn
        # is gone, the other wolves have just decided, the phase has moved on, the match is over) and reads again.
        # Nothing else may be refused.
        late = {"not_your_night_turn", "night_action_done", "wrong_phase", "match_finished"}
        assert set(filler.stats.errors) <= late, filler.stats.errors
    finally:
        await filler.stop()


async def test_the_filler_survives_a_dead_server_and_stops_cleanly(caplog: pytest.LogCaptureFixture) -> None:
    filler = LobbyFiller(f"http://127.0.0.1:{free_port()}", KEY, fill_after=0.0, poll_interval=0.2)
    caplog.set_level(logging.WARNING, logger="app.bots")
    await filler.start()

    async def retried() -> bool:
        return any("retrying" in r.getMessage() for r in caplog.records)

    await _until(retried, 100)
    assert filler.running  # the connection failed and the filler backs off instead of giving up
    loop = filler._task
    assert loop is not None
    await filler.stop()
    assert loop.cancelled(), "stop() cancels the back-off instead of sitting it out"
    assert not filler.running


async def test_selfplay_over_http_gets_none_of_the_forbidden_errors(server: Server, wiped: None) -> None:
    result = await selfplay.run(server.base_url, KEY, games=10, tables=5, every=0)
    assert result.games == 10 and not result.failures
    assert result.watched() == dict.fromkeys(WATCHED, 0)
    assert sum(result.stats.errors.values()) == 0, result.stats.errors
    assert result.timeouts == 0
    assert "SUMMARY selfplay games=10 speech_contains_secret_word=0 text_too_long=0 wrong_phase=0" in selfplay.report(
        result, 5)
