"""Issue 18 §1: a client that knows only the spec's values plays a default game to its end (no stall, no surprise)."""

from __future__ import annotations

import httpx
import pytest

from tests.api.spec_client import NotInSpec, check_event, check_snapshot, play_default_game, register
from tests.api.table import Table


async def test_a_spec_only_client_plays_a_default_game(client: httpx.AsyncClient) -> None:
    seats = await play_default_game(client)
    kinds = {event["type"] for event in seats[0].seen}
    assert {"speech_posted", "vote_cast", "round_resolved", "match_finished"} <= kinds
    assert not any("flags" in event for agent in seats for event in agent.seen)


async def test_the_default_config_turns_every_extension_off(client: httpx.AsyncClient) -> None:
    table = Table(client, 6, n_undercover=2)
    body = await table.open(fill=False)
    assert {k: body["config"][k] for k in ("last_words", "blank_guess", "compete_mode", "allow_whisper",
                                           "fellow_roles_visible")} == dict.fromkeys(
        ("last_words", "blank_guess", "compete_mode", "allow_whisper", "fellow_roles_visible"), False)


async def test_a_blank_table_stays_in_the_spec(client: httpx.AsyncClient) -> None:
    """`n_blank` is a protocol key: blanks play, but the blank's guess is an extension and stays off."""
    seats = await play_default_game(client, {"n_players": 7, "n_undercover": 1, "n_blank": 1})
    assert "word_guessed" not in {event["type"] for event in seats[0].seen}


async def test_the_checker_refuses_extensions(client: httpx.AsyncClient) -> None:
    """The client is strict: a room that turns last words on shows values the spec does not name."""
    table = Table(client, 4, last_words=True)
    await table.open()
    roles = [(await table.snap(seat))["you"]["role"] for seat in range(4)]
    out = roles.index("civilian")
    for _ in range(4):
        snap = await table.snap(0)
        if snap["phase"].startswith("vote_round"):
            break
        assert (await table.act(snap["current_speaker_seat"], {"type": "skip"})).status_code == 200
    for seat in range(4):
        target = out if seat != out else (out + 1) % 4
        assert (await table.act(seat, {"type": "vote", "target_seat": target})).status_code == 200
    snap = await table.snap(out)
    assert snap["you"]["next_action"] == "last_words"
    with pytest.raises(NotInSpec):
        check_snapshot(snap)
    with pytest.raises(NotInSpec):
        check_event({"type": "last_words_posted", "visibility": "public"})


async def test_an_aborted_room_stays_in_the_spec(client: httpx.AsyncClient) -> None:
    """§4: `aborted` is a status; the phases name none, so the room keeps the phase it stopped in."""
    host = await register(client)
    created = await client.post("/api/matches", headers=host.headers, json={"game": "undercover"})
    assert created.status_code == 201, created.text
    match_id = created.json()["match_id"]
    aborted = await client.post(f"/api/matches/{match_id}/abort", headers=host.headers)
    assert aborted.status_code == 200, aborted.text
    snap = await host.snapshot(match_id)  # the spec client's checks: status, phase, events
    assert (snap["status"], snap["phase"]) == ("aborted", "waiting")
    await host.read_events(match_id)
    assert host.seen[-1]["type"] == "match_aborted"
