"""Complete games over HTTP: every tie-break, timeouts, and the response fields of §2.3 and §2.8.

The checks are plain functions of an HTTP client: here they run against the ASGI app, and
`tests/e2e/test_uvicorn.py` runs the same ones against the real server in a subprocess."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from tests.api.helpers import assert_error
from tests.api.spec_client import check_event, check_snapshot
from tests.api.table import Table, lowest_other


def cycle_votes(table: Table, seat: int, snap: dict[str, Any]) -> dict[str, Any] | None:
    """Everyone votes for the next living seat: every vote round is a full tie."""
    if snap["you"]["next_action"] != "vote":
        return lowest_other(table, seat, snap)
    living = [p["seat"] for p in snap["players"] if p["alive"]]
    targets = snap.get("pk_candidates") or living
    after = [s for s in targets if s > seat and s != seat] or [s for s in targets if s != seat]
    return {"type": "vote", "target_seat": after[0]}


def check_result(result: dict[str, Any], n: int) -> None:
    assert result["winner_camp"] in {"civilian", "undercover", "blank"}
    assert sorted(result["winning_seats"] + result["losing_seats"]) == list(range(n))
    assert result["reason"] and result["summary"]
    assert set(result["wordpair"]) == {"civilian", "undercover"}


GAMES = [(4, "random"), (6, "revote"), (12, "noop_then_random"), (6, "random"), (4, "revote"), (6, "noop_then_random")]


@pytest.mark.parametrize(("n", "tie_break"), GAMES)
async def test_complete_game(client: httpx.AsyncClient, n: int, tie_break: str) -> None:
    await play_complete_game(client, n, tie_break)


async def play_complete_game(client: httpx.AsyncClient, n: int, tie_break: str) -> None:
    """Create, join one by one, play to the end with every vote round a full tie; check every response field."""
    table = Table(client, n, n_undercover=1 if n < 12 else 3, tie_break=tie_break)
    created = await table.open(fill=False)
    assert created["seat"] == 0 and created["status"] == "waiting" and created["seats_open"] == n - 1
    assert created["invite_url"] == f"{str(client.base_url).rstrip('/')}/match/{table.match_id}"
    assert created["play_token"].startswith("pk_live_") and len(created["play_token"]) == 51
    assert created["config"]["tie_break"] == tie_break and created["config"]["max_rounds"] == n
    for seat in range(1, n):
        joined = await table.join(seat)
        assert joined["seat"] == seat and joined["seats_open"] == n - 1 - seat
    assert joined["status"] == "in_progress"
    final = await table.play(cycle_votes)
    assert final["status"] == "finished" and final["phase"] == "finished"
    check_result(final["result"], n)
    log = await table.events()
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    resolved = [e for e in log if e["type"] == "round_resolved"]
    assert len({e["round"] for e in resolved}) == len(resolved)
    applied = {e["tie_break_applied"] for e in resolved}
    expected = {"random": {"random"}, "revote": {"random", "revote"}, "noop_then_random": {"noop", "random"}}
    assert applied & expected[tie_break]
    _check_action_bodies(table)


def _check_action_bodies(table: Table) -> None:
    sent = [(body["type"], response.json()) for body, response in table.responses]
    bodies = [b for _, b in sent]
    speaks = [b for kind, b in sent if kind == "speak"]
    assert speaks, "no speak response seen"
    for body in speaks:
        assert body["accepted"] is True and isinstance(body["seq"], int) and body["phase"]
        done, total = map(int, body["round_speak_progress"].split("/"))
        if body["phase"].startswith("speak") and body["next_speaker_seat"] is not None:
            assert 0 < done < total
        else:
            assert done == total and body["next_speaker_seat"] is None
    votes = [b for kind, b in sent if kind == "vote" and "round_result" not in b]
    for body in votes:
        assert body["phase"].startswith("vote") and "your_vote" in body
    resolutions = [b for b in bodies if "round_result" in b]
    assert resolutions
    for body in resolutions:
        assert {"eliminated_seat", "eliminated_role", "vote_breakdown", "remaining_civilians",
                "remaining_undercovers"} <= body["round_result"].keys()
        assert body["match_status"] in {"in_progress", "finished"}
        if body["match_status"] == "in_progress":
            assert body["next_phase"]
    last = resolutions[-1] if bodies[-1].get("result") is None else bodies[-1]
    if last.get("result"):
        assert last["phase"] == "finished" and last["result"]["replay_url"].endswith(table.match_id)


async def test_revote_pk_two_two_tie(client: httpx.AsyncClient) -> None:
    await play_revote_pk(client)


async def play_revote_pk(client: httpx.AsyncClient) -> None:
    """A 2–2 tie under `revote`: the tied seats speak again, only the others vote, and the revote decides."""
    table = Table(client, 4, tie_break="revote", last_words=False)
    await table.open()
    for _ in range(4):
        snap = await table.snap(0)
        speaker = snap["current_speaker_seat"]
        assert (await table.act(speaker, {"type": "speak", "text": "这个东西很常见"})).status_code == 200
    votes = {0: 2, 1: 2, 2: 0, 3: 0}
    results = await asyncio.gather(*(table.act(s, {"type": "vote", "target_seat": t}) for s, t in votes.items()))
    assert all(r.status_code == 200 for r in results)
    snap = await table.snap(1)
    assert snap["phase"] == "speak_round_1" and snap["pk_candidates"] == [0, 2]
    assert snap["current_speaker_seat"] == 0
    for seat in (0, 2):
        assert (await table.act(seat, {"type": "speak", "text": "再补充一句"})).status_code == 200
    assert (await table.snap(0))["you"]["next_action"] == "wait_for_vote_resolution"
    assert_error(await table.act(0, {"type": "vote", "target_seat": 2}), 409, "wrong_phase")
    assert_error(await table.act(1, {"type": "vote", "target_seat": 3}), 422, "invalid_target")
    await table.act(1, {"type": "vote", "target_seat": 2})
    last = await table.act(3, {"type": "vote", "target_seat": 2})
    body = last.json()
    assert body["round_result"]["eliminated_seat"] == 2
    assert body["round_result"]["tie_break_applied"] == "revote"


async def test_speak_and_vote_timeouts(client: httpx.AsyncClient) -> None:
    await play_through_timeouts(client)


async def play_through_timeouts(client: httpx.AsyncClient) -> None:
    """Nobody acts: speak timeouts skip, warnings come at half time, vote timeouts abstain, the match ends."""
    table = Table(client, 4, speak_timeout=1, vote_timeout=1, last_words=False)
    await table.open()
    first = await table.snap(0)
    speaker = first["current_speaker_seat"]
    deadline = first["deadline_ts"]
    assert isinstance(deadline, int)
    waited = await table.snap(None, wait=10, wait_for="phase_changed")
    assert waited["phase"] in {"speak_round_1", "vote_round_1", "reveal_round_1", "speak_round_2", "finished"}
    log = await table.events()
    skipped = [e for e in log if e["type"] == "speech_skipped"]
    assert skipped and skipped[0]["seat"] == speaker and skipped[0]["reason"] == "timeout"
    mine = await table.events(speaker)
    assert any(e["type"] == "turn_warning" for e in mine)
    snap = await table.snap(0, wait=10, wait_for="match_finished")
    for _ in range(20):
        if snap["status"] == "finished":
            break
        snap = await table.snap(0, wait=10, wait_for="match_finished")
    log = await table.events()
    assert any(e["type"] == "vote_warning" for e in log)
    assert any(e["type"] == "round_resolved" for e in log)
    assert snap["status"] == "finished"
    # A room of the protocol's own config (decisions D1): through every timeout, no viewer — each seat, and
    # everyone after the end, when all get the god view — reads an event the protocol does not name.
    for seat in (None, *range(4)):
        for event in await table.events(seat):
            check_event(event)
        check_snapshot(await table.snap(seat))


async def test_detailed_events_show_who_did_not_vote(client: httpx.AsyncClient) -> None:
    """`detailed_events` asks for the public events the protocol does not name: the abstainers of a vote that timed
    out. Without it the same abstention is in the record (the round resolves on the votes cast) but in no view."""
    for detailed in (True, False):
        table = Table(client, 4, vote_timeout=1, detailed_events=detailed)
        await table.open()
        for _ in range(4):
            snap = await table.snap(0)
            assert snap["phase"] == "speak_round_1"
            speaker = snap["current_speaker_seat"]
            spoken = await table.act(speaker, {"type": "speak", "text": f"{speaker}号：很常见的东西"})
            assert spoken.status_code == 200, spoken.text
        await table.act(1, {"type": "vote", "target_seat": 2})  # the only vote: the other three abstain
        snap = await table.snap(0, wait=10, wait_for="phase_changed")
        for _ in range(10):
            if not snap["phase"].startswith("vote"):
                break
            snap = await table.snap(0, wait=10, wait_for="phase_changed")
        resolved = [e for e in await table.events() if e["type"] == "round_resolved"]
        assert resolved and resolved[0]["eliminated_seat"] == 2
        for seat in (None, 0):
            abstained = [e for e in await table.events(seat) if e["type"] == "vote_abstained"]
            if detailed:
                assert [e["seats"] for e in abstained] == [[0, 2, 3]]
            else:
                assert abstained == []
                assert all(e["type"] != "vote_abstained" for e in (await table.snap(seat))["public_log"])


async def test_concede_on_turn_and_at_end(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open()
    snap = await table.snap(0)
    speaker = snap["current_speaker_seat"]
    response = await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(speaker))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["accepted"] is True and body["you"]["seat"] == speaker and body["you"]["alive"] is False
    assert body["you"]["role"] in {"civilian", "undercover"}
    if body["match_status"] == "in_progress":
        assert {"summary", "remaining_civilians", "remaining_undercovers"} <= body.keys()
        after = await table.snap(0)
        assert after["current_speaker_seat"] != speaker
        again = await client.post(f"/api/matches/{table.match_id}/concede", headers=table.h(speaker))
        assert_error(again, 403, "you_are_eliminated")
        assert_error(await table.act(speaker, {"type": "skip"}), 403, "you_are_eliminated")
    else:
        assert body["result"]["reason"] == "all_undercovers_conceded_or_eliminated"


async def test_stats_and_active(client: httpx.AsyncClient) -> None:
    table = Table(client, 4)
    await table.open(fill=False)
    active = (await client.get("/api/agents/me/active", headers=table.h(0))).json()["active"]
    assert active["match_id"] == table.match_id and active["status"] == "waiting" and active["seats_open"] == 3
    assert active["your_turn"] is None and active["seat"] == 0
    for seat in range(1, 4):
        await table.join(seat)
    final = await table.play()
    assert (await client.get("/api/agents/me/active", headers=table.h(0))).json() == {"active": None}
    for seat, name in enumerate(table.names):
        profile = (await client.get(f"/api/agents/{name}")).json()
        won = seat in final["result"]["winning_seats"]
        assert (profile["wins"], profile["losses"]) == ((1, 0) if won else (0, 1))
        assert profile["win_rate"] == (1.0 if won else 0.0)
    board = (await client.get("/api/agents", params={"limit": 200})).json()
    assert board[0]["wins"] == 1
