"""Every curl request in script_kill-skill.md, run against the app in the state the guide describes.

The guide follows the rules of undercover-skill.md's test (`tests/test_skill_guide.py`, whose parser, shell
expansion and shape check this reuses): one curl per ```bash block, `<!-- expect: STATUS [code] -->` above it,
the ```json after it the shape of the real response (and, for an error, its DM message word for word). A setup
builds real state through the API for each block — a table of six agents on the test script `tiny` with the
standard clocks (no timer fires while a setup runs), driven to the stage the block needs with `ready` and the
self-introductions, the block's key held by the character whose items or power the request names — chosen by the
route and the action, or by the error code the guide promises.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from app.games.script_kill.errors import ERRORS as GAME_ERRORS
from app.games.script_kill.stages import GATES, SUB_STAGES
from tests.api.table import Table
from tests.benchmarks.guide_setups import measure_setups
from tests.test_skill_guide import Block, fresh_key, parse_guide
from tests.tournaments.guide_setups import tournament_setups

GUIDE = Path(__file__).resolve().parents[1] / "script_kill-skill.md"
STAGES = ("script_handout", "self_intro", "explore_r1", "discuss_r1", "anchor_r1", "explore_r2", "discuss_r2",
          "anchor_r2", "final_discuss", "final_vote")
Values = dict[str, str]
Setup = Callable[[httpx.AsyncClient, Block], Awaitable[Values]]
Hook = Callable[["SkTable", dict[str, int]], Awaitable[None]]


class SkTable(Table):
    """Six agents at a script_kill table on the test script, with the standard (long) clocks."""

    game = "script_kill"

    def __init__(self, client: httpx.AsyncClient) -> None:
        super().__init__(client, 6)
        self.config = {"timing": "standard", "script": "tiny"}

    async def cast(self) -> dict[str, int]:
        """Character id → the seat playing it."""
        return {(await self.snap(s))["you"]["character"]["id"]: s for s in range(self.n)}

    async def ok(self, seat: int, body: dict[str, Any]) -> None:
        response = await self.act(seat, body)
        assert response.status_code == 200, (body, response.text)

    async def to_stage(self, target: str, hooks: dict[str, Hook] | None = None) -> dict[str, int]:
        """Drive the table to `target` (everyone ready, each self-introduction spoken); `hooks[stage]` runs on
        entering that stage. Returns the cast."""
        cast = await self.cast()
        ran: set[str] = set()
        for _ in range(40):
            snap = await self.snap(0)
            stage = snap["sub_stage"]
            if hooks and stage in hooks and stage not in ran:
                ran.add(stage)
                await hooks[stage](self, cast)
            if stage == target:
                return cast
            if stage == "self_intro":
                await self.ok(snap["speaker"], {"type": "speak", "text": "大家好，我是山庄的客人。"})
                continue
            for seat in range(self.n):
                offered = {o["type"] for o in (await self.snap(seat))["you"]["allowed_actions"]}
                if "ready" in offered:
                    await self.ok(seat, {"type": "ready"})
        raise AssertionError(f"never reached {target}")


def values(table: SkTable, seat: int) -> Values:
    return {"MATCH": table.match_id, "KEY": table.keys[seat], "TOKEN": table.tokens[seat]}


def addressee(block: Block) -> int | None:
    body = block.curl.json_body
    named = body.get("to", body.get("target"))
    return named if isinstance(named, int) else None


async def dealt(client: httpx.AsyncClient, character: str | None, block: Block) -> tuple[SkTable, int]:
    """A started table and the seat of `character` (any seat but the block's addressee when None); tables are
    dealt until that seat is not the one the request names."""
    for _ in range(30):
        table = SkTable(client)
        await table.open()
        cast = await table.cast()
        seat = cast[character] if character else (1 if addressee(block) == 0 else 0)
        if seat != addressee(block):
            return table, seat
    raise AssertionError(f"{character} always sat at seat {addressee(block)}")


def seat_in(stage: str, character: str | None = None, hooks: dict[str, Hook] | None = None) -> Setup:
    """$KEY plays `character` (or any seat the request does not name) and the table is in `stage`."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        table, seat = await dealt(client, character, block)
        await table.to_stage(stage, hooks)
        return values(table, seat)

    return setup


def after(stage: str, character: str | None, *moves: dict[str, Any]) -> Setup:
    """`seat_in(stage, character)`, then $KEY has sent `moves`."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        table, seat = await dealt(client, character, block)
        await table.to_stage(stage)
        for move in moves:
            await table.ok(seat, move)
        return values(table, seat)

    return setup


async def search_study_first(table: SkTable, cast: dict[str, int]) -> None:
    """explore_r1: every seat searches the study once (its first clue there is k01)."""
    for seat in range(table.n):
        await table.ok(seat, {"type": "investigate", "location": "study"})


async def no_state(client: httpx.AsyncClient, block: Block) -> Values:
    return {}


async def free_agent(client: httpx.AsyncClient, block: Block) -> Values:
    return {"KEY": await fresh_key(client)}


async def lobby(client: httpx.AsyncClient, block: Block) -> Values:
    """A script_kill room that needs one more player, and a free agent to fill it."""
    table = SkTable(client)
    await table.open(fill=False)
    for seat in range(1, 5):
        await table.join(seat)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def outsider(client: httpx.AsyncClient, block: Block) -> Values:
    table = SkTable(client)
    await table.open()
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def self_intro_not_speaker(client: httpx.AsyncClient, block: Block) -> Values:
    table = SkTable(client)
    await table.open()
    await table.to_stage("self_intro")
    assert (await table.snap(0))["speaker"] == 0
    return values(table, 1)


async def self_intro_spoken(client: httpx.AsyncClient, block: Block) -> Values:
    table = SkTable(client)
    await table.open()
    await table.to_stage("self_intro")
    await table.ok(0, {"type": "speak", "text": "大家好，我先介绍自己。"})
    return values(table, 0)


async def voted(client: httpx.AsyncClient, block: Block) -> Values:
    table, seat = await dealt(client, None, block)
    await table.to_stage("final_vote")
    await table.ok(seat, {"type": "vote", "target": addressee(block)})
    return values(table, seat)


async def searched_three_times(client: httpx.AsyncClient, block: Block) -> Values:
    table, seat = await dealt(client, None, block)
    await table.to_stage("explore_r1")
    for place in ("study", "garden", "hall"):
        await table.ok(seat, {"type": "investigate", "location": place})
    return values(table, seat)


USE_P1 = {"type": "use_power", "power": "p1", "target": 0}

SUCCESS_SETUPS: dict[tuple[str, str, str | None], Setup] = {
    ("POST", "/api/agents", None): no_state,
    ("GET", "/api/games", None): no_state,
    ("POST", "/api/matches", None): free_agent,
    ("GET", "/api/matches", None): lobby,
    ("POST", "/api/matches/$MATCH/join", None): lobby,
    ("GET", "/api/matches/$MATCH", None): seat_in("explore_r1", "c1"),
    ("GET", "/api/matches/$MATCH/events", None): seat_in("explore_r1", "c1", {"explore_r1": search_study_first}),
    ("POST", "/api/matches/$MATCH/action", "list_clues"): seat_in("script_handout", "c1"),
    ("POST", "/api/matches/$MATCH/action", "list_items"): seat_in("script_handout", "c1"),
    ("POST", "/api/matches/$MATCH/action", "inspect"): seat_in("script_handout", "c1"),
    ("POST", "/api/matches/$MATCH/action", "ready"): seat_in("script_handout"),
    ("POST", "/api/matches/$MATCH/action", "investigate"): seat_in("explore_r1"),
    ("POST", "/api/matches/$MATCH/action", "use_power"): seat_in("explore_r1", "c2"),
    ("POST", "/api/matches/$MATCH/action", "use_item"): seat_in("explore_r1", "c2"),
    ("POST", "/api/matches/$MATCH/action", "trade"): seat_in("explore_r1", "c1"),
    ("POST", "/api/matches/$MATCH/action", "private_chat"): seat_in("explore_r1"),
    ("POST", "/api/matches/$MATCH/action", "speak"): seat_in("discuss_r1"),
    ("POST", "/api/matches/$MATCH/action", "reveal_clue"): seat_in("discuss_r1", None,
                                                                   {"explore_r1": search_study_first}),
    ("POST", "/api/matches/$MATCH/action", "vote"): seat_in("final_vote"),
}

ERROR_SETUPS: dict[str, Setup] = {
    "stage_forbids": seat_in("script_handout"),
    "investigation_limit": searched_three_times,
    "unknown_location": seat_in("explore_r1"),
    "power_used": after("explore_r1", "c2", USE_P1),
    "power_locked": seat_in("explore_r1", "c5"),
    "no_power": seat_in("explore_r1", "c1"),
    "item_used_up": after("explore_r1", "c2", {"type": "use_item", "item": "i03"}),
    "item_not_usable": seat_in("explore_r1", "c1"),
    "key_item_not_tradable": seat_in("explore_r1", "c4"),
    "item_not_tradable": seat_in("explore_r1", "c3"),
    "not_your_item": seat_in("explore_r1", "c3"),
    "invalid_target": seat_in("explore_r1"),
    "unknown_clue": seat_in("discuss_r1"),
    "not_your_turn": self_intro_not_speaker,
    "already_spoke": self_intro_spoken,
    "already_ready": after("script_handout", None, {"type": "ready"}),
    "already_voted": voted,
    "bad_request": seat_in("explore_r1"),
    "auth_required": outsider,
    "agent_not_in_match": outsider,
    "invalid_config": free_agent,
}

MEASURE, MEASURE_ERRORS = measure_setups("script_kill", {})  # the "Measure your agent" section
SUCCESS_SETUPS.update(MEASURE)
ERROR_SETUPS.update(MEASURE_ERRORS)
EVENTS, EVENT_ERRORS = tournament_setups("script_kill", {})  # the "Enter a tournament" section
for route, setup in EVENTS.items():
    SUCCESS_SETUPS.setdefault(route, setup)
ERROR_SETUPS.update(EVENT_ERRORS)


def setup_for(block: Block) -> Setup:
    if block.code is not None:
        assert block.code in ERROR_SETUPS, f"line {block.line}: no setup builds the state for {block.code}"
        return ERROR_SETUPS[block.code]
    key = (block.curl.method, block.curl.route, block.curl.action)
    assert key in SUCCESS_SETUPS, f"line {block.line}: no setup for {key}"
    return SUCCESS_SETUPS[key]


# ---------------------------------------------------------------- the tests

BLOCKS = parse_guide(GUIDE.read_text(encoding="utf-8"))



def test_every_command_has_an_example_and_every_dm_refusal_is_shown() -> None:
    shown = {block.curl.action for block in BLOCKS if block.code is None} - {None}
    assert shown == set(GATES), shown
    refused = {block.code for block in BLOCKS if block.code is not None}
    assert set(GAME_ERRORS) <= refused, set(GAME_ERRORS) - refused




def test_the_stage_table_matches_the_engine_and_names_both_presets() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for number, sub in enumerate(SUB_STAGES):
        row = re.search(rf"^\| {number} \| `{sub.id}` \| `{sub.stage}` \| {sub.round_no} \| (.+?) \| (.+?) \|",
                        text, flags=re.MULTILINE)
        assert row, sub.id
        assert _seconds(row[1]) == sub.standard and _seconds(row[2]) == sub.compressed, (sub.id, row.groups())
    assert all(f"`{s}`" in text for s in STAGES)


def test_the_visibilities_and_next_actions_are_explained() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for visibility in ("`public`", "`private:character:<id>`", "`private:pair:<a>:<b>`", "`private:seat:<n>`",
                       "`god_only`"):
        assert f"| {visibility} |" in text, visibility
    for value in ("ready", "speak", "investigate", "vote", "wait_for_speak_round", "wait_for_next_phase",
                  "wait_for_vote_resolution", "eliminated", "none"):
        assert f"| `{value}` |" in text, value


def _seconds(cell: str) -> int:
    number, unit = cell.split()
    return int(number) * (60 if unit == "min" else 1)

