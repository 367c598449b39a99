"""The simulator: one bot-only game of any registered `Game`, pure and in process (no HTTP, no database).

Used by the arena (`app.bots.arena`), a game's quality figures and the benchmark reference pool. Each seat
plays through the one seat loop (`app.bots.seat`): it is handed its own `player_agent` snapshot — the very body
`GET /api/matches/{id}` would return it — so a brain reads exactly what it would read over HTTP. Seats act when
their `you.your_turn` is true, one at a time: among several, a seeded draw picks who acts first (in the phases
the game's `BotPlay.draws` names, by default all; in the others the lowest seat). When nobody acts, the match's
timer fires. A seat whose brain has nothing to send is asked again once another seat has acted (what it waits
for may have happened). A refused action is counted by error code and replaced by a plain offered action
(`seat.offered`) so the game goes on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots.personas import Persona
from app.bots.seat import offered, seat_view, turn
from app.games.base import GameError
from app.protocol.registry import AnyGame, Brain

TEXT_ACTIONS = ("speak", "last_words", "whisper", "private_chat")
# Called with (seat, the snapshot the bot was handed, the body it chose) after every decision.
Observer = Callable[[int, dict[str, Any], dict[str, Any] | None], None]


@dataclass
class TableRecord:
    """What one game produced: the winning side, every seat's side and persona, refusals, texts."""

    winner: str | None
    sides: dict[int, str]
    personas: list[str]
    baseline_seats: frozenset[int]
    errors: Counter[str] = field(default_factory=Counter)
    silent: int = 0  # turns where the brain sent nothing
    texts: dict[int, list[str]] = field(default_factory=dict)  # seat → every text it sent, in order
    steps: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)  # the whole log (god view), for tests
    result: dict[str, Any] = field(default_factory=dict)  # the match's result at the end
    bodies: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # every body a brain sent, for tests
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # every body the rules accepted
    state: Any = None  # the game's final state, for tests


def play(game: AnyGame, raw_config: Mapping[str, Any], personas: Sequence[Persona], brain: Brain, seed: int, *,
         baseline_sides: frozenset[str] = frozenset(), draws: Callable[[str], bool] | None = None,
         observe: Observer | None = None, max_steps: int = 5000) -> TableRecord:
    """Play one game to its end; `personas[i]` plays seat i, and seats on a side in `baseline_sides` play the
    brain's random baseline. Same `seed` → same deal and same bot dice. `observe` sees every decision."""
    config = game.parse_config(dict(raw_config))
    n = game.n_players(config)
    shown = game.config_to_json(config)  # the match's config, as its snapshot shows it
    now = 0.0
    outcome = game.new_match(config, _name(personas, 0), personas[0].display_name, seed=seed, now=now)
    state, log = outcome.state, list(outcome.events)
    for seat in range(1, n):
        outcome = game.apply(state, game.join(_name(personas, seat), personas[seat].display_name), now=now)
        state, log = outcome.state, log + outcome.events
    sides = game.seat_sides(state)
    plain = frozenset(s for s, side in sides.items() if side in baseline_sides)
    record = TableRecord(None, sides, [p.slug for p in personas[:n]], plain)
    dice = random.Random(f"{seed}:bots")
    order = random.Random(f"{seed}:order")
    idle: set[int] = set()
    for step in range(max_steps):
        summary = game.summary(state)
        if summary["status"] != "in_progress":
            break
        record.steps = step
        now += 1.0
        actors = [s for s in range(n) if s not in idle and game.you_view(state, s)["your_turn"]]
        if not actors:
            timer = summary["timer"]
            assert timer is not None, "a running match always has a timer"
            now = max(now, timer["due"])
            outcome = game.apply(state, game.timeout(timer["token"]), now=now)
            state, idle = outcome.state, set()
            log.extend(outcome.events)
            continue
        seat = order.choice(actors) if draws is None or draws(summary["phase"]) else actors[0]
        view = seat_view(game, state, seat, log, config=shown)
        body = turn(brain, view, personas[seat].slug, dice, baseline=seat in plain)
        if observe is not None:
            observe(seat, view, body)
        if body is None:
            record.silent += 1
            idle.add(seat)
            continue
        record.bodies.append((seat, body))
        try:
            outcome = game.apply(state, game.parse_action(body, seat), now=now)
        except GameError as exc:
            record.errors[exc.code] += 1
            fallback = offered(game.allowed_actions(state, seat))
            if fallback is None:
                idle.add(seat)
                continue
            body = fallback
            outcome = game.apply(state, game.parse_action(body, seat), now=now)
        record.moves.append((seat, body))
        if body.get("type") in TEXT_ACTIONS or body.get("comment"):
            record.texts.setdefault(seat, []).append(str(body.get("text") or body.get("comment")))
        state = outcome.state
        log.extend(outcome.events)
        idle = set()
    result = game.summary(state)["result"] or {}
    record.result = dict(result)
    record.state = state
    record.winner = result.get("winner_camp")
    record.events = log
    return record


def _name(personas: Sequence[Persona], seat: int) -> str:
    return f"{personas[seat].handle()}#{seat}"
