"""The arena on the pure engine (undercover's, the default game's): bots see only their seat, play clean games,
and beat random voting."""

from __future__ import annotations

import io

import pytest

from app.bots import arena as bots_arena
from app.bots.personas import PERSONAS
from app.bots.seat import seat_view
from app.games.installed import bot_play, installed
from app.games.undercover.brain import arena
from app.games.undercover.wordpairs import default_library
from tests.games.undercover.rules import Join, apply, new_match, parse_config

GAME = next(game for game, _ in installed() if game.name == "undercover")
SIMULATE = bots_arena.simulator(GAME, bot_play()["undercover"])


def test_a_seat_snapshot_shows_only_what_that_seat_may_see() -> None:
    config = parse_config({"n_players": 5, "n_undercover": 1, "fellow_roles_visible": True})
    pairs = [(p.a.word, p.b.word) for p in default_library().pairs()]
    outcome = new_match(config, "p0", "P0", 7, 0.0)
    state, log = outcome.state, list(outcome.events)
    for seat in range(1, 5):
        outcome = apply(state, Join(name=f"p{seat}", display_name=f"P{seat}"), now=0.0, pairs=pairs)
        state, log = outcome.state, log + outcome.events
    for seat in range(5):
        snap = seat_view(GAME, state, seat, log)
        assert snap["you"]["seat"] == seat and snap["you"]["word"] == state.players[seat].word
        assert all("role" not in p and "word" not in p for p in snap["players"])
        assert all(e["visibility"] == "public" for e in snap["public_log"])
        assert not [e for e in snap["public_log"] if e["type"] == "roles_dealt"]
        private = snap["you"]["private_log"]
        assert {e["type"] for e in private} <= {"role_assigned", "your_turn_to_speak", "fellow_role_hint",
                                                 "fellow_role_revealed"}
        assert all(e.get("seat", seat) == seat for e in private if e["type"] == "role_assigned")
        hints = [e for e in private if e["type"].startswith("fellow_")]
        assert bool(hints) == (state.players[seat].role == "undercover")


def test_every_game_ends_without_a_refused_action() -> None:
    for index in range(10):
        config, personas, seed = arena.game_setup(3, index, PERSONAS)
        assert len(personas) == config.n_players
        assert len({p.slug for p in personas[:6]}) == min(6, config.n_players)  # every persona plays
        record = arena.play_game(SIMULATE, config, personas, seed)
        assert record.winner in ("civilian", "undercover", "blank")
        assert not record.errors
        assert all(voter != target for voter, target in record.votes)


def test_persona_civilians_beat_the_random_baseline() -> None:
    out = io.StringIO()
    persona, baseline = arena.run(SIMULATE, PERSONAS, 60, seed=11, every=20, out=out)
    assert out.getvalue().count("[arena]") == 3
    assert persona.civilian_rate >= baseline.civilian_rate + 0.15, (persona.civilian_rate, baseline.civilian_rate)
    assert not persona.errors and not baseline.errors
    report = arena.report(persona, baseline, 11, PERSONAS)
    assert "SUMMARY arena games=60 seed=11" in report
    for p in PERSONAS:
        assert p.handle() in report


def test_the_cli_prints_progress_and_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    bots_arena.main(["--games", "5", "--every", "5", "--seed", "2"])
    printed = capsys.readouterr().out
    assert "[arena] 5/5 games" in printed and "SUMMARY arena games=5 seed=2" in printed


def test_the_cli_runs_a_line_up_arena_of_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    bots_arena.main(["--game", "werewolf", "--games", "2", "--every", "0"])
    printed = capsys.readouterr().out
    for preset in ("6p", "9p", "12p"):
        assert f"SUMMARY arena game=werewolf preset={preset} deals=2 seed=1" in printed
    with pytest.raises(SystemExit):
        bots_arena.main(["--game", "no_such_game", "--games", "1"])
