"""The runner's contract with `decide`, in-process: an action `allowed_actions` does not list is never sent and
comes back as a local `Refusal`; a server refusal comes back typed (code, detail) and the same action is not sent
again in that turn; `decide` may be sync or async; the view carries only the events new since the last decision."""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from wodi_client import Agent, Refusal, View
from wodi_client.examples.random_agent import RandomAgent
from wodi_client.examples.undercover_rules import UndercoverRules

from tests.sdk.table import CONFIGS, SEATS, play_table


class Stubborn(Agent):
    """First tries a vote for a seat that is not offered and then its own word as a speech; records what it saw."""

    def __init__(self) -> None:
        self.refusals: list[Refusal] = []
        self.seen: list[int] = []
        self.tried_word = False

    async def decide(self, view: View) -> dict[str, Any] | None:
        self.seen += [e["seq"] for e in view.events]
        if view.refusal is not None:
            self.refusals.append(view.refusal)
        if view.offered("vote") and not any(r.action.get("target_seat") == 99 for r in self.refusals):
            return {"type": "vote", "target_seat": 99}
        if view.offered("speak") and not self.tried_word:
            if view.refusal is not None and view.refusal.code == "speech_contains_secret_word":
                self.tried_word = True
            return {"type": "speak", "text": f"我的词是{view.you.get('word') or '白板'}"}
        return view.random_action(text="我再听听。")


async def test_refusals_come_back_to_decide_typed(app: FastAPI) -> None:
    stubborn = Stubborn()
    records = await play_table(app, "undercover", [stubborn, RandomAgent(1), RandomAgent(2), UndercoverRules()])
    mine = records[0]
    assert mine.status == "finished"
    local = [r for r in stubborn.refusals if r.local and r.action.get("target_seat") == 99]
    assert local and local[0].code == "not_allowed" and "99" in local[0].message
    server = [r for r in stubborn.refusals if not r.local]
    assert server and server[0].code == "speech_contains_secret_word"
    assert "allowed_actions" in server[0].detail
    assert mine.refused["speech_contains_secret_word"] == 1  # its second identical try was stopped by the kit
    assert mine.local_refusals >= 2
    assert stubborn.seen == sorted(set(stubborn.seen))  # each event shown once, in order


async def test_random_agents_play_avalon_with_nothing_refused(app: FastAPI) -> None:
    records = await play_table(app, "avalon", [RandomAgent(seed) for seed in range(SEATS["avalon"])])
    assert all(r.status == "finished" and r.result for r in records)
    assert all(r.accepted > 0 and not r.refused and r.local_refusals == r.fallbacks == 0 for r in records)


class Hopeless(Agent):
    """Never sends anything legal: `decide` dances, the fallback names a seat no one offers or says its own word."""

    def decide(self, view: View) -> dict[str, Any] | None:
        return {"type": "dance"}

    def fallback(self, view: View) -> dict[str, Any] | None:
        if view.offered("speak"):
            return {"type": "speak", "text": f"我的词是{view.you.get('word') or '白板'}"}
        return {"type": "vote", "target_seat": 99}


class Reads(httpx.AsyncBaseTransport):
    """Passes every request to the app and counts the snapshot reads of each (seat, events_total) while it is the
    seat's turn; past `limit` reads of one it fails the request, so a spinning runner stops at once."""

    def __init__(self, inner: httpx.AsyncBaseTransport, limit: int = 50) -> None:
        self.inner, self.limit = inner, limit
        self.turns: Counter[tuple[int, int]] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "GET" and re.fullmatch(r"/api/matches/[^/]+", request.url.path):
            await response.aread()
            snap = response.json()
            if (snap.get("you") or {}).get("your_turn"):
                turn = (snap["you"]["seat"], snap["events_total"])
                self.turns[turn] += 1
                if self.turns[turn] > self.limit:
                    raise AssertionError(f"seat {turn[0]} read its turn at {turn[1]} {self.turns[turn]} times")
        return response


async def test_a_refused_fallback_waits_for_the_match_to_move_on(app: FastAPI) -> None:
    reads = Reads(httpx.ASGITransport(app=app))
    config = {**CONFIGS["undercover"], "speak_timeout": 2, "vote_timeout": 2}
    agents = [Hopeless(), RandomAgent(1), RandomAgent(2), RandomAgent(3)]
    mine = (await play_table(app, "undercover", agents, transport=reads, config=config))[0]
    assert mine.status == "finished" and mine.accepted == 0 and mine.fallbacks > 0
    assert mine.refused["speech_contains_secret_word"] > 0  # fallbacks the server refused, once a turn
    assert set(mine.refusals_per_turn.values()) == {1}
    assert mine.local_refusals > mine.fallbacks  # and fallbacks the kit refused
    # while the seat's turn lasts (its clock: 2 s), it reads a handful of times, not in a loop
    mine_read = [count for (seat, _), count in reads.turns.items() if seat == mine.seat]
    assert mine_read and max(mine_read) <= 6, mine_read


class Broken(Agent):
    """Its `decide` has a bug."""

    def decide(self, view: View) -> dict[str, Any] | None:
        raise ValueError(f"no idea what to do in {view.phase}")


async def test_an_exception_in_decide_is_reported_once_and_the_fallback_sent(
        app: FastAPI, capsys: pytest.CaptureFixture[str]) -> None:
    mine = (await play_table(app, "undercover", [Broken(), RandomAgent(1), RandomAgent(2), RandomAgent(3)]))[0]
    assert mine.status == "finished" and mine.decide_errors > 1
    assert mine.accepted > 0 and mine.fallbacks == mine.decisions  # the seat acted: every decision the fallback's
    err = capsys.readouterr().err
    assert err.count("Traceback (most recent call last)") == 1 and "ValueError: no idea what to do in" in err
    assert "Broken.decide raised" in err and f"the agent raised {mine.decide_errors} times" in err


def conferred(view: View, by_others: bool) -> bool:
    return any(e.get("type") == "evil_conferred" and (e.get("seat") != view.seat) == by_others
               for e in view.you.get("private_log") or [])


class Loyal(Agent):
    """Lets the good side win three quests (approves every team, plays only success cards), so the assassin
    chooses; an evil seat confers off-turn once, and the assassin waits for that (3 s at most) before naming."""

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.off_turn_offers: list[str] = []
        self.heard = False
        self.waiting_since = 0.0

    def decide(self, view: View) -> dict[str, Any] | None:
        for kind, body in (("quest", {"card": "success"}), ("vote", {"choice": "approve"}), ("skip", {})):
            if view.offered(kind):
                return {"type": kind, **body}
        assassinate = view.offered("assassinate")
        if assassinate is None:
            return view.random_action(self.rng, text="就这几位。")
        self.heard = conferred(view, by_others=True)
        self.waiting_since = self.waiting_since or time.monotonic()
        if not self.heard and time.monotonic() - self.waiting_since < 3:
            return None
        return assassinate.random_body(self.rng)

    def decide_off_turn(self, view: View) -> dict[str, Any] | None:
        self.off_turn_offers += [action.type for action in view.legal]
        if view.offered("confer") and not conferred(view, by_others=False):
            return {"type": "confer", "text": "我猜 2 号是梅林。"}
        return None


async def test_an_off_turn_action_is_offered_to_an_agent_that_takes_them(app: FastAPI) -> None:
    agents = [Loyal() for _ in range(SEATS["avalon"])]
    records = await play_table(app, "avalon", agents)
    assert all(r.status == "finished" for r in records)
    assert [a.heard for a in agents].count(True) == 1  # the assassin heard an evil seat confer before naming
    assert [sorted(set(a.off_turn_offers)) for a in agents].count(["concede", "confer"]) == 1


class Polls(httpx.AsyncBaseTransport):
    """Each client's requests in order: snapshot reads (their `wait_for`, `since` and the `events_total` answered)
    and accepted actions."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.log: dict[str, list[tuple[str, Any, Any, Any]]] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        mine = self.log.setdefault(request.headers.get("authorization", ""), [])
        if request.method == "GET" and re.fullmatch(r"/api/matches/[^/]+", request.url.path):
            await response.aread()
            params = request.url.params
            mine.append(("read", params.get("wait_for"), params.get("since"), response.json().get("events_total")))
        elif request.method == "POST" and request.url.path.endswith("/action") and response.status_code == 200:
            mine.append(("act", None, None, None))
        return response


async def test_any_change_polls_name_the_seq_last_read_unless_the_agent_moved_since(app: FastAPI) -> None:
    """A change that lands while the agent decides is not lost: its `any_change` long-poll carries `since` = the
    `events_total` it last read (the server answers at once if the match moved). After it sent a move, it does not
    (its own move would wake it at once and it would be asked again: an off-turn agent would loop)."""
    polls = Polls(httpx.ASGITransport(app=app))
    records = await play_table(app, "avalon", [Loyal() for _ in range(SEATS["avalon"])], transport=polls)
    assert all(r.status == "finished" for r in records)
    with_since = 0
    for log in polls.log.values():
        last_read, moved = None, False
        for kind, wait_for, since, total in log:
            if kind == "act":
                moved = True
                continue
            if wait_for == "any_change":
                assert since == (None if moved or last_read is None else str(last_read)), (since, last_read, moved)
                with_since += since is not None
            else:
                assert since is None
            last_read, moved = total, False
    assert with_since > 0
