"""Werewolf tables over HTTP: scripted agents that act only from their own snapshot, and the viewer-layer checks.

A scripted agent reads nothing but its own `GET /api/matches/{id}` view: `you.next_action`, `you.allowed_actions`
(the targets it offers) and what its role knows (`fellow_wolves`, `seer_checks`, `night_victim`). The wolves
agree on the lowest seat that is not a wolf, so a pack never splits; the rest is drawn from a seeded `Random`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.api.helpers import bearer
from tests.api.table import Table
from tests.api.test_owners import ORIGIN, cookie_of, jar, sign_up
from tests.games.werewolf.test_properties import CARD_KEYS, claims

# No timer may fire while a test drives the table (the night, speech and vote clocks are long).
SLOW = {"night_timeout": 600, "speak_timeout": 600, "vote_timeout": 600}
# What a night action sent at the same instant as others may meet: the pack decided, the step moved on to the
# witch, the whole night is over (no witch step: dawn came at once), or that dawn ended the match.
RACE_CODES = frozenset({"night_action_done", "not_your_night_turn", "wrong_phase", "match_finished"})
Policy = Callable[[dict[str, Any], random.Random], dict[str, Any] | None]


class WerewolfTable(Table):
    """`n` fresh agents at a werewolf table (`config` on top of the long clocks)."""

    game = "werewolf"

    def __init__(self, client: httpx.AsyncClient, n: int, **config: Any) -> None:
        super().__init__(client, n)
        self.config = {"n_players": n, **SLOW, **config}

    async def roles(self) -> list[str]:
        """Each seat's role, as its own snapshot tells it."""
        return [(await self.snap(seat))["you"]["role"] for seat in range(self.n)]

    async def play(self, policy: Policy = lambda snap, rng: scripted(snap, rng),  # type: ignore[override]
                   rng: random.Random | None = None, max_steps: int = 600,
                   on_step: Callable[[WerewolfTable], Awaitable[None]] | None = None) -> dict[str, Any]:
        """Play to the end; every seat whose turn it is acts, all at the same instant."""
        rng = rng or random.Random(0)
        for _ in range(max_steps):
            snaps = [await self.snap(seat) for seat in range(self.n)]
            if snaps[0]["status"] != "in_progress":
                return snaps[0]
            moves = [(seat, body) for seat, snap in enumerate(snaps) if (body := policy(snap, rng)) is not None]
            assert moves, f"nobody acts in {snaps[0]['phase']}"
            answers = await asyncio.gather(*(self.act(seat, body) for seat, body in moves))
            for (seat, body), answer in zip(moves, answers, strict=True):
                assert answer.status_code == 200 or (
                    answer.status_code == 409 and answer.json()["error"] in RACE_CODES), (seat, body, answer.text)
            if on_step is not None:
                await on_step(self)
        raise AssertionError("the match did not end")


def offer(snap: dict[str, Any], kind: str, action: str | None = None) -> dict[str, Any] | None:
    """The `allowed_actions` entry of `kind` (and night `action`), if the seat is offered it."""
    return next((o for o in snap["you"]["allowed_actions"] if o["type"] == kind and o.get("action") == action), None)


def scripted(snap: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The seat's next request, from its own snapshot only (None: not its turn)."""
    you = snap["you"]
    if not you["your_turn"]:
        return None
    action = you["next_action"]
    if action == "night_action":
        return night_move(you, rng)
    if action == "speak":
        return {"type": "speak", "text": f"第{snap['round_index']}天：我是好人，听发言再投。"}
    if action == "last_words":
        return {"type": "last_words", "text": "我是好人，大家好好找狼。"}
    if action == "shoot":
        targets = (offer(snap, "shoot") or {}).get("targets") or []
        return {"type": "shoot", "target_seat": rng.choice(targets) if targets and rng.random() < 0.8 else None}
    if action == "vote":
        return {"type": "vote", "target_seat": rng.choice(vote_pool(snap))}
    raise AssertionError(f"your_turn with next_action {action!r}")


def night_move(you: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A night role's choice from what its snapshot offers; `pass` when it has nothing better to do."""
    offers = {o["action"]: o for o in you["allowed_actions"] if o["type"] == "night_action"}
    assert offers, you
    if "kill" in offers:
        targets = offers["kill"]["targets"]
        prey = [t for t in targets if t not in you["fellow_wolves"]] or targets
        return {"type": "night_action", "action": "kill", "target_seat": min(prey)}
    if "check" in offers:
        checked = {c["seat"] for c in you["seer_checks"]}
        targets = [t for t in offers["check"]["targets"] if t not in checked] or offers["check"]["targets"]
        return {"type": "night_action", "action": "check", "target_seat": rng.choice(targets)}
    if "guard" in offers:
        return {"type": "night_action", "action": "guard", "target_seat": rng.choice(offers["guard"]["targets"])}
    if "save" in offers and rng.random() < 0.7:
        return {"type": "night_action", "action": "save", "target_seat": you["night_victim"]}
    if "poison" in offers and rng.random() < 0.3:
        return {"type": "night_action", "action": "poison", "target_seat": rng.choice(offers["poison"]["targets"])}
    return {"type": "night_action", "action": "pass"}


def vote_pool(snap: dict[str, Any]) -> list[int]:
    """Wolves vote for a good seat; a seer for a wolf she found; the others for anyone offered."""
    you, targets = snap["you"], (offer(snap, "vote") or {}).get("targets") or []
    assert targets, snap["you"]
    if you["role"] == "werewolf":
        return [t for t in targets if t not in you["fellow_wolves"]] or targets
    if you["role"] == "seer":
        return [c["seat"] for c in you["seer_checks"] if c["camp"] == "werewolf" and c["seat"] in targets] or targets
    return list(targets)


# ---------------------------------------------------------------- the four viewer layers over HTTP


class Layers:
    """A spectator (a signed-in owner outside the match) and the owner of one seat, to read every layer."""

    def __init__(self, table: WerewolfTable, watcher: str, owner: str, owned_seat: int) -> None:
        self.table, self.watcher, self.owner, self.owned_seat = table, watcher, owner, owned_seat
        self.checks = 0

    @classmethod
    async def attach(cls, table: WerewolfTable, owned_seat: int = 1) -> Layers:
        """Sign up a watcher and an owner, and let the owner claim the agent of `owned_seat` (before it joins)."""
        client, tag = table.client, table.names[owned_seat]
        watcher = cookie_of(await sign_up(client, f"w-{tag}"[:32]))
        owner = cookie_of(await sign_up(client, f"o-{tag}"[:32]))
        me = (await client.get("/api/agents/me", headers=table.h(owned_seat))).json()
        claimed = await client.post(f"/api/agents/claim/{me['claim_url'].rsplit('/', 1)[1]}",
                                    headers={**ORIGIN, **jar(owner)})
        assert claimed.status_code == 200, claimed.text
        client.cookies.clear()
        return cls(table, watcher, owner, owned_seat)

    async def get(self, headers: dict[str, str]) -> dict[str, Any]:
        response = await self.table.client.get(f"/api/matches/{self.table.match_id}", headers=headers)
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def check(self, table: WerewolfTable | None = None) -> None:
        """Every layer now: the spectator sees every card; the anonymous viewer none of a living seat's; a
        seat only its own, the pack's (a wolf) and the camps it checked (the seer); the owner sees what its
        agent sees; after the end everyone sees everything."""
        spectator = await self.get(jar(self.watcher))
        assert spectator["viewer_role"] == "spectator"
        truth = {int(seat): role for seat, role in spectator["roles"].items()}
        assert [p["role"] for p in spectator["players"]] == [truth[s] for s in range(self.table.n)]
        assert len(spectator["public_log"]) + len(spectator["spectator_log"]) == spectator["events_total"]
        over = spectator["status"] in ("finished", "aborted")
        alive = {p["seat"] for p in spectator["players"] if p["alive"]}
        anonymous = await self.get({})
        assert anonymous["viewer_role"] == "anonymous"
        if over:
            assert anonymous["roles"] == spectator["roles"]
            assert len(anonymous["public_log"]) + len(anonymous["spectator_log"]) == anonymous["events_total"]
        else:
            assert "roles" not in anonymous and "night_actions" not in anonymous and "you" not in anonymous
            assert {e["visibility"] for e in anonymous["public_log"]} <= {"public"}
            assert_cards(anonymous["players"], anonymous["public_log"], alive, lambda subject, kind: False)
        for seat in range(self.table.n):
            agent = await self.get(self.table.h(seat))
            you = agent["you"]
            assert agent["viewer_role"] == "player_agent" and you["role"] == truth[seat]
            if seat == self.owned_seat:
                assert_owner_equals_agent(await self.get(jar(self.owner)), agent)
            if over:
                assert agent["roles"] == spectator["roles"] and all("role" in p for p in agent["players"])
                assert len(agent["public_log"]) + len(you["private_log"]) == agent["events_total"]
            else:
                self.check_seat(seat, agent, truth, alive)
        self.checks += 1

    def check_seat(self, seat: int, agent: dict[str, Any], truth: dict[int, str], alive: set[int]) -> None:
        you, role = agent["you"], truth[seat]
        wolves = sorted(s for s, r in truth.items() if r == "werewolf")
        mine = {"public", f"private:seat:{seat}", f"private:role:{role}"}
        assert "roles" not in agent and "night_actions" not in agent
        assert {e["visibility"] for e in you["private_log"]} <= mine - {"public"}
        checked = {e["target_seat"] for e in you["private_log"] if e["type"] == "seer_result"}
        assert ("fellow_wolves" in you) is (role == "werewolf") and ("seer_checks" in you) is (role == "seer")
        if role == "werewolf":
            assert you["fellow_wolves"] == wolves
        if role == "seer":
            assert {c["seat"] for c in you["seer_checks"]} == checked
            assert all(c["camp"] == ("werewolf" if truth[c["seat"]] == "werewolf" else "village")
                       for c in you["seer_checks"])

        def knows(subject: int, kind: str) -> bool:
            if subject == seat or (role == "werewolf" and truth[subject] == "werewolf"):
                return True
            return kind == "camp" and subject in checked

        assert_cards(agent["players"], agent["public_log"] + you["private_log"], alive, knows)


def assert_cards(players: list[dict[str, Any]], events: list[dict[str, Any]], alive: set[int],
                 knows: Callable[[int, str], bool]) -> None:
    """No row of a living seat shows its card, and no event tells a living seat's card the viewer may not know."""
    for row in players:
        if row["seat"] in alive:
            assert not set(CARD_KEYS) & row.keys(), row
    for event in events:
        for subject, kind in claims(event):
            assert subject >= 0 and (subject not in alive or knows(subject, kind)), event


def assert_owner_equals_agent(owner: dict[str, Any], agent: dict[str, Any]) -> None:
    """The player_owner view is the player_agent view but for `viewer_role` and `viewer_capabilities.can_act`."""
    assert owner["viewer_role"] == "player_owner" and owner["viewer_capabilities"]["can_act"] is False
    strip = [{**body, "viewer_role": None,
              "viewer_capabilities": {k: v for k, v in body["viewer_capabilities"].items() if k != "can_act"}}
             for body in (owner, agent)]
    assert strip[0] == strip[1]


async def whole_log(client: httpx.AsyncClient, match_id: str, key: str | None = None) -> list[dict[str, Any]]:
    """Every event `key`'s agent (None: anyone) may read, page by page from 0."""
    headers = bearer(key) if key else {}
    events: list[dict[str, Any]] = []
    since = 0
    while True:
        page = (await client.get(f"/api/matches/{match_id}/events", headers=headers, params={"since": since})).json()
        events += page["events"]
        if page["next_since"] == since:
            return events
        since = page["next_since"]
