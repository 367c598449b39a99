"""Werewolf over HTTP (issue 15): complete 6-, 9- and 12-player games played by scripted agents acting from their
own snapshots, with the four viewer layers checked after every step; every night action of a night sent at the
same instant resolves once; the game's own error codes with their status and the envelope; unknown fields
refused; `wait_for=your_turn` waking on `night_action`."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.helpers import assert_error
from tests.api.werewolf_table import RACE_CODES, Layers, WerewolfTable, night_move, scripted, whole_log

GOOD = {"villager", "seer", "witch", "hunter", "guard"}


def assert_result_matches_roles(result: dict[str, Any], roles: list[str], win_rule: str,
                                alive: set[int]) -> None:
    """The result names the camp that the living seats make the winner, and every seat of it."""
    camp = {seat: ("werewolf" if role == "werewolf" else "village") for seat, role in enumerate(roles)}
    assert result["roles"] == {str(seat): role for seat, role in enumerate(roles)}
    assert sorted(result["winning_seats"]) == sorted(s for s, c in camp.items() if c == result["winner_camp"])
    assert sorted(result["losing_seats"]) == sorted(s for s, c in camp.items() if c != result["winner_camp"])
    living = [roles[s] for s in alive]
    if result["winner_camp"] == "village":
        assert "werewolf" not in living
    elif result["reason"] != "max_rounds_reached":
        villagers, gods = "villager" in living, bool(GOOD - {"villager"} & set(living))
        assert not (villagers and gods) if win_rule == "side" else not (villagers or gods)


@pytest.mark.parametrize(("n", "config"), [
    (6, {}),
    (9, {"reveal_role_on_death": "role", "tie_break": "random"}),
    (12, {"win_rule": "all", "reveal_role_on_death": "team", "allow_whisper": True}),
])
async def test_a_complete_game_with_every_layer_checked_after_every_step(
        client: httpx.AsyncClient, n: int, config: dict[str, Any]) -> None:
    table = WerewolfTable(client, n, **config)
    await table.register()
    layers = await Layers.attach(table, owned_seat=1)
    created = await client.post("/api/matches", json={"game": "werewolf", "config": table.config},
                                headers=table.h(0))
    assert created.status_code == 201, created.text
    table.match_id = created.json()["match_id"]
    table.tokens.append(created.json()["play_token"])
    for seat in range(1, n):
        await table.join(seat)
    roles = await table.roles()
    assert Counter(roles) == Counter(created.json()["config"]["roles"])
    await layers.check()

    final = await table.play(rng=random.Random(n), on_step=layers.check)

    result = final["result"]
    alive = {p["seat"] for p in final["players"] if p["alive"]}
    assert final["status"] == "finished" and result["winner_camp"] in ("village", "werewolf")
    assert_result_matches_roles(result, roles, config.get("win_rule", "side"), alive)
    log = await whole_log(client, table.match_id)
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1)), "after the end anyone reads the whole log"
    for seat in range(n):
        assert len(await whole_log(client, table.match_id, table.keys[seat])) == len(log)
    nights = Counter(e["round"] for e in log if e["type"] == "night_result")
    assert nights and set(nights.values()) == {1}
    assert layers.checks > 5
    # The statistics count the match per (game, side).
    for seat in range(n):
        profile = (await client.get(f"/api/agents/{table.names[seat]}")).json()
        side = "werewolf" if roles[seat] == "werewolf" else "village"
        assert profile["stats"]["werewolf"][side] == {"games": 1, "wins": int(seat in result["winning_seats"])}


def burst(snap: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """At night, what a living night role sends at once, due or not: its choice twice, and a wolf's whisper; the
    witch sends hers while the wolves are still choosing."""
    you = snap["you"]
    offers = [o for o in you["allowed_actions"] if o["type"] == "night_action"]
    if not snap["is_night"] or not you["alive"]:
        return []
    if you["role"] == "witch" and not offers:
        return [{"type": "night_action", "action": "pass"}]
    if not offers:
        return []
    move = night_move(you, rng)
    extra = [{"type": "whisper", "target_seat": o["targets"][0], "text": "刀最小的好人"}
             for o in you["allowed_actions"] if o["type"] == "whisper"]
    return [move, move, *extra]


@pytest.mark.parametrize("n", [9, 12])
async def test_every_night_action_of_a_night_sent_at_once_resolves_once(app: FastAPI, client: httpx.AsyncClient,
                                                                       n: int) -> None:
    transport = httpx.ASGITransport(app=app)
    clients = [httpx.AsyncClient(transport=transport, base_url="http://testserver") for _ in range(n)]
    rng = random.Random(n)
    statuses: Counter[tuple[int, str]] = Counter()
    accepted: Counter[tuple[int, int, int, str]] = Counter()  # (game, round, seat, night action) accepted
    try:
        for game in range(2):
            table = WerewolfTable(client, n, allow_whisper=True)
            await table.open()
            for _ in range(600):
                snaps = [await table.snap(seat) for seat in range(n)]
                if snaps[0]["status"] != "in_progress":
                    break
                if snaps[0]["is_night"]:
                    sends = [(seat, body) for seat, snap in enumerate(snaps) for body in burst(snap, rng)]
                else:
                    sends = [(seat, body) for seat, snap in enumerate(snaps) if (body := scripted(snap, rng))]
                assert sends, snaps[0]["phase"]
                answers = await asyncio.gather(*(
                    clients[seat].post(f"/api/matches/{table.match_id}/action", json=body, headers=table.h(seat))
                    for seat, body in sends))
                for (seat, body), answer in zip(sends, answers, strict=True):
                    code = "ok" if answer.status_code == 200 else answer.json()["error"]
                    statuses[(answer.status_code, code)] += 1
                    if answer.status_code == 200 and body["type"] == "night_action":
                        accepted[(game, snaps[0]["round_index"], seat, body["action"])] += 1
            else:
                raise AssertionError("the match did not end")
            log = await whole_log(client, table.match_id)
            assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
            assert set(Counter(e["round"] for e in log if e["type"] == "night_result").values()) == {1}
            for kind in ("wolves_decided", "seer_result", "night_resolved"):
                assert set(Counter(e["round"] for e in log if e["type"] == kind).values()) <= {1}, kind
            recorded = Counter((e["round"], e["seat"]) for e in log if e["type"] == "night_action_recorded")
            assert set(recorded.values()) <= {1}, "a seer, guard or witch acts once a night"
    finally:
        for http in clients:
            await http.aclose()
    # A duplicate may also arrive after the dawn that an action of the same instant brought has killed its sender.
    clean = {(409, code) for code in RACE_CODES} | {(403, "you_are_eliminated"), (200, "ok")}
    assert set(statuses) <= clean, statuses
    refused = {code for (status, code) in statuses if status != 200}
    assert "night_action_done" in refused, "duplicates were sent, so some were refused"
    solo = [key for key in accepted if key[3] in ("check", "guard", "save", "poison")]
    assert solo and all(accepted[key] == 1 for key in solo), {k: v for k, v in accepted.items() if v > 1}


async def test_own_error_codes_come_back_with_their_status_and_the_envelope(client: httpx.AsyncClient) -> None:
    table = WerewolfTable(client, 12)
    await table.open()
    roles = await table.roles()
    villager, witch, guard = (roles.index(r) for r in ("villager", "witch", "guard"))
    wolf = roles.index("werewolf")
    url = f"/api/matches/{table.match_id}/action"
    games = {g["name"]: g for g in (await client.get("/api/games")).json()["games"]}
    assert games["werewolf"]["errors"]["not_your_night_role"] == {
        "status": 403, "message": "your role has no such night action"}

    body = assert_error(await table.act(villager, {"type": "night_action", "action": "kill", "target_seat": wolf}),
                        403, "not_your_night_role")
    assert body["message"] == "a villager cannot kill" and body["detail"]["role"] == "villager"
    assert body["detail"]["allowed_actions"] == [{"type": "concede"}]
    assert_error(await table.act(witch, {"type": "night_action", "action": "pass"}), 409, "not_your_night_turn")
    assert_error(await table.act(wolf, {"type": "night_action", "action": "kill", "target_seat": 0, "colour": "red"}),
                 400, "bad_request")
    unknown = assert_error(await client.post(url, json={"type": "night_action", "action": "kill", "target_seat": 1,
                                                         "targets": [1]}, headers=table.h(wolf)), 400, "bad_request")
    assert "targets" in unknown["message"] or "targets" in str(unknown["detail"])
    assert_error(await table.act(wolf, {"type": "night_action", "action": "dance"}), 400, "bad_request")
    assert_error(await table.act(wolf, {"type": "speak", "text": "天亮了"}), 409, "wrong_phase")

    # Night 1: the guard protects seat 0, so on night 2 seat 0 is refused with the guard's own 422.
    guarded = await table.act(guard, {"type": "night_action", "action": "guard", "target_seat": 0})
    assert guarded.status_code == 200, guarded.text
    assert_error(await table.act(guard, {"type": "night_action", "action": "guard", "target_seat": 1}),
                 409, "night_action_done")
    # Nobody harms the guard on night 1 or day 1: the wolves kill another seat, the witch passes, the village
    # votes a wolf out (the wolf votes for a villager), a shot passes.
    target = next(s for s, r in enumerate(roles) if r in ("villager", "seer") and s != guard)

    def spare_the_guard(snap: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
        you = snap["you"]
        if not you["your_turn"] or snap["round_index"] == 2:
            return None
        if you["next_action"] == "night_action":
            kill = {"type": "night_action", "action": "kill", "target_seat": target}
            return kill if you["role"] == "werewolf" else {"type": "night_action", "action": "pass"}
        if you["next_action"] == "vote":
            offered = next(o for o in you["allowed_actions"] if o["type"] == "vote")["targets"]
            good = min(t for t in offered if t != guard and roles[t] != "werewolf")
            return {"type": "vote", "target_seat": wolf if you["seat"] != wolf else good}
        if you["next_action"] == "shoot":
            return {"type": "shoot", "target_seat": None}
        return scripted(snap, rng)

    rng = random.Random(1)
    for _ in range(100):
        snap = await table.snap(guard)
        if snap["round_index"] == 2 and snap["is_night"]:
            break
        for seat in range(table.n):
            move = spare_the_guard(await table.snap(seat), rng)
            if move is not None:
                answer = await table.act(seat, move)
                assert answer.status_code == 200 or answer.json()["error"] in RACE_CODES, answer.text
    assert snap["status"] == "in_progress" and snap["you"]["alive"] and snap["you"]["last_guarded"] == 0
    refused = assert_error(await table.act(guard, {"type": "night_action", "action": "guard", "target_seat": 0}),
                           422, "guard_same_target")
    assert refused["detail"]["target_seat"] == 0
    assert 0 not in next(o for o in refused["detail"]["allowed_actions"] if o.get("action") == "guard")["targets"]


async def test_wait_for_your_turn_wakes_on_night_action(client: httpx.AsyncClient) -> None:
    table = WerewolfTable(client, 6)
    await table.open()
    roles = await table.roles()
    witch = roles.index("witch")
    first = await table.snap(witch)
    assert first["you"]["next_action"] == "wait_for_next_phase" and first["you"]["your_turn"] is False
    waiting = asyncio.create_task(table.snap(witch, wait=30, wait_for="your_turn"))
    await asyncio.sleep(0.05)
    assert not waiting.done(), "the witch's turn has not come"
    for seat, role in enumerate(roles):
        if role in ("werewolf", "seer"):
            move = scripted(await table.snap(seat), random.Random(seat))
            assert move is not None
            answer = await table.act(seat, move)
            assert answer.status_code == 200, answer.text
    woken = await waiting
    assert woken["you"]["next_action"] == "night_action" and woken["you"]["your_turn"] is True
    assert woken["you"]["night_victim"] is not None
    assert {o.get("action") for o in woken["you"]["allowed_actions"]} >= {"save", "poison", "pass"}
