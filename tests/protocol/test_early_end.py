"""Every installed game lets the services end a running match early for a quick start whose person has gone
(issue 26): the abort reasons `player_idle`, `player_conceded` and `player_left` end a running match with the reason
and a summary in its result, while the host's `host_cancelled` still only cancels a waiting room."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.base import ABORT_SUMMARIES, GameError
from app.games.installed import installed

NOW = 1_700_000_000.0


GAMES = {game.name: game for game, _brain in installed()}


def _running(name: str) -> tuple[Any, Any]:
    game: Any = GAMES[name]
    config = game.parse_config(None)
    outcome = game.new_match(config, "p0", "P0", seed=7, now=NOW)
    state = outcome.state
    for seat in range(1, game.n_players(config)):
        state = game.apply(state, game.join(f"p{seat}", f"P{seat}"), now=NOW).state
    assert game.summary(state)["status"] == "in_progress"
    return game, state


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("reason", ["player_idle", "player_conceded", "player_left"])
def test_a_running_match_ends_early_with_the_reason(name: str, reason: str) -> None:
    game, state = _running(name)
    outcome = game.apply(state, game.abort(reason), now=NOW + 1)
    summary = game.summary(outcome.state)
    assert summary["status"] == "aborted" and summary["timer"] is None
    assert summary["result"]["reason"] == reason and summary["result"]["summary"] == ABORT_SUMMARIES[reason]
    assert [(e["type"], e["visibility"], e["reason"]) for e in outcome.events] == [("match_aborted", "public", reason)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_host_still_cancels_only_a_waiting_room(name: str) -> None:
    game, state = _running(name)
    with pytest.raises(GameError) as refused:
        game.apply(state, game.abort("host_cancelled"), now=NOW + 1)
    assert refused.value.code == "match_not_waiting"
