"""One bot-only game on the pure rules engine (no HTTP, no database), for the arena.

Each bot is handed only its own seat's snapshot — `you_view`, `players_view(god=False)`, the public fields
and the events its seat may see (`can_see`) — in the same shape as `GET /api/matches/{id}`, so the brain
reads exactly what it would read over HTTP.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots.personas import Persona
from app.games.base import GameError
from app.games.undercover import (
    Command,
    GuessWord,
    Join,
    LastWords,
    MatchState,
    Skip,
    Speak,
    Timeout,
    UndercoverConfig,
    Vote,
    apply,
    new_match,
    players_view,
    public_fields,
    role_set,
    you_view,
)
from app.games.undercover.brain import decide
from app.games.undercover.view import ACTING
from app.games.undercover.wordpairs import default_library
from app.protocol.viewer import can_see

Decider = Callable[[dict[str, Any], str, random.Random], dict[str, Any] | None]


@dataclass
class GameRecord:
    """What one game produced: the winner, every seat's role and persona, votes and refused actions."""

    winner: str | None
    roles: list[str]
    personas: list[str]
    votes: list[tuple[int, int]] = field(default_factory=list)  # (voter, target)
    errors: Counter[str] = field(default_factory=Counter)
    rounds: int = 0


def seat_snapshot(state: MatchState, seat: int, log: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What `GET /api/matches/{id}` shows the agent in `seat` while the match runs."""
    roles = role_set(state, seat)
    seen = [e for e in log if can_see(e["visibility"], god=False, seat=seat, roles=roles)]
    you = you_view(state, seat)
    you["private_log"] = [e for e in seen if e["visibility"] != "public"]
    return {"status": state.status, "phase": state.phase, "players": players_view(state, god=False),
            **public_fields(state), "public_log": [e for e in seen if e["visibility"] == "public"], "you": you}


def _pairs() -> list[tuple[str, str]]:
    return [(p.a.word, p.b.word) for p in default_library().pairs()]


def _command(body: dict[str, Any] | None, seat: int, action: str) -> Command:
    if body is None:
        body = {}
    kind = body.get("type")
    if kind == "speak":
        return Speak(seat=seat, text=body["text"])
    if kind == "vote":
        return Vote(seat=seat, target_seat=body["target_seat"], comment=body.get("comment"))
    if kind == "last_words":
        return LastWords(seat=seat, text=body["text"])
    if kind == "guess_word":
        return GuessWord(seat=seat, word=body["word"])
    return _fallback(action, seat, None)


def _fallback(action: str, seat: int, state: MatchState | None) -> Command:
    """A plain command the rules accept, used after a refused one so the game can go on."""
    if action == "vote" and state is not None:
        targets = state.pk_candidates or [s for s in state.living_seats() if s != seat]
        return Vote(seat=seat, target_seat=targets[0])
    if action == "last_words":
        return LastWords(seat=seat, text="……")
    if action == "guess_word":
        return GuessWord(seat=seat, word="不知道")
    return Skip(seat=seat)


def play_game(config: UndercoverConfig, personas: Sequence[Persona], seed: int, *, baseline: bool = False,
              max_steps: int = 2000) -> GameRecord:
    """Play one game to its end; `personas[i]` plays seat i. Same `seed` → same deal and same bot dice."""
    pairs = _pairs()
    now = 0.0
    outcome = new_match(config, _name(personas, 0), personas[0].display_name, seed, now)
    state, log = outcome.state, list(outcome.events)
    for seat in range(1, config.n_players):
        outcome = apply(state, Join(name=_name(personas, seat), display_name=personas[seat].display_name),
                        now=now, pairs=pairs)
        state = outcome.state
        log += outcome.events
    dice = random.Random(f"{seed}:bots")
    order_dice = random.Random(f"{seed}:order")
    record = GameRecord(None, [p.role or "" for p in state.players], [p.slug for p in personas])
    for _ in range(max_steps):
        if state.status != "in_progress":
            break
        now += 1.0
        actors = [s for s in range(config.n_players) if you_view(state, s)["next_action"] in ACTING]
        if not actors:
            assert state.timer is not None
            now = max(now, state.timer.due)
            outcome = apply(state, Timeout(token=state.timer.token), now=now, pairs=pairs)
            state = outcome.state
            log.extend(outcome.events)
            continue
        seat = order_dice.choice(actors) if state.stage == "vote" else actors[0]
        action = you_view(state, seat)["next_action"]
        body = decide(seat_snapshot(state, seat, log), personas[seat].slug, dice, baseline=baseline)
        command = _command(body, seat, action)
        try:
            outcome = apply(state, command, now=now, pairs=pairs)
        except GameError as exc:
            record.errors[exc.code] += 1
            command = _fallback(action, seat, state)
            outcome = apply(state, command, now=now, pairs=pairs)
        if isinstance(command, Vote):
            record.votes.append((seat, command.target_seat))
        state = outcome.state
        log.extend(outcome.events)
    record.winner = (state.result or {}).get("winner_camp")
    record.rounds = state.round_index
    return record


def _name(personas: Sequence[Persona], seat: int) -> str:
    return f"{personas[seat].handle()}#{seat}"
