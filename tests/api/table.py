"""A table of registered agents playing one match over HTTP, for the API tests."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.api.helpers import bearer, claim_each

_names = itertools.count()
Policy = Callable[["Table", int, dict[str, Any]], dict[str, Any] | None]


def lowest_other(table: Table, seat: int, snap: dict[str, Any]) -> dict[str, Any] | None:
    """A policy: speak a harmless clue, vote for the lowest living other seat, say short last words."""
    action = snap["you"]["next_action"]
    if action == "speak":
        return {"type": "speak", "text": f"嗯，我再想想。第{snap['round_index']}轮"}
    if action == "vote":
        targets = [p["seat"] for p in snap["players"] if p["alive"] and p["seat"] != seat]
        pk = snap.get("pk_candidates") or []
        pool = [t for t in targets if t in pk] or targets
        return {"type": "vote", "target_seat": pool[0]}
    if action == "last_words":
        return {"type": "last_words", "text": "再见了各位"}
    if action == "guess_word":
        return {"type": "guess_word", "word": "不知道"}
    return None


class Table:
    """`n` fresh agents; seat i is agent i once `open()` has run."""

    game = "undercover"
    claim = False  # claim each agent for an owner of its own once registered (what a rated match needs)

    def __init__(self, client: httpx.AsyncClient, n: int, **config: Any) -> None:
        self.client = client
        self.n = n
        self.config = {"n_players": n, "n_undercover": 1, **config}
        self.keys: list[str] = []
        self.names: list[str] = []
        self.tokens: list[str] = []
        self.match_id = ""
        self.responses: list[tuple[dict[str, Any], httpx.Response]] = []

    def h(self, seat: int) -> dict[str, str]:
        return bearer(self.keys[seat])

    async def register(self) -> None:
        for _ in range(self.n):
            name = f"agent-{next(_names)}-{id(self) % 9973}"
            response = await self.client.post("/api/agents", json={"name": name})
            assert response.status_code == 201, response.text
            self.keys.append(response.json()["api_key"])
            self.names.append(name)
        if self.claim:
            await claim_each(self.client, self.keys)

    async def open(self, fill: bool = True) -> dict[str, Any]:
        await self.register()
        created = await self.client.post("/api/matches", json={"game": self.game, "config": self.config},
                                         headers=self.h(0))
        assert created.status_code == 201, created.text
        body: dict[str, Any] = created.json()
        self.match_id = body["match_id"]
        self.tokens.append(body["play_token"])
        if fill:
            for seat in range(1, self.n):
                await self.join(seat)
        return body

    async def join(self, seat: int) -> dict[str, Any]:
        joined = await self.client.post(f"/api/matches/{self.match_id}/join", json={}, headers=self.h(seat))
        assert joined.status_code == 200, joined.text
        self.tokens.append(joined.json()["play_token"])
        return dict(joined.json())

    async def snap(self, seat: int | None = None, **params: Any) -> dict[str, Any]:
        headers = self.h(seat) if seat is not None else {}
        response = await self.client.get(f"/api/matches/{self.match_id}", headers=headers, params=params)
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def events(self, seat: int | None = None, since: int = 0) -> list[dict[str, Any]]:
        headers = self.h(seat) if seat is not None else {}
        collected: list[dict[str, Any]] = []
        while True:
            page = await self.client.get(f"/api/matches/{self.match_id}/events", headers=headers,
                                         params={"since": since})
            assert page.status_code == 200, page.text
            body = page.json()
            collected += body["events"]
            if body["next_since"] == since:
                return collected
            since = body["next_since"]

    async def act(self, seat: int, body: dict[str, Any]) -> httpx.Response:
        response = await self.client.post(f"/api/matches/{self.match_id}/action", json=body, headers=self.h(seat))
        self.responses.append((body, response))
        return response

    async def play(self, policy: Policy = lowest_other, max_steps: int = 500,
                   on_step: Callable[[Table], Awaitable[None]] | None = None) -> dict[str, Any]:
        """Play until the match ends; votes of one round are sent at the same time."""
        for _ in range(max_steps):
            snaps = [await self.snap(seat) for seat in range(self.n)]
            if snaps[0]["status"] != "in_progress":
                return snaps[0]
            chosen = [(seat, policy(self, seat, snap)) for seat, snap in enumerate(snaps) if snap["you"]["your_turn"]]
            moves = [(seat, body) for seat, body in chosen if body is not None]
            assert moves, f"nobody can act in {snaps[0]['phase']}"
            results = await asyncio.gather(*(self.act(seat, body) for seat, body in moves))
            for response in results:
                assert response.status_code == 200, response.text
            if on_step is not None:
                await on_step(self)
        raise AssertionError("the match did not end")
