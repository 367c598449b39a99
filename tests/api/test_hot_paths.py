"""`app.api.hot`: an agent's snapshot, events and action answered beneath FastAPI's router answer exactly what the
routes answer — the same status, body and route name — and every request the hot path leaves alone still reaches
FastAPI."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.routing import Router

from app.api import hot
from app.services.platform import metrics
from tests.api.table import Table

NEVER = re.compile(r"(?!)")


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The paths FastAPI's router saw."""
    seen: list[str] = []
    original = Router.__call__

    async def counting(self: Router, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            seen.append(f"{scope['method']} {scope['path']}?{scope['query_string'].decode()}")
        await original(self, scope, receive, send)

    monkeypatch.setattr(Router, "__call__", counting)
    yield seen


async def _both(client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, method: str, url: str,
                **kwargs: Any) -> tuple[httpx.Response, httpx.Response]:
    """The request answered by the hot path, then the same request answered by FastAPI's route."""
    fast = await client.request(method, url, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(hot, "_PATH", NEVER)
        routed = await client.request(method, url, **kwargs)
    return fast, routed


def _same(fast: httpx.Response, routed: httpx.Response) -> None:
    assert (fast.status_code, fast.headers["content-type"]) == (routed.status_code, routed.headers["content-type"])
    assert fast.json() == routed.json(), (fast.text, routed.text)


async def test_reads_answer_as_the_routes_do(client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch,
                                             routed: list[str]) -> None:
    table = Table(client, 4)
    await table.open()
    url = f"/api/matches/{table.match_id}"
    cases: list[tuple[str, dict[str, Any]]] = [
        (url, {"headers": table.h(1)}),
        (url, {}),  # a spectator
        (url, {"headers": {"X-Play-Token": table.tokens[2]}}),
        (url, {"headers": {"Authorization": "Bearer ck_live_not-a-key"}}),
        (url, {"headers": {"X-Play-Token": "pk_live_not-a-token"}}),
        (url, {"params": {"wait_for": "the_end_of_time"}, "headers": table.h(0)}),
        ("/api/matches/m_no_such_match", {"headers": table.h(0)}),
        (url + "/events", {"params": {"since": 1}, "headers": table.h(3)}),
        (url + "/events", {"params": {"since": 0}}),
        ("/api/matches/m_no_such_match/events", {}),
    ]
    for target, kwargs in cases:
        routed.clear()
        fast, slow = await _both(client, monkeypatch, "GET", target, **kwargs)
        _same(fast, slow)
        assert len(routed) == 1, routed  # only the second of the pair went through FastAPI's router


async def test_actions_answer_as_the_route_does(client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch,
                                                routed: list[str]) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    speaker = snap["current_speaker_seat"]
    other = (speaker + 1) % table.n
    url = f"/api/matches/{table.match_id}/action"
    for seat, body, headers in [
        (other, {"type": "speak", "text": "还没轮到我"}, {}),  # not this seat's turn
        (speaker, {"type": "vote", "target_seat": other}, {}),  # the wrong phase
        (speaker, {"type": "shout"}, {}),  # no such action
        (speaker, {"type": "speak", "text": "x", "expected_seq": -1}, {}),
        (speaker, {"type": "speak", "text": "一句"}, {"X-Provider-Agent-Meta": "[not json"}),
        (None, {"type": "speak", "text": "一句"}, {"Authorization": "Bearer ck_live_not-a-key"}),
    ]:
        routed.clear()
        sent = {**(table.h(seat) if seat is not None else {}), **headers}
        fast, slow = await _both(client, monkeypatch, "POST", url, json=body, headers=sent)
        _same(fast, slow)
        assert fast.status_code >= 400 and len(routed) == 1, (fast.text, routed)

    routed.clear()
    spoke = await table.act(speaker, {"type": "speak", "text": "第一句描述"})
    assert spoke.status_code == 200 and routed == [], (spoke.text, routed)
    assert spoke.json()["accepted"] is True and spoke.json()["phase"] == snap["phase"]
    assert (await table.snap(speaker))["events_total"] >= spoke.json()["seq"]


async def test_what_the_hot_path_leaves_to_fastapi(client: httpx.AsyncClient, routed: list[str]) -> None:
    """A repeated parameter or header, an odd number, a body that is not a JSON object or not declared as JSON:
    FastAPI answers, as it always has (its validation errors included)."""
    table = Table(client, 4)
    await table.open()
    url = f"/api/matches/{table.match_id}"
    routed.clear()
    odd = [
        await client.get(url + "?wait=0&wait=0"),
        await client.get(url, params={"wait": "1e-3"}),
        await client.get(url, params={"wait": "-1"}),
        await client.get(url + "/events", params={"since": "-1"}),
        await client.get(url, headers=[("X-Play-Token", table.tokens[0]), ("X-Play-Token", table.tokens[1])]),
        await client.post(url + "/action", json=["speak"], headers=table.h(0)),
        await client.post(url + "/action", content=b'{"type": "speak", "text": "hi"}',
                          headers={**table.h(0), "Content-Type": "text/plain"}),
    ]
    assert len(routed) == len(odd), routed
    assert [r.status_code for r in odd[1:4]] == [200, 400, 400], [r.text for r in odd[1:4]]


async def test_an_earlier_route_keeps_its_path(app: FastAPI, client: httpx.AsyncClient, routed: list[str]) -> None:
    """A route declared before the hot one that matches the same path wins, as in FastAPI's own routing."""

    @app.get("/api/matches/{match_id}", include_in_schema=False)
    async def shadow(match_id: str) -> dict[str, str]:
        return {"shadowed": match_id}

    app.router.routes.insert(0, app.router.routes.pop())
    table = Table(client, 4)
    await table.open()
    answer = await client.get(f"/api/matches/{table.match_id}", headers=table.h(0))
    assert answer.json() == {"shadowed": table.match_id} and routed[-1].startswith("GET /api/matches/")


async def test_the_hot_path_names_its_route(client: httpx.AsyncClient, routed: list[str]) -> None:
    table = Table(client, 4)
    await table.open()
    key = ("/api/matches/{match_id}/events", "GET", 200)

    def counted() -> int:
        return int(metrics.REQUESTS.series.get(key, [0])[0])

    before = counted()
    routed.clear()
    await client.get(f"/api/matches/{table.match_id}/events")
    assert routed == [] and counted() == before + 1
