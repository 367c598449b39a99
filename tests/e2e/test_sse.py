"""The SSE stream over real HTTP (uvicorn in a subprocess): a whole game read from the stream matches the log, a
reconnect with `Last-Event-ID` gets exactly the missing events, and the audience's stream carries no private event."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from httpx_sse import aconnect_sse

from app.protocol.viewer import can_see
from tests.api.helpers import assert_error, bearer, register
from tests.api.table import Table
from tests.conftest import _wipe
from tests.e2e.server import Server

Event = dict[str, Any]


@pytest.fixture(scope="module")
async def live(database_url: str) -> AsyncIterator[Server]:
    server = Server(database_url, WODI_STREAMS_PER_CLIENT="3").start()
    try:
        yield server
    finally:
        server.stop()
        await _wipe(database_url)


@pytest.fixture
async def http(live: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.base_url, timeout=60) as client:
        yield client


async def read_stream(client: httpx.AsyncClient, match_id: str, into: list[Event],
                      headers: dict[str, str] | None = None, **params: Any) -> str:
    """Append every event of the stream to `into`; returns the `end` message's status."""
    url = f"/api/matches/{match_id}/events/stream"
    async with aconnect_sse(client, "GET", url, headers=headers or {}, params=params) as source:
        assert source.response.headers["content-type"].startswith("text/event-stream")
        async for message in source.aiter_sse():
            if message.event == "end":
                assert " " not in message.data, message.data  # compact JSON, as every event's data
                return str(json.loads(message.data)["status"])
            event = json.loads(message.data)
            assert message.event == "message" and message.id == str(event["seq"])
            into.append(event)
    raise AssertionError("the stream closed without its end message")


async def spectator(live: Server) -> httpx.AsyncClient:
    """A logged-in owner of none of the seats: the protocol's `spectator` layer (god view while live)."""
    client = httpx.AsyncClient(base_url=live.base_url, timeout=60)
    signed = await client.post("/api/owners", json={"username": f"watcher{id(client) % 10**6}",
                                                    "password": "correct horse battery"})
    assert signed.status_code == 201, signed.text
    return client


async def test_a_whole_game_from_the_stream_and_a_resume_with_last_event_id(http: httpx.AsyncClient,
                                                                             live: Server) -> None:
    table = Table(http, 6)
    await table.open()
    watcher = await spectator(live)
    outsider = await register(http, f"outsider-{table.match_id}")
    god: list[Event] = []
    anonymous: list[Event] = []
    outsider_seen: list[Event] = []
    player: list[Event] = []
    first_part: list[Event] = []
    second_part: list[Event] = []
    readers = [
        asyncio.create_task(read_stream(watcher, table.match_id, god)),
        asyncio.create_task(read_stream(http, table.match_id, anonymous)),
        asyncio.create_task(read_stream(http, table.match_id, outsider_seen, bearer(outsider["api_key"]))),
        asyncio.create_task(read_stream(http, table.match_id, player, table.h(2))),
    ]
    interrupted = asyncio.create_task(read_stream(http, table.match_id, first_part, table.h(2)))
    resumed: list[asyncio.Task[str]] = []
    steps = 0

    async def on_step(t: Table) -> None:
        nonlocal steps
        steps += 1
        if steps == 2:  # mid-game: drop the connection …
            interrupted.cancel()
        if steps == 5:  # … and come back three steps later with the last id it received
            assert first_part, "the first part received events"
            resumed.append(asyncio.create_task(read_stream(http, t.match_id, second_part,
                                                           {**t.h(2), "Last-Event-ID": str(first_part[-1]["seq"])})))

    final = await table.play(on_step=on_step)
    assert final["status"] == "finished"
    assert await asyncio.gather(*readers, *resumed) == ["finished"] * 5
    log = await table.events(None)  # after the end: every event

    assert god == log, "the spectator (god view) stream is the whole log"
    assert anonymous == [e for e in log if e["visibility"] == "public"]
    assert outsider_seen == anonymous, "a Bearer without a seat watches as the audience"
    assert all(e["visibility"] == "public" for e in anonymous)
    assert any(e["visibility"] != "public" for e in log)
    roles = frozenset({next(p["role"] for p in final["players"] if p["seat"] == 2)})
    assert player == [e for e in log if can_see(e["visibility"], god=False, seat=2, roles=roles)]

    assert second_part, "events happened while the stream was away"
    assert first_part[-1]["seq"] < second_part[0]["seq"]
    assert first_part + second_part == player, "the resume carries exactly the missing events"
    await watcher.aclose()


async def test_a_spectators_stream_of_a_competitive_match_carries_no_private_event(http: httpx.AsyncClient,
                                                                                   live: Server) -> None:
    """In a `compete_mode` match a logged-in spectator gets the god view only at the end (issue 19), so its stream
    (a live feed to the end) carries no private event, exactly like the audience's."""
    table = Table(http, 4, compete_mode=True)
    await table.open()
    watcher = await spectator(live)
    seen: list[Event] = []
    reader = asyncio.create_task(read_stream(watcher, table.match_id, seen))
    final = await table.play()
    assert final["status"] == "finished" and await reader == "finished"
    log = await table.events(None)
    assert any(e["visibility"] != "public" for e in log), "the match had private events"
    assert seen == [e for e in log if e["visibility"] == "public"]
    await watcher.aclose()


async def test_since_resumes_too_and_a_finished_match_just_ends(http: httpx.AsyncClient) -> None:
    table = Table(http, 4)
    await table.open()
    await table.play()
    log = [e for e in await table.events(None) if e["visibility"] == "public"]
    tail: list[Event] = []
    assert await read_stream(http, table.match_id, tail, since=log[-5]["seq"]) == "finished"
    assert tail == log[-4:]
    nothing: list[Event] = []
    assert await read_stream(http, table.match_id, nothing, {"Last-Event-ID": str(log[-1]["seq"])}) == "finished"
    assert nothing == []


async def test_stream_errors_are_the_envelope(http: httpx.AsyncClient) -> None:
    table = Table(http, 4)
    await table.open(fill=False)
    assert_error(await http.get("/api/matches/nosuch00/events/stream"), 404, "match_not_found")
    assert_error(await http.get(f"/api/matches/{table.match_id}/events/stream",
                                headers={"X-Play-Token": "pk_live_" + "x" * 43}), 401, "invalid_play_token")
    assert_error(await http.get(f"/api/matches/{table.match_id}/events/stream",
                                headers={"Last-Event-ID": "seven"}), 400, "bad_request")


async def test_concurrent_streams_per_client_are_capped(http: httpx.AsyncClient, live: Server) -> None:
    """`WODI_STREAMS_PER_CLIENT=3` here: a fourth stream of one API key is refused while three are open; closing
    one frees its slot."""
    table = Table(http, 4)
    await table.open(fill=False)
    url = f"{live.base_url}/api/matches/{table.match_id}/events/stream"
    async with httpx.AsyncClient(timeout=60) as streams:
        opened = [await streams.send(streams.build_request("GET", url, headers=table.h(0)), stream=True)
                  for _ in range(3)]
        assert [r.status_code for r in opened] == [200, 200, 200]
        refused = await http.get(url, headers=table.h(0))
        assert_error(refused, 429, "too_many_streams")
        assert refused.json()["detail"]["limit"] == 3
        assert (await http.get(f"/api/matches/{table.match_id}", headers=table.h(0))).status_code == 200
        await opened[0].aclose()
        for _ in range(200):
            again = await streams.send(streams.build_request("GET", url, headers=table.h(0)), stream=True)
            if again.status_code == 200:
                break
            await again.aclose()
            await asyncio.sleep(0.05)
        assert again.status_code == 200
        for response in [*opened[1:], again]:
            await response.aclose()


async def test_keys_seated_elsewhere_share_their_ip_s_cap(http: httpx.AsyncClient, live: Server) -> None:
    """Issue 26: throwaway keys that hold no seat in the match count against their IP's cap (3 here), not one cap
    each; a seated key keeps its own."""
    table = Table(http, 4)
    await table.open(fill=False)
    strangers = [(await register(http, f"stranger-{i}-{table.match_id}"))["api_key"] for i in range(4)]
    url = f"{live.base_url}/api/matches/{table.match_id}/events/stream"
    async with httpx.AsyncClient(timeout=60) as streams:
        opened = [await streams.send(streams.build_request("GET", url, headers=bearer(key)), stream=True)
                  for key in strangers[:3]]
        try:
            assert [r.status_code for r in opened] == [200, 200, 200]
            for headers in (bearer(strangers[3]), {}):  # a fourth key, and no key: the IP's cap is full
                refused = await streams.send(streams.build_request("GET", url, headers=headers), stream=True)
                opened.append(refused)
                assert refused.status_code == 429
                await refused.aread()
                assert_error(refused, 429, "too_many_streams")
            seated = await streams.send(streams.build_request("GET", url, headers=table.h(0)), stream=True)
            opened.append(seated)
            assert seated.status_code == 200  # the host's key is seated here: a cap of its own
        finally:
            for response in opened:
                await response.aclose()
        for _ in range(200):  # the server frees the slots as it sees the streams close: the next test needs them
            again = await streams.send(streams.build_request("GET", url), stream=True)
            await again.aclose()
            if again.status_code == 200:
                break
            await asyncio.sleep(0.05)
        assert again.status_code == 200


async def test_an_idle_stream_gets_keep_alive_comments(http: httpx.AsyncClient) -> None:
    """A waiting room produces no events; the stream still sends a comment line every 15 s, so proxies and clients
    do not take it for dead."""
    table = Table(http, 4)
    await table.open(fill=False)
    lines: list[str] = []
    async with http.stream("GET", f"/api/matches/{table.match_id}/events/stream",
                           params={"since": 10**6}) as response:
        assert response.status_code == 200
        async for line in response.aiter_lines():
            lines.append(line)
            if line.startswith(":"):
                break
    assert lines[-1].startswith(": ping") and not any(line.startswith("data:") for line in lines)


def test_sigterm_ends_open_streams_before_the_server_exits(database_url: str) -> None:
    """A graceful restart does not wait for streams that would run for a whole match: each ends (without `end`, so
    the client resumes with Last-Event-ID elsewhere) and the process exits cleanly."""
    import threading

    server = Server(database_url).start()
    try:
        key = httpx.post(f"{server.base_url}/api/agents", json={"name": "stream-host"}).json()["api_key"]
        created = httpx.post(f"{server.base_url}/api/matches", json={"game": "undercover"},
                             headers={"Authorization": f"Bearer {key}"}).json()
        ended: list[list[str]] = []
        connected = threading.Barrier(4)

        cut: list[Exception] = []

        def watch() -> None:
            lines: list[str] = []
            try:
                with httpx.stream("GET", f"{server.base_url}/api/matches/{created['match_id']}/events/stream",
                                  timeout=60) as response:
                    for line in response.iter_lines():
                        lines.append(line)
                        if line.startswith("id:") and len([x for x in lines if x.startswith("id:")]) == 1:
                            connected.wait(30)
            except httpx.HTTPError as exc:  # a connection cut instead of a completed response
                cut.append(exc)
            ended.append(lines)

        watchers = [threading.Thread(target=watch) for _ in range(3)]
        for watcher in watchers:
            watcher.start()
        connected.wait(30)  # every stream has received the room's first event
        assert server.process is not None
        server.process.terminate()
        for watcher in watchers:
            watcher.join(60)
        assert not cut, "each stream's response was completed, not cut"
        assert len(ended) == 3 and all(not any(line.startswith("event: end") for line in lines) for lines in ended)
        assert server.process.wait(30) in (0, -15)
    finally:
        server.stop()
