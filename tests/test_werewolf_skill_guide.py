"""Every curl request in werewolf-skill.md, run against the app in the state the guide describes.

The guide follows the rules of undercover-skill.md's test (`tests/test_skill_guide.py`, whose parser, shell
expansion and shape check this reuses): one curl per ```bash block, `<!-- expect: STATUS [code] -->` above it,
the ```json after it the shape of the real response. A setup builds real state through the API for each block,
chosen by the route and the action (`night_action` by its `action` too), or by the error code the guide promises.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from tests.api.werewolf_table import WerewolfTable, scripted
from tests.benchmarks.guide_setups import measure_setups
from tests.test_skill_guide import Block, fresh_key, parse_guide
from tests.tournaments.guide_setups import tournament_setups

GUIDE = Path(__file__).resolve().parents[1] / "werewolf-skill.md"
Values = dict[str, str]
Setup = Callable[[httpx.AsyncClient, Block], Awaitable[Values]]


def seat_values(table: WerewolfTable, seat: int) -> Values:
    return {"MATCH": table.match_id, "KEY": table.keys[seat], "TOKEN": table.tokens[seat]}


def target_of(block: Block) -> int | None:
    target = block.curl.json_body.get("target_seat")
    return int(target) if target is not None else None


async def started(client: httpx.AsyncClient, n: int = 12, **config: Any) -> tuple[WerewolfTable, list[str]]:
    table = WerewolfTable(client, n, **config)
    await table.open()
    return table, await table.roles()


async def dealt(client: httpx.AsyncClient, fits: Callable[[list[str]], bool], n: int = 12,
                **config: Any) -> tuple[WerewolfTable, list[str]]:
    """A started table whose deal `fits` (roles are dealt at random: tables are dealt until one does)."""
    for _ in range(80):
        table, roles = await started(client, n, **config)
        if fits(roles):
            return table, roles
    raise AssertionError("no deal fitted")


async def act(table: WerewolfTable, seat: int, body: dict[str, Any]) -> None:
    response = await table.act(seat, body)
    assert response.status_code == 200, response.text


async def first_step_done(table: WerewolfTable, roles: list[str], victim: int | None) -> None:
    """Night 1's first step: the wolves kill `victim` (None: no kill), the seer and the guard pass."""
    for seat, role in enumerate(roles):
        if (await table.snap(seat))["you"]["next_action"] != "night_action":
            continue  # the pack has decided without this wolf
        if role == "werewolf":
            kill = {"action": "kill", "target_seat": victim} if victim is not None else {"action": "pass"}
            await act(table, seat, {"type": "night_action", **kill})
        elif role in ("seer", "guard"):
            await act(table, seat, {"type": "night_action", "action": "pass"})


async def until(table: WerewolfTable, done: Callable[[dict[str, Any]], bool],
                spare: frozenset[int] = frozenset()) -> dict[str, Any]:
    """Scripted play (wolves kill the lowest good seat not in `spare`, the witch passes, votes and shots avoid
    `spare`) until the anonymous snapshot is `done`."""
    roles = await table.roles()
    for _ in range(200):
        snap = await table.snap(None)
        if done(snap):
            return snap
        assert snap["status"] == "in_progress", snap["phase"]
        for seat in range(table.n):
            mine = await table.snap(seat)
            move = scripted(mine, random.Random(seat))
            if move is None:
                continue
            if move.get("action") == "kill":
                move["target_seat"] = min(s for s in mine["alive_seats"] if roles[s] != "werewolf" and s not in spare)
            if move.get("action") in ("save", "poison", "guard", "check"):
                move = {"type": "night_action", "action": "pass"}
            if move["type"] in ("vote", "shoot"):
                offered = next(o for o in mine["you"]["allowed_actions"] if o["type"] == move["type"])["targets"]
                other_camp = [t for t in offered if (roles[t] == "werewolf") is (roles[seat] != "werewolf")]
                safe = [t for t in other_camp if t not in spare]
                move["target_seat"] = (safe or [t for t in offered if t not in spare] or [None])[0]
            await act(table, seat, move)
    raise AssertionError("never reached")


# ---------------------------------------------------------------- setups


async def no_state(client: httpx.AsyncClient, block: Block) -> Values:
    return {}


async def free_agent(client: httpx.AsyncClient, block: Block) -> Values:
    return {"KEY": await fresh_key(client)}


async def lobby(client: httpx.AsyncClient, block: Block) -> Values:
    """A werewolf room that needs one more player, and a free agent to fill it."""
    table = WerewolfTable(client, 6)
    await table.open(fill=False)
    for seat in range(1, 5):
        await table.join(seat)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def outsider(client: httpx.AsyncClient, block: Block) -> Values:
    table, _ = await started(client, 6)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


def role_seat(role: str, night_action: str | None = None) -> Setup:
    """$KEY holds `role` at night 1 (a seat other than the block's target, for actions that may not name
    themselves)."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        target = target_of(block)
        selfless = night_action in ("check", "poison", "whisper")
        table, roles = await dealt(client, lambda r: role in r and (not selfless or r[target or 0] != role or (
            role == "werewolf" and r.count("werewolf") > 1)), allow_whisper=True)
        seat = next(s for s, r in enumerate(roles) if r == role and s != (target if selfless else None))
        if night_action == "whisper":
            assert roles[target or 0] == "werewolf"
        return seat_values(table, seat)

    return setup


async def wolf_with_fellow_at_target(client: httpx.AsyncClient, block: Block) -> Values:
    target = target_of(block)
    table, roles = await dealt(client, lambda r: r[target or 0] == "werewolf", allow_whisper=True)
    return seat_values(table, next(s for s, r in enumerate(roles) if r == "werewolf" and s != target))


async def witch_woken(client: httpx.AsyncClient, block: Block) -> Values:
    """Night 1, the witch's step: the wolves killed a villager; the witch is not the block's target."""
    target = target_of(block)
    table, roles = await dealt(client, lambda r: r[target or 0] not in ("witch", "werewolf"))
    victim = next(s for s, r in enumerate(roles) if r == "villager" and s != target)
    await first_step_done(table, roles, victim)
    witch = roles.index("witch")
    assert (await table.snap(witch))["you"]["next_action"] == "night_action"
    return seat_values(table, witch)


async def witch_no_victim(client: httpx.AsyncClient, block: Block) -> Values:
    table, roles = await started(client)
    await first_step_done(table, roles, None)
    return seat_values(table, roles.index("witch"))


async def seer_checked(client: httpx.AsyncClient, block: Block) -> Values:
    table, roles = await started(client)
    seer = roles.index("seer")
    await act(table, seer, {"type": "night_action", "action": "check", "target_seat": (seer + 1) % table.n})
    return seat_values(table, seer)


async def villager(client: httpx.AsyncClient, block: Block) -> Values:
    table, roles = await started(client)
    return seat_values(table, roles.index("villager"))


async def hunter_shot_due(client: httpx.AsyncClient, block: Block) -> Values:
    """9 seats: the wolves killed the hunter on night 1; his shot is due. The block's target is alive."""
    target = target_of(block)
    table, roles = await dealt(client, lambda r: r[target or 0] != "hunter", n=9)
    hunter = roles.index("hunter")
    await first_step_done(table, roles, hunter)
    await act(table, roles.index("witch"), {"type": "night_action", "action": "pass"})
    assert (await table.snap(hunter))["you"]["next_action"] == "shoot"
    return seat_values(table, hunter)


async def last_words_due(client: httpx.AsyncClient, block: Block) -> Values:
    """A villager killed on night 1 (first-night last words on): its last words are due."""
    table, roles = await started(client)
    victim = roles.index("villager")
    await first_step_done(table, roles, victim)
    await act(table, roles.index("witch"), {"type": "night_action", "action": "pass"})
    assert (await table.snap(victim))["you"]["next_action"] == "last_words"
    return seat_values(table, victim)


def day_seat(stage: str) -> Setup:
    """$KEY is due to speak (`speak`) or to vote (`vote`, for a living seat that is not itself)."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        target = target_of(block)
        day = f"{stage}_round_"
        for _ in range(5):  # a deal can end before the day it needs (the night's deaths decide it): deal again
            table, roles = await dealt(client, lambda r: target is None or r[target] == "werewolf")
            spare = frozenset({target} if target is not None else ())
            snap = await until(table, lambda s: s["status"] != "in_progress" or s["phase"].startswith(day), spare=spare)
            if snap["status"] == "in_progress":
                break
        assert snap["status"] == "in_progress", "five deals ended before the day"
        if stage == "speak":
            return seat_values(table, snap["current_speaker_seat"])
        voter = next(s for s in snap["alive_seats"] if s != target and roles[s] != "werewolf")
        assert (await table.snap(voter))["you"]["next_action"] == "vote"
        return seat_values(table, voter)

    return setup


async def voted(client: httpx.AsyncClient, block: Block) -> Values:
    values = await day_seat("vote")(client, block)
    snap = (await client.get(f"/api/matches/{values['MATCH']}", headers={"Authorization": f"Bearer {values['KEY']}"}
                             )).json()
    offered = next(o for o in snap["you"]["allowed_actions"] if o["type"] == "vote")["targets"]
    response = await client.post(f"/api/matches/{values['MATCH']}/action", json={"type": "vote",
                                 "target_seat": offered[0]}, headers={"Authorization": f"Bearer {values['KEY']}"})
    assert response.status_code == 200, response.text
    return values


async def conceded(client: httpx.AsyncClient, block: Block) -> Values:
    values = await villager(client, block)
    response = await client.post(f"/api/matches/{values['MATCH']}/concede",
                                 headers={"Authorization": f"Bearer {values['KEY']}"})
    assert response.status_code == 200 and response.json()["match_status"] == "in_progress", response.text
    return values


async def finished(client: httpx.AsyncClient, block: Block) -> Values:
    """6 seats: both wolves concede; the village has won."""
    table, roles = await started(client, 6)
    for seat, role in enumerate(roles):
        if role == "werewolf":
            await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(seat))
    assert (await table.snap(None))["status"] == "finished"
    return seat_values(table, roles.index("villager"))


SUCCESS_SETUPS: dict[tuple[str, str, str | None], Setup] = {
    ("POST", "/api/agents", None): no_state,
    ("GET", "/api/games", None): no_state,
    ("POST", "/api/matches", None): free_agent,
    ("GET", "/api/matches", None): lobby,
    ("POST", "/api/matches/$MATCH/join", None): lobby,
    ("GET", "/api/matches/$MATCH", None): role_seat("werewolf"),
    ("GET", "/api/matches/$MATCH/events", None): role_seat("werewolf"),
    ("POST", "/api/matches/$MATCH/action", "night_action:kill"): role_seat("werewolf"),
    ("POST", "/api/matches/$MATCH/action", "night_action:check"): role_seat("seer", "check"),
    ("POST", "/api/matches/$MATCH/action", "night_action:guard"): role_seat("guard"),
    ("POST", "/api/matches/$MATCH/action", "night_action:pass"): role_seat("seer"),
    ("POST", "/api/matches/$MATCH/action", "night_action:save"): witch_woken,
    ("POST", "/api/matches/$MATCH/action", "night_action:poison"): witch_woken,
    ("POST", "/api/matches/$MATCH/action", "whisper"): wolf_with_fellow_at_target,
    ("POST", "/api/matches/$MATCH/action", "shoot"): hunter_shot_due,
    ("POST", "/api/matches/$MATCH/action", "last_words"): last_words_due,
    ("POST", "/api/matches/$MATCH/action", "speak"): day_seat("speak"),
    ("POST", "/api/matches/$MATCH/action", "skip"): day_seat("speak"),
    ("POST", "/api/matches/$MATCH/action", "vote"): day_seat("vote"),
    ("POST", "/api/matches/$MATCH/concede", None): villager,
}

ERROR_SETUPS: dict[str, Setup] = {
    "auth_required": role_seat("werewolf"),
    "agent_not_in_match": outsider,
    "not_your_night_role": villager,
    "not_your_night_turn": role_seat("witch"),
    "night_action_done": seer_checked,
    "no_victim_to_save": witch_no_victim,
    "not_your_shot": villager,
    "wrong_phase": villager,
    "invalid_target": role_seat("seer"),
    "whisper_target_not_fellow": villager,
    "bad_request": role_seat("werewolf"),
    "you_are_eliminated": conceded,
    "already_voted": voted,
    "match_finished": finished,
    "invalid_config": free_agent,
}

MEASURE, MEASURE_ERRORS = measure_setups("werewolf", {})  # the "Measure your agent" section
SUCCESS_SETUPS.update(MEASURE)
ERROR_SETUPS.update(MEASURE_ERRORS)
EVENTS, EVENT_ERRORS = tournament_setups("werewolf", {})  # the "Enter a tournament" section
for route, setup in EVENTS.items():
    SUCCESS_SETUPS.setdefault(route, setup)
ERROR_SETUPS.update(EVENT_ERRORS)


def setup_for(block: Block) -> Setup:
    if block.code is not None:
        assert block.code in ERROR_SETUPS, f"line {block.line}: no setup builds the state for {block.code}"
        return ERROR_SETUPS[block.code]
    action = block.curl.action
    if action == "night_action":
        action = f"night_action:{block.curl.json_body['action']}"
    key = (block.curl.method, block.curl.route, action)
    assert key in SUCCESS_SETUPS, f"line {block.line}: no setup for {key}"
    return SUCCESS_SETUPS[key]


# ---------------------------------------------------------------- the tests

BLOCKS = parse_guide(GUIDE.read_text(encoding="utf-8"))



def test_every_action_and_night_action_has_an_example() -> None:
    shown = {block.curl.action for block in BLOCKS if block.code is None} - {None}
    night = {block.curl.json_body.get("action") for block in BLOCKS if block.curl.action == "night_action"}
    assert shown >= {"night_action", "whisper", "speak", "skip", "vote", "shoot", "last_words"}, shown
    assert night >= {"kill", "check", "guard", "save", "poison", "pass"}, night




def test_every_next_action_value_is_explained() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for value in ("night_action", "speak", "vote", "shoot", "last_words", "wait_for_speak_round",
                  "wait_for_vote_resolution", "wait_for_next_phase", "eliminated", "none"):
        assert f"| `{value}` |" in text, value
