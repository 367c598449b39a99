"""剧本杀 over HTTP: a complete compressed game of six agents that investigate, chat, trade, reveal, speak and vote
(each acting only from its own snapshot, `ready` moving the stages on), with every viewer layer checked on the way
and at the end; read-only actions answer with their data and leave the log alone; refusals carry the DM's line."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.db import matches as repo
from app.services.match import matches as service
from tests.api.helpers import assert_error
from tests.api.table import Table
from tests.api.test_owners import cookie_of, jar, sign_up


class ScriptKillTable(Table):
    game = "script_kill"

    def __init__(self, client: httpx.AsyncClient, **config: Any) -> None:
        super().__init__(client, 6)
        self.config = {"timing": "compressed", "script": "tiny", **config}


def mine(visibility: str, seat: int, character: str) -> bool:
    """What a seat may see while the match runs."""
    if visibility == "public":
        return True
    kind, _, target = visibility.removeprefix("private:").partition(":")
    return (kind == "seat" and target == str(seat)) or (kind == "character" and target == character) or (
        kind == "pair" and str(seat) in target.split(":"))


class Agent:
    """One seat's policy, from its own snapshot only; remembers what it already did in a stage."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng
        self.done: set[tuple[str, str]] = set()

    def once(self, phase: str, what: str) -> bool:
        if (phase, what) in self.done:
            return False
        self.done.add((phase, what))
        return True

    def move(self, snap: dict[str, Any]) -> dict[str, Any] | None:
        you, phase = snap["you"], snap["phase"]
        offers = {o["type"]: o for o in you["allowed_actions"]}
        if "vote" in offers:
            return {"type": "vote", "target": self.rng.choice(offers["vote"]["targets"])}
        if "use_power" in offers and self.once(phase, "power"):
            o = offers["use_power"]
            return {"type": "use_power", "power": o["powers"][0],
                    "target": self.rng.choice(o.get("targets") or o.get("locations") or [None])}
        if "investigate" in offers:
            return {"type": "investigate", "location": self.rng.choice(offers["investigate"]["locations"])}
        if "trade" in offers and self.once(phase, "trade"):
            o = offers["trade"]
            return {"type": "trade", "item": o["items"][0], "to": self.rng.choice(o["targets"])}
        if "private_chat" in offers and self.once(phase, "chat"):
            to = (self.seat + 1) % 6
            return {"type": "private_chat", "to": to, "text": f"{self.seat} 对 {to} 说：我怀疑商人。"}
        if you["next_action"] == "speak" and self.once(phase, "speak"):
            return {"type": "speak", "text": f"{self.seat} 号位：我先说说我知道的。"}
        if "reveal_clue" in offers and offers["reveal_clue"]["clues"] and self.once(phase, "reveal"):
            return {"type": "reveal_clue", "clue": offers["reveal_clue"]["clues"][0]}
        if "ready" in offers:
            return {"type": "ready"}
        return None


async def _fire_review_timer(app: FastAPI, match_id: str) -> None:
    """The review's clock runs out: the runtime's clock jumps past the deadline and the timer fires."""
    runtime = app.state.runtime
    async with runtime.db.writer() as session:
        match = await repo.get(session, match_id)
        assert match is not None and match.timer_due is not None
        due, token = match.timer_due, match.timer_token
    runtime.clock = lambda: max(time.time(), due + 1)
    try:
        assert await service.fire_timer(runtime, match_id, token)
    finally:
        runtime.clock = time.time


def _check_layers(events: dict[int | None, list[dict[str, Any]]], everything: list[dict[str, Any]],
                  characters: dict[int, str]) -> None:
    """Anonymous sees exactly the public events; each seat exactly what is its own; nothing more."""
    assert events[None] == [e for e in everything if e["visibility"] == "public"]
    for seat, character in characters.items():
        assert events[seat] == [e for e in everything if mine(e["visibility"], seat, character)]
    others = {c for s, c in characters.items()}
    for seat, character in characters.items():
        leaked = [e for e in events[seat] if e["visibility"].startswith("private:character:")
                  and e["visibility"] != f"private:character:{character}"]
        assert leaked == [] and character in others


async def test_a_complete_compressed_game_with_six_agents(app: FastAPI, client: httpx.AsyncClient) -> None:
    table = ScriptKillTable(client, compete_mode=True)  # rated: the result counts per side
    table.claim = True
    await table.open()
    watcher = cookie_of(await sign_up(client, "sk-watcher"))
    agents = [Agent(seat, random.Random(seat)) for seat in range(6)]
    first = await table.snap(0)
    assert first["status"] == "in_progress" and first["sub_stage"] == "script_handout"
    characters = {seat: (await table.snap(seat))["you"]["character"]["id"] for seat in range(6)}
    assert sorted(characters.values()) == [f"c{n}" for n in range(1, 7)]
    checked_mid_game = False
    for _ in range(400):
        snaps = [await table.snap(0)]
        if snaps[0]["phase"] == "review":
            break
        if snaps[0]["phase"] == "final_vote" and not checked_mid_game:
            god = await _god_log(app, table.match_id)
            _check_layers({s: await table.events(s) for s in [None, *range(6)]}, god, characters)
            assert "culprit" not in snaps[0] and "tally" not in snaps[0]
            for seat in range(6):  # reconnect: the snapshot alone holds the seat's hand, as the read-only asks say
                you = (await table.snap(seat))["you"]
                assert you["items"] == (await table.act(seat, {"type": "list_items"})).json()["items"]
                assert you["clues"] == (await table.act(seat, {"type": "list_clues"})).json()["clues"]
                assert you["character"]["id"] == characters[seat] and you["character"]["script"]
                chats = [e for e in await table.events(seat) if e["type"] == "private_chat" and e["to"] == seat]
                assert {c["seq"] for c in you["unread_private_chats"]["chats"]} <= {e["seq"] for e in chats}
            watching = await client.get(f"/api/matches/{table.match_id}", headers=jar(watcher))
            assert watching.json()["viewer_role"] == "spectator"  # compete_mode: no live god view
            assert "spectator_log" not in watching.json() and "hands" not in watching.json()
            checked_mid_game = True
        moved = False
        for seat in range(6):
            snap = await table.snap(seat)
            body = agents[seat].move(snap)
            if body is None:
                continue
            answer = await table.act(seat, body)
            assert answer.status_code == 200, (seat, body, answer.text)
            moved = True
        assert moved, snaps[0]["phase"]
    assert checked_mid_game
    review = await table.snap(0)
    assert review["status"] == "in_progress" and review["ending"] in ("perfect", "normal", "failure")
    await _fire_review_timer(app, table.match_id)
    end = await table.snap()
    assert end["status"] == "finished" and end["result"]["ending"] == review["ending"]
    assert end["culprit"] == "c4" and end["tally"] and end["viewer_capabilities"]["can_see_culprit"]
    everything = await table.events()
    for seat in [None, *range(6)]:
        assert await table.events(seat) == everything  # after the end every viewer sees every event
    watched = (await client.get(f"/api/matches/{table.match_id}", headers=jar(watcher))).json()
    assert watched["hands"] and len(watched["public_log"]) + len(watched["spectator_log"]) == len(everything)
    types = {e["type"] for e in everything}
    assert {"investigated", "clue_found", "private_chat", "speech", "anchor", "vote_cast", "vote_result", "ending",
            "review", "match_finished"} <= types
    assert [e["text"] for e in everything if e["type"] == "anchor"] == [
        "【锚点一】庄主的遗嘱被人动过：原本留给管家的遗产，改成了留给商人。",
        "【锚点二】警方来电：水果刀上的血迹属于庄主，刀柄上的指纹被擦掉了。"]
    culprit = (await client.get(f"/api/agents/{table.names[end['result']['culprit_seat']]}")).json()
    won = end["result"]["winner_camp"] == "culprit"
    assert culprit["stats"]["script_kill"] == {"culprit": {"games": 1, "wins": int(won)}}
    assert culprit["ratings"]["script_kill"]["rated_games"] == 1
    games = {g["name"]: g for g in (await client.get("/api/games")).json()["games"]}
    listed = games["script_kill"]
    assert listed["config_defaults"]["timing"] == "standard" and listed["sides"] == ["innocent", "culprit"]
    assert set(listed["actions"]) == {"list_clues", "list_items", "inspect", "speak", "reveal_clue", "investigate",
                                      "use_power", "use_item", "trade", "private_chat", "vote", "ready", "concede"}
    assert listed["errors"]["stage_forbids"]["status"] == 409


async def _god_log(app: FastAPI, match_id: str) -> list[dict[str, Any]]:
    async with app.state.runtime.db.writer() as session:
        match = await repo.get(session, match_id)
        assert match is not None
        return await repo.events_after(session, match_id, 0, match.events_total)


async def test_read_only_actions_reply_without_an_event(client: httpx.AsyncClient) -> None:
    table = ScriptKillTable(client)
    await table.open()
    before = (await table.snap(0))["events_total"]
    first = await table.act(0, {"type": "list_items"})
    again = await table.act(0, {"type": "list_items"})
    assert first.status_code == again.status_code == 200
    assert first.json()["items"] == again.json()["items"] and first.json()["items"]
    assert first.json()["seq"] == before and (await table.snap(0))["events_total"] == before
    item = first.json()["items"][0]["id"]
    inspected = await table.act(0, {"type": "inspect", "item": item})
    assert inspected.json()["inspected"]["id"] == item
    clues = await table.act(0, {"type": "list_clues"})
    assert clues.json()["clues"] == [] and (await table.snap(0))["events_total"] == before
    keyed = {"Idempotency-Key": "sk-list-1", **table.h(0)}
    once = await client.post(f"/api/matches/{table.match_id}/action", json={"type": "list_clues"}, headers=keyed)
    twice = await client.post(f"/api/matches/{table.match_id}/action", json={"type": "list_clues"}, headers=keyed)
    assert once.json() == twice.json() and twice.headers.get("Idempotent-Replayed") == "true"


async def test_refusals_carry_the_dm_line(client: httpx.AsyncClient) -> None:
    table = ScriptKillTable(client)
    await table.open()
    body = assert_error(await table.act(0, {"type": "investigate", "location": "study"}), 409, "stage_forbids")
    assert body["message"] == "本阶段不可调查，请等待主持人宣布探索开始。"
    assert body["detail"]["allowed_actions"]
    assert_error(await table.act(0, {"type": "vote", "target": 1}), 409, "stage_forbids")
    assert_error(await table.act(0, {"type": "investigate"}), 400, "bad_request")
    assert_error(await table.act(0, {"type": "ready", "extra": 1}), 400, "bad_request")


@pytest.mark.parametrize("wait_for", ["your_turn"])
async def test_your_turn_wakes_on_ready(client: httpx.AsyncClient, wait_for: str) -> None:
    table = ScriptKillTable(client)
    await table.open()
    snap = await table.snap(0, wait=1, wait_for=wait_for)
    assert snap["you"]["your_turn"] and snap["you"]["next_action"] == "ready"
