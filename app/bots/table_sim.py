"""One bot-only game of any registered `Game`, pure and in process (no HTTP, no database), for the arena.

Each seat is handed `app.protocol.projection.snapshot` for its own `player_agent` viewer — the very body
`GET /api/matches/{id}` would return it — so a brain reads exactly what it would read over HTTP. Seats act when
their `you.your_turn` is true (one at a time; among several, a seeded draw picks who acts first); when nobody
acts, the match's timer fires. A seat whose brain has nothing to send is asked again once another seat has
acted (what it waits for may have happened). A refused action is counted by error code and replaced by a plain
offered action (`skip`, `pass`, `ready`, the first offered target) so the game goes on.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bots.personas import Persona
from app.games.base import GameError
from app.protocol.projection import MatchView, snapshot
from app.protocol.registry import AnyGame
from app.protocol.viewer import Viewer

Brain = Callable[..., dict[str, Any] | None]
TEXT_ACTIONS = ("speak", "last_words", "whisper", "private_chat")


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
    state: Any = None  # the game's final state, for tests


def seat_snapshot(game: AnyGame, state: Any, seat: int, log: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`GET /api/matches/{id}` as the agent in `seat` sees it while the match runs."""
    summary = game.summary(state)
    view = MatchView(match_id="arena", game=game.name, status=summary["status"], phase=summary["phase"],
                     config={}, created_at="", invite_url="", seats_open=0, events_total=len(log),
                     official_seats=frozenset(range(len(game.players_view(state, god=False)))))
    return snapshot(game, view, state, Viewer("player_agent", seat), log)


def play_table(game: AnyGame, raw_config: Mapping[str, Any], personas: Sequence[Persona], brain: Brain, seed: int,
               *, baseline_sides: frozenset[str] = frozenset(), max_steps: int = 5000) -> TableRecord:
    """Play one game to its end; `personas[i]` plays seat i, and seats on a side in `baseline_sides` play the
    brain's random baseline. Same `seed` → same deal and same bot dice."""
    config = game.parse_config(dict(raw_config))
    n = game.n_players(config)
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
        if game.summary(state)["status"] != "in_progress":
            break
        record.steps = step
        now += 1.0
        actors = [s for s in range(n) if s not in idle and game.you_view(state, s)["your_turn"]]
        if not actors:
            timer = game.summary(state)["timer"]
            assert timer is not None, "a running match always has a timer"
            now = max(now, timer["due"])
            outcome = game.apply(state, game.timeout(timer["token"]), now=now)
            state, idle = outcome.state, set()
            log.extend(outcome.events)
            continue
        seat = order.choice(actors)
        body = brain(seat_snapshot(game, state, seat, log), personas[seat].slug, dice, baseline=seat in plain)
        if body is None:
            record.silent += 1
            idle.add(seat)
            continue
        record.bodies.append((seat, body))
        try:
            outcome = game.apply(state, game.parse_action(body, seat), now=now)
        except GameError as exc:
            record.errors[exc.code] += 1
            fallback = _fallback(game.allowed_actions(state, seat))
            if fallback is None:
                idle.add(seat)
                continue
            body = fallback
            outcome = game.apply(state, game.parse_action(body, seat), now=now)
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


def _fallback(allowed: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A plain action the rules offer right now."""
    for row in allowed:
        kind = row["type"]
        if kind in ("skip", "ready") or (kind == "night_action" and row.get("action") == "pass"):
            return {"type": kind, **({"action": "pass"} if kind == "night_action" else {})}
        if kind in ("vote", "shoot") and row.get("targets"):
            return {"type": kind, "target_seat": row["targets"][0]}
    return None


def _name(personas: Sequence[Persona], seat: int) -> str:
    return f"{personas[seat].handle()}#{seat}"
