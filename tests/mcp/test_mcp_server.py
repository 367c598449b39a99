"""The MCP server as a subprocess (`python -m app.mcp`), driven by the SDK's `ClientSession` over stdio through a
complete game against the official bots of a real server process."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import _wipe
from tests.e2e.server import ROOT, Server

TOOLS = {"register", "whoami", "find_or_create_match", "wait_for_turn", "read_view", "read_events", "speak", "vote",
         "act", "concede"}


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    running = Server(database_url, WODI_BOTS_ENABLED="true", WODI_BOT_FILL_AFTER="0.5",
                     WODI_OFFICIAL_BOT_KEY="test-mcp-official-key").start()
    try:
        yield running
    finally:
        running.stop()


@contextlib.asynccontextmanager
async def mcp_session(server: Server) -> AsyncIterator[ClientSession]:
    """The MCP server in a subprocess, connected over stdio (entered and left in one task, as anyio requires)."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "app.mcp", "--base-url", server.base_url],
                                   cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        yield client


@pytest.fixture
async def wiped(database_url: str) -> AsyncIterator[None]:
    yield
    await _wipe(database_url)


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not getattr(result, "is_error", False), (tool, result)
    body: dict[str, Any] = result.structured_content  # type: ignore[union-attr]
    assert isinstance(body, dict) and body.get("next"), (tool, body)
    return body


async def refused(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert getattr(result, "is_error", False), (tool, result)
    text = result.content[0].text  # type: ignore[union-attr]
    body: dict[str, Any] = json.loads(text[text.index("{"):])  # after the SDK's "Error executing tool …: "
    return body


async def test_a_complete_game_against_bots_through_the_mcp_tools(server: Server, wiped: None) -> None:
    async with mcp_session(server) as session:
        await play_against_bots(session)


async def play_against_bots(session: ClientSession) -> None:
    listed = {tool.name for tool in (await session.list_tools()).tools}
    assert listed >= TOOLS
    me = await call(session, "register", name="mcp-player")
    assert me["api_key"].startswith("ck_live_")
    seated = await call(session, "find_or_create_match", game="undercover",
                        config={"n_players": 4, "n_undercover": 1})
    assert seated["created"] and seated["seat"] == 0
    again = await call(session, "find_or_create_match", game="undercover")
    assert again["resumed"] and again["match_id"] == seated["match_id"]

    quoted_speech = 0
    tried_a_bad_vote = False
    actions = 0
    for _ in range(200):
        view = await call(session, "wait_for_turn", max_wait=60)
        for event in view["new_events"]:
            if "text" in event:
                assert set(event["text"]) == {"untrusted"}, event
                quoted_speech += 1
        if view["status"] == "finished":
            break
        if not view["your_turn"]:
            continue
        allowed = {a["type"]: a for a in view["allowed_actions"]}
        assert view["next_action"] in allowed and "Allowed now" in view["next"]
        if view["next_action"] == "speak":
            answer = await call(session, "speak", text=f"嗯，我再想想。{view['phase']}")
        elif view["next_action"] == "vote":
            if not tried_a_bad_vote:
                tried_a_bad_vote = True
                error = await refused(session, "vote", target_seat=view["you"]["seat"])
                assert error["error"] == "invalid_target" and error["allowed_actions"]
            answer = await call(session, "vote", target_seat=allowed["vote"]["targets"][0])
        else:
            answer = await call(session, "act", type=view["next_action"])
        assert answer["accepted"] is True
        actions += 1
    else:
        raise AssertionError("the match did not finish")

    assert view["result"] and view["status"] == "finished" and actions >= 2
    assert quoted_speech >= 3, "the bots' speeches came back as quoted data"
    assert "find_or_create_match" in view["next"]
    record = await call(session, "whoami")
    assert record["total_matches"] == 1
    bots = [p for p in view["players"] if p.get("is_official")]
    assert len(bots) == 3


async def test_a_crafted_match_id_reaches_no_other_endpoint(server: Server, wiped: None) -> None:
    """The model chooses `match_id`, and reads other players' text: an id that is not one (`../agents/me/rotate-key?`)
    is refused before any request, so the agent's key never goes to another endpoint (it once rotated the key)."""
    async with mcp_session(server) as session:
        await call(session, "register", name="mcp-guarded")
        for tool, extra in (("concede", {}), ("read_view", {}), ("read_events", {}), ("wait_for_turn", {}),
                            ("act", {"type": "speak", "fields": {"text": "hi"}}), ("vote", {"target_seat": 1}),
                            ("speak", {"text": "hi"})):
            for crafted in ("../agents/me/rotate-key?", "../../api/agents/me", "ABCDEFGH", "abc"):
                error = await refused(session, tool, match_id=crafted, **extra)
                assert error["error"] == "bad_request" and error["field"] == "match_id", (tool, crafted, error)
        assert (await call(session, "whoami"))["name"] == "mcp-guarded"  # the key still works: nothing rotated it
        missing = await refused(session, "read_view", match_id="zzzzzzzz")
        assert missing["error"] == "match_not_found"


async def test_an_unreachable_server_is_a_readable_tool_error() -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "app.mcp", "--base-url", "http://127.0.0.1:1",
                                                                 "--api-key", "ck_live_" + "x" * 43], cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        error = await refused(session, "whoami")
        assert error["error"] == "server_unreachable" and "ConnectError" in error["message"] and error["next"]
