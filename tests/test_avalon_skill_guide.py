"""Every curl request in avalon-skill.md, run against the app in the state the guide describes (the contract
suite's skill-guide runner calls `setup_for`; `tests/test_skill_guide.py` has the parser and the checks).

A setup builds real state through the API for each block, chosen by the route and the action, or by the error
code the guide promises. Roles and the first leader are dealt at random, so a setup that needs a seat in a given
role (or a given seat number in the guide's body) deals tables until one fits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from tests.api.table import Table
from tests.test_skill_guide import Block, fresh_key, parse_guide

GUIDE = Path(__file__).resolve().parents[1] / "avalon-skill.md"
Values = dict[str, str]
Setup = Callable[[httpx.AsyncClient, Block], Awaitable[Values]]
SLOW = {"speak_timeout": 600, "vote_timeout": 600, "assassin_timeout": 900}
EVIL = ("assassin", "morgana", "mordred", "oberon", "minion")


class AvalonTable(Table):
    game = "avalon"

    def __init__(self, client: httpx.AsyncClient, n: int = 5, **config: Any) -> None:
        super().__init__(client, n)
        self.config = {"n_players": n, **SLOW, **config}
        self.roles: list[str] = []

    def values(self, seat: int) -> Values:
        return {"MATCH": self.match_id, "KEY": self.keys[seat], "TOKEN": self.tokens[seat]}

    async def ok(self, seat: int, body: dict[str, Any]) -> None:
        response = await self.act(seat, body)
        assert response.status_code == 200, response.text

    async def public(self) -> dict[str, Any]:
        return await self.snap(None)

    def good(self) -> list[int]:
        return [s for s, r in enumerate(self.roles) if r not in EVIL]

    def evil(self) -> list[int]:
        return [s for s, r in enumerate(self.roles) if r in EVIL]

    async def propose(self, fail: bool = False) -> list[int]:
        snap = await self.public()
        size = snap["quest_sizes"][snap["quest_no"] - 1]
        team = (self.evil()[:1] + self.good())[:size] if fail else self.good()[:size]
        await self.ok(snap["leader_seat"], {"type": "propose", "team": team})
        return team

    async def to_vote(self) -> None:
        while (snap := await self.public())["phase"] == "discuss":
            await self.ok(snap["current_speaker_seat"], {"type": "skip"})

    async def approve(self) -> None:
        for seat in range(self.n):
            await self.ok(seat, {"type": "vote", "choice": "approve"})

    async def quest(self, fail: bool = False) -> None:
        team = await self.propose(fail)
        await self.to_vote()
        await self.approve()
        for seat in team:
            await self.ok(seat, {"type": "quest", "card": "fail" if fail and seat in self.evil() else "success"})


async def dealt(client: httpx.AsyncClient, fits: Callable[[AvalonTable, dict[str, Any]], bool] = lambda t, s: True,
                **config: Any) -> AvalonTable:
    """A started 5-seat table whose deal `fits` (roles, first leader, Lady: tables are dealt until one does)."""
    for _ in range(60):
        table = AvalonTable(client, **config)
        await table.open()
        table.roles = [(await table.snap(seat))["you"]["role"] for seat in range(table.n)]
        if fits(table, await table.public()):
            return table
    raise AssertionError("no deal fitted")


def target_of(block: Block) -> int:
    return int(block.curl.json_body.get("target_seat", 0))


# ---------------------------------------------------------------- setups


async def no_state(client: httpx.AsyncClient, block: Block) -> Values:
    return {}


async def free_agent(client: httpx.AsyncClient, block: Block) -> Values:
    return {"KEY": await fresh_key(client)}


async def lobby(client: httpx.AsyncClient, block: Block) -> Values:
    """An Avalon room that needs one more player, and a free agent to fill it."""
    table = AvalonTable(client)
    await table.open(fill=False)
    for seat in range(1, 4):
        await table.join(seat)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def outsider(client: httpx.AsyncClient, block: Block) -> Values:
    table = await dealt(client)
    return {"MATCH": table.match_id, "KEY": await fresh_key(client)}


async def merlin_leads(client: httpx.AsyncClient, block: Block) -> Values:
    table = await dealt(client, lambda t, s: t.roles[s["leader_seat"]] == "merlin")
    return table.values(table.roles.index("merlin"))


async def leader(client: httpx.AsyncClient, block: Block) -> Values:
    table = await dealt(client)
    return table.values((await table.public())["leader_seat"])


async def not_leader(client: httpx.AsyncClient, block: Block) -> Values:
    table = await dealt(client)
    return table.values(((await table.public())["leader_seat"] + 1) % table.n)


def discussing(speaker: bool) -> Setup:
    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        table = await dealt(client)
        await table.propose()
        seat = (await table.public())["current_speaker_seat"]
        return table.values(seat if speaker else (seat + 1) % table.n)

    return setup


def voting(voted: bool) -> Setup:
    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        table = await dealt(client)
        await table.propose()
        await table.to_vote()
        if voted:
            await table.ok(0, {"type": "vote", "choice": "approve"})
        return table.values(0)

    return setup


def questing(who: str) -> Setup:
    """The quest phase of quest 1 (a good team): a member (`member`, `good`), one that played (`played`), a seat
    not on the team (`outside`)."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        table = await dealt(client)
        team = await table.propose()
        await table.to_vote()
        await table.approve()
        if who == "outside":
            return table.values(next(s for s in range(table.n) if s not in team))
        if who == "played":
            await table.ok(team[0], {"type": "quest", "card": "success"})
        return table.values(team[0])

    return setup


def lady_phase(who: str) -> Setup:
    """Lady of the Lake after quest 2: its holder (the block's target not the holder), another seat, or — after
    quest 3 — the next holder, when the block's target held the Lady first."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        target = target_of(block)
        if who == "second":
            table = await dealt(client, lambda t, s: s["lady_seat"] == target, lady_of_the_lake=True)
        else:
            table = await dealt(client, lambda t, s: s["lady_seat"] != target, lady_of_the_lake=True)
        await table.quest()
        await table.quest(fail=True)
        holder = (await table.public())["lady_seat"]
        if who == "holder":
            return table.values(holder)
        if who == "other":
            return table.values(next(s for s in range(table.n) if s != holder))
        examined = next(s for s in range(table.n) if s != holder)
        await table.ok(holder, {"type": "lady", "target_seat": examined})
        await table.quest()
        assert (await table.public())["lady_seat"] == examined
        return table.values(examined)

    return setup


def assassination(role: str, target_role: str | None = "good") -> Setup:
    """Three clean quests; $KEY is the seat in `role` (`good`: a good seat); the block's target is a good seat
    (or Morgana)."""

    async def setup(client: httpx.AsyncClient, block: Block) -> Values:
        target = target_of(block)

        def fits(t: AvalonTable, s: dict[str, Any]) -> bool:
            want = t.roles[target] == "morgana" if target_role == "morgana" else t.roles[target] not in EVIL
            return want or target_role is None

        table = await dealt(client, fits)
        for _ in range(3):
            await table.quest()
        assert (await table.public())["phase"] == "assassinate"
        seat = table.good()[0] if role == "good" else table.roles.index(role)
        return table.values(seat)

    return setup


async def conceded(client: httpx.AsyncClient, block: Block) -> Values:
    table = await dealt(client)
    seat = ((await table.public())["leader_seat"] + 1) % table.n
    response = await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(seat))
    assert response.status_code == 200, response.text
    return table.values(seat)


async def finished(client: httpx.AsyncClient, block: Block) -> Values:
    """Everyone left: the match ended without a winner."""
    table = await dealt(client)
    for seat in range(table.n):
        await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(seat))
    assert (await table.public())["status"] == "finished"
    return table.values(0)


ACTION = "/api/matches/$MATCH/action"
SUCCESS_SETUPS: dict[tuple[str, str, str | None], Setup] = {
    ("POST", "/api/agents", None): no_state,
    ("GET", "/api/games", None): no_state,
    ("POST", "/api/matches", None): free_agent,
    ("GET", "/api/matches", None): lobby,
    ("POST", "/api/matches/$MATCH/join", None): lobby,
    ("GET", "/api/matches/$MATCH", None): merlin_leads,
    ("GET", "/api/matches/$MATCH/events", None): leader,
    ("POST", ACTION, "propose"): leader,
    ("POST", ACTION, "speak"): discussing(speaker=True),
    ("POST", ACTION, "skip"): discussing(speaker=True),
    ("POST", ACTION, "vote"): voting(voted=False),
    ("POST", ACTION, "quest"): questing("member"),
    ("POST", ACTION, "lady"): lady_phase("holder"),
    ("POST", ACTION, "confer"): assassination("morgana", None),
    ("POST", ACTION, "assassinate"): assassination("assassin"),
    ("POST", "/api/matches/$MATCH/concede", None): leader,
}

ERROR_SETUPS: dict[str, Setup] = {
    "not_the_leader": not_leader,
    "wrong_team_size": leader,
    "duplicate_team_member": leader,
    "invalid_target": leader,
    "wrong_phase": leader,
    "not_your_turn_to_speak": discussing(speaker=False),
    "already_voted": voting(voted=True),
    "not_on_the_team": questing("outside"),
    "card_already_played": questing("played"),
    "good_cannot_fail": questing("member"),
    "not_the_lady": lady_phase("other"),
    "lady_already_held": lady_phase("second"),
    "evil_only": assassination("good", None),
    "not_the_assassin": assassination("morgana"),
    "target_is_ally": assassination("assassin", "morgana"),
    "bad_request": leader,
    "auth_required": leader,
    "agent_not_in_match": outsider,
    "you_are_eliminated": conceded,
    "match_finished": finished,
    "invalid_config": free_agent,
}


def setup_for(block: Block) -> Setup:
    if block.code is not None:
        assert block.code in ERROR_SETUPS, f"line {block.line}: no setup builds the state for {block.code}"
        return ERROR_SETUPS[block.code]
    key = (block.curl.method, block.curl.route, block.curl.action)
    assert key in SUCCESS_SETUPS, f"line {block.line}: no setup for {key}"
    return SUCCESS_SETUPS[key]


BLOCKS = parse_guide(GUIDE.read_text(encoding="utf-8"))


def test_every_action_has_an_example() -> None:
    shown = {block.curl.action for block in BLOCKS if block.code is None} - {None}
    assert shown == {"propose", "speak", "skip", "vote", "quest", "lady", "confer", "assassinate"}, shown


def test_every_next_action_value_is_explained() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    for value in ("propose", "speak", "vote", "quest", "lady", "assassinate", "confer", "wait"):
        assert f"| `{value}` |" in text, value
