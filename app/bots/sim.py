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
from app.games.kit import Act, Command, Join, Timeout
from app.games.undercover.brain import decide
from app.games.undercover.config import UndercoverConfig
from app.games.undercover.game import GAME
from app.games.undercover.state import MatchState
from app.games.undercover.view import ACTING
from app.games.undercover.wordpairs import default_library
from app.protocol.viewer import can_see

# Called with (seat, the snapshot the bot was handed, the body it chose) after every decision.
Observer = Callable[[int, dict[str, Any], dict[str, Any] | None], None]


@dataclass
class GameRecord:
    """What one game produced: the winner, every seat's role and persona, votes and refused actions."""

    winner: str | None
    roles: list[str]
    personas: list[str]
    votes: list[tuple[int, int]] = field(default_factory=list)  # (voter, target)
    errors: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    winning_seats: list[int] = field(default_factory=list)


def seat_snapshot(state: MatchState, seat: int, log: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What `GET /api/matches/{id}` shows the agent in `seat` while the match runs."""
    roles = GAME.role_set(state, seat)
    seen = [e for e in log if can_see(e["visibility"], god=False, seat=seat, roles=roles)]
    you = GAME.you_view(state, seat)
    you["private_log"] = [e for e in seen if e["visibility"] != "public"]
    return {"status": state.status, "phase": state.phase, "config": state.config.model_dump(),
            "players": GAME.players_view(state, god=False),
            **GAME.public_fields(state), "public_log": [e for e in seen if e["visibility"] == "public"], "you": you}


def _pairs() -> list[tuple[str, str]]:
    return [(p.a.word, p.b.word) for p in default_library().pairs()]


def _act(seat: int, kind: str, **fields: Any) -> Act:
    return Act(seat=seat, request=GAME.actions[kind].model_validate({"type": kind, **fields}))


def _command(body: dict[str, Any] | None, seat: int, action: str) -> Command:
    if body is None:
        body = {}
    kind = body.get("type")
    if kind == "speak":
        return _act(seat, "speak", text=body["text"])
    if kind == "vote":
        return _act(seat, "vote", target_seat=body["target_seat"], comment=body.get("comment"))
    if kind == "last_words":
        return _act(seat, "last_words", text=body["text"])
    if kind == "guess_word":
        return _act(seat, "guess_word", word=body["word"])
    return _fallback(action, seat, None)


def _fallback(action: str, seat: int, state: MatchState | None) -> Command:
    """A plain command the rules accept, used after a refused one so the game can go on."""
    if action == "vote" and state is not None:
        targets = state.pk_candidates or [s for s in state.living_seats() if s != seat]
        return _act(seat, "vote", target_seat=targets[0])
    if action == "last_words":
        return _act(seat, "last_words", text="……")
    if action == "guess_word":
        return _act(seat, "guess_word", word="不知道")
    return _act(seat, "skip")


def play_game(config: UndercoverConfig, personas: Sequence[Persona], seed: int, *, baseline: bool = False,
              max_steps: int = 2000, observe: Observer | None = None) -> GameRecord:
    """Play one game to its end; `personas[i]` plays seat i. Same `seed` → same deal and same bot dice.

    `observe`, when given, sees every decision (the quality script reads the bots' texts through it).
    """
    pairs = _pairs()
    now = 0.0
    outcome = GAME.new_match(config, _name(personas, 0), personas[0].display_name, seed=seed, now=now)
    state, log = outcome.state, list(outcome.events)
    for seat in range(1, config.n_players):
        outcome = GAME.apply_with(state, Join(name=_name(personas, seat), display_name=personas[seat].display_name),
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
        actors = [s for s in range(config.n_players) if GAME.you_view(state, s)["next_action"] in ACTING]
        if not actors:
            assert state.timer is not None
            now = max(now, state.timer.due)
            outcome = GAME.apply_with(state, Timeout(token=state.timer.token), now=now, pairs=pairs)
            state = outcome.state
            log.extend(outcome.events)
            continue
        seat = order_dice.choice(actors) if state.stage == "vote" else actors[0]
        action = GAME.you_view(state, seat)["next_action"]
        snapshot = seat_snapshot(state, seat, log)
        body = decide(snapshot, personas[seat].slug, dice, baseline=baseline)
        if observe is not None:
            observe(seat, snapshot, body)
        command = _command(body, seat, action)
        try:
            outcome = GAME.apply_with(state, command, now=now, pairs=pairs)
        except GameError as exc:
            record.errors[exc.code] += 1
            command = _fallback(action, seat, state)
            outcome = GAME.apply_with(state, command, now=now, pairs=pairs)
        if isinstance(command, Act) and command.request.model_dump()["type"] == "vote":
            record.votes.append((seat, command.request.model_dump()["target_seat"]))
        state = outcome.state
        log.extend(outcome.events)
    record.winner = (state.result or {}).get("winner_camp")
    record.winning_seats = list((state.result or {}).get("winning_seats") or [])
    record.rounds = state.round_index
    return record


def _name(personas: Sequence[Persona], seat: int) -> str:
    return f"{personas[seat].handle()}#{seat}"
