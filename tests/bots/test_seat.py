"""The one seat loop (`app.bots.seat`) and the bots' side of the seam: `app/bots` names no game."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from app.bots.personas import PERSONAS
from app.bots.seat import offered, retry, seat_view, turn
from app.bots.sim import play
from app.games.installed import bot_play, brains, installed

ROOT = Path(__file__).resolve().parents[2]


def test_app_bots_names_no_game() -> None:
    games = re.compile("|".join(game.name for game, _ in installed()), re.IGNORECASE)
    named = [path.name for path in sorted((ROOT / "app" / "bots").glob("*.py")) if games.search(path.read_text())]
    assert named == []


def test_every_brain_declares_its_bot_play() -> None:
    assert set(bot_play()) == set(brains())
    for name, bots in bot_play().items():
        assert bots.decide is brains()[name]
        assert bots.arena is not None or bots.arena_presets, f"{name} has no arena"


def test_a_refused_text_is_retried_plainly() -> None:
    allowed = [{"type": "speak"}, {"type": "skip"}]
    assert retry({"type": "speak", "text": "x"}, allowed) == {"type": "skip"}
    assert retry({"type": "speak", "text": "x"}, [{"type": "speak"}, {"type": "ready"}]) == {"type": "ready"}
    assert retry({"type": "last_words", "text": "x"}, []) == {"type": "last_words", "text": "……"}
    assert retry({"type": "vote", "target_seat": 2, "comment": "x"}, []) == {"type": "vote", "target_seat": 2}
    assert retry({"type": "debate", "text": "x"}, []) == {"type": "debate_pass"}
    assert retry({"type": "ready"}, []) == {"type": "ready"}


def test_a_plain_offered_move_keeps_a_game_going() -> None:
    assert offered([{"type": "speak"}, {"type": "skip"}]) == {"type": "skip"}
    assert offered([{"type": "night_action", "action": "pass"}]) == {"type": "night_action", "action": "pass"}
    assert offered([{"type": "vote", "targets": [3, 4]}]) == {"type": "vote", "target_seat": 3}
    assert offered([{"type": "vote", "targets": []}, {"type": "speak"}]) is None


def test_the_simulator_hands_each_seat_its_own_view_through_the_loop() -> None:
    game = next(g for g, _ in installed() if g.name == "undercover")
    decide = brains()["undercover"]
    seen: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
    record = play(game, {"n_players": 5, "n_undercover": 1}, PERSONAS, decide, 7,
                  draws=bot_play()["undercover"].draws, observe=lambda s, v, b: seen.append((s, v, b)))
    assert record.winner is not None and not record.errors and seen
    for seat, view, body in seen:
        assert view["you"]["seat"] == seat and view["you"]["your_turn"]
        assert view["config"]["n_players"] == 5  # the match's config, as over HTTP
        assert all("word" not in row for row in view["players"])
        again = turn(decide, view, record.personas[seat], random.Random(0))
        assert (again is None) == (body is None)
    final = seat_view(game, record.state, 0, record.events)
    assert final["status"] == "finished" and final["result"]["winner_camp"] == record.winner
